// load() of TFRT files: BEF bytes and MLIR text become a Model whose
// methods are the file's functions; run() returns integers, floats and
// booleans as JS values, tensors as Tensors and chains as null, and an error
// result rejects with TFRT's message and the failing op's location.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, Tensor, TridentError, detectFormat, fileFormats, load, mlirToBef } from '../helpers/trident.js';

const SOURCE = `// TFRT functions for the API tests.
func.func @add(%a: i32, %b: i64, %x: f32, %flag: i1, %ch: !tfrt.chain) -> (i32, i64, f32, i1, !tfrt.chain) {
  %one = tfrt.constant.i32 1
  %a1 = tfrt.add.i32 %a, %one
  %big = tfrt.constant.i64 4294967296
  %b1 = tfrt.add.i64 %b, %big
  %x1 = tfrt.add.f32 %x, %x
  tfrt.return %a1, %b1, %x1, %flag, %ch : i32, i64, f32, i1, !tfrt.chain
}

func.func @divide(%a: i32, %b: i32) -> (i32, i32) {
  %q, %r = tfrt.div.i32 %a, %b
  tfrt.return %q, %r : i32, i32
}

func.func @tensor() -> !tfrt_tensor.tensor {
  %ch0 = tfrt.new.chain
  %t = tfrt_dht.create_uninitialized_tensor.i32.2 [2 : i64, 3 : i64]
  %ch1 = tfrt_dht.set_tensor_with_constant_values.i32 %t, %ch0 [1 : i32, -1 : i32, 2 : i32, -2 : i32, 3 : i32, -3 : i32]
  %t1 = "tfrt.alias.value"(%ch1, %t) : (!tfrt.chain, !tfrt_tensor.tensor) -> !tfrt_tensor.tensor
  tfrt.return %t1 : !tfrt_tensor.tensor
}

func.func @shape() -> !ts.shape {
  %s = ts.build_shape [2 : i64, 3 : i64]
  tfrt.return %s : !ts.shape
}
`;

describe('load() of TFRT files', () => {
  it('does not profile TFRT functions', async () => {
    const model = await load(new TextEncoder().encode(SOURCE));
    try {
      const err = await model.profile('divide', [7, 2]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TridentError);
      expect((err as TridentError).code).toBe(ErrorCode.NotSupported);
      expect((err as TridentError).message).toMatch(/profiling mlir functions is not supported/);
      expect(await model.run('divide', [7, 2])).toEqual([3, 1]);
    } finally {
      model.dispose();
    }
  });

  it('shows each function as a graph, its dense attributes as weights', async () => {
    const model = await load(`func.func @consts(%x: i32) -> (!t.tensor, i32) {
  %a = "tfrt_test.const_dense_attr"() {value = dense<[[1, 1], [2, 2]]> : tensor<2x2xi32>} : () -> !t.tensor
  %b = "tfrt_test.const_dense_attr"() {value = dense<[[1, 1], [2, 2]]> : tensor<2x2xi32>} : () -> !t.tensor
  %c = "tfrt_test.const_dense_attr"() {value = dense<[1.5, 2.5, 3.5]> : tensor<3xf32>} : () -> !t.tensor
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %a, %y : !t.tensor, i32
}`);
    try {
      const graph = await model.graph('consts');
      expect(graph.kind).toBe('function');
      expect(graph.nodes.map((n) => n.op)).toEqual([
        'tfrt_test.const_dense_attr', 'tfrt_test.const_dense_attr', 'tfrt_test.const_dense_attr', 'tfrt.constant.i32', 'tfrt.add.i32',
      ]);
      expect(graph.inputs).toHaveLength(1);
      expect(graph.values[graph.inputs[0]!]!.kind).toBe('i32');
      // The add reads the function's argument (no node wrote it) and the constant.
      const add = graph.nodes[4]!;
      expect(graph.edges.filter((e) => e.to === 4).map((e) => e.from).sort()).toEqual([-1, 3]);
      expect(graph.outputs).toContain(add.outputs[0]!.value);
      expect(graph.nodes[3]!.attributes).toEqual({ value: 1 });
      // Identical dense attributes are one weight in the file.
      const dense = graph.nodes.slice(0, 3).map((n) => n.attributes!['value'] as { weight: string; shape: number[] });
      expect(dense[0]!.weight).toBe(dense[1]!.weight);
      const weights = await model.weights();
      expect(weights.map((w) => [w.dtype, w.shape, w.nbytes, w.source])).toEqual([
        ['int32', [2, 2], 16, 'attribute'],
        ['float32', [3], 12, 'attribute'],
      ]);
      expect(Array.from((await model.weight(dense[2]!.weight)).data as Float32Array)).toEqual([1.5, 2.5, 3.5]);
    } finally {
      model.dispose();
    }
  });

  it('recognizes BEF bytes and MLIR text, and runs both', async () => {
    const bef = await mlirToBef(SOURCE, { filename: 'api.mlir' });
    expect(await detectFormat(bef)).toBe('bef');
    expect(await detectFormat(new TextEncoder().encode(SOURCE))).toBe('mlir');
    const supported = (await fileFormats()).filter((f) => f.supported).map((f) => f.id);
    expect(supported).toEqual(['pte', 'bpte', 'pt2', 'bef', 'mlir']);
    for (const source of [bef, new TextEncoder().encode(SOURCE)]) {
      const model = await load(source);
      try {
        expect(model.methods.map((m) => m.name)).toEqual(['add', 'divide', 'tensor', 'shape']);
        const add = model.method('add');
        expect(add.inputs.map((v) => `${v.kind}:${v.type}`)).toEqual(['Int:i32', 'Int:i64', 'Double:f32', 'Bool:i1', 'None:!tfrt.chain']);
        expect(add.outputs.map((v) => v.kind)).toEqual(['Int', 'Int', 'Double', 'Bool', 'None']);
        expect(await model.run('add', [41, 1n, 1.25, true, null])).toEqual([42, 4294967297, 2.5, true, null]);
        expect(await model.run('divide', [7, 2])).toEqual([3, 1]);
      } finally {
        model.dispose();
      }
    }
  });

  it('returns tensors as Tensor and refuses types JS cannot hold', async () => {
    const model = await load(new TextEncoder().encode(SOURCE));
    try {
      const [t] = await model.run('tensor', []);
      expect(t).toBeInstanceOf(Tensor);
      expect((t as Tensor).dtype).toBe('int32');
      expect((t as Tensor).shape).toEqual([2, 3]);
      expect([...((t as Tensor).data as Int32Array)]).toEqual([1, -1, 2, -2, 3, -3]);
      expect(model.method('shape').outputs[0]).toEqual({ kind: 'Other', type: '!ts.shape' });
      await expect(model.run('shape', [])).rejects.toThrow(/result 0 is a !ts\.shape, which cannot be returned to JavaScript/);
    } finally {
      model.dispose();
    }
  });

  it('rejects an error result with TFRT message and the location, and stays usable', async () => {
    const bef = await mlirToBef(SOURCE, { filename: 'api.mlir' });
    const model = await load(bef);
    try {
      const error = await model.run('divide', [1, 0]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TridentError);
      expect((error as TridentError).message).toBe("run('divide'): Divide by zero (at api.mlir:12:12)");
      await expect(model.run('divide', [1, 2 ** 31])).rejects.toThrow(/argument 1 \(i32\) cannot hold 2147483648/);
      await expect(model.run('add', [1, 2])).rejects.toThrow(/expected 5 inputs/);
      expect(await model.run('divide', [9, 4])).toEqual([2, 1]);
    } finally {
      model.dispose();
    }
  });

  it('fails to load MLIR with a syntax error or an unknown kernel, naming where', async () => {
    const syntax = await load(new TextEncoder().encode('func.func @f() {\n  %x = tfrt.constant.i32\n}\n')).catch((e: unknown) => e);
    expect(syntax).toBeInstanceOf(TridentError);
    expect((syntax as TridentError).message).toMatch(/<input>\.mlir:\d+:\d+: /);
    const unknown = await load(new TextEncoder().encode('func.func @f() {\n  "nope.kernel"() : () -> ()\n  tfrt.return\n}\n')).catch(
      (e: unknown) => e,
    );
    expect((unknown as TridentError).code).toBe(ErrorCode.OperatorMissing);
    expect((unknown as TridentError).message).toMatch(/<input>\.mlir:2:3: unknown kernel name 'nope\.kernel'/);
  });

  it('takes MLIR source text as a string, and names a file loaded by path in its errors', async () => {
    const model = await load(SOURCE);
    try {
      expect(model.format).toBe('mlir');
      expect(model.defaultMethod).toBeUndefined(); // several functions, none 'forward'
      await expect(model.run([])).rejects.toMatchObject({ code: ErrorCode.MethodMissing, message: expect.stringContaining("name the one to run") });
      expect(await model.run('divide', [7, 2])).toEqual([3, 1]);
    } finally {
      model.dispose();
    }
    const dir = mkdtempSync(path.join(tmpdir(), 'trident-mlir-'));
    const file = path.join(dir, 'broken.mlir');
    writeFileSync(file, 'func.func @f() {\n  "nope.kernel"() : () -> ()\n  tfrt.return\n}\n');
    await expect(load(file)).rejects.toThrowError(`cannot load ${file}: ${file}:2:3: unknown kernel name 'nope.kernel'`);
    // Text that only starts with '#' (a README) is not taken for MLIR.
    await expect(load(new TextEncoder().encode('# Title\n\nSome prose.\n'))).rejects.toThrowError(/unrecognized model file: first bytes 23 20 54 69/);
  });

  it("hands what a program prints to onPrint, once per run, or else to console.log", async () => {
    const printing = 'func.func @shout(%x: i32, %ch: !tfrt.chain) -> !tfrt.chain {\n  %ch1 = tfrt.print.i32 %x, %ch\n  tfrt.return %ch1 : !tfrt.chain\n}\n';
    const printed: string[] = [];
    const model = await load(printing, { onPrint: (text) => printed.push(text) });
    await model.run([7, null]);
    await model.run('shout', [8, null]);
    expect(printed).toEqual(['int32 = 7\n', 'int32 = 8\n']);
    model.dispose();
    const log = console.log;
    const logged: unknown[] = [];
    console.log = (...args: unknown[]) => void logged.push(...args);
    try {
      const quiet = await load(printing);
      await quiet.run([9, null]);
      quiet.dispose();
    } finally {
      console.log = log;
    }
    expect(logged).toEqual(['int32 = 9']);
    await expect(load(printing, { onPrint: 'yes' as never })).rejects.toThrowError(/onPrint must be a function/);
  });
});
