// Model.graph() and Model.weights() on every corpus program that loads,
// through the wasm build: each method's graph is whole (one node per .pte
// instruction; ports, edges and nested graphs in range), every weight
// resolves to a Tensor of its listed size (loaded with keepFileBytes; by
// default a delegate's packed weights are listed without their bytes), and a BEF function's graph has a
// node per kernel of the MLIR it was compiled from.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { BEF_CORPUS, SHARED_DIR, describeShared, listFiles } from '../helpers/shared.js';
import { ErrorCode, type Graph, type Model, load } from '../helpers/trident.js';

function expectWhole(graph: Graph, where: string): void {
  for (const g of [graph, ...graph.subgraphs]) {
    for (const node of g.nodes) {
      for (const port of [...node.inputs, ...node.outputs]) {
        if (port.value !== undefined) expect(port.value, `${where}: ${g.name} node ${node.index}`).toBeLessThan(g.values.length);
      }
      for (const s of node.subgraphs ?? []) expect(s, where).toBeLessThan(graph.subgraphs.length);
    }
    for (const e of g.edges) expect(e.from, where).toBeLessThan(e.to);
  }
}

async function inspectAll(model: Model, where: string): Promise<void> {
  for (const method of model.methods) {
    const graph = await model.graph(method.name);
    expectWhole(graph, `${where} ${method.name}`);
    if (model.format === 'pte' || model.format === 'bpte') expect(graph.nodes.length, where).toBe(method.instructions);
  }
  for (const w of await model.weights()) {
    if (w.source === 'packed') {
      // Held only as its delegate packed it (the file's copy freed).
      await expect(model.weight(w.name), `${where}: ${w.name}`).rejects.toMatchObject({ code: ErrorCode.InvalidState });
      continue;
    }
    const tensor = await model.weight(w.name);
    expect(tensor.data.byteLength, `${where}: ${w.name}`).toBe(w.nbytes);
  }
}

describeShared('inspection of every corpus program that loads', () => {
  it('.pte, .bpte and .pt2: every method\'s graph, every weight', async () => {
    let inspected = 0;
    let packed = 0;
    for (const file of listFiles(path.join(SHARED_DIR, 'corpus'), ['.pte', '.bpte', '.pt2'])) {
      // keepFileBytes: every weight readable, delegates' included; by
      // default the same weights are listed, those a delegate packed
      // without their bytes.
      const kept = await load(file, { keepFileBytes: true }).catch(() => null);
      if (kept === null) continue;
      const model = await load(file);
      try {
        await inspectAll(kept, path.relative(SHARED_DIR, file));
        await inspectAll(model, path.relative(SHARED_DIR, file));
        const all = await kept.weights();
        const weights = await model.weights();
        expect(weights.map((w) => [w.name, w.nbytes])).toEqual(all.map((w) => [w.name, w.nbytes]));
        packed += weights.filter((w) => w.source === 'packed').length;
        expect(all.some((w) => w.source === 'packed')).toBe(false);
      } finally {
        kept.dispose();
        model.dispose();
      }
      inspected++;
    }
    expect(inspected).toBeGreaterThanOrEqual(28);
    expect(packed).toBeGreaterThan(0);
  }, 300_000);

  it('TFRT MLIR (compiled to BEF): every function\'s graph, region functions nested', async () => {
    let inspected = 0;
    let nested = 0;
    for (const file of listFiles(BEF_CORPUS, ['.mlir'])) {
      const model = await load(file).catch(() => null);
      if (model === null) continue;
      try {
        for (const method of model.methods) {
          const graph = await model.graph(method.name);
          expectWhole(graph, `${path.relative(SHARED_DIR, file)} ${method.name}`);
          expect(graph.kind).toBe('function');
          if (graph.subgraphs.length > 0) nested++;
        }
        await inspectAll(model, path.relative(SHARED_DIR, file));
      } finally {
        model.dispose();
      }
      inspected++;
    }
    expect(inspected).toBeGreaterThan(10);
    expect(nested).toBeGreaterThan(0);
  }, 300_000);

  // No mobilenet_v2 can be written as BEF: TFRT's published kernels have no
  // convolution (TensorFlow's models reach BEF through its op-fallback
  // kernels, which TFRT does not publish). The nearest model in BEF is
  // TFRT's own MNIST test, a matmul-relu-argmax program; its graph must have
  // exactly the kernels its MLIR source has, with their attributes.
  it('TFRT\'s mnist program: one node per op of its MLIR source, attributes decoded', async () => {
    const file = path.join(BEF_CORPUS, 'mlir_tests/backends/cpu/mlir_tests/mnist/mnist_tensor_kernels.mlir');
    const source = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '');
    const ops = [...source.matchAll(/%\w+ = "?([a-z_]+(?:\.[\w]+)+)"?/g)].map((m) => m[1]!);
    const model = await load(file);
    try {
      const graph = await model.graph('test_tensor_kernels');
      expect(graph.nodes.map((n) => n.op)).toEqual(ops);
      const shapes = graph.nodes.filter((n) => n.op === 'tfrt_dht.create_uninitialized_tensor.i32.2').map((n) => n.attributes?.['shape']);
      expect(shapes).toEqual([[2, 3], [3, 2], [2, 2], [2, 2], [2, 2]]);
      const values = graph.nodes.find((n) => n.op === 'tfrt_dht.set_tensor_with_constant_values.f32')!.attributes?.['values'];
      expect(values).toEqual([1, 3]);
      // The matmul reads the two tensors the create kernels made.
      const matmul = graph.nodes.findIndex((n) => n.op === 'tfrt_test.matmul.i32.2');
      const writers = graph.edges.filter((e) => e.to === matmul).map((e) => graph.nodes[e.from]?.op);
      expect(writers.filter((op) => op === 'tfrt_dht.create_uninitialized_tensor.i32.2')).toHaveLength(3);
    } finally {
      model.dispose();
    }
  }, 60_000);
});
