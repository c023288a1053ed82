// Trident as an app's dependency: the packed tarball installed into fresh
// apps, each built by a bundler with its default settings (no copy step,
// only a COOP/COEP `headers` setting), served, and run in Chromium on the
// XNNPACK mobilenet_v2 from build/models, single-threaded on a plain page
// and with threads on a cross-origin isolated one. The bundlers are
// installed once into build/install-test/ and shared by the apps; only the
// tarball is installed again on each run.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { REPO_ROOT, repoPath } from '../helpers/paths.js';
import { serveStatic, type StaticServer } from '../helpers/static-server.js';

const MODELS = repoPath('build', 'models');
const MODEL = 'mobilenet_v2_xnnpack';
const HERE = repoPath('tests', 'install');
const INSTALL_DIR = repoPath('build', 'install-test');

/** Exact versions, so that a run is reproducible; raise them on purpose. */
const BUNDLERS: Record<string, string> = {
  vite: '6.4.6',
  webpack: '5.113.0',
  'webpack-cli': '7.3.1',
  esbuild: '0.28.2',
  next: '16.4.6',
  react: '19.3.1',
  'react-dom': '19.3.1',
};

interface App {
  name: string;
  /** Files of the app: destination -> template under tests/install/. */
  files: Record<string, string>;
  /** The bundler's command line, run in the app's folder; its output goes to dist/. */
  build?: string[];
  /**
   * The app's own server (a dev server, or the framework's server for its
   * build), whose command line ends with the port; it sends COOP/COEP
   * itself and serves public/ at /.
   */
  server?: string[];
  /** Whether the app serves the wasm as a file (else the package's embedded copy runs). */
  emitsWasm: boolean;
  /** No build: the page imports the package from another origin, as from a CDN, through an import map. */
  cdn?: boolean;
}

const APPS: App[] = [
  {
    // vite's dev server pre-bundles dependencies into node_modules/.vite/,
    // where `new URL('../../wasm/...', import.meta.url)` finds nothing: the
    // package's embedded copy of the wasm runs instead.
    name: 'vite dev server',
    files: { 'index.html': 'bundlers/vite/index.html', 'vite.config.js': 'bundlers/vite/vite.config.js', 'src/main.js': 'app/main.js' },
    server: ['vite', '--strictPort', '--port'],
    emitsWasm: false,
  },
  {
    name: 'vite',
    files: { 'index.html': 'bundlers/vite/index.html', 'vite.config.js': 'bundlers/vite/vite.config.js', 'src/main.js': 'app/main.js' },
    build: ['vite', 'build'],
    emitsWasm: true,
  },
  {
    // webpack 5's defaults: src/index.js in, dist/main.js out.
    name: 'webpack',
    files: { 'src/index.js': 'app/main.js', 'dist/index.html': 'bundlers/index.html' },
    build: ['webpack', '--mode', 'production'],
    emitsWasm: true,
  },
  {
    // A plain page: <script type="module"> and an import map naming the
    // package's entry on a CDN (another origin, served with CORS).
    name: 'CDN',
    files: { 'main.js': 'app/main.js' },
    emitsWasm: true,
    cdn: true,
  },
  {
    // A client component of the app router, built by Next.js's default
    // bundler (Turbopack) and served by `next start`.
    name: 'Next.js',
    files: {
      'app/layout.js': 'bundlers/next/layout.js',
      'app/page.js': 'bundlers/next/page.js',
      'app/trident-check.js': 'app/main.js',
      'next.config.mjs': 'bundlers/next/next.config.mjs',
    },
    build: ['next', 'build'],
    server: ['next', 'start', '-p'],
    emitsWasm: true,
  },
  {
    name: 'esbuild',
    files: { 'src/main.js': 'app/main.js', 'dist/index.html': 'bundlers/index.html' },
    // esbuild leaves `new URL(..., import.meta.url)` alone (evanw/esbuild#795)
    // and inlines the package's embedded copy of the wasm.
    build: ['esbuild', 'src/main.js', '--bundle', '--format=esm', '--outdir=dist'],
    emitsWasm: false,
  },
];

const haveModels = existsSync(path.join(MODELS, `${MODEL}.pte`));
const haveChromium = existsSync(CHROMIUM);
const ready = (haveModels && haveChromium) || process.env['CI'] === 'true';
if (!ready) console.warn(`[skipped] install test: needs ${CHROMIUM} and build/models (npm test makes them)`);

let installed = false;
let tarballBytes = 0;

/** Installs the bundlers (once) and the freshly packed tarball into INSTALL_DIR. */
function install(): void {
  if (installed) return;
  installed = true;
  mkdirSync(INSTALL_DIR, { recursive: true });
  const manifest = path.join(INSTALL_DIR, 'package.json');
  const wanted = { name: 'trident-install-test', private: true, type: 'module', dependencies: { ...BUNDLERS } };
  const current = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> }) : {};
  const bundlersMatch = Object.entries(BUNDLERS).every(([name, version]) => current.dependencies?.[name] === version);
  if (!bundlersMatch || !existsSync(path.join(INSTALL_DIR, 'node_modules', '.bin', 'vite'))) {
    writeFileSync(manifest, JSON.stringify(wanted, null, 2));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: INSTALL_DIR, stdio: 'pipe' });
  }
  const packDir = mkdtempSync(path.join(tmpdir(), 'trident-pack-'));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: REPO_ROOT, encoding: 'utf8' }).trim().split('\n').at(-1)!;
  tarballBytes = statSync(path.join(packDir, tarball)).size;
  // --no-save: package.json keeps naming only the bundlers, so the check
  // above still holds on the next run.
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', path.join(packDir, tarball)], {
    cwd: INSTALL_DIR,
    stdio: 'pipe',
  });
  rmSync(packDir, { recursive: true, force: true });
}

function makeApp(app: App): string {
  const dir = path.join(INSTALL_DIR, 'apps', app.name.replaceAll(' ', '-'));
  rmSync(dir, { recursive: true, force: true });
  for (const [to, from] of Object.entries(app.files)) {
    mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    cpSync(path.join(HERE, from), path.join(dir, to));
  }
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `app-${app.name}`, private: true, type: 'module' }));
  return dir;
}

function bin(name: string): string {
  return path.join(INSTALL_DIR, 'node_modules', '.bin', name);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts an app's server and resolves to its URL once it prints one. */
function startServer(command: string, args: string[], cwd: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const url = /(http:\/\/localhost:\d+)/.exec(out.replace(/\x1b\[[0-9;]*m/g, ''))?.[1];
      if (url) resolve({ child, url: `${url}/` });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${path.basename(command)} exited with ${code} before serving: ${out}`)));
  });
}

interface PageResult {
  ok: boolean;
  error?: string;
  maxError?: number;
  threads?: boolean;
  numThreads?: number;
  wasm?: string;
  worker?: boolean;
  crossOriginIsolated?: boolean;
}

describe.runIf(ready)('trident-runtime installed into a Node app', () => {
  let dir: string;
  beforeAll(() => {
    install();
    dir = makeApp({ name: 'node', files: { 'main.mjs': 'app/node.mjs' }, emitsWasm: true });
  }, 600_000);

  it('packs into a tarball under 3 MB (both wasm builds, their embedded copies, the worker script)', () => {
    expect(tarballBytes).toBeGreaterThan(1 << 20);
    expect(tarballBytes).toBeLessThan(3 * 1000 * 1000);
  });

  for (const [threads, worker] of [[false, false], [true, false], [true, true]] as const) {
    it(`runs a .pte, a .pt2 and MLIR text from file paths ${threads ? 'with threads' : 'single-threaded'}${worker ? ', in worker mode' : ''}`, () => {
      const args = [
        path.join(MODELS, 'mlp_tiny.pte'),
        repoPath('build', 'pt2', 'mlp_tiny.core.C.pt2'),
        path.join(MODELS, 'mlp_tiny.input.npy'),
        path.join(MODELS, 'mlp_tiny.expected.npy'),
        threads ? '1' : '0',
        worker ? '1' : '0',
      ];
      const out = execFileSync(process.execPath, ['main.mjs', ...args], { cwd: dir, encoding: 'utf8' });
      const result = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, { format?: string; error?: number; outputs?: unknown[] }> & {
        threads: boolean;
        wasm: string;
        worker: boolean;
      };
      expect(result['pte']).toEqual({ format: 'pte', error: expect.any(Number) });
      expect(result['pte']!.error).toBeLessThanOrEqual(1e-4);
      expect(result['pt2']).toEqual({ format: 'pt2', error: expect.any(Number) });
      expect(result['pt2']!.error).toBeLessThanOrEqual(1e-4);
      expect(result['mlir']).toEqual({ format: 'mlir', outputs: [3, 1] });
      expect(result.threads).toBe(threads);
      expect(result['worker']).toBe(worker);
      // The package's own file, by path: not the embedded copy.
      expect(result.wasm).toMatch(/^file:.*node_modules\/trident-runtime\/dist\/wasm\/trident(-threads)?\.wasm$/);
    });
  }
});

describe.runIf(ready)('trident-runtime installed into bundled apps', () => {
  let context: BrowserContext;
  const servers: StaticServer[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    install();
    context = await launchChromium();
  }, 600_000);

  afterAll(async () => {
    await context?.close();
    for (const server of servers) await server.close();
    for (const child of children) child.kill();
  });

  /** Opens `url` and waits for the page's verdict. */
  async function run(url: string): Promise<PageResult & { console: string[] }> {
    const page = await context.newPage();
    const lines: string[] = [];
    page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (err) => lines.push(`pageerror: ${err.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) lines.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    try {
      await page.goto(url);
      await page.waitForFunction(() => (window as { __trident?: unknown }).__trident !== undefined, undefined, { timeout: 45_000 }).catch((err: Error) => {
        throw new Error(`${err.message}\nthe page's console:\n${lines.join('\n')}`);
      });
      const result = (await page.evaluate(() => (window as { __trident?: unknown }).__trident)) as PageResult;
      return { ...result, console: lines };
    } finally {
      await page.close();
    }
  }

  function expectRan(result: PageResult & { console: string[] }, app: App, threads: boolean, worker = false): void {
    const context = JSON.stringify(result, null, 1);
    expect(result.error, context).toBeUndefined();
    expect(result.ok, context).toBe(true);
    expect(result.threads, context).toBe(threads);
    expect(result.worker, context).toBe(worker);
    if (threads) expect(result.numThreads, context).toBeGreaterThan(1);
    if (app.emitsWasm) {
      expect(result.wasm, context).toMatch(/^http:.*\.wasm$/);
      // Nothing missing: the loader found every file where the bundler put it.
      expect(result.console.filter((line) => line.startsWith('HTTP')), context).toEqual([]);
    } else {
      expect(result.wasm, context).toBe('embedded');
    }
  }

  for (const app of APPS) {
    describe(app.name, () => {
      let plain: StaticServer;
      let isolated: StaticServer;
      let plainUrl: string;
      let isolatedUrl: string;
      beforeAll(async () => {
        const dir = makeApp(app);
        if (app.server) {
          // The app's server serves public/ at /: the model files go there.
          mkdirSync(path.join(dir, 'public', '__models'), { recursive: true });
          for (const suffix of ['.pte', '.json', '.input.npy', '.expected.npy']) {
            cpSync(path.join(MODELS, `${MODEL}${suffix}`), path.join(dir, 'public', '__models', `${MODEL}${suffix}`));
          }
        }
        if (app.cdn) {
          const cdn = await serveStatic(path.join(INSTALL_DIR, 'node_modules', 'trident-runtime'), MODELS, { cors: true });
          servers.push(cdn);
          const imports = JSON.stringify({ imports: { 'trident-runtime': `${cdn.url}dist/js/index.js` } });
          writeFileSync(
            path.join(dir, 'index.html'),
            `<!doctype html>\n<html><head><meta charset="utf-8" /><script type="importmap">${imports}</script></head>\n` +
              '<body><script type="module" src="./main.js"></script></body></html>\n',
          );
        }
        const [command, ...args] = app.build ?? [];
        if (command !== undefined) {
          const output = execFileSync(bin(command), args, { cwd: dir, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
          // A browser build must not reach for Node's modules.
          expect(output).not.toMatch(/node:|externaliz|Could not resolve|Module not found/);
        }
        if (app.server) {
          const [server, ...serverArgs] = app.server;
          const { child, url } = await startServer(bin(server!), [...serverArgs, String(await freePort())], dir);
          children.push(child);
          plainUrl = isolatedUrl = url;
          return;
        }
        const root = app.cdn ? dir : path.join(dir, 'dist');
        const plain = await serveStatic(root, MODELS);
        const isolated = await serveStatic(root, MODELS, { isolated: true });
        servers.push(plain, isolated);
        plainUrl = plain.url;
        isolatedUrl = isolated.url;
      }, 300_000);

      it('runs single-threaded', async () => {
        if (app.server) {
          expectRan(await run(`${plainUrl}?model=${MODEL}&threads=0`), app, false);
          return;
        }
        // On a page that is not cross-origin isolated, the default picks the
        // single-threaded build and says why.
        const result = await run(`${plainUrl}?model=${MODEL}`);
        expectRan(result, app, false);
        expect(result.console.join('\n')).toContain('using the single-threaded build: this page is not cross-origin isolated');
      });

      it('runs with threads on a cross-origin isolated page', async () => {
        expectRan(await run(`${isolatedUrl}?model=${MODEL}&threads=1`), app, true);
      });

      it('runs in worker mode, with threads in the worker', async () => {
        expectRan(await run(`${isolatedUrl}?model=${MODEL}&threads=1&worker=1`), app, true, true);
      });
    });
  }
});
