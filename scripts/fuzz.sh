#!/usr/bin/env bash
# The sanitizer pass: builds everything with clang, ASan and UBSan into
# build/fuzz, runs the C++ units there, then runs the .pte loader fuzzer for a
# a fixed number of inputs (default 300000) and the XnnpackBackend payload
# fuzzer, the PT2 model fuzzer and the BEF file and MLIR text fuzzers for a
# third of that each, from a fixed seed, so a run is
# reproducible: the same tree gives the same inputs. Seeds are the project's
# fixtures and, when present, the ../shared corpus. FUZZ_SECONDS=N fuzzes for
# N seconds with a random seed instead, for exploring. A test failure, crash, leak or sanitizer report fails
# the run and leaves the fuzzer's input in build/fuzz/found/.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-300000}
cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRIDENT_FUZZ=ON \
  -DTRIDENT_TESTS=ON -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build build/fuzz -j"$(nproc)" >/dev/null
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
(cd build/fuzz && ctest --output-on-failure -j"$(nproc)" | tail -n 3)
seeds=build/fuzz/seeds
mkdir -p "$seeds" build/fuzz/found
rm -f build/fuzz/found/*
find build/fixtures -name '*.pte' -exec cp {} "$seeds/" \; 2>/dev/null || true
if [ -d ../shared/corpus/pte ]; then
  # Small files only: the fuzzer mutates faster on them.
  find ../shared/corpus/pte \( -name '*.pte' -o -name '*.bpte' \) -size -64k \
    -exec cp {} "$seeds/" \;
fi
# run_fuzzer TARGET SEED_DIR RUNS: a fixed-seed run of RUNS inputs, or
# FUZZ_SECONDS of exploration; the seed folder is consumed.
run_fuzzer() {
  local budget
  if [ -n "${FUZZ_SECONDS:-}" ]; then
    budget=(-max_total_time="$FUZZ_SECONDS")
  else
    budget=(-seed=1 -runs="$3")
  fi
  local log=build/fuzz/$1.log
  if ! ./build/fuzz/tests/fuzz/"$1" "$2" "${budget[@]}" \
    -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix=build/fuzz/found/"$1"- -print_final_stats=1 >"$log" 2>&1; then
    # CI keeps only what is printed: the report's stack and the input
    # itself (base64, at most 64 KiB), so a failure seen only there can be
    # replayed here.
    tail -n 80 "$log"
    for found in build/fuzz/found/"$1"-*; do
      [ -f "$found" ] || continue
      echo "input $found, base64:"
      base64 -w 0 "$found"
      echo
    done
    exit 1
  fi
  tail -n 12 "$log"
  rm -rf "$2"
}

work=$(mktemp -d)
cp "$seeds"/* "$work/"
# Inputs that once failed go first, as seeds (tests/fuzz/regressions/).
cp tests/fuzz/regressions/pte/* "$work/"
run_fuzzer pte_fuzzer "$work" "$runs"

# XNNPACK payloads: seeds are the delegate blobs of the node cases (and of
# the corpus), extracted from their .pte files.
xwork=$(mktemp -d)
blob_sources=(tests/ops/xnnpack_cases/*.pte)
if [ -d ../shared/corpus/pte ]; then
  while IFS= read -r f; do blob_sources+=("$f"); done < <(find ../shared/corpus/pte -name '*.pte' -size -64k)
fi
python3 tools/pte/delegate_blobs.py "$xwork" "${blob_sources[@]}" >/dev/null
# Inputs that once crashed it, replayed first as seeds.
cp tests/fuzz/regressions/xnnpack/* "$xwork/"
run_fuzzer xnnpack_fuzzer "$xwork" "$((runs / 3))"

# PT2: the fuzzer wraps each input, a model JSON, in an archive of its own.
# Seeds are the project's seed graphs and, when present, linear.pt2's.
pwork=$(mktemp -d)
cp tests/fuzz/pt2_seeds/*.json "$pwork/"
if [ -f ../shared/corpus/pt2/pytorch__executorch/linear.pt2 ]; then
  python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("linear_3/models/model.json"))' \
    ../shared/corpus/pt2/pytorch__executorch/linear.pt2 "$pwork/linear.json"
fi
run_fuzzer pt2_fuzzer "$pwork" "$((runs / 3))"

# BEF: seeds are the project's MLIR seeds and, when present, TFRT's own
# tests, translated by the native translator; the MLIR fuzzer mutates the
# text itself.
mwork=$(mktemp -d)
bwork=$(mktemp -d)
cp tests/fuzz/mlir_seeds/*.mlir "$mwork/"
if [ -d ../shared/corpus/bef/mlir_tests ]; then
  find ../shared/corpus/bef/mlir_tests -name '*.mlir' -exec cp --backup=numbered {} "$mwork/" \;
fi
for f in "$mwork"/*; do
  ./build/fuzz/tools/trident-mlir-to-bef "$f" -o "$bwork/$(basename "$f").bef" 2>/dev/null || true
done
run_fuzzer bef_fuzzer "$bwork" "$((runs / 3))"
run_fuzzer mlir_fuzzer "$mwork" "$((runs / 6))"
