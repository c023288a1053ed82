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
    const method = options.method ?? 'forward';
    const info = model.method(method);
    const inputs = [];
    for (const [i, spec] of options.input.entries()) {
      inputs.push(await parseInputSpec(spec, info.inputs[i], `--input ${i + 1}`));
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
