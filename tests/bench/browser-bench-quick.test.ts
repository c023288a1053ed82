// `npm run bench:browser -- --quick`: the browser bench's machinery end to
// end (a cross-origin isolated page in Chromium; mobilenet_v2 on 1 and 2
// threads, on the page's thread and in worker mode, and the single-threaded
// build), checking the report's
// shape and that every path's output matched PyTorch's. Timings are not
// judged here: docs/performance.md holds a full run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM } from '../helpers/chromium.js';
import { REPO_ROOT, repoPath } from '../helpers/paths.js';

const ready = (existsSync(CHROMIUM) && existsSync(repoPath('build', 'models', 'mobilenet_v2.pte'))) || process.env['CI'] === 'true';
if (!ready) console.warn(`[skipped] browser bench: needs ${CHROMIUM} and build/models`);

interface Row {
  where: string;
  threads: number;
  build: string;
  median_ms: number;
  runs: number;
}

describe.runIf(ready)('npm run bench:browser -- --quick', () => {
  it('times all four paths after checking their outputs, and says whether the target is met', () => {
    const json = path.join(mkdtempSync(path.join(tmpdir(), 'trident-bench-')), 'report.json');
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bench', 'browser.mjs'), '--quick', '--json', json], { encoding: 'utf8', cwd: REPO_ROOT });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^target: worker mode on 2 threads at least x1\.5 faster than on 1: (met|NOT met)$/m);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { rows: Row[]; max_error_rel_to_max_ref: number; speedup_worker: number; pool: number };
    expect(report.rows.map((row) => `${row.where}/${row.threads}/${row.build}`).sort()).toEqual([
      'main thread/1/single',
      'main thread/1/threads',
      'main thread/2/threads',
      'worker/1/threads',
      'worker/2/threads',
    ]);
    for (const row of report.rows) {
      expect(row.runs).toBeGreaterThanOrEqual(3);
      expect(row.median_ms).toBeGreaterThan(0);
    }
    expect(report.max_error_rel_to_max_ref).toBeLessThanOrEqual(1e-4);
    expect(report.speedup_worker).toBeGreaterThan(0);
  }, 120_000);
});
