// Cancelling a run with an AbortSignal: the run stops at the next
// instruction boundary after the signal fires, rejects with the signal's
// reason, and the model runs correctly afterwards; in this thread and in
// worker mode. The runs are made slow and observable with JS kernels that
// take the place of affine.pte's two ATen kernels (x * W, then + b).
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { ErrorCode, Tensor, load, registerKernel, unregisterKernel } from '../helpers/trident.js';

/** Busy for `ms`: a kernel long enough that its run needs more than one slice (16 ms). */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // a kernel's work
  }
}

interface Calls {
  mul: number;
  add: number;
}

/** Slow JS mul.out and add.out; `onMul` runs inside the first. */
async function slowKernels(calls: Calls, onMul: () => void = () => {}): Promise<void> {
  await registerKernel(
    'aten::mul.out',
    (inputs, outputs) => {
      calls.mul++;
      onMul();
      spin(40);
      const [a, b] = inputs as Tensor<'float32'>[];
      const out = outputs[0]!.data as Float32Array;
      for (let i = 0; i < out.length; i++) out[i] = a!.data[i]! * b!.data[i % b!.data.length]!;
    },
    { override: true },
  );
  await registerKernel(
    'aten::add.out',
    (inputs, outputs) => {
      calls.add++;
      spin(40);
      const [a, b] = inputs as Tensor<'float32'>[];
      const out = outputs[0]!.data as Float32Array;
      for (let i = 0; i < out.length; i++) out[i] = a!.data[i]! + b!.data[i % b!.data.length]!;
    },
    { override: true },
  );
}

const x = (): Tensor<'float32'> => Tensor.from('float32', [1, 2, 3], [3]);
/** affine.pte: 3x + 2. */
const affine = [5, 8, 11];

describe.each([false, true])('run(..., { signal }) (worker mode: %s)', (worker) => {
  afterEach(() => {
    unregisterKernel('aten::mul.out');
    unregisterKernel('aten::add.out');
  });

  it('a signal that fires during the run stops it before the next instruction; the model runs again', async () => {
    const calls = { mul: 0, add: 0 };
    const controller = new AbortController();
    await slowKernels(calls, () => {
      if (calls.mul === 1) controller.abort();
    });
    const model = await load(fixture('affine.pte'), { worker });
    try {
      const error = await model.run([x()], { signal: controller.signal }).catch((e: unknown) => e);
      expect(error).toBe(controller.signal.reason);
      expect((error as Error).name).toBe('AbortError');
      // Answered in order: once this run returns, the cancelled one is over.
      const [y] = await model.runTensors([x()]);
      expect(y!.toArray()).toEqual(affine);
      expect(calls).toEqual({ mul: 2, add: 1 });
    } finally {
      model.dispose();
    }
  });

  it('a signal aborted before the call runs nothing, and rejects with its reason', async () => {
    const calls = { mul: 0, add: 0 };
    await slowKernels(calls);
    const model = await load(fixture('affine.pte'), { worker });
    try {
      const reason = new Error('not wanted any more');
      await expect(model.run([x()], { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
      const [y] = await model.runTensors([x()]);
      expect(y!.toArray()).toEqual(affine);
      expect(calls).toEqual({ mul: 1, add: 1 });
    } finally {
      model.dispose();
    }
  });

  it('a signal that never fires: the run finishes in slices with the same result, and profiles the same', async () => {
    const calls = { mul: 0, add: 0 };
    await slowKernels(calls);
    const model = await load(fixture('affine.pte'), { worker });
    try {
      const signal = new AbortController().signal;
      const [y] = await model.runTensors([x()], { signal });
      expect(y!.toArray()).toEqual(affine);
      const profile = await model.profile('forward', [x()], { signal });
      expect((profile.outputs[0] as Tensor).toArray()).toEqual(affine);
      expect(profile.instructions.map((i) => [i.name, i.calls])).toEqual([
        ['aten::mul.out', 1],
        ['aten::add.out', 1],
      ]);
      expect(profile.instructions.every((i) => i.ms >= 30)).toBe(true);
      expect(calls).toEqual({ mul: 2, add: 2 });
    } finally {
      model.dispose();
    }
  });

  it('runs started while a cancellable run is under way wait for it, then each gets its own result', async () => {
    const calls = { mul: 0, add: 0 };
    await slowKernels(calls);
    const model = await load(fixture('affine.pte'), { worker });
    try {
      const signal = new AbortController().signal;
      const inputs = [0, 1, 2, 3].map((k) => Tensor.from('float32', [k, k, k], [3]));
      const runs = inputs.map((input, k) => (k % 2 === 0 ? model.runTensors([input], { signal }) : model.runTensors([input])));
      const results = await Promise.all(runs);
      results.forEach(([y], k) => expect(y!.toArray()).toEqual([3 * k + 2, 3 * k + 2, 3 * k + 2]));
      expect(calls).toEqual({ mul: 4, add: 4 });
    } finally {
      model.dispose();
    }
  });

  it('dispose() between the slices of a cancellable run lets it finish, and frees the program after', async () => {
    const calls = { mul: 0, add: 0 };
    await slowKernels(calls);
    const model = await load(fixture('affine.pte'), { worker });
    const run = model.runTensors([x()], { signal: new AbortController().signal });
    model.dispose();
    expect((await run)[0]!.toArray()).toEqual(affine);
    await expect(model.run([x()])).rejects.toMatchObject({ code: ErrorCode.InvalidState });
  });
});

describe('run options', () => {
  it('are checked: options in the place of inputs, and inputs in the place of options, are refused', async () => {
    const model = await load(fixture('affine.pte'));
    try {
      await expect(model.run('forward', { signal: undefined } as never)).rejects.toMatchObject({ code: ErrorCode.InvalidArgument, message: expect.stringMatching(/the inputs come second, as an array/) });
      await expect(model.run([x()], [x()] as never)).rejects.toMatchObject({ code: ErrorCode.InvalidArgument, message: expect.stringMatching(/the method name must come first/) });
      await expect(model.run('forward', [x()], 5 as never)).rejects.toMatchObject({ code: ErrorCode.InvalidArgument, message: expect.stringMatching(/the third argument must be the options/) });
      expect(((await model.run([x()], {}))[0] as Tensor).toArray()).toEqual(affine);
    } finally {
      model.dispose();
    }
  });
});
