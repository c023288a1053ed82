// run() outputs -> DOM. Each output also carries its full JSON form in
// data-json (the CLI's form), which the browser test reads.

import { Tensor, stringifyJson, valueToJson } from '/dist/js/index.js';

const MAX_SHOWN = 100;

export function renderOutputs(container, outputs, specs, ms) {
  container.replaceChildren();
  const time = document.createElement('p');
  time.className = 'time';
  time.textContent = `${outputs.length} output${outputs.length === 1 ? '' : 's'} in ${ms.toFixed(2)} ms`;
  container.append(time);
  outputs.forEach((value, i) => {
    const item = document.createElement('div');
    item.className = 'output';
    item.dataset.json = stringifyJson(valueToJson(value, specs[i]?.kind));
    const label = document.createElement('code');
    label.textContent = `output ${i}: ${describe(value, specs[i]?.kind)}`;
    const pre = document.createElement('pre');
    pre.textContent = formatValues(value);
    item.append(label, pre);
    container.append(item);
  });
}

function describe(value, kind) {
  if (value instanceof Tensor) return `${value.dtype}[${value.shape.join(', ')}]`;
  if (value === null) return 'None';
  if (typeof value === 'boolean') return 'Bool';
  if (typeof value === 'string') return 'String';
  return kind ?? (typeof value === 'bigint' ? 'Int' : 'Double');
}

function formatValues(value) {
  if (!(value instanceof Tensor)) return String(value);
  const values = value.toArray();
  // float32 values widened to double print 17 digits; 7 significant digits
  // is what a float32 actually holds.
  const show = value.dtype === 'float32' || value.dtype === 'float16' || value.dtype === 'bfloat16'
    ? (x) => String(Number(x.toPrecision(7)))
    : String;
  const shown = values.slice(0, MAX_SHOWN).map(show).join(', ');
  return values.length > MAX_SHOWN ? `[${shown}, … ${values.length - MAX_SHOWN} more]` : `[${shown}]`;
}
