// The kernel tables' argument counts must be those of real ExecuTorch
// programs: tools/export/corpus_ops.txt lists every operator the corpus
// programs call, with the arguments each call passes (its emitter appends the
// returned value to every out variant's call, even for ops returning `()`).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { repoPath } from '../helpers/paths.js';
import { describeShared } from '../helpers/shared.js';

function tableArity(): Map<string, number> {
  const arity = new Map<string, number>();
  const dir = repoPath('cpp', 'kernels', 'tables');
  for (const file of readdirSync(dir)) {
    for (const m of readFileSync(`${dir}/${file}`, 'utf8').matchAll(/TRI_KERNEL\("([^"]+)",\s*\w+,\s*(-?\d+)\)/g)) {
      arity.set(m[1]!, Number(m[2]));
    }
  }
  return arity;
}

function corpusLayouts(): Map<string, number[]> {
  const layouts = new Map<string, number[]>();
  for (const line of readFileSync(repoPath('tools', 'export', 'corpus_ops.txt'), 'utf8').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const [op, counts] = line.split('\t');
    layouts.set(op!, counts!.split(',').map(Number));
  }
  return layouts;
}

it('every portable kernel takes the argument count real programs pass', () => {
  const arity = tableArity();
  const layouts = corpusLayouts();
  expect(layouts.size).toBeGreaterThan(30);
  const checked: string[] = [];
  for (const [op, counts] of layouts) {
    const n = arity.get(op);
    if (n === undefined || n < 0) continue; // not in the tables, or checked in the kernel
    expect(counts, op).toEqual([n]);
    checked.push(op);
  }
  expect(checked.length).toBeGreaterThan(25);
});

describeShared('the corpus operator list', () => {
  it('tools/export/corpus_ops.txt is what the corpus programs call', () => {
    let failure = '';
    try {
      execFileSync('python3', [repoPath('tools', 'export', 'corpus_ops.py'), '--check'], { stdio: 'pipe' });
    } catch (e) {
      failure = String((e as { stderr?: Buffer }).stderr ?? e);
    }
    expect(failure).toBe('');
  });
});
