#!/usr/bin/env bash
# Installs what the build and tests need on a Debian 12 machine, skipping
# whatever is already there. Safe to run repeatedly; npm test and npm start
# call it first.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: the toolchain (Emscripten 3.1.6 is the only one that
# installs here), flatbuffers and JSON headers, GoogleTest, and Chromium for
# the browser tests. See ../shared/ENVIRONMENT.md.
packages=(cmake make g++ clang libclang-rt-14-dev emscripten libflatbuffers-dev flatbuffers-compiler
          nlohmann-json3-dev libgtest-dev chromium valgrind)
# PyTorch 1.13 for /usr/bin/python3: the model exporter (scripts/fixtures.sh) and its ONNX twins;
# scikit-learn for its bundled 8x8 digits, on which the viewer's digit sample is trained.
packages+=(python3-torch python3-torchvision python3-onnx python3-sklearn)
missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm packages, from the lockfile.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
