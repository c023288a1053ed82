// Where things are, relative to the repo root (never to the cwd).
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = path.join(REPO_ROOT, 'bin', 'trident.mjs');

export function repoPath(...parts: string[]): string {
  return path.join(REPO_ROOT, ...parts);
}
