// The demo page: open a program (file, drop or bundled sample), list its
// methods with their signatures, edit inputs, run, show outputs and time.

import { Tensor, formatValueInfo, load, runtimeInfo } from '/dist/js/index.js';
import { renderOutputs } from './format-output.js';
import { defaultText, exampleText, parseInput } from './parse-input.js';

const $ = (id) => document.getElementById(id);
let current = null; // the loaded Model, disposed when another is opened

function showError(err) {
  const box = $('error');
  box.textContent = err?.codeName ? `${err.message} (${err.codeName})` : String(err?.message ?? err);
  box.hidden = false;
}

function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
}

async function open(source, name, dataFiles = [], example = undefined) {
  clearError();
  current?.dispose();
  current = null;
  $('model').hidden = true;
  $('status').textContent = `Loading ${name}…`;
  try {
    const model = await load(source, {
      dataFiles,
      onProgress: (loaded, total) => {
        const percent = total ? ` ${Math.round((100 * loaded) / total)}%` : ` ${loaded} bytes`;
        $('status').textContent = `Loading ${name}…${percent}`;
      },
    });
    current = model;
    $('status').textContent = '';
    renderModel(model, name, example);
  } catch (err) {
    $('status').textContent = '';
    showError(err);
  }
}

/** `example` (from samples/index.json): {method, inputs} to prefill that method's boxes. */
function renderModel(model, name, example) {
  const count = `${model.methods.length} method${model.methods.length === 1 ? '' : 's'}`;
  $('model-title').textContent = `${name} (${model.format}, ${count})`;
  const cards = model.methods.map((method) =>
    renderMethod(model, method, example?.method === method.name ? example.inputs : storedExample(model, method.name)),
  );
  $('methods').replaceChildren(...cards);
  $('model').hidden = false;
}

/** The example inputs the file itself stores (a .pt2's sample inputs), in exampleText's form. */
function storedExample(model, method) {
  const stored = model.sampleInputs(method);
  return stored?.map((v) => (v instanceof Tensor ? { values: Array.from(v.data, Number) } : v));
}

function renderMethod(model, method, exampleInputs) {
  const card = document.createElement('div');
  card.className = 'method';
  card.dataset.method = method.name;
  const title = document.createElement('h3');
  title.textContent = method.name;
  const signature = document.createElement('p');
  signature.className = 'signature';
  const list = (values) => values.map(formatValueInfo).join(', ') || 'nothing';
  signature.textContent = `(${list(method.inputs)}) → (${list(method.outputs)})`;
  card.append(title, signature);

  const boxes = method.inputs.map((spec, i) => {
    const row = document.createElement('div');
    row.className = 'input';
    const label = document.createElement('label');
    const box = document.createElement('textarea');
    box.id = `${method.name}-input-${i}`;
    box.spellcheck = false;
    box.value = exampleInputs?.[i] !== undefined ? exampleText(exampleInputs[i]) : defaultText(spec);
    label.htmlFor = box.id;
    label.textContent = `input ${i}: ${formatValueInfo(spec)}`;
    row.append(label, box);
    card.append(row);
    return box;
  });
  if (method.inputs.some((s) => s.kind === 'Tensor')) {
    const hint = document.createElement('p');
    hint.className = 'hint';
    hint.textContent = 'Tensors: a JSON array (nested or flat, row-major) or one number to fill the tensor.';
    card.append(hint);
  }

  const button = document.createElement('button');
  button.textContent = `Run ${method.name}`;
  const outputs = document.createElement('div');
  outputs.className = 'outputs';
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const inputs = method.inputs.map((spec, i) => parseInput(boxes[i].value, spec, i));
      const start = performance.now();
      const values = await model.run(method.name, inputs);
      renderOutputs(outputs, values, method.outputs, performance.now() - start);
    } catch (err) {
      const box = document.createElement('div');
      box.className = 'run-error';
      box.setAttribute('role', 'alert');
      box.textContent = err?.message ?? String(err);
      outputs.replaceChildren(box);
    } finally {
      button.disabled = false;
    }
  });
  card.append(button, outputs);
  return card;
}

/** A program plus its .ptd data files, from a file list. */
function openFiles(files) {
  const all = [...files];
  const data = all.filter((f) => f.name.toLowerCase().endsWith('.ptd'));
  const program = all.find((f) => !data.includes(f));
  if (!program) return showError(new Error("no program among the files: choose a .pte, .bpte, .pt2, .bef or .mlir (plus a program's .ptd files)"));
  const suffix = data.length ? ` + ${data.map((f) => f.name).join(', ')}` : '';
  return open(program, `${program.name}${suffix}`, data);
}

async function loadSamples() {
  const select = $('sample-select');
  let samples = [];
  try {
    const response = await fetch('samples/index.json');
    if (response.ok) samples = await response.json();
  } catch {
    // No samples folder: the select says so below.
  }
  select.replaceChildren(new Option(samples.length ? 'Choose a sample…' : 'No bundled samples', ''));
  select.disabled = samples.length === 0;
  for (const sample of samples) select.append(new Option(sample.name, sample.file));
  select.addEventListener('change', () => {
    const sample = samples.find((s) => s.file === select.value);
    $('sample-description').textContent = sample?.description ?? '';
    if (sample) open(new URL(`samples/${sample.file}`, location.href), sample.name, [], sample.example);
  });
}

function wireFileInputs() {
  const zone = $('drop-zone');
  $('file-input').addEventListener('change', (e) => e.target.files.length && openFiles(e.target.files));
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragging');
    if (e.dataTransfer?.files.length) openFiles(e.dataTransfer.files);
  });
}

wireFileInputs();
loadSamples();
runtimeInfo().then(
  ({ version, threads, numThreads }) => {
    const build = threads ? `threads build, ${numThreads} thread${numThreads === 1 ? '' : 's'}` : 'single-threaded build';
    $('runtime-info').textContent = `Trident runtime ${version} (${build})`;
  },
  (err) => showError(err),
);
