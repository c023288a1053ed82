#!/usr/bin/env node
// The demo's static server (npm start): serves demo/ at / and dist/ at
// /dist/, with no dependencies. It sends COOP/COEP so the page is
// cross-origin isolated and the loader may pick the threads build.
//
// PORT (default 8080; 0 = any free port) and HOST (default 127.0.0.1) come
// from the environment. Once listening it prints one line:
// "Trident demo: http://localhost:<port>/".

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** URL prefix -> folder under the repo root; first match wins. */
const MOUNTS = [
  ['/dist/', path.join(ROOT, 'dist')],
  ['/', path.join(ROOT, 'demo')],
];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export function createDemoServer() {
  return createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, `internal error: ${err.message}`));
  });
}

async function handle(req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
  } catch {
    return send(res, 400, 'bad request path');
  }
  const file = resolveFile(pathname);
  if (file === null) return send(res, 403, 'forbidden');
  const info = await stat(file).catch(() => null);
  if (info?.isDirectory()) return send(res, 301, 'moved', { Location: `${pathname}/` });
  if (!info?.isFile()) return send(res, 404, `not found: ${pathname}`);
  res.writeHead(200, {
    'Content-Type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': 'no-cache',
    ...ISOLATION_HEADERS,
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file).on('error', () => res.destroy()).pipe(res);
}

/** The file for a URL path, or null if it would escape its mount. */
function resolveFile(pathname) {
  const [prefix, dir] = MOUNTS.find(([p]) => pathname.startsWith(p));
  const relative = pathname.slice(prefix.length) || 'index.html';
  const file = path.resolve(dir, relative.endsWith('/') ? `${relative}index.html` : relative);
  return file === dir || file.startsWith(dir + path.sep) ? file : null;
}

function send(res, status, text, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...ISOLATION_HEADERS, ...headers });
  res.end(`${text}\n`);
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const port = Number(process.env.PORT ?? 8080);
  const host = process.env.HOST ?? '127.0.0.1';
  const server = createDemoServer();
  server.on('error', (err) => {
    console.error(`trident demo: cannot listen on ${host}:${port}: ${err.message}`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    console.log(`Trident demo: http://localhost:${server.address().port}/`);
  });
}
