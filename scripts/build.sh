#!/usr/bin/env bash
# Builds everything from the same sources: the native runtime and tests, the
# two wasm builds (single-threaded and pthreads), and the TypeScript API.
# Output: build/native, build/wasm*, dist/wasm, dist/js; `demo` builds the
# viewer (demo/) into build/demo/ with the samples present at that time.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
# Debian's emcc needs Node to find its acorn there (ENVIRONMENT.md).
export NODE_PATH=/usr/share/nodejs

what=${1:-all}

build_native() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j"$jobs"
}

# Test programs and demo samples written by the project's own .pte writer.
build_fixtures() {
  python3 tools/pte/make_fixtures.py build/fixtures --demo build/demo-samples
}

build_wasm() {
  local dir=$1 threads=$2
  emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release \
    -DTRIDENT_WASM_THREADS="$threads" >/dev/null
  cmake --build "$dir" -j"$jobs"
}

build_js() {
  mkdir -p dist/wasm
  cp build/wasm/wasm/trident.mjs build/wasm/wasm/trident.wasm dist/wasm/
  node tools/wasm/embed_wasm.mjs dist/wasm trident
  if [ -f build/wasm-threads/wasm/trident-threads.mjs ]; then
    cp build/wasm-threads/wasm/trident-threads.* dist/wasm/
    node tools/wasm/embed_wasm.mjs dist/wasm trident-threads
  fi
  npx tsc -p js/tsconfig.json
  node scripts/bundle-worker.mjs
}

# The viewer: type-checked, then built by vite against the package as built above.
build_demo() {
  npx tsc -p demo/tsconfig.json
  npx vite build --config demo/vite.config.ts --logLevel warn
}

case "$what" in
  native) build_native; build_fixtures ;;
  fixtures) build_fixtures ;;
  wasm) build_wasm build/wasm OFF; build_wasm build/wasm-threads ON; build_js ;;
  js) build_js ;;
  demo) build_demo ;;
  all)
    build_native
    build_fixtures
    build_wasm build/wasm OFF
    build_wasm build/wasm-threads ON
    build_js
    ;;
  *) echo "usage: scripts/build.sh [all|native|fixtures|wasm|js|demo]" >&2; exit 2 ;;
esac
