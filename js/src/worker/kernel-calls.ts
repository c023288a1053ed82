// JavaScript kernels in worker mode. Kernels are registered on the page
// (registerKernel), where their closures live, but run inside a run in the
// worker, which cannot return until their outputs are written. So the
// worker blocks (Atomics.wait, allowed in workers) while the page runs the
// kernel and writes its outputs into shared memory, then wakes it
// (Atomics.notify). Shared memory needs a cross-origin isolated page (or
// Node).

import { callKernel } from '../custom-kernels.js';
import type { DType } from '../dtype.js';
import type { KernelFunction } from '../custom-kernels.js';
import { Tensor, type AnyTensor } from '../tensor.js';
import { kernelValueFromWire, kernelValueToWire, type WireKernelValue } from './wire.js';

/** What the worker sends the page for one kernel call. */
export interface KernelCall {
  kernelCall: {
    /** The page's registration id. */
    id: number;
    inputs: WireKernelValue[];
    outputs: { dtype: DType; shape: number[] }[];
    /** Int32Array [state (0 pending, 1 done, 2 failed), message bytes]. */
    control: SharedArrayBuffer;
    /** The outputs' bytes, one after another; or the failure's message. */
    data: SharedArrayBuffer;
  };
}

const PENDING = 0;
const DONE = 1;
const FAILED = 2;

export function isKernelCall(message: unknown): message is KernelCall {
  return typeof message === 'object' && message !== null && 'kernelCall' in message;
}

/** In the worker: a kernel that has the page run registration `id`, and waits. */
export function pageKernel(id: number, post: (call: KernelCall) => void): KernelFunction {
  return (inputs, outputs) => {
    const bytes = outputs.reduce((sum, out) => sum + out.data.byteLength, 0);
    const control = new Int32Array(new SharedArrayBuffer(8));
    const data = new SharedArrayBuffer(Math.max(bytes, 4096));
    post({
      kernelCall: {
        id,
        inputs: inputs.map(kernelValueToWire),
        outputs: outputs.map((out) => ({ dtype: out.dtype, shape: [...out.shape] })),
        control: control.buffer as SharedArrayBuffer,
        data,
      },
    });
    Atomics.wait(control, 0, PENDING);
    if (Atomics.load(control, 0) === FAILED) {
      throw new Error(new TextDecoder().decode(new Uint8Array(data, 0, control[1]).slice()));
    }
    let offset = 0;
    for (const out of outputs) {
      new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength).set(new Uint8Array(data, offset, out.data.byteLength));
      offset += out.data.byteLength;
    }
  };
}

/** On the page: runs the kernel call and wakes the worker. */
export function answerKernelCall({ kernelCall: call }: KernelCall): void {
  const control = new Int32Array(call.control);
  const outputs = call.outputs.map((out) => Tensor.zeros(out.dtype, out.shape));
  const error = callKernel(call.id, call.inputs.map(kernelValueFromWire), outputs as unknown as AnyTensor[]);
  if (error === undefined) {
    let offset = 0;
    for (const out of outputs) {
      new Uint8Array(call.data, offset, out.data.byteLength).set(new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength));
      offset += out.data.byteLength;
    }
    Atomics.store(control, 0, DONE);
  } else {
    const message = new TextEncoder().encode(error).subarray(0, call.data.byteLength);
    new Uint8Array(call.data).set(message);
    control[1] = message.length;
    Atomics.store(control, 0, FAILED);
  }
  Atomics.notify(control, 0);
}
