// The Arduino KeywordSpotting program (ExecuTorch's Cortex-M flow: int8
// cortex_m:: ops on CMSIS-NN kernels) classifies each of its 10 MFCC inputs
// as the word its file is named for, and its 12 scores are exactly those of a
// Python transcription of CMSIS-NN's s8 kernels (double rounding, as
// ExecuTorch builds CMSIS-NN v7.0.0), written apart from the C++ kernels:
// int8 logits below, dequantized by the program's last op.
import { expect, it } from 'vitest';
import { Tensor, load } from '../helpers/trident.js';
import { argmax, readFloat32File } from '../helpers/goldens.js';
import { corpusFile, describeShared } from '../helpers/shared.js';

const PROGRAM = 'pytorch__executorch/examples__arduino__examples__KeywordSpotting__model.pte';
const LABELS = ['silence', 'unknown', 'yes', 'no', 'up', 'down', 'left', 'right', 'on', 'off', 'stop', 'go'];
// The program's output quantization (its cortex_m::dequantize_per_tensor).
const OUT_SCALE = 0.154293164611;
const OUT_ZERO_POINT = 23;

const INT8_SCORES: Record<string, number[]> = {
  yes: [-38, -47, 81, 9, -32, -19, 18, -37, -73, 20, -12, -23],
  no: [-29, -32, 6, 54, -13, 22, -9, -26, -22, -19, 4, 9],
  up: [-23, -26, -26, -12, 53, 1, -8, -5, 16, 22, -2, 24],
  down: [-34, -40, -18, -6, -11, 86, -34, -20, 5, -39, 21, 10],
  left: [-27, -33, 2, 30, -17, -38, 74, 22, -25, 5, -9, -45],
  right: [-24, -28, -38, -8, 5, 7, 3, 71, 52, -12, -10, -36],
  on: [-37, -42, -68, -16, -3, 25, -43, 12, 101, 23, -14, -25],
  off: [-29, -36, -18, -32, 34, -29, -15, -35, 30, 75, 9, 1],
  stop: [-35, -40, -21, -23, -5, -8, -17, -28, -14, 11, 79, -22],
  go: [-39, -43, -42, 25, -5, 17, -44, -23, -20, -13, -8, 85],
};

describeShared('KeywordSpotting on cortex_m:: kernels', () => {
  it('classifies all 10 MFCC inputs, with the CMSIS-NN reference scores', async () => {
    const model = await load(corpusFile(PROGRAM));
    try {
      const ops = new Set((await model.graph('forward')).nodes.map((n) => n.op));
      expect([...ops].filter((op) => op.startsWith('cortex_m::')).sort()).toEqual([
        'cortex_m::dequantize_per_tensor.out', 'cortex_m::pad.out', 'cortex_m::quantize_per_tensor.out',
        'cortex_m::quantized_avg_pool2d.out', 'cortex_m::quantized_conv2d.out',
        'cortex_m::quantized_depthwise_conv2d.out', 'cortex_m::quantized_linear.out',
      ]);
      for (const [word, int8] of Object.entries(INT8_SCORES)) {
        const input = new Tensor('float32', readFloat32File(corpusFile(`pytorch__executorch/examples__arduino__examples__KeywordSpotting__mfcc_${word}.f32.bin`)), [1, 1, 49, 10]);
        const [scores] = await model.run('forward', [input]);
        const got = (scores as Tensor).toArray() as number[];
        expect(LABELS[argmax(got)], word).toBe(word);
        const scale = Math.fround(OUT_SCALE);
        expect(got, word).toEqual(int8.map((q) => Math.fround((q - OUT_ZERO_POINT) * scale)));
      }
    } finally {
      model.dispose();
    }
  });
});
