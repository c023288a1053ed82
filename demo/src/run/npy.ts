// Reads a NumPy .npy file (format 1.0-3.0, C order) into a Tensor.

import { Tensor, type AnyTensor, type DType } from 'trident-runtime';

const DTYPES: Record<string, DType> = {
  f4: 'float32', f8: 'float64', f2: 'float16', i8: 'int64', i4: 'int32', i2: 'int16', i1: 'int8', u1: 'uint8', b1: 'bool',
};

export function parseNpy(buffer: ArrayBuffer, name: string): AnyTensor {
  const bytes = new Uint8Array(buffer);
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (bytes.length < 10 || magic.some((b, i) => bytes[i] !== b)) throw new Error(`${name}: not a .npy file (no \\x93NUMPY magic)`);
  const major = bytes[6]!;
  const view = new DataView(buffer);
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  if (start + headerLength > bytes.length) throw new Error(`${name}: the .npy header runs past the end of the file`);
  const header = new TextDecoder().decode(bytes.subarray(start, start + headerLength));
  const descr = /'descr':\s*'([<>|=])([a-z]\d+)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shapeText) throw new Error(`${name}: cannot read the .npy header ${header.trim()}`);
  if (descr[1] === '>') throw new Error(`${name}: big-endian arrays are not supported`);
  if (fortran[1] === 'True') throw new Error(`${name}: Fortran-ordered arrays are not supported (save with np.ascontiguousarray)`);
  const dtype = DTYPES[descr[2]!];
  if (!dtype) throw new Error(`${name}: dtype ${descr[2]} is not supported`);
  const shape = shapeText[1]!.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const data = buffer.slice(start + headerLength);
  const itemBytes = Number(descr[2]!.slice(1));
  if (data.byteLength < count * itemBytes) throw new Error(`${name}: holds ${data.byteLength} bytes of data, its shape needs ${count * itemBytes}`);
  const typed = {
    float32: () => new Float32Array(data, 0, count),
    float64: () => new Float64Array(data, 0, count),
    float16: () => new Uint16Array(data, 0, count),
    int64: () => new BigInt64Array(data, 0, count),
    int32: () => new Int32Array(data, 0, count),
    int16: () => new Int16Array(data, 0, count),
    int8: () => new Int8Array(data, 0, count),
    uint8: () => new Uint8Array(data, 0, count),
    bool: () => new Uint8Array(data, 0, count),
  } as Record<string, () => ArrayBufferView>;
  return new Tensor(dtype, typed[dtype]!() as never, shape) as AnyTensor;
}
