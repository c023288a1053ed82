// What registerKernel promises: kernels are bound when a program loads, so a
// registration (or its removal) changes only the programs loaded after it;
// a built-in kernel is replaced only with `override: true`; a kernel whose
// `outputs` miscounts the op's outs fails the load; and an async kernel,
// which would write its outputs after the run returned them, is refused.
import { afterEach, expect, it } from 'vitest';
import { CORPUS, corpusFile, describeShared } from '../helpers/shared.js';
import { ErrorCode, Tensor, TridentError, load, registerKernel, registeredKernels, unregisterKernel, type KernelFunction, type Model } from '../helpers/trident.js';

const DTYPES = corpusFile(CORPUS.dtypes); // forward(int64[1], float32[1]) -> (a + a, b + b) by two aten::add.out
const LSTM = corpusFile('corey-cole__executorch-numpy-runtime/tests__models__lstm__lstm.pte');

/** Writes 42 into every out, whatever its dtype. */
const fortyTwo: KernelFunction = (_inputs, outputs) => {
  for (const out of outputs) {
    if (out.dtype === 'int64') out.data.fill(42n);
    else if (out.dtype === 'float32') out.data.fill(42);
    else throw new Error(`unexpected ${out.dtype} out`);
  }
};

async function outputsOf(model: Model): Promise<unknown[]> {
  const outs = await model.runTensors([Tensor.from('int64', [3]), Tensor.from('float32', [1.5])]);
  return outs.map((t) => t.toArray()[0]);
}

async function loadError(source: string): Promise<TridentError> {
  const err = await load(source).then(
    (m) => {
      m.dispose();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TridentError);
  return err as TridentError;
}

describeShared('registerKernel semantics', () => {
  afterEach(() => {
    for (const name of registeredKernels()) unregisterKernel(name);
  });

  it('binds kernels at load: models loaded before a registration keep the kernels they were loaded with', async () => {
    const before = await load(DTYPES);
    expect(await outputsOf(before)).toEqual([6n, 3]);
    // A built-in kernel is not replaced without override: the promise says so.
    await expect(registerKernel('aten::add.out', fortyTwo)).rejects.toMatchObject({
      code: ErrorCode.InvalidState,
      message: expect.stringContaining('the runtime has a built-in kernel of this name; pass { override: true }'),
    });
    expect(registeredKernels()).toEqual([]);
    expect(await outputsOf(await load(DTYPES))).toEqual([6n, 3]);

    await registerKernel('aten::add.out', fortyTwo, { override: true });
    expect(await outputsOf(before)).toEqual([6n, 3]); // loaded before: unchanged
    const during = await load(DTYPES);
    expect(await outputsOf(during)).toEqual([42n, 42]);

    // A second JS kernel of the name needs override too, and binds only new loads.
    expect(() => registerKernel('aten::add.out', fortyTwo)).toThrowError(/a JS kernel is already registered under this name/);
    await registerKernel('aten::add.out', (_i, o) => void o.forEach((t) => (t.dtype === 'int64' ? t.data.fill(7n) : t.dtype === 'float32' && t.data.fill(7))), { override: true });
    expect(await outputsOf(during)).toEqual([42n, 42]);
    expect(await outputsOf(await load(DTYPES))).toEqual([7n, 7]);

    // Unregistering brings the built-in back for new loads only.
    expect(unregisterKernel('aten::add.out')).toBe(true);
    expect(unregisterKernel('aten::add.out')).toBe(false);
    expect(await outputsOf(await load(DTYPES))).toEqual([6n, 3]);
    expect(await outputsOf(during)).toEqual([42n, 42]);
    expect(await outputsOf(before)).toEqual([6n, 3]);
    for (const m of [before, during]) m.dispose();
  });

  it('checks `outputs` against the op\'s outs at load, naming both counts', async () => {
    const run = (): undefined => undefined;
    await registerKernel('etnp::lstm.out', run); // outputs: 1, but lstm.out has 3
    const err = await loadError(LSTM);
    expect(err.code).toBe(ErrorCode.InvalidProgram);
    expect(err.message).toMatch(/etnp::lstm\.out is registered with 1 out tensor, but the program's call returns 3/);
    await registerKernel('etnp::lstm.out', run, { outputs: 4, override: true });
    expect((await loadError(LSTM)).message).toMatch(/registered with 4 out tensors, but the program's call returns 3/);
    await registerKernel('etnp::lstm.out', run, { outputs: 3, override: true });
    (await load(LSTM)).dispose();
  });

  it('refuses async kernels at registration, and fails a run whose kernel returns a promise', async () => {
    const asyncKernel = async (_inputs: unknown, outputs: Tensor[]): Promise<void> => {
      await null;
      (outputs[0] as Tensor<'float32'>).data.fill(7);
    };
    expect(() => registerKernel('etnp::lstm.out', asyncKernel as never, { outputs: 3 })).toThrowError(
      /the kernel is an async function; kernels run synchronously inside the run and must write their outputs before returning/,
    );
    // A plain function that returns a promise gets past registration; the run says what happened.
    const promising = ((_inputs: unknown, outputs: Tensor[]) => asyncKernel(_inputs, outputs)) as never;
    await registerKernel('etnp::lstm.out', promising, { outputs: 3 });
    const model = await load(LSTM);
    try {
      const inputs = [Tensor.zeros('float32', [5, 2, 4]), Tensor.zeros('float32', [2, 3]), Tensor.zeros('float32', [2, 3])];
      await expect(model.run(inputs)).rejects.toThrowError(/JS kernel etnp::lstm\.out: the kernel returned a promise; kernels run synchronously/);
    } finally {
      model.dispose();
    }
  });

  it('refuses malformed registrations at once', () => {
    expect(() => registerKernel('lstm', () => {})).toThrow(/namespace::op/);
    expect(() => registerKernel('etnp::lstm.out', 42 as never)).toThrow(/function/);
    expect(() => registerKernel('etnp::lstm.out', () => {}, { outputs: -1 })).toThrow(/outputs must be an integer from 0 to 64/);
    expect(() => registerKernel('etnp::lstm.out', () => {}, { override: 'yes' as never })).toThrow(/override must be true or false/);
    expect(registeredKernels()).toEqual([]);
  });
});
