// load()'s cache option in Node, which has no Cache API: refused, clearly,
// before anything is read. (The browser side: tests/browser/cache.test.ts.)
import { describe, expect, it } from 'vitest';
import { ErrorCode, cache, load } from '../helpers/trident.js';
import { fixture } from '../helpers/fixtures.js';

describe('the model cache under Node', () => {
  it('refuses load(..., { cache: true }) with NotSupported, naming the fix', async () => {
    const pending = load('https://example.com/model.pte', { cache: true });
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.NotSupported });
    await expect(pending).rejects.toThrow("load's cache option needs the browser's Cache API, which Node does not have; in Node, keep a copy of the file and load it by path");
  });

  it('refuses a cache option that is not a boolean', async () => {
    await expect(load(fixture('add.pte'), { cache: 'yes' as unknown as boolean })).rejects.toMatchObject({ code: ErrorCode.InvalidArgument });
  });

  it('refuses each cache method with NotSupported', async () => {
    for (const call of [() => cache.has('https://example.com/a.pte'), () => cache.delete('x'), () => cache.keys(), () => cache.size(), () => cache.clear()]) {
      await expect(call()).rejects.toMatchObject({ code: ErrorCode.NotSupported });
    }
  });

  it('loads as usual with cache: false', async () => {
    const model = await load(fixture('add.pte'), { cache: false });
    expect(model.format).toBe('pte');
    model.dispose();
  });
});
