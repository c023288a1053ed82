// What the corpus programs without goldens must compute, worked out here
// (float64, from seeded inputs) rather than taken from the runtime under
// test. Each program's structure (operators and their arguments) was read
// from the file with flatc and the ExecuTorch schema
// (cpp/formats/pte/schema/program.fbs) when the reference was written; the
// comments name what was read. Weights are never copied here: they are the
// tensors the program returns or uses, and the test first finds their exact
// bytes in the file that holds them (.pte or .ptd), so a runtime reading the
// wrong bytes cannot agree with itself.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { Tensor, load, type InputValue, type Model, type OutputValue } from './trident.js';
import { corpusFile } from './shared.js';
import { mismatch, seededNormal, type Tolerance } from './goldens.js';

const EXACT: Tolerance = { rtol: 0, atol: 0 };

export interface Reference {
  /** What is checked and against what, for the test's name and log. */
  readonly what: string;
  /** Runs the program (loaded with its data files) and checks its outputs. */
  check(model: Model, file: string): Promise<void>;
}

interface Expected {
  dtype?: string;
  shape: readonly number[];
  values: ArrayLike<number | bigint>;
}

/** `got` against the reference with the goldens' rule |got - want| <= atol + rtol * |want|. */
function expectMatch(got: OutputValue | undefined, want: Expected, tol: Tolerance, what: string): void {
  expect(got, what).toBeInstanceOf(Tensor);
  const json = { dtype: want.dtype ?? 'float32', shape: [...want.shape], values: Array.from(want.values) };
  expect(mismatch(got!, 'Tensor', json, tol), what).toBeNull();
}

function seeded(shape: readonly number[], seed: number, scale = 1): Tensor<'float32'> {
  const values = seededNormal(shape.reduce((a, b) => a * b, 1), seed);
  for (let i = 0; i < values.length; i++) values[i] = values[i]! * scale;
  return new Tensor('float32', values, shape);
}

function floats(t: OutputValue | undefined, what: string): Float32Array {
  expect(t, what).toBeInstanceOf(Tensor);
  expect((t as Tensor).dtype, what).toBe('float32');
  return (t as Tensor<'float32'>).data;
}

/** Byte offsets from `from` at which `values` (float32, little-endian) appear in `bytes`. */
function offsetsOf(bytes: Uint8Array, values: Float32Array, from = 0): number[] {
  const pattern = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const hits: number[] = [];
  outer: for (let at = from; at + pattern.length <= bytes.length; at++) {
    for (let k = 0; k < pattern.length; k++) if (bytes[at + k] !== pattern[k]) continue outer;
    hits.push(at);
  }
  return hits;
}

/** The one offset of `values` in `bytes`: where a weight the program uses is stored in its file. */
function storedAt(bytes: Uint8Array, values: Float32Array, what: string): number {
  const hits = offsetsOf(bytes, values);
  expect(hits.length, `${what}: its ${values.length} float32 values appear exactly once, verbatim, in the file`).toBe(1);
  return hits[0]!;
}

/**
 * Where the parameters are stored, each verbatim and after the one before
 * (both exporters write them in parameter order). Order matters: a zero
 * bias alone would match any run of zero bytes.
 */
function storedInOrder(bytes: Uint8Array, params: Float32Array[], names: string[]): number[] {
  let from = 0;
  return params.map((p, i) => {
    const at = offsetsOf(bytes, p, from)[0];
    expect(at, `${names[i]}: its ${p.length} float32 values appear verbatim in the file, after ${names[i - 1] ?? 'its start'}`).toBeDefined();
    from = at! + p.byteLength;
    return at!;
  });
}

// ---------------------------------------------------------------------------
// Pure functions of float inputs: seeded inputs (and zeros), one output.

function pure(what: string, fn: (x: Float32Array[]) => Expected, tol: Tolerance, scale = 1): Reference {
  return {
    what,
    async check(model) {
      const specs = model.method('forward').inputs;
      const sets: Tensor<'float32'>[][] = [specs.map((s) => Tensor.zeros('float32', s.shape!))];
      for (const seed of [1, 2, 3]) sets.push(specs.map((s, i) => seeded(s.shape!, 100 * seed + i, scale)));
      for (const [k, inputs] of sets.entries()) {
        const [y] = await model.run('forward', inputs);
        expectMatch(y, fn(inputs.map((t) => t.data)), tol, `${what}, input set ${k}${k === 0 ? ' (zeros)' : ''}`);
      }
    },
  };
}

// ---------------------------------------------------------------------------
// softmax.pte: aten::_softmax.out(x, dim=1, half_to_float=False) on [2, 4096].

function softmaxRows(x: Float32Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(x.length);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let c = 0; c < cols; c++) max = Math.max(max, x[r * cols + c]!);
    let sum = 0;
    for (let c = 0; c < cols; c++) {
      out[r * cols + c] = Math.exp(x[r * cols + c]! - max);
      sum += out[r * cols + c]!;
    }
    for (let c = 0; c < cols; c++) out[r * cols + c] = out[r * cols + c]! / sum;
  }
  return out;
}

// ---------------------------------------------------------------------------
// maxpool2d.pte: one aten::max_pool2d_with_indices.out on [1,64,112,112] with
// kernel_size [3,3], stride [2,2], padding [1,1], dilation [1,1],
// ceil_mode False (its KernelCall's IntList/Bool arguments, values 5..15);
// only the values are a method output, not the indices.
const MAXPOOL = { kernel: [3, 3], stride: [2, 2], padding: [1, 1], dilation: [1, 1] } as const;

function pooledSize(size: number, d: 0 | 1): number {
  const { kernel, stride, padding, dilation } = MAXPOOL;
  return Math.floor((size + 2 * padding[d] - dilation[d] * (kernel[d] - 1) - 1) / stride[d]) + 1;
}

/** Max pooling over NCHW, padding counting as -inf (as PyTorch pads max_pool2d). */
function maxPool2d(x: Float32Array, [n, c, h, w]: readonly number[]): Expected {
  const { kernel, stride, padding, dilation } = MAXPOOL;
  const oh = pooledSize(h!, 0);
  const ow = pooledSize(w!, 1);
  const out = new Float32Array(n! * c! * oh * ow);
  let o = 0;
  for (let plane = 0; plane < n! * c!; plane++) {
    const base = plane * h! * w!;
    for (let i = 0; i < oh; i++) {
      for (let j = 0; j < ow; j++) {
        let best = -Infinity;
        for (let ki = 0; ki < kernel[0]; ki++) {
          const y = i * stride[0] - padding[0] + ki * dilation[0];
          if (y < 0 || y >= h!) continue;
          for (let kj = 0; kj < kernel[1]; kj++) {
            const xx = j * stride[1] - padding[1] + kj * dilation[1];
            if (xx >= 0 && xx < w!) best = Math.max(best, x[base + y * w! + xx]!);
          }
        }
        out[o++] = best;
      }
    }
  }
  return { shape: [n!, c!, oh, ow], values: out };
}

const maxpool2dReference: Reference = {
  what: 'max pooling 3x3, stride 2, padding 1 computed here, bit-exact',
  async check(model) {
    const method = model.method('forward');
    const inShape = method.inputs[0]!.shape!;
    // The parameters read from the file must give the output shape it declares.
    expect([inShape[0], inShape[1], pooledSize(inShape[2]!, 0), pooledSize(inShape[3]!, 1)]).toEqual(method.outputs[0]!.shape);
    // Normal values: about half the border windows are all negative, where
    // padding with 0 instead of -inf would show.
    for (const seed of [1, 2]) {
      const x = seeded(inShape, seed);
      const [y] = await model.run('forward', [x]);
      expectMatch(y, maxPool2d(x.data, inShape), EXACT, `maxpool2d, seed ${seed}`);
    }
  },
};

// ---------------------------------------------------------------------------
// linear.pte + linear.ptd: permute_copy(linear.weight [3,3]) then
// addmm(linear.bias, x, W^T): y = x W^T + b, both weights EXTERNAL (in the
// .ptd, its 2025-02 FlatTensor layout).

const linearReference: Reference = {
  what: 'x W^T + b in float64, W and b as stored in linear.ptd (found through runs on 0 and I), rtol 1e-5, atol 1e-6',
  async check(model, file) {
    const ptd = new Uint8Array(readFileSync(corpusFile(file.replace(/\.pte$/, '.ptd'))));
    const [n, k] = model.method('forward').inputs[0]!.shape!;
    const out = model.method('forward').outputs[0]!.shape![1]!;
    // Row i of f(0) is b; row i of f(I) is b + W[:, i]. b comes back exact
    // (0 + b), so it must be in the .ptd byte for byte; W comes back through
    // one float32 rounding (b + W), so the stored W is looked for near it.
    const bias = floats((await model.run('forward', [Tensor.zeros('float32', [n!, k!])]))[0], 'f(0)').slice(0, out);
    storedAt(ptd, bias, 'linear.bias');
    const identity = new Float32Array(n! * k!);
    for (let i = 0; i < Math.min(n!, k!); i++) identity[i * k! + i] = 1;
    const atI = floats((await model.run('forward', [new Tensor('float32', identity, [n!, k!])]))[0], 'f(I)');
    const approx = new Float64Array(out * k!);
    for (let o = 0; o < out; o++) for (let i = 0; i < k!; i++) approx[o * k! + i] = atI[i * out + o]! - bias[o]!;
    const weight = storedNear(ptd, approx, 1e-6, 'linear.weight');

    const inputs = [seeded([n!, k!], 7), seeded([n!, k!], 8), Tensor.from('float32', [2, 3, 4, 2, 3, 4, 2, 3, 4], [n!, k!])];
    for (const [s, x] of inputs.entries()) {
      const want = new Float64Array(n! * out);
      for (let r = 0; r < n!; r++) {
        for (let o = 0; o < out; o++) {
          let acc = bias[o]!;
          for (let i = 0; i < k!; i++) acc += x.data[r * k! + i]! * weight[o * k! + i]!;
          want[r * out + o] = acc;
        }
      }
      const [y] = await model.run('forward', [x]);
      expectMatch(y, { shape: [n!, out], values: want }, { rtol: 1e-5, atol: 1e-6 }, `linear, input ${s}`);
    }
  },
};

/** The float32 run in `bytes` (4-aligned) within `atol` of `approx`, read back exactly. */
function storedNear(bytes: Uint8Array, approx: Float64Array, atol: number, what: string): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hits: number[] = [];
  for (let at = 0; at + 4 * approx.length <= bytes.length; at += 4) {
    let ok = true;
    for (let i = 0; i < approx.length && ok; i++) ok = Math.abs(view.getFloat32(at + 4 * i, true) - approx[i]!) <= atol;
    if (ok) hits.push(at);
  }
  expect(hits.length, `${what}: ${approx.length} float32 values within ${atol} of the ones the runs imply appear once in the file`).toBe(1);
  return new Float32Array(approx.map((_, i) => view.getFloat32(hits[0]! + 4 * i, true)));
}

// ---------------------------------------------------------------------------
// Training programs (ExecuTorch's joint forward+backward export): forward
// returns the loss and other forward outputs, then one gradient per
// parameter, then the parameters; the methods
// __et_training_gradients_index_forward and
// __et_training_parameters_index_forward say where each list starts, and
// __et_training_fqn_forward names the parameters.

interface Training {
  outputs: OutputValue[];
  gradientsAt: number;
  parametersAt: number;
  names: string[];
  params: Float32Array[];
}

async function trainingStep(model: Model, inputs: InputValue[]): Promise<Training> {
  const gradientsAt = Number((await model.run('__et_training_gradients_index_forward', []))[0]);
  const parametersAt = Number((await model.run('__et_training_parameters_index_forward', []))[0]);
  const names = (await model.run('__et_training_fqn_forward', [])) as string[];
  const outputs = await model.run('forward', inputs);
  expect(parametersAt - gradientsAt, 'one gradient per parameter').toBe(names.length);
  expect(outputs.length, 'outputs: forward outputs, gradients, parameters').toBe(parametersAt + names.length);
  const params = names.map((name, i) => floats(outputs[parametersAt + i], name));
  return { outputs, gradientsAt, parametersAt, names, params };
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** y = W a + b for W [out, in] row-major. */
function affine(w: ArrayLike<number>, b: ArrayLike<number>, a: ArrayLike<number>): Float64Array {
  const out = new Float64Array(b.length);
  for (let o = 0; o < b.length; o++) {
    let acc = b[o]!;
    for (let i = 0; i < a.length; i++) acc += w[o * a.length + i]! * a[i]!;
    out[o] = acc;
  }
  return out;
}

function outer(u: ArrayLike<number>, v: ArrayLike<number>): Float64Array {
  const out = new Float64Array(u.length * v.length);
  for (let i = 0; i < u.length; i++) for (let j = 0; j < v.length; j++) out[i * v.length + j] = u[i]! * v[j]!;
  return out;
}

// atol: where the sigmoids saturate (XOR weights below), float32's
// log-softmax of a loss near 5e-5 is off by up to 3e-7.
const TRAINING_TOL: Tolerance = { rtol: 1e-5, atol: 1e-6 };

// dnf_executorch*.pte: Layer_l = tanh(W_l a + b_l) (addmm, tanh) for every
// layer, the last one giving y [1,1]; forward(x [1,50], target [1]) returns
// (e^2, y, e) with e = target - y (sub, pow 2), then dL/dW_l, dL/db_l
// (layer 0 first) and the parameters.

const dnfReference: Reference = {
  what: 'tanh MLP loss, output, error and backpropagated gradients in float64 from the parameters stored in the .pte, rtol 1e-5, atol 1e-6',
  async check(model, file) {
    const pte = new Uint8Array(readFileSync(corpusFile(file)));
    for (const seed of [1, 2, 3]) {
      const x = seeded([1, 50], 10 * seed);
      const target = seeded([1], 10 * seed + 1, 0.5);
      const step = await trainingStep(model, [x, target]);
      const { outputs, gradientsAt, params, names } = step;
      expect(gradientsAt).toBe(3);
      storedInOrder(pte, params, names);
      const layers = params.length / 2;
      const acts: Float64Array[] = [Float64Array.from(x.data)];
      for (let l = 0; l < layers; l++) acts.push(affine(params[2 * l]!, params[2 * l + 1]!, acts[l]!).map(Math.tanh));
      const y = acts[layers]![0]!;
      const e = target.data[0]! - y;
      const where = `seed ${seed}`;
      expectMatch(outputs[0], { shape: [1, 1], values: [e * e] }, TRAINING_TOL, `${where}: loss`);
      expectMatch(outputs[1], { shape: [1, 1], values: [y] }, TRAINING_TOL, `${where}: y`);
      expectMatch(outputs[2], { shape: [1, 1], values: [e] }, TRAINING_TOL, `${where}: target - y`);
      // d(e^2)/dz of the last layer, then back through each tanh.
      let delta = Float64Array.of(-2 * e * (1 - y * y));
      for (let l = layers - 1; l >= 0; l--) {
        const a = acts[l]!;
        const w = params[2 * l]!;
        expectMatch(outputs[gradientsAt + 2 * l], { shape: [delta.length, a.length], values: outer(delta, a) }, TRAINING_TOL, `${where}: d/d${names[2 * l]}`);
        expectMatch(outputs[gradientsAt + 2 * l + 1], { shape: [delta.length], values: delta }, TRAINING_TOL, `${where}: d/d${names[2 * l + 1]}`);
        const next = new Float64Array(a.length);
        for (let i = 0; i < a.length; i++) {
          let acc = 0;
          for (let o = 0; o < delta.length; o++) acc += w[o * a.length + i]! * delta[o]!;
          next[i] = acc * (1 - a[i]! * a[i]!);
        }
        delta = next;
      }
    }
  },
};

// xor.pte + xor.ptd: h = sigmoid(linear(x)), logits = linear2(h) (addmm,
// sigmoid, addmm), then cross_entropy(logits, label) (log_softmax, gather,
// mean over labels != -100) and argmax; forward(x [1,2], label int64 [1])
// returns (loss, argmax, dL/d(each parameter), the parameters), all four
// parameters EXTERNAL (in xor.ptd).
interface XorOutputs {
  loss: number;
  label: bigint;
  grads: Float64Array[];
}

function xorNet([w1, b1, w2, b2]: Float32Array[], x: ArrayLike<number>, label: number): XorOutputs {
  const h = affine(w1!, b1!, x).map(sigmoid);
  const logits = affine(w2!, b2!, h);
  const max = Math.max(...logits);
  const sum = logits.reduce((s, v) => s + Math.exp(v - max), 0);
  const p = logits.map((v) => Math.exp(v - max) / sum);
  const loss = -(logits[label]! - max - Math.log(sum));
  const dLogits = p.map((v, c) => v - (c === label ? 1 : 0));
  const dz = new Float64Array(h.length);
  for (let j = 0; j < h.length; j++) {
    let acc = 0;
    for (let c = 0; c < dLogits.length; c++) acc += w2![c * h.length + j]! * dLogits[c]!;
    dz[j] = acc * h[j]! * (1 - h[j]!);
  }
  return { loss, label: BigInt(logits.indexOf(max)), grads: [outer(dz, x), dz, outer(dLogits, h), dLogits] };
}

function expectXor(step: Training, x: ArrayLike<number>, label: number, where: string): XorOutputs {
  const want = xorNet(step.params, x, label);
  expectMatch(step.outputs[0], { shape: [], values: [want.loss] }, TRAINING_TOL, `${where}: loss`);
  expectMatch(step.outputs[1], { dtype: 'int64', shape: [1], values: [want.label] }, EXACT, `${where}: argmax`);
  want.grads.forEach((g, i) => {
    const shape = (step.outputs[step.gradientsAt + i] as Tensor).shape;
    expectMatch(step.outputs[step.gradientsAt + i], { shape, values: g }, TRAINING_TOL, `${where}: d/d${step.names[i]}`);
  });
  return want;
}

/**
 * Weights that make the net compute XOR: hidden unit 0 is x1 OR x2, unit 1
 * is x1 AND x2 (the other eight contribute nothing), and class 1 scores
 * OR - AND. Written into a copy of xor.ptd where the file's own weights were.
 */
function xorWeights(): Float32Array[] {
  const w1 = new Float32Array(20);
  const b1 = new Float32Array(10);
  w1.set([20, 20, 20, 20]);
  b1.set([-10, -30]);
  const w2 = new Float32Array(20);
  w2.set([20, -20], 10);
  return [w1, b1, w2, Float32Array.of(0, -10)];
}

const XOR_TABLE: Array<[[number, number], number]> = [
  [[0, 0], 0],
  [[0, 1], 1],
  [[1, 0], 1],
  [[1, 1], 0],
];

const xorReference: Reference = {
  what: 'cross-entropy, argmax and gradients in float64 from the weights in xor.ptd (rtol 1e-5, atol 1e-6); with XOR weights written into the .ptd, the XOR truth table',
  async check(model, file) {
    const ptdFile = corpusFile(file.replace(/\.pte$/, '.ptd'));
    const ptd = new Uint8Array(readFileSync(ptdFile));
    let offsets: number[] = [];
    for (const seed of [1, 2, 3]) {
      const x = seeded([1, 2], 20 * seed);
      const label = seed % 2;
      const step = await trainingStep(model, [x, Tensor.from('int64', [label])]);
      expect(step.gradientsAt).toBe(2);
      offsets = storedInOrder(ptd, step.params, step.names);
      expectXor(step, x.data, label, `seed ${seed}, label ${label}`);
    }

    const patched = ptd.slice();
    const view = new DataView(patched.buffer);
    xorWeights().forEach((w, i) => w.forEach((v, j) => view.setFloat32(offsets[i]! + 4 * j, v, true)));
    const xorModel = await load(corpusFile(file), { dataFiles: [patched] });
    try {
      for (const [x, label] of XOR_TABLE) {
        const step = await trainingStep(xorModel, [Tensor.from('float32', [x], [1, 2]), Tensor.from('int64', [label])]);
        step.params.forEach((p, i) => expect(Array.from(p), `the patched ${step.names[i]}`).toEqual(Array.from(xorWeights()[i]!)));
        expect((step.outputs[1] as Tensor).toArray(), `argmax at ${x}: XOR(${x})`).toEqual([BigInt(label)]);
        // Upstream's test trains until the loss is below 0.1.
        expect((step.outputs[0] as Tensor<'float32'>).data[0], `loss at ${x}`).toBeLessThan(0.1);
        expectXor(step, x, label, `XOR weights, ${x}`);
      }
    } finally {
      xorModel.dispose();
    }
  },
};

// ---------------------------------------------------------------------------

const add = pure('a + b rounded to float32, bit-exact', ([a, b]) => ({ shape: [1], values: [Math.fround(a![0]! + b![0]!)] }), EXACT);

/**
 * By corpus path. Every program without goldens that loads has an entry
 * (the test checks it), so none is only run on zeros.
 */
export const REFERENCES: Record<string, Reference> = {
  'berndporr__dnf_executorch/ecg_filt_demo__dnf_executorch.pte': dnfReference,
  'berndporr__dnf_executorch/test__dnf_executorch1.pte': dnfReference,
  'berndporr__dnf_executorch/test__dnf_executorch5.pte': dnfReference,
  'kadu-v__berry-executorch/resource__model__simple__add.pte': add,
  // Zero instructions: the output EValue is the input EValue.
  'kadu-v__berry-executorch/resource__model__simple__id.pte': pure('the input itself, bit-exact', ([x]) => ({ shape: [1], values: x! }), EXACT),
  'pytorch__executorch/add.pte': add,
  'pytorch__executorch/extension__android__executorch_android__src__androidTest__resources__xor.pte': xorReference,
  'pytorch__executorch/extension__module__test__resources__linear.pte': linearReference,
  // mean(x, dim 1), then where(mean == 0, c, mean) with c the program's one
  // constant (constant_buffer[1], float32 1.1); zeros take that branch.
  'pytorch__executorch/extension__runner__module__test__resources__model.pte': pure(
    'mean of the row in float64, or the constant 1.1 where it is 0, rtol 1e-6',
    ([x]) => {
      const mean = (x![0]! + x![1]!) / 2;
      return { shape: [1], values: [mean === 0 ? Math.fround(1.1) : mean] };
    },
    { rtol: 1e-6, atol: 0 },
  ),
  'pytorch__executorch/operator_and_model_testing__maxpool2d__pte__maxpool2d.pte': maxpool2dReference,
  'pytorch__executorch/operator_and_model_testing__softmax__pte__softmax.pte': pure(
    'softmax over dim 1 in float64, inputs 3 x N(0,1), rtol 1e-5, atol 1e-9',
    ([x]) => ({ shape: [2, 4096], values: softmaxRows(x!, 2, 4096) }),
    { rtol: 1e-5, atol: 1e-9 },
    3,
  ),
  // mul(x, c1) then add(_, c2), c1 = 3 and c2 = 2 everywhere (the deprecated
  // constant_buffer entries 1 and 2): MANIFEST's derived y = 3x + 2.
  'pytorch__executorch/test__models__deprecated__ModuleLinear-no-constant-segment.pte': pure(
    '3x + 2 in float64, rtol 1e-6, atol 1e-6',
    ([x]) => ({ shape: [2, 2], values: Array.from(x!, (v) => 3 * v + 2) }),
    { rtol: 1e-6, atol: 1e-6 },
  ),
};
