// The viewer's build: vite, with the app importing 'trident-runtime' as a
// user's app does (the package resolves itself by name). The bundled
// samples are not part of the sources: `npm run fixtures` writes them to
// build/samples/ and the build writes small ones to build/demo-samples/;
// the dev and preview servers serve them under /samples/ and
// /samples/basic/, and `vite build` copies them into the site.
import { cpSync, createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Connect, type Plugin } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SAMPLE_DIRS: [string, string][] = [
  ['/samples/basic/', path.join(ROOT, 'build/demo-samples')],
  ['/samples/', path.join(ROOT, 'build/samples')],
];
// The threads build needs shared memory, which needs a cross-origin isolated page.
const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

function serveSamples(): Connect.NextHandleFunction {
  return (req, res, next) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const mount = SAMPLE_DIRS.find(([prefix]) => pathname.startsWith(prefix));
    if (!mount) return next();
    const file = path.resolve(mount[1], pathname.slice(mount[0].length));
    if (!file.startsWith(mount[1] + path.sep) || !existsSync(file) || !statSync(file).isFile()) return next();
    res.setHeader('Content-Type', file.endsWith('.json') ? 'application/json' : 'application/octet-stream');
    res.setHeader('Content-Length', statSync(file).size);
    createReadStream(file).pipe(res);
  };
}

function samples(): Plugin {
  let outDir = '';
  return {
    name: 'trident-viewer-samples',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use(serveSamples());
    },
    writeBundle() {
      for (const [prefix, dir] of SAMPLE_DIRS) {
        if (existsSync(dir)) cpSync(dir, path.join(outDir, prefix), { recursive: true, dereference: true });
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [samples()],
  server: { headers },
  preview: { headers },
  worker: { format: 'es' },
  build: { outDir: path.join(ROOT, 'build/demo'), emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2048 },
});
