// The package's wasm-side files, each named by a literal
// `new URL('...', import.meta.url)`: the form vite, webpack 5, Rollup and
// Parcel recognise and emit as an asset, so an app's build serves them with
// no copy step and no config. Keep every path a string literal: a bundler
// sees nothing built at run time.
//
// Layout: this file compiles to dist/js/native/wasm-files.js and the build
// puts the module in dist/wasm/, hence ../../wasm/.

import type { WasmFile } from '../env.js';

export const WASM_FILES: readonly WasmFile[] = [
  'trident.wasm',
  'trident.mjs',
  'trident-threads.wasm',
  'trident-threads.mjs',
  'trident-threads.worker.js',
];

/** Where the package itself keeps `file` (after an app's bundler, where it emitted it). */
export function packagedFile(file: WasmFile): URL {
  return absoluteUrl(bundledUrl(file));
}

/**
 * `url` resolved against the page. Turbopack (Next.js) turns
 * `new URL('…', import.meta.url)` into a URL whose href is a bare path
 * ('/_next/static/media/…'), which a worker (whose base is a blob: URL)
 * could not import.
 */
export function absoluteUrl(url: URL): URL {
  return new URL(url.href, (globalThis as { location?: { href?: string } }).location?.href);
}

function bundledUrl(file: WasmFile): URL {
  switch (file) {
    case 'trident.wasm':
      return new URL('../../wasm/trident.wasm', import.meta.url);
    case 'trident.mjs':
      return new URL('../../wasm/trident.mjs', import.meta.url);
    case 'trident-threads.wasm':
      return new URL('../../wasm/trident-threads.wasm', import.meta.url);
    case 'trident-threads.mjs':
      return new URL('../../wasm/trident-threads.mjs', import.meta.url);
    case 'trident-threads.worker.js':
      return new URL('../../wasm/trident-threads.worker.js', import.meta.url);
  }
}
