// One owner of the wasm module: only js/src/native/ calls it or touches its
// heap, so that moving the runtime (into a worker, behind another loader)
// changes one folder. Checked on the sources: a call of any method of the
// TridentModule contract, or a HEAP view, outside native/ fails here.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

const SRC = path.join(REPO_ROOT, 'js', 'src');

/** The method names of the TridentModule interface in native/types.ts. */
function moduleMethods(): string[] {
  const types = readFileSync(path.join(SRC, 'native', 'types.ts'), 'utf8');
  const body = /export interface TridentModule \{([\s\S]*?)\n\}/.exec(types)![1]!;
  return [...body.matchAll(/^\s+(\w+)\(/gm)].map((m) => m[1]!);
}

it('leaves the wasm module and its heap to js/src/native/', () => {
  const methods = moduleMethods();
  expect(methods).toEqual(expect.arrayContaining(['detectFormat', 'registerJsKernel', 'mlirToBef', 'heapAllocations', '_malloc']));
  const offenders: string[] = [];
  for (const file of readdirSync(SRC, { recursive: true }) as string[]) {
    if (!file.endsWith('.ts') || file.startsWith(`native${path.sep}`)) continue;
    const text = readFileSync(path.join(SRC, file), 'utf8');
    text.split('\n').forEach((line, i) => {
      if (/\bHEAP(U8|32|F32|8)\b/.test(line) || methods.some((m) => new RegExp(`\\bmodule\\.${m}\\(`).test(line))) {
        offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  expect(offenders).toEqual([]);
});
