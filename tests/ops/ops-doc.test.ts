// docs/ops.md is generated from the kernel tables and the op cases; a change
// to either without regenerating it fails here.
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { repoPath } from '../helpers/paths.js';

it('docs/ops.md matches the kernel tables and the op cases', () => {
  let message = '';
  try {
    execFileSync('python3', [repoPath('tools', 'export', 'make_ops_doc.py'), '--check'], { stdio: 'pipe' });
  } catch (e) {
    message = String((e as { stderr?: Buffer }).stderr ?? e);
  }
  expect(message).toBe('');
});
