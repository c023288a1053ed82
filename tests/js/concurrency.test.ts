// Runs that overlap: concurrent run() calls on one model queue and each gets
// its own result, several models interleave, in this thread and in worker
// mode; a JS kernel that disposes (or re-runs) the model it runs in cannot
// pull the program out from under the run.
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { ErrorCode, Tensor, load, registerKernel, unregisterKernel, type Model } from '../helpers/trident.js';

/** add.pte's inputs (two float32 [2, 2]) filled from `k`. */
function addInputs(k: number): Tensor<'float32'>[] {
  return [Tensor.from('float32', [k, k + 1, k + 2, k + 3], [2, 2]), Tensor.from('float32', [1, 1, 1, 1], [2, 2])];
}

function addResult(k: number): number[] {
  return [k + 1, k + 2, k + 3, k + 4];
}

async function mlpInputFor(model: Model, k: number): Promise<Tensor<'float32'>> {
  const shape = model.methods[0]!.inputs[0]!.shape!;
  return Tensor.from('float32', Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i + k)), shape);
}

describe.each([false, true])('overlapping runs (worker mode: %s)', (worker) => {
  it('concurrent runs of one model each get their own result', async () => {
    const model = await load(fixture('add.pte'), { worker });
    try {
      const runs = Array.from({ length: 24 }, (_, k) => model.runTensors(addInputs(k)));
      const results = await Promise.all(runs);
      results.forEach(([sum], k) => expect(sum!.toArray()).toEqual(addResult(k)));
    } finally {
      model.dispose();
    }
  });

  it('runs of several models interleave, each with its own results', async () => {
    const add = await load(fixture('add.pte'), { worker });
    const mlp = await load(fixture('mlp.pte'), { worker });
    const reference = await load(fixture('mlp.pte'));
    try {
      const inputs = await Promise.all(Array.from({ length: 8 }, (_, k) => mlpInputFor(mlp, k)));
      const want = await Promise.all(inputs.map((x) => reference.runTensors([x])));
      const pending: Promise<void>[] = [];
      inputs.forEach((x, k) => {
        pending.push(add.runTensors(addInputs(k)).then(([sum]) => expect(sum!.toArray()).toEqual(addResult(k))));
        pending.push(mlp.runTensors([x]).then(([y]) => expect(y!.toJSON()).toEqual(want[k]![0]!.toJSON())));
      });
      await Promise.all(pending);
    } finally {
      add.dispose();
      mlp.dispose();
      reference.dispose();
    }
  });

  it('dispose() while runs are under way: they finish with their results, later calls are refused', async () => {
    const model = await load(fixture('add.pte'), { worker });
    const runs = Array.from({ length: 8 }, (_, k) => model.runTensors(addInputs(k)));
    // In worker mode this is the worker's last model: it ends once the
    // runs already sent are answered.
    model.dispose();
    const results = await Promise.all(runs);
    results.forEach(([sum], k) => expect(sum!.toArray()).toEqual(addResult(k)));
    await expect(model.run(addInputs(0))).rejects.toMatchObject({ code: ErrorCode.InvalidState });
    const next = await load(fixture('add.pte'), { worker });
    expect((await next.runTensors(addInputs(5)))[0]!.toArray()).toEqual(addResult(5));
    next.dispose();
  });
});

describe('a JS kernel inside the run of the model it belongs to', () => {
  afterEach(() => {
    unregisterKernel('aten::add.out');
  });

  it('may dispose the model: the run finishes and returns, then the program is freed', async () => {
    let model: Model | undefined;
    await registerKernel(
      'aten::add.out',
      (inputs, outputs) => {
        model!.dispose();
        const [a, b] = inputs as Tensor<'float32'>[];
        const out = outputs[0]!.data as Float32Array;
        for (let i = 0; i < out.length; i++) out[i] = a!.data[i]! + b!.data[i]!;
      },
      { override: true },
    );
    model = await load(fixture('add.pte'));
    const [sum] = await model.runTensors(addInputs(1));
    expect(sum!.toArray()).toEqual(addResult(1));
    expect(model.disposed).toBe(true);
    await expect(model.run(addInputs(1))).rejects.toMatchObject({ code: ErrorCode.InvalidState });
  });

  it('may not run or reset that model again', async () => {
    let model: Model | undefined;
    let inner: unknown;
    await registerKernel(
      'aten::add.out',
      (_inputs, outputs) => {
        try {
          // Resolves or rejects synchronously inside: the check comes first.
          void model!.run(addInputs(0)).catch((e: unknown) => (inner = e));
        } finally {
          (outputs[0]!.data as Float32Array).fill(7);
        }
      },
      { override: true },
    );
    model = await load(fixture('add.pte'));
    const [out] = await model.runTensors(addInputs(0));
    expect(out!.toArray()).toEqual([7, 7, 7, 7]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(inner).toMatchObject({ code: ErrorCode.InvalidState, message: expect.stringMatching(/in the middle of a run/) });
    model.dispose();
  });
});
