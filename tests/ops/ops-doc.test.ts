// docs/ops.md is generated from the kernel tables and the op cases; a change
// to either without regenerating it fails here. The cases themselves must
// cover int64 and bool wherever PyTorch defines an op for them.
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { repoPath } from '../helpers/paths.js';

function failureOf(python: string, script: string, ...args: string[]): string {
  try {
    execFileSync(python, [repoPath('tools', 'export', script), ...args], { stdio: 'pipe' });
    return '';
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? e);
  }
}

it('docs/ops.md matches the kernel tables and the op cases', () => {
  expect(failureOf('python3', 'make_ops_doc.py', '--check')).toBe('');
});

it('op cases cover int64 and bool wherever PyTorch 1.13 computes the op for them', () => {
  // Debian's torch lives in /usr/bin/python3 (setup.sh installs it).
  expect(failureOf('/usr/bin/python3', 'dtype_gaps.py')).toBe('');
}, 60_000);
