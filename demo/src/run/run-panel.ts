// The run view: choose each input (zeros, random, a .npy file, an image,
// a drawing, the file's own sample inputs or a bundled test case), run the
// method in the model's worker, and show the outputs and what it printed.

import { Tensor, formatValueInfo, type BundledTest, type DType, type InputValue, type MethodInfo, type Model, type OutputValue, type ValueInfo } from 'trident-runtime';
import { labelsFor, type Sample } from '../samples.js';
import { el } from '../ui/dom.js';
import { formatMs, formatNumber } from '../ui/format.js';
import { DigitPad } from './digit-pad.js';
import { IMAGENET, imageTensor, isImageShape, samplePicture, type Normalization } from './image-input.js';
import { parseNpy } from './npy.js';
import { numbersOf, renderOutputs, topK } from './outputs.js';

/** Tolerance of the bundled-test check (ExecuTorch's defaults for float outputs). */
const ATOL = 1e-4;
const RTOL = 1e-3;

interface InputRow {
  spec: ValueInfo;
  read(): Promise<InputValue>;
}

export class RunPanel {
  readonly #root: HTMLElement;
  #model: Model | null = null;
  #sample: Sample | null = null;
  #method = '';
  #rows: InputRow[] = [];
  #whole = el('select', { class: 'inputs-from', 'aria-label': 'Inputs from' });
  #rowsBox = el('div', { class: 'input-rows' });
  #outputs = el('div', { class: 'outputs', 'aria-live': 'polite' });
  #printed = el('pre', { class: 'printed', hidden: true });
  #status = el('p', { class: 'run-status', role: 'status' });
  #runButton = el('button', { type: 'button', class: 'primary run-button', text: 'Run' });
  #testsBox = el('div', { class: 'bundled-results' });
  #printedText = '';
  #busy = false;
  #predictAgain: (() => void) | null = null;

  constructor(root: HTMLElement) {
    this.#root = root;
    this.#runButton.addEventListener('click', () => void this.run());
    this.#whole.addEventListener('change', () => this.#renderRows());
  }

  /** What the program printed during a run (load()'s onPrint). */
  printed(text: string): void {
    this.#printedText += text;
  }

  clear(): void {
    this.#model = null;
    this.#root.replaceChildren();
  }

  show(model: Model, method: string, sample: Sample | null): void {
    this.#model = model;
    this.#sample = sample;
    this.#method = method;
    const info = model.method(method);
    const signature = (values: readonly ValueInfo[]) => values.map(formatValueInfo).join(', ') || 'nothing';
    this.#whole.replaceChildren(new Option('each input below', 'rows'));
    const sampleInputs = safe(() => model.sampleInputs(method));
    if (sampleInputs) this.#whole.append(new Option("the file's sample inputs", 'sample'));
    const tests = safe(() => model.bundledTests())?.filter((t) => t.method === method) ?? [];
    tests.forEach((_, k) => this.#whole.append(new Option(`bundled test ${k}`, `bundled:${k}`)));
    if (sampleInputs && !isDigit(sample, info)) this.#whole.value = 'sample';
    const children: (HTMLElement | null)[] = [
      el('p', { class: 'signature', text: `${method}(${signature(info.inputs)}) → (${signature(info.outputs)})` }),
    ];
    if (info.inputs.length) children.push(el('label', { class: 'inputs-from-label' }, 'Inputs from ', this.#whole));
    children.push(this.#rowsBox, el('div', { class: 'run-actions' }, this.#runButton, tests.length ? this.#testsButton(tests) : null), this.#status, this.#testsBox, this.#printed, this.#outputs);
    this.#root.replaceChildren(...children.filter((c): c is HTMLElement => c !== null));
    this.#outputs.replaceChildren();
    this.#testsBox.replaceChildren();
    this.#printed.hidden = true;
    this.#status.textContent = '';
    this.#renderRows();
  }

  /** The inputs as chosen now (the profile view runs with them). */
  async inputs(): Promise<InputValue[]> {
    const model = this.#model!;
    const whole = this.#whole.value;
    if (whole === 'sample') return model.sampleInputs(this.#method) ?? [];
    if (whole.startsWith('bundled:')) {
      const tests = model.bundledTests().filter((t) => t.method === this.#method);
      return [...tests[Number(whole.slice('bundled:'.length))]!.inputs];
    }
    return Promise.all(this.#rows.map((row) => row.read()));
  }

  get method(): string {
    return this.#method;
  }

  async run(): Promise<OutputValue[] | undefined> {
    const model = this.#model;
    if (!model || this.#busy) return undefined;
    this.#busy = true;
    this.#runButton.disabled = true;
    this.#status.textContent = `Running ${this.#method}…`;
    this.#root.dataset.state = 'running';
    try {
      const inputs = await this.inputs();
      this.#printedText = '';
      const start = performance.now();
      const outputs = await model.run(this.#method, inputs);
      const ms = performance.now() - start;
      this.#status.textContent = `${this.#method} ran in ${formatMs(ms)}`;
      this.#printed.hidden = this.#printedText === '';
      this.#printed.textContent = this.#printedText;
      await renderOutputs(this.#outputs, outputs, { labels: await labelsFor(this.#sample) });
      this.#root.dataset.state = 'done';
      return outputs;
    } catch (err) {
      this.#status.textContent = '';
      this.#outputs.replaceChildren(el('div', { class: 'run-error', role: 'alert', text: (err as Error).message }));
      this.#root.dataset.state = 'error';
      return undefined;
    } finally {
      this.#busy = false;
      this.#runButton.disabled = false;
    }
  }

  #testsButton(tests: BundledTest[]): HTMLElement {
    const button = el('button', { type: 'button', class: 'bundled-button', text: `Run the ${tests.length} bundled tests` });
    button.addEventListener('click', async () => {
      const model = this.#model!;
      button.disabled = true;
      const rows: HTMLElement[] = [];
      let passed = 0;
      for (const [k, test] of tests.entries()) {
        try {
          const outputs = await model.run(test.method, test.inputs);
          const error = maxError(outputs, test.expected);
          const ok = error.ok;
          if (ok) passed++;
          rows.push(el('tr', { class: ok ? 'pass' : 'fail' }, el('td', { text: `test ${k}` }), el('td', { text: ok ? 'pass' : 'FAIL' }), el('td', { text: error.text })));
        } catch (err) {
          rows.push(el('tr', { class: 'fail' }, el('td', { text: `test ${k}` }), el('td', { text: 'error' }), el('td', { text: (err as Error).message })));
        }
      }
      this.#testsBox.replaceChildren(
        el('p', { class: 'bundled-summary', text: `${passed} of ${tests.length} bundled tests pass (|got − expected| ≤ ${ATOL} + ${RTOL}·|expected|)` }),
        el('table', { class: 'bundled-table' }, el('tbody', {}, ...rows)),
      );
      button.disabled = false;
    });
    return button;
  }

  #renderRows(): void {
    const model = this.#model!;
    const info = model.method(this.#method);
    const perInput = this.#whole.value === 'rows';
    this.#rowsBox.hidden = !perInput;
    this.#rows = info.inputs.map((spec, i) => this.#row(spec, i, info));
    this.#rowsBox.replaceChildren(...this.#rows.map((r) => (r as InputRow & { element: HTMLElement }).element));
  }

  #row(spec: ValueInfo, i: number, info: MethodInfo): InputRow & { element: HTMLElement } {
    const label = el('span', { class: 'input-label', text: `input ${i}: ${formatValueInfo(spec)}` });
    const extra = el('div', { class: 'input-extra' });
    if (spec.kind !== 'Tensor') {
      const box = el('input', { type: 'text', class: 'scalar-input', 'aria-label': `input ${i}`, value: spec.kind === 'Bool' ? 'false' : '0' });
      return {
        spec,
        element: el('div', { class: 'input-row' }, label, box),
        read: async () => scalarFrom(box.value, spec, i),
      };
    }
    const select = el('select', { class: 'input-source', 'aria-label': `input ${i} source` });
    select.append(
      new Option('zeros', 'zeros'),
      new Option('ones', 'ones'),
      new Option('random (uniform 0..1; ints 0..9)', 'random'),
      new Option('typed values (JSON)', 'typed'),
      new Option('a .npy file', 'npy'),
    );
    const image = isImageShape(spec.shape);
    if (image) select.append(new Option('an image', 'image'));
    const digit = i === 0 && isDigit(this.#sample, info);
    if (digit) select.append(new Option('a drawing', 'draw'));
    const example = this.#sample?.example?.method === this.#method ? this.#sample.example.inputs[i] : undefined;
    select.value = digit ? 'draw' : image && this.#sample?.input?.kind === 'image' ? 'image' : example !== undefined ? 'typed' : 'zeros';
    let read: () => Promise<InputValue> = async () => filled(spec, 'zeros');
    const render = () => {
      extra.replaceChildren();
      const source = select.value;
      if (source === 'zeros' || source === 'ones' || source === 'random') read = async () => filled(spec, source);
      else if (source === 'typed') {
        const box = el('textarea', { class: 'typed-values', rows: 2, spellcheck: false, 'aria-label': `input ${i} values` });
        box.value = example !== undefined ? exampleText(example) : '0';
        extra.append(box, el('p', { class: 'muted', text: 'A JSON array (nested or flat, row-major), or one number to fill the tensor.' }));
        read = async () => typedTensor(box.value, spec, i);
      } else if (source === 'npy') {
        const file = el('input', { type: 'file', accept: '.npy', class: 'npy-file', 'aria-label': `input ${i} .npy file` });
        extra.append(file);
        read = async () => {
          const chosen = file.files?.[0];
          if (!chosen) throw new Error(`input ${i}: choose a .npy file`);
          return parseNpy(await chosen.arrayBuffer(), chosen.name);
        };
      } else if (source === 'image') read = this.#imageControls(extra, spec, i);
      else if (source === 'draw') read = this.#digitControls(extra, spec);
    };
    select.addEventListener('change', render);
    render();
    return { spec, element: el('div', { class: 'input-row' }, label, select, extra), read: () => read() };
  }

  #imageControls(extra: HTMLElement, spec: ValueInfo, i: number): () => Promise<InputValue> {
    const hint = this.#sample?.input;
    const norm: Normalization = { mean: hint?.mean ?? IMAGENET.mean, std: hint?.std ?? IMAGENET.std };
    let picture: CanvasImageSource = samplePicture();
    const preview = el('canvas', { class: 'image-preview', width: 96, height: 96 });
    const paint = () => preview.getContext('2d')!.drawImage(picture, 0, 0, 96, 96);
    paint();
    const file = el('input', { type: 'file', accept: 'image/*', class: 'image-file', 'aria-label': `input ${i} image` });
    file.addEventListener('change', async () => {
      const chosen = file.files?.[0];
      if (!chosen) return;
      picture = await createImageBitmap(chosen);
      paint();
    });
    const mean = el('input', { type: 'text', class: 'norm-mean', value: norm.mean.join(', '), 'aria-label': 'mean' });
    const std = el('input', { type: 'text', class: 'norm-std', value: norm.std.join(', '), 'aria-label': 'std' });
    extra.append(
      el('div', { class: 'image-input' }, preview, el('div', {}, file, el('label', {}, 'mean ', mean), el('label', {}, 'std ', std),
        el('p', { class: 'muted', text: 'Scaled to the input size; each channel becomes (value/255 − mean) / std. Without a file, a drawn picture is used.' }))),
    );
    return async () => imageTensor(picture, spec.shape!, { mean: numbers(mean.value, 'mean'), std: numbers(std.value, 'std') });
  }

  #digitControls(extra: HTMLElement, spec: ValueInfo): () => Promise<InputValue> {
    const prediction = el('div', { class: 'digit-prediction', 'aria-live': 'polite' });
    const pad: DigitPad = new DigitPad(() => void this.#predict(prediction, pad));
    const clear = el('button', { type: 'button', class: 'clear-pad', text: 'Clear' });
    clear.addEventListener('click', () => {
      pad.clear();
      prediction.replaceChildren();
    });
    extra.append(el('div', { class: 'digit-input' }, pad.canvas, el('div', {}, clear, el('p', { class: 'muted', text: 'Draw a digit; the model runs as each stroke ends.' }), prediction)));
    return async () => new Tensor('float32', pad.grid(), spec.shape!);
  }

  /**
   * Runs on the drawing and shows the class and the probabilities. A stroke
   * that ends during a run is predicted again once that run is done, so the
   * last prediction is always of the whole drawing.
   */
  async #predict(target: HTMLElement, pad: DigitPad): Promise<void> {
    if (this.#busy) {
      this.#predictAgain = () => void this.#predict(target, pad);
      return;
    }
    const stroke = pad.strokes;
    const outputs = await this.run();
    const again = this.#predictAgain;
    this.#predictAgain = null;
    if (again && pad.strokes !== stroke) {
      again();
      return;
    }
    const scores = outputs?.[0];
    if (!(scores instanceof Tensor)) return;
    const values = numbersOf(scores);
    const best = topK(values, 1)[0]!;
    const bars = Array.from({ length: values.length }, (_, d) => {
      const p = Number(values[d]!);
      const bar = el('span', { class: 'bar' });
      bar.style.width = `${Math.max(0, Math.min(1, p)) * 100}%`;
      return el('tr', { class: d === best ? 'best' : '' }, el('td', { text: String(d) }), el('td', { class: 'bar-cell' }, bar), el('td', { class: 'num', text: formatNumber(p) }));
    });
    target.replaceChildren(
      el('p', { class: 'predicted' }, 'Predicted: ', el('strong', { class: 'predicted-class', text: String(best) })),
      el('table', { class: 'probabilities' }, el('tbody', {}, ...bars)),
    );
    // Which drawing this is the prediction of (tests wait for the last stroke's).
    target.dataset.stroke = String(stroke);
  }
}

function isDigit(sample: Sample | null, info: MethodInfo): boolean {
  const shape = info.inputs[0]?.shape;
  return sample?.input?.kind === 'digit' && shape !== undefined && shape.length === 4 && shape[2] === (sample.input.size ?? 8);
}

function safe<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}

function numbers(text: string, what: string): number[] {
  const values = text.split(/[\s,]+/).filter(Boolean).map(Number);
  if (values.length === 0 || values.some((v) => !Number.isFinite(v))) throw new Error(`${what}: write numbers separated by commas`);
  return values;
}

function scalarFrom(text: string, spec: ValueInfo, i: number): InputValue {
  const t = text.trim();
  if (spec.kind === 'Bool') {
    if (t !== 'true' && t !== 'false') throw new Error(`input ${i}: write true or false`);
    return t === 'true';
  }
  if (spec.kind === 'None') return null;
  const value = Number(t);
  if (t === '' || !Number.isFinite(value)) throw new Error(`input ${i}: '${t}' is not a number`);
  if (spec.kind === 'Int' && !Number.isInteger(value)) throw new Error(`input ${i}: an Int input needs a whole number`);
  return value;
}

/** An example input of a sample's index.json ({dtype, shape, values} or a scalar) as text for the box. */
function exampleText(example: unknown): string {
  const values = (example as { values?: unknown })?.values;
  return JSON.stringify(values ?? example);
}

function typedTensor(text: string, spec: ValueInfo, i: number): InputValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`input ${i}: not JSON: ${text.slice(0, 40)}`);
  }
  const dtype = (spec.dtype ?? 'float32') as DType;
  const shape = spec.shape ?? [];
  if (typeof parsed === 'number' || typeof parsed === 'boolean') {
    const tensor = filled(spec, 'zeros') as Tensor;
    const data = tensor.data;
    for (let k = 0; k < data.length; k++) {
      if (data instanceof BigInt64Array || data instanceof BigUint64Array) data[k] = BigInt(Number(parsed));
      else if (dtype === 'float16' || dtype === 'bfloat16') data[k] = halfBits(Number(parsed), dtype);
      else data[k] = Number(parsed);
    }
    return tensor;
  }
  try {
    return Tensor.from(dtype, parsed as never, shape);
  } catch (err) {
    throw new Error(`input ${i}: ${(err as Error).message}`);
  }
}

function filled(spec: ValueInfo, how: 'zeros' | 'ones' | 'random'): InputValue {
  const dtype = (spec.dtype ?? 'float32') as DType;
  const shape = spec.shape ?? [];
  const tensor = Tensor.zeros(dtype, shape);
  const data = tensor.data;
  if (how === 'zeros') return tensor;
  const isFloat = dtype.startsWith('float') || dtype === 'bfloat16';
  for (let i = 0; i < data.length; i++) {
    const v = how === 'ones' ? 1 : isFloat ? Math.random() : Math.floor(Math.random() * (dtype === 'bool' ? 2 : 10));
    if (data instanceof BigInt64Array || data instanceof BigUint64Array) data[i] = BigInt(v);
    else if (dtype === 'float16' || dtype === 'bfloat16') data[i] = halfBits(v, dtype);
    else data[i] = v;
  }
  return tensor;
}

function halfBits(v: number, dtype: 'float16' | 'bfloat16'): number {
  const bits = new Uint32Array(new Float32Array([v]).buffer)[0]!;
  if (dtype === 'bfloat16') return (bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16;
  const sign = (bits >>> 16) & 0x8000;
  const biased = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (biased === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  const exponent = biased - 127 + 15;
  if (exponent >= 31) return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    return sign | (((mantissa | 0x800000) >> (1 - exponent)) + 0x1000) >> 13;
  }
  // Rounding may carry into the exponent, which is what the next float16 up is.
  return sign | (((exponent << 23) | mantissa) + 0x1000) >> 13;
}

/** Largest error of `got` against `expected`, and whether every element is within tolerance. */
function maxError(got: OutputValue[], expected: readonly OutputValue[]): { ok: boolean; text: string } {
  if (got.length !== expected.length) return { ok: false, text: `${got.length} outputs, expected ${expected.length}` };
  let worst = 0;
  let ok = true;
  for (let i = 0; i < got.length; i++) {
    const g = got[i];
    const e = expected[i];
    if (g instanceof Tensor && e instanceof Tensor) {
      if (g.shape.join() !== e.shape.join()) return { ok: false, text: `output ${i}: shape [${g.shape}] expected [${e.shape}]` };
      const a = numbersOf(g);
      const b = numbersOf(e);
      for (let j = 0; j < a.length; j++) {
        const d = Math.abs(Number(a[j]!) - Number(b[j]!));
        worst = Math.max(worst, d);
        if (!(d <= ATOL + RTOL * Math.abs(Number(b[j]!)))) ok = false;
      }
    } else if (g !== e) {
      return { ok: false, text: `output ${i}: ${String(g)}, expected ${String(e)}` };
    }
  }
  return { ok, text: `max |error| ${formatNumber(worst)}` };
}
