// One model.graph() per method: the overview, the graph pane and Find all
// read the same graph, and a 5,000-node graph costs tens of milliseconds to
// copy out of the worker.

import type { Graph, Model } from 'trident-runtime';

const graphs = new WeakMap<Model, Map<string, Promise<Graph>>>();

export function graphOf(model: Model, method: string): Promise<Graph> {
  let byMethod = graphs.get(model);
  if (!byMethod) graphs.set(model, (byMethod = new Map()));
  let graph = byMethod.get(method);
  if (!graph) {
    graph = model.graph(method);
    byMethod.set(method, graph);
    graph.catch(() => byMethod.delete(method));
  }
  return graph;
}
