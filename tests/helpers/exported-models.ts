// The exporter's output in build/ (written by scripts/fixtures.sh): a suite
// over it runs when it is there, fails under CI when it is not, and is
// reported skipped on a user's clone that has not exported it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { REPO_ROOT } from './paths.js';

export const MODELS_DIR = path.join(REPO_ROOT, 'build', 'models');
export const PT2_DIR = path.join(REPO_ROOT, 'build', 'pt2');

export interface ExportedModel {
  pte: string;
  input: string;
}

/** A suite over `dir`/index.json's `models` table (entries of type T). */
export function describeExported<T>(dir: string, title: string, body: (models: Record<string, T>) => void): void {
  const index = path.join(dir, 'index.json');
  if (existsSync(index)) {
    const models = (JSON.parse(readFileSync(index, 'utf8')) as { models: Record<string, T> }).models;
    describe(title, () => body(models));
  } else if (process.env['CI'] === 'true') {
    describe(title, () => {
      it(`needs the exported files in ${path.relative(REPO_ROOT, dir)}`, () => {
        throw new Error(`${index} is missing, but CI=true: run 'bash scripts/fixtures.sh' (npm run fixtures) first`);
      });
    });
  } else {
    console.warn(`[skipped] ${title}: ${index} does not exist (run 'bash scripts/fixtures.sh')`);
    describe.skip(title, () => body({}));
  }
}

export function describeExportedModels(title: string, body: (index: Record<string, ExportedModel>) => void): void {
  describeExported<ExportedModel>(MODELS_DIR, title, body);
}
