#!/usr/bin/env bash
# npm start: builds what is missing, then serves the viewer on
# http://localhost:${PORT:-8080}/ (a preview of the vite build, with the
# bundled samples).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ ! -f dist/wasm/trident.wasm ] || [ ! -f dist/js/index.js ]; then
  bash scripts/build.sh wasm
fi
bash scripts/build.sh fixtures
if [ ! -f build/samples/index.json ]; then
  echo "start: exporting the bundled samples with PyTorch (npm run fixtures; a few minutes, once)"
  bash scripts/fixtures.sh
fi
bash scripts/build.sh demo
exec node demo/serve.mjs
