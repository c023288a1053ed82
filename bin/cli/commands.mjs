// `trident inspect` and `trident run`.

import { performance } from 'node:perf_hooks';
import { load, stringifyJson, valueToJson } from '../../dist/js/index.js';
import { formatInspect, formatRun } from './format.mjs';
import { parseInputSpec } from './input-spec.mjs';

export async function inspect(file, options) {
  const model = await load(file);
  try {
    if (!options.json) return formatInspect(file, model);
    return stringifyJson({ format: model.format, methods: model.methods });
  } finally {
    model.dispose();
  }
}

export async function run(file, options) {
  const model = await load(file, { dataFiles: options.data });
  try {
    const method = options.method ?? defaultMethod(model);
    const info = model.method(method);
    const inputs = [];
    for (const [i, spec] of options.input.entries()) {
      inputs.push(await parseInputSpec(spec, info.inputs[i], `--input ${i + 1}`));
    }
    if (options.input.length === 0 && info.inputs.length > 0) {
      inputs.push(...(model.sampleInputs(method) ?? []));
    }
    const start = performance.now();
    const outputs = await model.run(method, inputs);
    const ms = performance.now() - start;
    const kinds = info.outputs.map((o) => o.kind);
    if (!options.json) return formatRun(method, outputs, kinds, ms);
    const json = outputs.map((value, i) => valueToJson(value, kinds[i]));
    return stringifyJson({ outputs: json, ms: Math.round(ms * 1000) / 1000 });
  } finally {
    model.dispose();
  }
}

// 'forward' (ExecuTorch's convention), else the one method a file has (a
// .pt2 names its model 'model').
function defaultMethod(model) {
  const names = model.methods.map((m) => m.name);
  return names.length === 1 && !names.includes('forward') ? names[0] : 'forward';
}
