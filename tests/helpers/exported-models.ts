// The exporter's models in build/models (written by scripts/fixtures.sh):
// a suite over them runs when they are there, fails under CI when they are
// not, and is reported skipped on a user's clone that has not exported them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { REPO_ROOT } from './paths.js';

export const MODELS_DIR = path.join(REPO_ROOT, 'build', 'models');
const INDEX = path.join(MODELS_DIR, 'index.json');

export interface ExportedModel {
  pte: string;
  input: string;
}

export function describeExportedModels(title: string, body: (index: Record<string, ExportedModel>) => void): void {
  if (existsSync(INDEX)) {
    const index = (JSON.parse(readFileSync(INDEX, 'utf8')) as { models: Record<string, ExportedModel> }).models;
    describe(title, () => body(index));
  } else if (process.env['CI'] === 'true') {
    describe(title, () => {
      it('needs the exported models in build/models', () => {
        throw new Error(`${INDEX} is missing, but CI=true: run 'bash scripts/fixtures.sh' first`);
      });
    });
  } else {
    console.warn(`[skipped] ${title}: ${INDEX} does not exist (run 'bash scripts/fixtures.sh')`);
    describe.skip(title, () => body({}));
  }
}
