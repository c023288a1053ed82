// A tiny PT2 archive in the layout torch 2.9+ writes (raw weights and JSON
// payload configs): y = x * w for float32[4], with w = [1, 2, 3, 4]. Tests
// vary its records to make hostile archives.
import { makeZip, type ZipEntries } from './zip.js';

function meta(sizes: number[], dtype = 7): object {
  const strides = sizes.map((_, d) => sizes.slice(d + 1).reduce((a, b) => a * b, 1));
  return {
    dtype,
    sizes: sizes.map((s) => ({ as_int: s })),
    requires_grad: false,
    device: { type: 'cpu', index: null },
    strides: strides.map((s) => ({ as_int: s })),
    storage_offset: { as_int: 0 },
    layout: 7,
  };
}

const tensor = (name: string) => ({ as_tensor: { name } });

export interface TinyOptions {
  target?: string;
  outputSizes?: number[];
  outputSpec?: string;
}

export function tinyModelJson(options: TinyOptions = {}): string {
  const node = {
    target: options.target ?? 'torch.ops.aten.mul.Tensor',
    inputs: [
      { name: 'self', arg: tensor('x'), kind: 1 },
      { name: 'other', arg: tensor('p_w'), kind: 1 },
    ],
    outputs: [tensor('y')],
    metadata: {},
    is_hop_single_tensor_return: null,
  };
  return JSON.stringify({
    graph_module: {
      graph: {
        inputs: [tensor('p_w'), tensor('x')],
        outputs: [tensor('y')],
        nodes: [node],
        tensor_values: { p_w: meta([4]), x: meta([4]), y: meta(options.outputSizes ?? [4]) },
        sym_int_values: {},
        sym_bool_values: {},
        is_single_tensor_return: false,
        custom_obj_values: {},
        sym_float_values: {},
      },
      signature: {
        input_specs: [
          { parameter: { arg: { name: 'p_w' }, parameter_name: 'w' } },
          { user_input: { arg: tensor('x') } },
        ],
        output_specs: [{ [options.outputSpec ?? 'user_output']: { arg: tensor('y') } }],
      },
      module_call_graph: [],
      metadata: {},
      treespec_namedtuple_fields: {},
    },
    opset_version: { aten: 10 },
    range_constraints: {},
    schema_version: { major: 8, minor: 14 },
    verifiers: ['TRAINING'],
    torch_version: '2.9.0',
    guards_code: [],
  });
}

export function tinyRecords(json = tinyModelJson()): ZipEntries {
  return {
    'tiny/data/weights/weight_0': new Uint8Array(new Float32Array([1, 2, 3, 4]).buffer),
    'tiny/data/weights/model_weights_config.json': JSON.stringify({
      config: { w: { path_name: 'weight_0', is_param: true, use_pickle: false, tensor_meta: meta([4]) } },
    }),
    'tiny/data/constants/model_constants_config.json': '{"config": {}}',
    'tiny/models/model.json': json,
    'tiny/archive_format': 'pt2',
    'tiny/archive_version': '0',
    'tiny/byteorder': 'little',
  };
}

export const tinyArchive = (records: ZipEntries = tinyRecords()): Uint8Array => makeZip(records);

/**
 * The tiny archive whose graph also updates its input in place: y = x * w,
 * and x += 1 (user_input_mutation), as torch.export writes an in-place
 * argument update.
 */
export function mutatingArchive(): Uint8Array {
  const graph = JSON.parse(tinyModelJson());
  const g = graph.graph_module.graph;
  g.nodes.unshift({
    target: 'torch.ops.aten.add.Tensor',
    inputs: [{ name: 'self', arg: { as_tensor: { name: 'x' } } }, { name: 'other', arg: { as_int: 1 } }],
    outputs: [{ as_tensor: { name: 'add' } }],
  });
  g.tensor_values.add = g.tensor_values.x;
  g.outputs.unshift({ as_tensor: { name: 'add' } });
  graph.graph_module.signature.output_specs.unshift({ user_input_mutation: { arg: { name: 'add' }, user_input_name: 'x' } });
  return tinyArchive({ ...tinyRecords(), 'tiny/models/model.json': JSON.stringify(graph) });
}
