#!/usr/bin/env bash
# A subset of the native C++ units under valgrind's memcheck: the core,
# executor, kernel and BEF suites (about a minute). Clang's ASan and UBSan
# run the whole suite (scripts/fuzz.sh); memcheck is a second, independent
# tool over the plain g++ build, which also sees reads of uninitialized
# memory. Any error, or a definite or indirect leak, fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
SUITES=(core_test executor_test kernels_test bef_test bef_tensor_test)
for suite in "${SUITES[@]}"; do
  log=build/native/valgrind-$suite.log
  if ! valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --track-origins=yes --quiet ./build/native/tests/cpp/"$suite" --gtest_brief=1 >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "valgrind: $suite fails under memcheck (log: $log)" >&2
    exit 1
  fi
  echo "valgrind: $suite clean"
done
