// A run's outputs: shape, dtype and statistics of each; a table of values;
// the top classes of a score vector; a picture of an image-shaped tensor.

import { Tensor, type AnyTensor, type OutputValue } from 'trident-runtime';
import { statsOf } from '../stats/stats-client.js';
import { decodeHalf, type NumericData } from '../stats/tensor-stats.js';
import { el, keyValueTable } from '../ui/dom.js';
import { formatNumber } from '../ui/format.js';

const TABLE_VALUES = 64;

export interface OutputOptions {
  /** Class names for top-k (an index's name). */
  labels?: string[] | undefined;
  topK?: number;
}

export async function renderOutputs(root: HTMLElement, outputs: OutputValue[], options: OutputOptions = {}): Promise<void> {
  const cards = await Promise.all(outputs.map((value, i) => outputCard(value, i, options)));
  root.replaceChildren(...cards);
}

/** Numbers of a tensor (float16/bfloat16 decoded, bools as 0/1). */
export function numbersOf(tensor: AnyTensor): ArrayLike<number | bigint> {
  if (tensor.dtype === 'float16' || tensor.dtype === 'bfloat16') return decodeHalf(tensor.data as Uint16Array, tensor.dtype);
  return tensor.data as NumericData;
}

/** Indices of the k largest scores, largest first. */
export function topK(values: ArrayLike<number | bigint>, k: number): number[] {
  const order = Array.from({ length: values.length }, (_, i) => i);
  order.sort((a, b) => Number(values[b]!) - Number(values[a]!));
  return order.slice(0, k);
}

/** A vector of scores: one dimension above 1, at least 2 entries. */
export function isScoreVector(shape: readonly number[]): boolean {
  const big = shape.filter((d) => d > 1);
  return big.length === 1 && big[0]! >= 2 && big[0]! <= 100_000;
}

async function outputCard(value: OutputValue, i: number, options: OutputOptions): Promise<HTMLElement> {
  const card = el('section', { class: 'output', 'data-output': i });
  if (!(value instanceof Tensor)) {
    card.append(el('h4', { text: `output ${i}` }), el('pre', { class: 'scalar', text: typeof value === 'bigint' ? `${value}n` : JSON.stringify(value) }));
    return card;
  }
  const tensor = value as AnyTensor;
  card.append(el('h4', { text: `output ${i}: ${tensor.dtype} [${tensor.shape.join(', ')}]` }));
  const numbers = numbersOf(tensor);
  if (tensor.size > 0) {
    const stats = await statsOf(tensor);
    card.append(
      keyValueTable(
        [
          ['min', formatNumber(stats.min)],
          ['max', formatNumber(stats.max)],
          ['mean', formatNumber(stats.mean)],
          ['std', formatNumber(stats.std)],
          ['zeros', `${(stats.zeros * 100).toFixed(1)}%`],
        ],
        'kv output-stats',
      ),
    );
  }
  if (isScoreVector(tensor.shape) && tensor.dtype !== 'bool') card.append(topKTable(numbers, options));
  const image = imageOf(tensor, numbers);
  if (image) card.append(image);
  card.append(valuesTable(numbers, tensor.size));
  return card;
}

function topKTable(numbers: ArrayLike<number | bigint>, options: OutputOptions): HTMLElement {
  const k = Math.min(options.topK ?? 5, numbers.length);
  const best = topK(numbers, k);
  const top = Number(numbers[best[0]!]!);
  const rows = best.map((index, rank) => {
    const score = Number(numbers[index]!);
    const bar = el('span', { class: 'bar' });
    bar.style.width = `${top > 0 && score > 0 ? Math.max(2, (score / top) * 100) : 2}%`;
    return el(
      'tr',
      { 'data-class': index },
      el('td', { class: 'num', text: String(rank + 1) }),
      el('td', { class: 'class-name', text: options.labels?.[index] !== undefined ? `${index} ${options.labels[index]}` : String(index) }),
      el('td', { class: 'num', text: formatNumber(score) }),
      el('td', { class: 'bar-cell' }, bar),
    );
  });
  return el('table', { class: 'top-k' }, el('caption', { text: `top ${k}` }), el('tbody', {}, ...rows));
}

function valuesTable(numbers: ArrayLike<number | bigint>, size: number): HTMLElement {
  const shown = Math.min(size, TABLE_VALUES);
  const cells = Array.from({ length: shown }, (_, i) => el('td', { title: `[${i}]`, text: formatNumber(numbers[i] as number) }));
  const rows: HTMLElement[] = [];
  for (let i = 0; i < cells.length; i += 8) rows.push(el('tr', {}, el('th', { text: String(i) }), ...cells.slice(i, i + 8)));
  const note = size > shown ? el('p', { class: 'muted', text: `first ${shown} of ${size} values` }) : null;
  return el('div', { class: 'values' }, el('table', { class: 'values-table' }, el('tbody', {}, ...rows)), note);
}

/**
 * A picture of an image-shaped tensor, scaled to min..max: [1, C, H, W] or
 * [C, H, W] (C 1 or 3) with H, W >= 8: RGB for 3 channels, else the
 * first channel (of a feature map); or [H, W].
 */
function imageOf(tensor: AnyTensor, numbers: ArrayLike<number | bigint>): HTMLElement | null {
  const s = tensor.shape;
  let c: number, h: number, w: number;
  if (s.length === 4 && s[0] === 1) [c, h, w] = [s[1]!, s[2]!, s[3]!];
  else if (s.length === 3 && (s[0] === 1 || s[0] === 3)) [c, h, w] = [s[0]!, s[1]!, s[2]!];
  else if (s.length === 2) [c, h, w] = [1, s[0]!, s[1]!];
  else return null;
  if (h < 8 || w < 8 || c < 1 || tensor.dtype === 'bool' || h * w > 4096 * 4096) return null;
  const planes = c === 3 ? 3 : 1;
  let min = Infinity, max = -Infinity;
  for (let i = 0; i < planes * h * w; i++) {
    const v = Number(numbers[i]!);
    if (Number.isFinite(v)) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
  }
  const scale = max > min ? 255 / (max - min) : 0;
  const canvas = el('canvas', { class: 'output-image', width: w, height: h });
  const ctx = canvas.getContext('2d')!;
  const img = ctx.createImageData(w, h);
  for (let i = 0; i < h * w; i++) {
    for (let ch = 0; ch < 3; ch++) img.data[4 * i + ch] = (Number(numbers[(planes === 3 ? ch : 0) * h * w + i]!) - min) * scale;
    img.data[4 * i + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
  const what = planes === 3 ? 'as a picture' : c === 1 ? 'as a picture' : `channel 0 of ${c} as a picture`;
  return el('figure', { class: 'output-figure' }, canvas, el('figcaption', { text: `${what} (${formatNumber(min)} black … ${formatNumber(max)} white)` }));
}
