// The sampling step of generate(): greedy picks the largest logit; top-p
// keeps the smallest set of most likely tokens holding topP of the mass;
// temperature sampling is seeded, so it repeats. generate() itself runs on
// an exported llama program in tests/models/llama.test.ts.
import { describe, expect, it } from 'vitest';
import { pickToken } from '../helpers/trident.js';

const logits = new Float32Array([0.1, 3.0, 2.9, -1.0, 0.5]);

describe('pickToken', () => {
  it('is greedy without a temperature (ties: the first)', () => {
    expect(pickToken(logits, {})).toBe(1);
    expect(pickToken(new Float32Array([2, 5, 5]), { temperature: 0 })).toBe(1);
  });

  it('keeps only the top token when topP is tiny, whatever the random draw', () => {
    for (const r of [0, 0.5, 0.999]) expect(pickToken(logits, { temperature: 1, topP: 1e-6 }, () => r)).toBe(1);
  });

  it('samples among the nucleus: tokens 1 and 2 hold ~90% of the mass at temperature 1', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) seen.add(pickToken(logits, { temperature: 1, topP: 0.8 }, () => i / 200));
    expect([...seen].sort()).toEqual([1, 2]);
  });

  it('follows the random draw across the whole distribution with topP 1', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(pickToken(logits, { temperature: 5, topP: 1 }, () => i / 1000));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
