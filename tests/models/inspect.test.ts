// Model.graph() and Model.weights() against what the exporter recorded when
// it wrote the files (build/models/*.json, build/pt2/index.json): the same
// nodes by operator, the same constants by shape, for mobilenet_v2 as a
// portable .pte, as an XNNPACK-delegated .pte, and as .pt2 archives in every
// layout. Every graph is also checked for its own consistency: ports and
// edges name values that exist, edges run forward, weights resolve.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { MODELS_DIR, PT2_DIR, describeExported } from '../helpers/exported-models.js';
import { ErrorCode, type Graph, type LoadOptions, type Model, Tensor, load } from '../helpers/trident.js';

interface PteRecord {
  pte: string;
  operators: Record<string, number>;
  instructions: number;
  constants?: { dtype: string; shape: number[] }[];
  constant_bytes?: number;
  delegate_node_counts?: Record<string, number>[];
  named_data_bytes?: number;
}

interface Pt2Record {
  files: string[];
  expects_unsupported?: string[];
  file_info: Record<string, { ops: Record<string, number>; weights?: Record<string, { dtype: string; shape: number[] }> }>;
}

const readRecord = <T>(name: string): T => JSON.parse(readFileSync(path.join(MODELS_DIR, `${name}.json`), 'utf8')) as T;

function counts(ops: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const op of ops) out[op] = (out[op] ?? 0) + 1;
  return out;
}

const shapeKeys = (list: { dtype: string; shape: number[] }[]): string[] => list.map((w) => `${w.dtype}[${w.shape.join(',')}]`).sort();

/** What every graph must hold, whatever the format. */
function expectConsistent(graph: Graph): void {
  const check = (g: Graph): void => {
    for (const node of g.nodes) {
      for (const port of [...node.inputs, ...node.outputs]) {
        if (port.value !== undefined) expect(port.value).toBeLessThan(g.values.length);
      }
      for (const s of node.subgraphs ?? []) expect(s).toBeLessThan(graph.subgraphs.length);
    }
    for (const e of g.edges) {
      expect(e.from).toBeLessThan(e.to);
      expect(g.nodes[e.to]!.inputs.some((p) => p.value === e.value)).toBe(true);
      if (e.from >= 0) expect(g.nodes[e.from]!.outputs.some((p) => p.value === e.value)).toBe(true);
    }
  };
  check(graph);
  graph.subgraphs.forEach(check);
}

async function withModel<T>(file: string, body: (model: Model) => Promise<T>, options: LoadOptions = {}): Promise<T> {
  const model = await load(file, options);
  try {
    return await body(model);
  } finally {
    model.dispose();
  }
}

describeExported<unknown>(MODELS_DIR, 'inspection of the exported .pte models', () => {
  it('mobilenet_v2.pte: one node per instruction, by operator, and the constants the exporter wrote', async () => {
    const record = readRecord<PteRecord>('mobilenet_v2');
    await withModel(path.join(MODELS_DIR, record.pte), async (model) => {
      const graph = await model.graph('forward');
      expectConsistent(graph);
      expect(graph.nodes).toHaveLength(record.instructions);
      expect(counts(graph.nodes.map((n) => n.op))).toEqual(record.operators);
      // Arguments are named by the operator's schema, results told apart.
      const conv = graph.nodes.find((n) => n.op === 'aten::convolution.out')!;
      expect(conv.inputs.map((p) => p.name)).toEqual(['input', 'weight', 'bias', 'stride', 'padding', 'dilation', 'transposed', 'output_padding', 'groups']);
      expect(conv.outputs.map((p) => p.name)).toEqual(['out']);
      const weightValue = graph.values[conv.inputs[1]!.value!]!;
      expect(weightValue.weight).toMatch(/^constant\[\d+\]$/);
      // The only tensors read before any node writes them are the input and
      // the constants.
      const unwritten = graph.edges.filter((e) => e.from < 0 && graph.values[e.value]!.kind === 'tensor' && !graph.values[e.value]!.weight);
      expect([...new Set(unwritten.map((e) => e.value))]).toEqual(graph.inputs);

      const weights = await model.weights();
      expect(record.constants).toBeDefined();
      expect(shapeKeys(weights)).toEqual(shapeKeys(record.constants!));
      expect(weights.reduce((sum, w) => sum + w.nbytes, 0)).toBe(record.constant_bytes);
      const tensor = await model.weight(weightValue.weight!);
      expect(tensor.dtype).toBe('float32');
      expect(tensor.shape).toEqual(weightValue.shape);
      expect(Array.from(tensor.data as Float32Array).some((x) => x !== 0)).toBe(true);
    });
  }, 120_000);

  it('mobilenet_v2_xnnpack.pte: the delegate call opens the XNNPACK graph the exporter lowered', async () => {
    const record = readRecord<PteRecord>('mobilenet_v2_xnnpack');
    await withModel(path.join(MODELS_DIR, record.pte), async (model) => {
      const graph = await model.graph('forward');
      expectConsistent(graph);
      const calls = graph.nodes.filter((n) => n.kind === 'delegate');
      expect(calls).toHaveLength(record.delegate_node_counts!.length);
      calls.forEach((call, i) => {
        expect(call.op).toBe('XnnpackBackend');
        const sub = graph.subgraphs[call.subgraphs![0]!]!;
        expect(counts(sub.nodes.map((n) => n.op))).toEqual(record.delegate_node_counts![i]);
        expect(call.inputs).toHaveLength(sub.inputs.length);
        expect(call.outputs).toHaveLength(sub.outputs.length);
      });
      // Its weights are the program's named data, each once, held only as
      // XNNPACK packed them: weight() cannot read them.
      const weights = await model.weights();
      const packed = weights.filter((w) => w.source === 'packed');
      expect(packed.length).toBeGreaterThan(0);
      expect(new Set(packed.map((w) => w.name)).size).toBe(packed.length);
      expect(packed.reduce((sum, w) => sum + w.nbytes, 0)).toBe(record.named_data_bytes);
      await expect(model.weight(packed[0]!.name)).rejects.toMatchObject({ code: ErrorCode.InvalidState, message: expect.stringContaining('keepFileBytes') });
    });
    // keepFileBytes keeps them as the file stores them, readable.
    await withModel(
      path.join(MODELS_DIR, record.pte),
      async (model) => {
        const named = (await model.weights()).filter((w) => w.source === 'named_data');
        expect(named.reduce((sum, w) => sum + w.nbytes, 0)).toBe(record.named_data_bytes);
        const tensor = await model.weight(named[0]!.name);
        expect(tensor.shape).toEqual(named[0]!.shape);
        expect(Array.from(tensor.data as Float32Array).some((x) => x !== 0)).toBe(true);
      },
      { keepFileBytes: true },
    );
  }, 120_000);

  it('mobilenet_v2_xnnpack.pte: a profile times each node of the delegate, in its graph\'s order', async () => {
    const record = readRecord<PteRecord>('mobilenet_v2_xnnpack');
    await withModel(path.join(MODELS_DIR, record.pte), async (model) => {
      const graph = await model.graph('forward');
      const input = new Float32Array(3 * 224 * 224).map((_, i) => Math.sin(i));
      const x = new Tensor('float32', input, [1, 3, 224, 224]);
      // A first run compiles each kernel's wasm (V8 compiles lazily), which
      // could make a cheap node the slowest of a single cold profile.
      await model.run('forward', [x]);
      const profile = await model.profile('forward', [x]);
      const calls = profile.instructions.filter((i) => i.name === 'XnnpackBackend');
      expect(calls).toHaveLength(record.delegate_node_counts!.length);
      for (const call of calls) {
        const node = graph.nodes[call.source]!;
        const sub = graph.subgraphs[node.subgraphs![0]!]!;
        expect(call.nodes).toHaveLength(sub.nodes.length);
        expect(call.nodes!.every((ms) => ms >= 0)).toBe(true);
        const inNodes = call.nodes!.reduce((a, b) => a + b, 0);
        expect(inNodes).toBeGreaterThan(0);
        expect(inNodes).toBeLessThanOrEqual(call.ms);
        // Most of mobilenet_v2's time is in its convolutions.
        const slowest = call.nodes!.indexOf(Math.max(...call.nodes!));
        expect(sub.nodes[slowest]!.op).toMatch(/Conv2d/);
      }
      // Portable instructions carry no node times.
      const plain = await load(path.join(MODELS_DIR, readRecord<PteRecord>('mobilenet_v2').pte));
      try {
        const p = await plain.profile('forward', [new Tensor('float32', input, [1, 3, 224, 224])]);
        expect(p.instructions.every((i) => i.nodes === undefined)).toBe(true);
      } finally {
        plain.dispose();
      }
    });
  }, 120_000);
});

describeExported<Pt2Record>(PT2_DIR, 'inspection of the exported .pt2 archives', (index) => {
  const entry = index['mobilenet_v2'];
  it('build/pt2 has mobilenet_v2', () => expect(entry).toBeDefined());
  for (const file of entry?.files ?? []) {
    it(`${file}: the graph's nodes as the archive names them, and the state dict by name`, async () => {
      await withModel(path.join(PT2_DIR, file), async (model) => {
        const graph = await model.graph();
        expectConsistent(graph);
        expect(counts(graph.nodes.map((n) => n.op))).toEqual(entry!.file_info[file]!.ops);
        // Each node says which lowered instructions it became; together they
        // are every instruction once, in order.
        const lowered = graph.nodes.flatMap((n) => n.lowered ?? []);
        expect(lowered).toEqual(lowered.map((_, i) => i));
        expect(lowered.length).toBe(model.methods[0]!.instructions);
        const record = entry!.file_info[file]!.weights!;
        const weights = await model.weights();
        expect(Object.fromEntries(weights.map((w) => [w.name, w.shape]))).toEqual(
          Object.fromEntries(Object.entries(record).map(([name, w]) => [name, w.shape])),
        );
        const weight = await model.weight('features.0.0.weight');
        expect(weight.shape).toEqual(record['features.0.0.weight']!.shape);
      });
    }, 120_000);
  }
});
