// Model: signatures, run() with its input checks, scalars, dynamic shapes,
// bundled cases, external data and dispose(), through the real wasm build.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { CORPUS, corpusFile, describeShared } from '../helpers/shared.js';
import { ErrorCode, Model, Tensor, TridentError, load, runtimeInfo } from '../helpers/trident.js';

const f32 = (values: number[] | number[][]) => Tensor.from('float32', values);
const ones = () => f32([[1, 1], [1, 1]]);

async function rejection(promise: Promise<unknown>): Promise<TridentError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(TridentError);
    return err as TridentError;
  }
  throw new Error('expected a rejection');
}

describe('Model', () => {
  let add: Model; // forward(a f32[2,2], b f32[2,2]) = a + b

  beforeAll(async () => {
    add = await load(fixture('add.pte'));
  });
  afterAll(() => add.dispose());

  it('lists methods with input and output signatures', () => {
    expect(add.format).toBe('pte');
    expect(add.methods.map((m) => m.name)).toEqual(['forward']);
    const forward = add.method('forward');
    const tensor = { kind: 'Tensor', dtype: 'float32', shape: [2, 2], dynamism: 'static' };
    expect(forward.inputs).toEqual([tensor, tensor]);
    expect(forward.outputs).toEqual([tensor]);
    expect(forward.instructions).toBe(1);
    expect(Object.isFrozen(forward.inputs)).toBe(true);
  });

  it('runs, and outputs stay valid after later runs', async () => {
    const [first] = await add.run('forward', [ones(), ones()]);
    const [second] = await add.run('forward', [f32([[1, 2], [3, 4]]), ones()]);
    expect((first as Tensor).toArray()).toEqual([2, 2, 2, 2]);
    expect((first as Tensor).shape).toEqual([2, 2]);
    expect((second as Tensor).toArray()).toEqual([2, 3, 4, 5]);
  });

  it('rejects a wrong number of inputs, naming the method and the signature', async () => {
    const err = await rejection(add.run('forward', [ones()]));
    expect(err.code).toBe(ErrorCode.InvalidArgument);
    expect(err.message).toBe("run('forward'): expected 2 inputs (float32[2, 2], float32[2, 2]), got 1");
  });

  it('rejects a wrong dtype, naming the input', async () => {
    const err = await rejection(add.run('forward', [ones(), Tensor.zeros('int32', [2, 2])]));
    expect(err.code).toBe(ErrorCode.InvalidType);
    expect(err.message).toBe("run('forward'): input 1: dtype int32, expected float32");
  });

  it('rejects a wrong shape or a non-tensor', async () => {
    expect((await rejection(add.run('forward', [f32([[1, 2, 3], [4, 5, 6]]), ones()]))).message).toBe(
      "run('forward'): input 0: shape [2, 3] does not match the expected [2, 2]",
    );
    expect((await rejection(add.run('forward', [f32([1, 2, 3, 4]), ones()]))).message).toBe(
      "run('forward'): input 0: shape [4] has rank 1, expected rank 2 ([2, 2])",
    );
    expect((await rejection(add.run('forward', [ones(), 3]))).message).toBe(
      "run('forward'): input 1: expected a float32[2, 2] tensor, got the number 3",
    );
    expect((await rejection(add.run('forward', 'x' as never))).message).toMatch(/inputs must be an array, got the string "x"/);
  });

  it('rejects unknown methods, listing the real ones', async () => {
    const err = await rejection(add.run('backward', []));
    expect(err.message).toBe("no method 'backward' in this program; it has 'forward'");
    expect(err.codeName).toBe('MethodMissing');
  });

  it('runs the default method when none is named: the only one, else forward', async () => {
    expect(add.defaultMethod).toBe('forward');
    const [sum] = await add.run([ones(), ones()]);
    expect((sum as Tensor).toArray()).toEqual([2, 2, 2, 2]);
    const multi = await load(fixture('multi_method.pte'));
    try {
      expect(multi.methods.map((m) => m.name)).toContain('forward');
      expect(multi.defaultMethod).toBe('forward');
    } finally {
      multi.dispose();
    }
    await expect(add.run([ones()] as never, [ones()])).rejects.toThrowError(/the method name must come first/);
  });

  it('runTensors gives Tensors whose dtype check narrows data, and refuses other outputs', async () => {
    const [y] = await add.runTensors([ones(), ones()]);
    expect(y!.dtype).toBe('float32');
    if (y!.dtype === 'float32') expect(Math.max(...y!.data)).toBe(2);
    const scalars = await load(fixture('scalars.pte'));
    try {
      const inputs = scalars.method('forward').inputs.map((spec) => (spec.kind === 'Bool' ? true : spec.kind === 'Double' ? 1.5 : 2));
      const err = await rejection(scalars.runTensors(inputs));
      expect(err.code).toBe(ErrorCode.InvalidType);
      expect(err.message).toMatch(/^runTensors\('forward'\): output 0 is an Int \(.*\), not a tensor; use run\(\)/);
    } finally {
      scalars.dispose();
    }
  });

  it('takes numThreads changes at run time, clamping to the pool with one notice', async () => {
    const model = await load(fixture('add.pte'), { numThreads: 1 });
    const info = console.info;
    const notices: string[] = [];
    console.info = (text: string) => void notices.push(text);
    try {
      const pool = (await runtimeInfo(model)).numThreads;
      expect(model.numThreads).toBe(1);
      model.numThreads = 99;
      model.numThreads = 99;
      expect(model.numThreads).toBe(Math.min(99, pool));
      expect(notices.filter((n) => n.includes('numThreads 99'))).toHaveLength(pool < 99 ? 1 : 0);
      model.numThreads = 0;
      expect(model.numThreads).toBe(pool);
      expect(() => (model.numThreads = -1)).toThrowError(/numThreads must be a positive integer/);
      expect((await model.runTensors([ones(), ones()]))[0]!.toArray()).toEqual([2, 2, 2, 2]);
    } finally {
      console.info = info;
      model.dispose();
    }
  });

  it('says which build a model runs on', async () => {
    const single = await load(fixture('add.pte'), { threads: false });
    try {
      expect((await runtimeInfo(single)).threads).toBe(false);
      expect((await runtimeInfo(single)).numThreads).toBe(1);
      await expect(runtimeInfo({} as never)).rejects.toThrowError(/not a Model that load\(\) returned/);
    } finally {
      single.dispose();
    }
  });

  it('disposes at the end of a using block', async () => {
    let escaped: Model | undefined;
    {
      using model = await load(fixture('add.pte'));
      escaped = model;
      expect(model.disposed).toBe(false);
    }
    expect(escaped.disposed).toBe(true);
  });

  it('after a rejected run, the model still runs', async () => {
    await rejection(add.run('forward', []));
    const [sum] = await add.run('forward', [ones(), ones()]);
    expect((sum as Tensor).toArray()).toEqual([2, 2, 2, 2]);
  });

  it('throws a clear error when used after dispose(); dispose() twice is harmless', async () => {
    const model = await load(fixture('add.pte'));
    const [kept] = await model.run('forward', [ones(), ones()]);
    model.dispose();
    model.dispose();
    expect(model.disposed).toBe(true);
    const err = await rejection(model.run('forward', [ones(), ones()]));
    expect(err.code).toBe(ErrorCode.InvalidState);
    expect(err.message).toBe("method('forward'): this Model was disposed; load the file again to use it");
    expect(() => model.bundledTests()).toThrowError(/bundledTests\(\): this Model was disposed/);
    expect((kept as Tensor).toArray()).toEqual([2, 2, 2, 2]); // outputs were copied out
  });

  it('passes int32, int64 (BigInt64Array) and bool tensors both ways', async () => {
    const model = await load(fixture('int_types.pte'));
    try {
      const [i32, i64, eq5] = await model.run('forward', [
        Tensor.from('int32', [1, -2, 2147483000, 0]),
        Tensor.from('int32', [2, 3, 600, -7]),
        Tensor.from('int64', [1n, 2n, 4n, 10_000_000_000n]),
        Tensor.from('int64', [4, 3, 2, -1]),
      ]);
      expect((i32 as Tensor).toArray()).toEqual([3, 1, 2147483600, -7]);
      expect((i64 as Tensor).data).toBeInstanceOf(BigInt64Array);
      expect((i64 as Tensor).toArray()).toEqual([5n, 5n, 6n, 9_999_999_999n]);
      expect((eq5 as Tensor).dtype).toBe('bool');
      expect((eq5 as Tensor).toArray()).toEqual([true, true, false, false]);
    } finally {
      model.dispose();
    }
  });

  it('passes Int, Double and Bool values as JS numbers, bigints and booleans', async () => {
    const model = await load(fixture('scalars.pte')); // (i, d, flag) -> ((i+5)*i, d*0.5+d, flag)
    try {
      expect(model.method('forward').inputs).toEqual([{ kind: 'Int' }, { kind: 'Double' }, { kind: 'Bool' }]);
      expect(await model.run('forward', [3, 2.5, true])).toEqual([24, 3.75, true]);
      expect(await model.run('forward', [-4n, -1, false])).toEqual([-4, -1.5, false]);
      // An Int that is not a safe integer comes back as a bigint.
      const [big] = await model.run('forward', [3_000_000_000n, 0, false]);
      expect(big).toBe(3_000_000_005n * 3_000_000_000n);
      expect((await rejection(model.run('forward', [1.5, 1, true]))).message).toBe(
        "run('forward'): input 0: expected an Int (integer number or bigint), got the number 1.5",
      );
      expect((await rejection(model.run('forward', [1, 1, 'yes' as never]))).message).toMatch(/input 2: expected a Bool/);
    } finally {
      model.dispose();
    }
  });

  it('profiles a run: the outputs, and the time of each instruction by operator', async () => {
    const model = await load(fixture('affine.pte')); // forward(x f32[3]) = 3x + 2: mul.out then add.out
    try {
      const x = f32([1, 2, 3]);
      const profile = await model.profile('forward', [x]);
      expect((profile.outputs[0] as Tensor).toArray()).toEqual([5, 8, 11]);
      expect(profile.instructions.map(({ index, name, calls }) => ({ index, name, calls }))).toEqual([
        { index: 0, name: 'aten::mul.out', calls: 1 },
        { index: 1, name: 'aten::add.out', calls: 1 },
      ]);
      const inInstructions = profile.instructions.reduce((sum, p) => sum + p.ms, 0);
      expect(inInstructions).toBeGreaterThan(0);
      expect(inInstructions).toBeLessThanOrEqual(profile.totalMs);
      // Each profile is of its own run, not a running sum.
      const again = await model.profile('forward', [x]);
      expect(again.instructions.map((p) => p.calls)).toEqual([1, 1]);
      // A profiled run leaves the model as run() does.
      expect(((await model.run('forward', [x]))[0] as Tensor).toArray()).toEqual([5, 8, 11]);
      await expect(model.profile('nope', [x])).rejects.toThrow("no method 'nope'");
    } finally {
      model.dispose();
    }
  });

  it('runs constant methods of several kinds', async () => {
    const model = await load(fixture('multi_method.pte'));
    try {
      expect(model.methods.map((m) => m.name).sort()).toEqual(['double', 'forward', 'get_answer', 'get_tensor']);
      expect(model.method('get_answer').outputs).toEqual([{ kind: 'Int' }]);
      expect(await model.run('get_answer')).toEqual([42]);
      const [tensor] = await model.run('get_tensor');
      expect((tensor as Tensor).toArray()).toEqual([1n, 2n, 3n]);
      const [doubled] = await model.run('double', [f32([1.5, -2])]);
      expect((doubled as Tensor).toArray()).toEqual([3, -4]);
    } finally {
      model.dispose();
    }
  });

  it('resizes bounded-dynamic inputs within their bound and rejects larger ones', async () => {
    const model = await load(fixture('dynamic.pte')); // forward(x f32[<=8]) = 2x
    try {
      expect(model.method('forward').inputs).toEqual([{ kind: 'Tensor', dtype: 'float32', shape: [8], dynamism: 'bounded' }]);
      for (const n of [1, 4, 8]) {
        const [out] = await model.run('forward', [f32(Array.from({ length: n }, (_, i) => i))]);
        expect((out as Tensor).shape).toEqual([n]);
        expect((out as Tensor).toArray()).toEqual(Array.from({ length: n }, (_, i) => 2 * i));
      }
      expect((await rejection(model.run('forward', [Tensor.zeros('float32', [9])]))).message).toBe(
        "run('forward'): input 0: shape [9] exceeds the upper bound [8] at dim 0",
      );
    } finally {
      model.dispose();
    }
  });

  it('gives [] bundled tests for a plain program', () => {
    expect(add.bundledTests()).toEqual([]);
  });
});

describeShared('Model on corpus programs', () => {
  it('loads external data from dataFiles', async () => {
    const model = await load(corpusFile(CORPUS.dataMap), { dataFiles: [corpusFile(CORPUS.dataMapPtd)] });
    try {
      const [out] = await model.run('forward', [f32([[1, 2], [3, 4]])]);
      expect((out as Tensor).toArray()).toEqual([5, 8, 11, 14]);
    } finally {
      model.dispose();
    }
  });

  it('exposes the cases embedded in a bundled program, and they pass', async () => {
    const model = await load(corpusFile(CORPUS.bundled));
    try {
      expect(model.format).toBe('bpte');
      const cases = model.bundledTests();
      expect(cases.length).toBe(10);
      for (const test of cases) {
        expect(test.method).toBe('forward');
        const outputs = await model.run(test.method, test.inputs);
        expect(outputs.length).toBe(test.expected.length);
        outputs.forEach((out, i) => {
          const want = test.expected[i] as Tensor;
          expect((out as Tensor).dtype).toBe(want.dtype);
          expect((out as Tensor).shape).toEqual(want.shape);
          expect((out as Tensor).toArray()).toEqual(want.toArray());
        });
      }
    } finally {
      model.dispose();
    }
  });
});
