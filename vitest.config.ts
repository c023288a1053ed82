import { defineConfig } from 'vitest/config';

// JS, CLI, conformance and browser tests all run in Node against the real
// wasm build in dist/wasm/ and the compiled API in dist/js/ (the global setup
// compiles js/ first, so the tests always see the current sources).
export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.ts', 'tests/ops/**/*.test.ts', 'tests/models/**/*.test.ts', 'tests/conformance/**/*.test.ts', 'tests/browser/**/*.test.ts', 'tests/bench/**/*.test.ts', 'tests/install/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/helpers/build-js.ts'],
    // Each file gets its own process, so a runtime crash in one file cannot
    // take the others' module instance with it.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
