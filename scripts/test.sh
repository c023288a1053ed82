#!/usr/bin/env bash
# npm test: installs what is missing, builds everything, and runs every test:
# the runtime symbol check, the C++ units (ctest, and a subset under
# valgrind), the Vitest suites (JS API
# through the real wasm build, the op cases and exported models against
# PyTorch, corpus conformance, the demo in Chromium), and
# the C++ units again under ASan/UBSan, the fuzzers' regression inputs, and
# each fuzzer for a fixed time (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh all
# The real models (mobilenet_v2, resnet18, a transformer layer) from PyTorch,
# for tests/models: built here, not committed (about 125 MB).
bash scripts/fixtures.sh
# The viewer, built with the samples fixtures.sh wrote (tests/browser drive it).
bash scripts/build.sh demo
bash scripts/check-runtime-symbols.sh --self-test
bash scripts/check-runtime-symbols.sh
bash scripts/check-runtime-symbols.sh build/wasm/libtrident_runtime.a
bash scripts/check-runtime-symbols.sh build/wasm-threads/libtrident_runtime.a
(cd build/native && ctest --output-on-failure -j"$(nproc)")
bash scripts/valgrind.sh
npx vitest run
# Sanitizers and fuzzing last: they rebuild the native code with clang.
bash scripts/fuzz.sh
