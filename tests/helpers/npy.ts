// Writes .npy files for CLI tests (numpy is not a test dependency).
const DESCR: Record<string, string> = {
  float32: '<f4', float64: '<f8', int32: '<i4', int64: '<i8', uint8: '|u1', bool: '|b1', float16: '<f2',
};

export function encodeNpy(
  dtype: keyof typeof DESCR | string,
  shape: number[],
  data: ArrayBufferView,
  { version = 1, fortran = false, descr }: { version?: 1 | 2; fortran?: boolean; descr?: string } = {},
): Uint8Array {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${descr ?? DESCR[dtype]}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': (${dims}), }`;
  const prefix = version === 1 ? 10 : 12;
  // numpy pads the header with spaces to a multiple of 64 and ends it with \n.
  header += ' '.repeat(64 - ((prefix + header.length + 1) % 64)) + '\n';
  const out = new Uint8Array(prefix + header.length + data.byteLength);
  out.set([0x93, ...Array.from('NUMPY', (c) => c.charCodeAt(0)), version, 0]);
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, header.length, true);
  else view.setUint32(8, header.length, true);
  out.set(Array.from(header, (c) => c.charCodeAt(0)), prefix);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), prefix + header.length);
  return out;
}
