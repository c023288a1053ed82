// A static server for browser tests: a folder at /, and the exported models
// (build/models) at /__models/. With
// `isolated`, every response carries COOP/COEP, so the page is cross-origin
// isolated and may use the threads build (a worker script needs the headers
// too, not only the page). With `cors`, it serves files to other origins as
// a CDN does (jsDelivr and unpkg send both headers).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  isolated?: boolean;
  cors?: boolean;
  /** Collects the path of every request served. */
  requests?: string[];
}

export async function serveStatic(root: string, models: string, { isolated = false, cors = false, requests }: ServeOptions = {}): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    requests?.push(pathname);
    const [base, rest] = pathname.startsWith('/__models/') ? [models, pathname.slice('/__models/'.length)] : [root, pathname.slice(1)];
    const file = path.join(base, rest === '' || rest.endsWith('/') ? `${rest}index.html` : rest);
    const headers: Record<string, string> = {
      ...(isolated ? ISOLATION_HEADERS : {}),
      ...(cors ? { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' } : {}),
    };
    if (!file.startsWith(base)) {
      res.writeHead(403, headers).end();
      return;
    }
    stat(file).then(
      (info) => {
        if (!info.isFile()) throw new Error('not a file');
        headers['Content-Type'] = MIME[path.extname(file)] ?? 'application/octet-stream';
        headers['Content-Length'] = String(info.size);
        res.writeHead(200, headers);
        createReadStream(file).pipe(res);
      },
      () => res.writeHead(404, headers).end(`${pathname} not found`),
    ).catch(() => res.writeHead(404, headers).end(`${pathname} not found`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
