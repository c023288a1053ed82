// Reads numpy .npy files (format versions 1-3): little-endian, C order.
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html

import { Tensor } from '../../dist/js/index-node.js';

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"

/** numpy type codes (kind + item size) -> Trident dtype. */
const DTYPE_OF_CODE = {
  f2: 'float16', f4: 'float32', f8: 'float64',
  i1: 'int8', i2: 'int16', i4: 'int32', i8: 'int64',
  u1: 'uint8', u2: 'uint16', u4: 'uint32', u8: 'uint64',
  b1: 'bool',
};

export function isNpy(bytes) {
  return bytes.length >= MAGIC.length && MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * @param {Uint8Array} bytes the whole file
 * @param {string} name for messages
 * @returns {Tensor}
 */
export function parseNpy(bytes, name) {
  const fail = (why) => {
    throw new Error(`${name}: ${why}`);
  };
  if (!isNpy(bytes)) fail('not a .npy file (no \\x93NUMPY magic)');
  const major = bytes[6];
  if (major < 1 || major > 3) fail(`unsupported .npy format version ${major}.${bytes[7]}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerStart = major === 1 ? 10 : 12;
  if (bytes.length < headerStart) fail('truncated .npy header');
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const dataStart = headerStart + headerLength;
  if (bytes.length < dataStart) fail('truncated .npy header');
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(headerStart, dataStart));

  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  if (descr === undefined) fail(`cannot read 'descr' from the header ${header.trim()} (structured dtypes are not supported)`);
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  if (fortran === undefined) fail(`cannot read 'fortran_order' from the header ${header.trim()}`);
  if (fortran === 'True') fail('Fortran-order (column-major) arrays are not supported; save a C-order array (np.ascontiguousarray)');
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (shapeText === undefined) fail(`cannot read 'shape' from the header ${header.trim()}`);
  const shape = shapeText.split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  if (shape.some((d) => !Number.isSafeInteger(d) || d < 0)) fail(`bad shape (${shapeText})`);

  const order = descr[0];
  if (order === '>') fail(`big-endian dtype '${descr}' is not supported; convert with arr.astype(arr.dtype.newbyteorder('<'))`);
  const dtype = DTYPE_OF_CODE[descr.slice(1)];
  if (!['<', '|', '='].includes(order) || dtype === undefined) fail(`unsupported numpy dtype '${descr}'`);

  const count = shape.reduce((a, b) => a * b, 1);
  const itemSize = Number(descr.slice(2));
  const nbytes = count * itemSize;
  if (bytes.length - dataStart < nbytes) {
    fail(`data is truncated: ${bytes.length - dataStart} bytes for shape (${shape.join(', ')}) of '${descr}', expected ${nbytes}`);
  }
  // Copy into the tensor's own (aligned) buffer: the data offset in the
  // file need not be a multiple of the item size.
  const tensor = Tensor.zeros(dtype, shape);
  new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, nbytes).set(bytes.subarray(dataStart, dataStart + nbytes));
  return tensor;
}
