// The JS route for custom operators: the wasm build has no etnp::lstm.out, so
// executorch-numpy-runtime's lstm.pte fails to load until a JS kernel is
// registered; with one it matches its golden out.bin (rtol = atol = 1e-4).
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { corpusFile, describeShared } from '../helpers/shared.js';
import { Tensor, TridentError, load, registerKernel, unregisterKernel, type KernelValue } from '../helpers/trident.js';

const DIR = 'corey-cole__executorch-numpy-runtime/';
const PROGRAM = corpusFile(`${DIR}tests__models__lstm__lstm.pte`);

function floats(file: string): Float32Array {
  const bytes = fs.readFileSync(corpusFile(`${DIR}${file}`));
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

const sigmoid = (v: number): number => 1 / (1 + Math.exp(-v));

/** One layer of torch.nn.LSTM, seq-first, gates i, f, g, o. */
function lstm(inputs: KernelValue[], outputs: readonly Tensor[]): void {
  const [x, h0, c0, wIh, wHh, bIh, bHh] = inputs as Tensor<'float32'>[];
  const [out, hN, cN] = outputs as Tensor<'float32'>[];
  const [steps, batch, size] = x!.shape as [number, number, number];
  const hidden = h0!.shape[1]!;
  if (wIh!.shape[0] !== 4 * hidden || wIh!.shape[1] !== size) throw new Error(`w_ih has shape [${wIh!.shape}]`);
  const h = Float64Array.from(h0!.data);
  const c = Float64Array.from(c0!.data);
  for (let t = 0; t < steps; t++) {
    const hNew = new Float64Array(batch * hidden);
    for (let b = 0; b < batch; b++) {
      const gate = (r: number): number => {
        let acc = bIh!.data[r]! + bHh!.data[r]!;
        for (let k = 0; k < size; k++) acc += wIh!.data[r * size + k]! * x!.data[(t * batch + b) * size + k]!;
        for (let k = 0; k < hidden; k++) acc += wHh!.data[r * hidden + k]! * h[b * hidden + k]!;
        return acc;
      };
      for (let j = 0; j < hidden; j++) {
        const i = sigmoid(gate(j));
        const f = sigmoid(gate(hidden + j));
        const g = Math.tanh(gate(2 * hidden + j));
        const o = sigmoid(gate(3 * hidden + j));
        const cell = f * c[b * hidden + j]! + i * g;
        c[b * hidden + j] = cell;
        hNew[b * hidden + j] = o * Math.tanh(cell);
      }
    }
    h.set(hNew);
    out!.data.set(hNew, t * batch * hidden);
  }
  hN!.data.set(h);
  cN!.data.set(c);
}

describeShared('custom operators from JS (etnp::lstm.out)', () => {
  afterEach(() => {
    unregisterKernel('etnp::lstm.out');
  });

  it('lstm.pte names the missing operator before a kernel is registered', async () => {
    const err = await load(PROGRAM).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TridentError);
    expect((err as Error).message).toContain('etnp::lstm.out');
  });

  it('runs lstm.pte with a registered JS kernel and matches out.bin', async () => {
    let calls = 0;
    await registerKernel(
      'etnp::lstm.out',
      (inputs, outputs) => {
        calls++;
        lstm(inputs, outputs);
      },
      { outputs: 3 },
    );
    const input = floats('tests__models__lstm__in.bin');
    const expected = floats('tests__models__lstm__out.bin');
    const model = await load(PROGRAM);
    try {
      const [y, hN, cN] = (await model.run('forward', [
        new Tensor('float32', input.slice(0, 40), [5, 2, 4]),
        new Tensor('float32', input.slice(40, 46), [2, 3]),
        new Tensor('float32', input.slice(46, 52), [2, 3]),
      ])) as Tensor<'float32'>[];
      expect(calls).toBe(1);
      expect(y!.shape).toEqual([5, 2, 3]);
      expect(hN!.shape).toEqual([2, 3]);
      expect(cN!.shape).toEqual([2, 3]);
      expected.forEach((want, i) => {
        expect(Math.abs(y!.data[i]! - want), `element ${i}`).toBeLessThanOrEqual(1e-4 + 1e-4 * Math.abs(want));
      });
      // h_n is the last step of the output sequence.
      expect(Array.from(hN!.data)).toEqual(Array.from(y!.data.slice(24, 30)));
    } finally {
      model.dispose();
    }
  });

  it('a throwing JS kernel fails the run with its message, and the model stays usable', async () => {
    let fail = true;
    await registerKernel(
      'etnp::lstm.out',
      (inputs, outputs) => {
        if (fail) throw new Error('deliberate failure');
        lstm(inputs, outputs);
      },
      { outputs: 3 },
    );
    const model = await load(PROGRAM);
    try {
      const inputs = [Tensor.zeros('float32', [5, 2, 4]), Tensor.zeros('float32', [2, 3]), Tensor.zeros('float32', [2, 3])];
      await expect(model.run('forward', inputs)).rejects.toThrow(/etnp::lstm\.out.*deliberate failure/);
      fail = false;
      const [y] = (await model.run('forward', inputs)) as Tensor<'float32'>[];
      expect(y!.shape).toEqual([5, 2, 3]);
    } finally {
      model.dispose();
    }
  });
});
