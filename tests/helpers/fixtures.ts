// The project's own small test programs, written by tools/pte/make_fixtures.py
// into build/fixtures/ (generated, not committed; the Vitest global setup
// writes them if they are missing). tests/fixtures/README.md lists them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GoldenEntry } from './goldens.js';
import { REPO_ROOT } from './paths.js';

export const FIXTURES_DIR = path.join(REPO_ROOT, 'build', 'fixtures');

export function fixture(name: string): string {
  return path.join(FIXTURES_DIR, name);
}

export interface HostileEntry {
  description: string;
  expect: 'load_error' | 'load_or_run_error';
  error_mentions: string[];
  /** The TridentError's codeName. */
  error_code: string;
  run?: { method: string; inputs: unknown[] };
}

export interface FixtureIndex {
  goldens: Record<string, GoldenEntry & { description: string; methods: Record<string, unknown> }>;
  hostile: Record<string, HostileEntry>;
}

export function readFixtureIndex(): FixtureIndex {
  return JSON.parse(readFileSync(fixture('index.json'), 'utf8')) as FixtureIndex;
}
