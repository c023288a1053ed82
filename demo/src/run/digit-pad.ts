// A canvas to draw a digit on: each stroke's end hands the drawing over as
// an 8×8 grid of ink coverage (0..1), the form of scikit-learn's digits
// divided by 16 (the digits sample's input).

export class DigitPad {
  readonly canvas: HTMLCanvasElement;
  readonly #ctx: CanvasRenderingContext2D;
  readonly #cells: number;
  #drawing = false;
  /** Strokes drawn since the pad was made or cleared. */
  strokes = 0;
  #last: [number, number] | null = null;

  constructor(onStroke: (grid: Float32Array) => void, size = 256, cells = 8) {
    this.#cells = cells;
    this.canvas = document.createElement('canvas');
    this.canvas.width = this.canvas.height = size;
    this.canvas.className = 'digit-pad';
    this.canvas.setAttribute('aria-label', 'Draw a digit here');
    this.#ctx = this.canvas.getContext('2d', { willReadFrequently: true })!;
    this.clear();
    const point = (e: PointerEvent): [number, number] => {
      const rect = this.canvas.getBoundingClientRect();
      return [((e.clientX - rect.left) * size) / rect.width, ((e.clientY - rect.top) * size) / rect.height];
    };
    this.canvas.addEventListener('pointerdown', (e) => {
      this.#drawing = true;
      this.canvas.setPointerCapture(e.pointerId);
      this.#last = point(e);
      this.#line(this.#last, this.#last);
    });
    this.canvas.addEventListener('pointermove', (e) => {
      if (!this.#drawing || !this.#last) return;
      const p = point(e);
      this.#line(this.#last, p);
      this.#last = p;
    });
    const end = () => {
      if (!this.#drawing) return;
      this.#drawing = false;
      this.#last = null;
      this.strokes++;
      onStroke(this.grid());
    };
    this.canvas.addEventListener('pointerup', end);
    this.canvas.addEventListener('pointercancel', end);
  }

  clear(): void {
    this.strokes = 0;
    this.#ctx.fillStyle = '#fff';
    this.#ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
  }

  /** Ink coverage per cell, row-major. */
  grid(): Float32Array {
    const size = this.canvas.width;
    const cell = size / this.#cells;
    const pixels = this.#ctx.getImageData(0, 0, size, size).data;
    const out = new Float32Array(this.#cells * this.#cells);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const ink = 1 - pixels[4 * (y * size + x)]! / 255;
        out[Math.floor(y / cell) * this.#cells + Math.floor(x / cell)]! += ink;
      }
    }
    for (let i = 0; i < out.length; i++) out[i] = Math.min(1, out[i]! / (cell * cell));
    return out;
  }

  #line(from: [number, number], to: [number, number]): void {
    const ctx = this.#ctx;
    ctx.strokeStyle = '#000';
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.lineWidth = this.canvas.width / this.#cells;
    if (from[0] === to[0] && from[1] === to[1]) {
      // A tap: canvases draw nothing for a zero-length line, caps or not.
      ctx.fillStyle = '#000';
      ctx.beginPath();
      ctx.arc(from[0], from[1], ctx.lineWidth / 2, 0, 2 * Math.PI);
      ctx.fill();
      return;
    }
    ctx.beginPath();
    ctx.moveTo(...from);
    ctx.lineTo(...to);
    ctx.stroke();
  }
}
