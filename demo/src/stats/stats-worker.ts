// Computes tensor statistics off the main thread (a weight may hold tens of
// millions of elements).

import { decodeHalf, tensorStats, type NumericData } from './tensor-stats.js';

interface StatsRequest {
  id: number;
  dtype: string;
  data: NumericData;
}

self.onmessage = (event: MessageEvent<StatsRequest>) => {
  const { id, dtype, data } = event.data;
  try {
    const values = dtype === 'float16' || dtype === 'bfloat16' ? decodeHalf(data as Uint16Array, dtype) : data;
    (self as unknown as Worker).postMessage({ id, stats: tensorStats(values) });
  } catch (err) {
    (self as unknown as Worker).postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
