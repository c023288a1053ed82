#!/usr/bin/env bash
# Copies the viewer test's screenshots (build/test-artifacts/viewer/, written
# by tests/browser/viewer.test.ts) that demo/README.md shows into demo/docs/,
# reduced to 256 colors. Run the test first:
#   npx vitest run tests/browser/viewer.test.ts && bash scripts/viewer-screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 - <<'PY'
import glob, os
from PIL import Image
shots = {
    'xnnpack-subgraph-details': 'graph.png',
    'large-large_5000': 'large-graph.png',
    'weights-mobilenet_v2': 'weights.png',
    'draw-digits-0': 'run-digits.png',
    'sample-mobilenet_v2_xnnpack-run': 'run-image.png',
    'profile-mobilenet_v2': 'profile.png',
    'profile-xnnpack': 'profile-xnnpack.png',
    'theme-dark': 'dark.png',
}
for step, name in shots.items():
    found = sorted(glob.glob(f'build/test-artifacts/viewer/*-{step}.png'))
    if not found:
        raise SystemExit(f'no screenshot of step {step}: run tests/browser/viewer.test.ts first')
    Image.open(found[-1]).convert('RGB').quantize(256).save(os.path.join('demo/docs', name), optimize=True)
    print(name, os.path.getsize(os.path.join('demo/docs', name)))
PY
