#!/usr/bin/env bash
# npm start: builds (once) and serves the demo on http://localhost:${PORT:-8080}.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ ! -f dist/wasm/trident.wasm ] || [ ! -f dist/js/index.js ]; then
  bash scripts/build.sh wasm
fi
bash scripts/build.sh fixtures
exec node demo/serve.mjs
