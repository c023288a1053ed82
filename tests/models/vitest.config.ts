// Runs only the exported-model suite: npx vitest run -c tests/models/vitest.config.ts
// (the root vitest.config.ts runs it with everything else).
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default defineConfig({
  test: {
    ...base.test,
    root: new URL('../../', import.meta.url).pathname,
    include: ['tests/models/**/*.test.ts'],
  },
});
