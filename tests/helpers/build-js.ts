// Vitest global setup: compiles js/ to dist/js/ (and bundles worker mode's
// browser script) before any test, since the
// tests (and the CLI they spawn) use the compiled API, as users do; then
// type-checks the tests against the emitted .d.ts files; and writes the test
// fixtures (build/fixtures/) if a previous build has not.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fixture } from './fixtures.js';
import { REPO_ROOT } from './paths.js';

export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'js/tsconfig.json'], { cwd: REPO_ROOT, stdio: 'inherit' });
  // Worker mode's browser script, bundled from what tsc just wrote.
  execFileSync(process.execPath, ['scripts/bundle-worker.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  execFileSync(process.execPath, [tsc, '-p', 'tests/tsconfig.json'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (!existsSync(fixture('index.json'))) {
    execFileSync('python3', ['tools/pte/make_fixtures.py', 'build/fixtures'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
}
