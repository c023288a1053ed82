// TFRT's own executor tests, run through Trident's translator and bef-run
// under LLVM FileCheck (tests/conformance/tfrt/peer-runner.ts says how).
//
// What must hold (issue 10, acceptance 1): every test function the MANIFEST
// puts in classes a, a+t, b (and b+t) passes under FileCheck, alone and in
// its file's own RUN lines, with its expected errors verified; class c
// functions are reported unsupported, naming the kernel, and never crash. docs/tfrt-conformance.md is this report;
// `npm run tfrt-conformance` rewrites it, and this test fails when it is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { BEF_CORPUS, describeShared } from '../helpers/shared.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { readManifest } from './tfrt/manifest.js';
import { FILECHECK, runFile, type FileResult } from './tfrt/peer-runner.js';
import { renderConformance } from './tfrt/report.js';

const CORPUS_DIR = path.join(BEF_CORPUS, 'mlir_tests');
const DOC = path.join(REPO_ROOT, 'docs', 'tfrt-conformance.md');

describeShared('TFRT mlir_tests under FileCheck', () => {
  const results: FileResult[] = [];

  beforeAll(async () => {
    expect(existsSync(FILECHECK), `${FILECHECK} (Debian's llvm-14-tools)`).toBe(true);
    const manifest = readManifest(path.join(BEF_CORPUS, 'MANIFEST.md'));
    for (const [rel, entry] of [...manifest].sort(([a], [b]) => a.localeCompare(b))) {
      results.push(await runFile(CORPUS_DIR, rel, entry));
    }
  }, 600_000);

  it('translates every corpus file', () => {
    const failed = results.filter((r) => !r.translated).map((r) => `${r.file}: ${r.translateDetail}`);
    expect(failed).toEqual([]);
  });

  it('never fails a function: each passes or is reported unsupported', () => {
    const failed = results.flatMap((r) =>
      r.functions.filter((f) => f.status === 'fail').map((f) => `${r.file} @${f.name} [${f.cls ?? 'helper'}]: ${f.detail}`),
    );
    expect(failed).toEqual([]);
  });

  it('passes every function of classes a, a+t, b and b+t', () => {
    const inScope = new Set(['a', 'a+t', 'b', 'b+t']);
    const notPassing = results.flatMap((r) => {
      const fileRunsPass = r.runLines.every((l) => l.status === 'pass' || l.status === 'not applicable');
      return r.functions
        .filter((f) => f.runnable && f.cls !== undefined && inScope.has(f.cls))
        .filter((f) => !(f.status === 'pass' || (f.status === 'not applicable' && fileRunsPass)))
        .map((f) => `${r.file} @${f.name} [${f.cls}]: ${f.status} ${f.detail}`);
    });
    expect(notPassing).toEqual([]);
    const counted = results.flatMap((r) => r.functions.filter((f) => f.runnable && f.cls !== undefined && inScope.has(f.cls)));
    // The MANIFEST's count of runnable in-scope functions in the copied files.
    expect(counted.length).toBe(21 + 49 + 17 + 8);
  });

  it('reports class-c functions unsupported', () => {
    const wrong = results.flatMap((r) =>
      r.functions.filter((f) => f.cls === 'c' && f.status !== 'unsupported' && f.status !== 'not applicable').map((f) => `${r.file} @${f.name}: ${f.status}`),
    );
    expect(wrong).toEqual([]);
  });

  it('passes the RUN lines of every file whose functions are all supported', () => {
    const failed = results.flatMap((r) => {
      const allSupported = r.functions.every((f) => f.status !== 'unsupported');
      if (!allSupported) return [];
      return r.runLines.filter((l) => l.status === 'fail').map((l) => `${r.file}: ${l.run}\n${l.detail}`);
    });
    expect(failed).toEqual([]);
  });

  it('matches docs/tfrt-conformance.md', () => {
    const report = renderConformance(results);
    if (process.env['UPDATE_TFRT_CONFORMANCE'] === '1') writeFileSync(DOC, report);
    expect(readFileSync(DOC, 'utf8'), 'run `npm run tfrt-conformance` to regenerate').toBe(report);
  });
});
