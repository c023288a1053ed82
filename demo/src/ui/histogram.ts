// A histogram as a small canvas, with the range under it.

import { formatNumber } from './format.js';
import { el } from './dom.js';

export function histogramElement(bins: number[], min: number, max: number, label: string): HTMLElement {
  const canvas = el('canvas', { class: 'histogram', width: 320, height: 90, role: 'img', 'aria-label': label });
  const ctx = canvas.getContext('2d');
  const peak = Math.max(...bins, 1);
  if (ctx && bins.length) {
    const style = getComputedStyle(document.documentElement);
    ctx.fillStyle = style.getPropertyValue('--accent').trim() || '#2563eb';
    const w = canvas.width / bins.length;
    bins.forEach((count, i) => {
      // Square-root scale: a few huge bins (zeros) must not flatten the rest.
      const h = count ? Math.max(1, (Math.sqrt(count) / Math.sqrt(peak)) * (canvas.height - 2)) : 0;
      ctx.fillRect(i * w + 0.5, canvas.height - h, Math.max(1, w - 1), h);
    });
  }
  const axis = el('div', { class: 'histogram-axis' }, el('span', { text: formatNumber(min) }), el('span', { text: formatNumber(max) }));
  return el('figure', { class: 'histogram-figure' }, canvas, axis, el('figcaption', { text: label }));
}
