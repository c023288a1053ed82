// An image as a model input: scaled to the input's height and width,
// channels first, each channel normalized as (value / 255 - mean) / std.

import { Tensor } from 'trident-runtime';

export interface Normalization {
  mean: number[];
  std: number[];
}

export const IMAGENET: Normalization = { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] };

/** [N, C, H, W] with C 1 or 3: an input an image can fill. */
export function isImageShape(shape: readonly number[] | undefined): shape is readonly [number, number, number, number] {
  return shape !== undefined && shape.length === 4 && (shape[1] === 1 || shape[1] === 3) && shape[2]! >= 8 && shape[3]! >= 8;
}

export function imageTensor(source: CanvasImageSource, shape: readonly number[], norm: Normalization): Tensor<'float32'> {
  const [n, c, h, w] = shape as [number, number, number, number];
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(source, 0, 0, w, h);
  const rgba = ctx.getImageData(0, 0, w, h).data;
  const out = new Float32Array(n * c * h * w);
  for (let ch = 0; ch < c; ch++) {
    const mean = norm.mean[ch] ?? norm.mean[0] ?? 0;
    const std = norm.std[ch] ?? norm.std[0] ?? 1;
    for (let i = 0; i < h * w; i++) {
      const v = c === 1 ? (rgba[4 * i]! + rgba[4 * i + 1]! + rgba[4 * i + 2]!) / 3 : rgba[4 * i + ch]!;
      out[ch * h * w + i] = (v / 255 - mean) / std;
    }
  }
  // Every image of a batch is the same picture.
  for (let b = 1; b < n; b++) out.copyWithin(b * c * h * w, 0, c * h * w);
  return new Tensor('float32', out, shape);
}

/** A picture drawn in the page, for running an image model without a file at hand. */
export function samplePicture(size = 224): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const ctx = canvas.getContext('2d')!;
  const sky = ctx.createLinearGradient(0, 0, 0, size);
  sky.addColorStop(0, '#7cb8f0');
  sky.addColorStop(1, '#e8f4ff');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, size, size);
  ctx.fillStyle = '#3f8f3a';
  ctx.fillRect(0, size * 0.7, size, size * 0.3);
  ctx.fillStyle = '#f2c14e';
  ctx.beginPath();
  ctx.arc(size * 0.75, size * 0.25, size * 0.12, 0, 2 * Math.PI);
  ctx.fill();
  ctx.fillStyle = '#b5533c';
  ctx.fillRect(size * 0.2, size * 0.45, size * 0.3, size * 0.25);
  ctx.beginPath();
  ctx.moveTo(size * 0.15, size * 0.45);
  ctx.lineTo(size * 0.35, size * 0.3);
  ctx.lineTo(size * 0.55, size * 0.45);
  ctx.fill();
  return canvas;
}
