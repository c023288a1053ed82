#!/usr/bin/env node
// npm start's server: vite's preview of the built viewer (build/demo, made
// by `bash scripts/build.sh demo`), cross-origin isolated so the page may
// use the threads build.
//
// PORT (default 8080; 0 = any free port) and HOST (default 127.0.0.1) come
// from the environment. Once listening it prints one line:
// "Trident demo: http://localhost:<port>/".

import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';

const config = fileURLToPath(new URL('vite.config.ts', import.meta.url));
const built = fileURLToPath(new URL('../build/demo/index.html', import.meta.url));

/** A port nobody listens on (vite takes a port number, not 0). */
function freePort(host) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

if (!existsSync(built)) {
  console.error('trident demo: build/demo is missing; run `bash scripts/build.sh demo` (npm start does)');
  process.exit(1);
}
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 8080) || (await freePort(host));
try {
  await preview({ configFile: config, logLevel: 'warn', preview: { host, port, strictPort: true, open: false } });
} catch (err) {
  console.error(`trident demo: cannot listen on ${host}:${port}: ${err.message}`);
  process.exit(1);
}
console.log(`Trident demo: http://localhost:${port}/`);
