#!/usr/bin/env bash
# The sanitizer pass: builds everything with clang, ASan and UBSan into
# build/fuzz, runs the C++ units there, then runs the .pte loader fuzzer for a
# a fixed number of inputs (default 300000) from a fixed seed, so a run is
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
find build/fixtures -name '*.pte' -exec cp {} "$seeds/" \; 2>/dev/null || true
if [ -d ../shared/corpus/pte ]; then
  # Small files only: the fuzzer mutates faster on them.
  find ../shared/corpus/pte \( -name '*.pte' -o -name '*.bpte' \) -size -64k \
    -exec cp {} "$seeds/" \;
fi
work=$(mktemp -d)
cp "$seeds"/* "$work/"
if [ -n "${FUZZ_SECONDS:-}" ]; then
  budget=(-max_total_time="$FUZZ_SECONDS")
else
  budget=(-seed=1 -runs="$runs")
fi
./build/fuzz/tests/fuzz/pte_fuzzer "$work" "${budget[@]}" \
  -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix=build/fuzz/found/ -print_final_stats=1 2>&1 | tail -n 12
rm -rf "$work"
