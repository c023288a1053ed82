#!/usr/bin/env bash
# Sanitizers and fuzzing. Builds everything with clang, ASan and UBSan into
# build/fuzz, then:
#
#   scripts/fuzz.sh                  (npm test) the C++ units under the
#                                    sanitizers, every committed regression
#                                    input replayed, then each libFuzzer target
#                                    for its fixed time below (about 14 min;
#                                    FUZZ_SECONDS=N gives each N seconds)
#   scripts/fuzz.sh --replay         the regression inputs only
#   scripts/fuzz.sh --minutes N [TARGET...]
#                                    (npm run fuzz -- --minutes N pte) a long
#                                    campaign per target, one after another,
#                                    random seed; the corpus grows in
#                                    build/fuzz/corpus/TARGET across campaigns
#                                    and a summary line (executions, edges,
#                                    features, corpus, crashes) is appended to
#                                    build/fuzz/campaigns.tsv
#
# Seeds are the project's fixtures and, when present, the ../shared corpus;
# each target has a dictionary of its format's magic bytes and keywords
# (tests/fuzz/dicts). A crash, leak, hang (10 s), sanitizer report or failed
# unit fails the run; the input is left in build/fuzz/found/ and printed in
# base64, because CI keeps only what is printed. Add it to
# tests/fuzz/regressions/TARGET/ once fixed, and it is replayed from then on.
set -euo pipefail
cd "$(dirname "$0")/.."

# target: seconds in npm test, max input bytes, dictionary.
declare -A SECONDS_IN_TEST=(
  [pte]=240 [pte_struct]=180 [ptd]=30 [bpte]=45 [xnnpack]=30 [zip]=30
  [pickle]=30 [pt2]=60 [pt2_archive]=90 [bef]=60 [mlir]=30)
declare -A MAX_LEN=(
  [pte]=65536 [pte_struct]=262144 [ptd]=65536 [bpte]=262144 [xnnpack]=65536
  [zip]=262144 [pickle]=65536 [pt2]=65536 [pt2_archive]=262144 [bef]=65536 [mlir]=65536)
declare -A DICT=(
  [pte]=pte [pte_struct]=pte [ptd]=ptd [bpte]=pte [xnnpack]=xnnpack [zip]=zip
  [pickle]=pickle [pt2]=json [pt2_archive]=json [bef]=bef [mlir]=mlir)
ALL_TARGETS=(pte pte_struct ptd bpte xnnpack zip pickle pt2 pt2_archive bef mlir)

mode=test
minutes=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes)
      mode=campaign; minutes=${2:-}
      [[ "$minutes" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --minutes takes a whole number above 0" >&2; exit 2; }
      shift 2 ;;
    --replay) mode=replay; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *)
      [ -n "${SECONDS_IN_TEST[$1]:-}" ] || { echo "fuzz.sh: no target '$1' (${ALL_TARGETS[*]})" >&2; exit 2; }
      targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")

cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRIDENT_FUZZ=ON \
  -DTRIDENT_TESTS=ON -DCMAKE_CXX_COMPILER=clang++ >/dev/null
# Warnings of the clang build stay in its log; a failed build shows its tail.
if ! cmake --build build/fuzz -j"$(nproc)" >build/fuzz/build.log 2>&1; then
  tail -n 60 build/fuzz/build.log
  exit 1
fi
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
SHARED=../shared/corpus
mkdir -p build/fuzz/found
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

# corpus files under DIR matching -name PATTERN, at most MAX bytes
shared_files() {
  [ -d "$SHARED/$1" ] || return 0
  find "$SHARED/$1" -name "$2" -size -"$3"c
}

# seeds TARGET DIR: fills DIR with the target's seed inputs.
seeds() {
  local dir=$2 f
  case "$1" in
    pte|pte_struct)
      local limit=65536
      [ "$1" = pte_struct ] && limit=262144
      find build/fixtures -maxdepth 1 -name '*.pte' -size -"$limit"c -exec cp {} "$dir/" \; 2>/dev/null || true
      find build/samples -maxdepth 1 -name '*.pte' -size -"$limit"c -exec cp {} "$dir/" \; 2>/dev/null || true
      shared_files pte '*.pte' "$limit" | while read -r f; do cp "$f" "$dir/"; done
      [ "$1" = pte ] && shared_files pte '*.bpte' "$limit" | while read -r f; do cp "$f" "$dir/"; done
      ;;
    ptd) shared_files pte '*.ptd' 65536 | while read -r f; do cp "$f" "$dir/"; done ;;
    bpte)
      cp build/samples/digits.bpte "$dir/" 2>/dev/null || true
      shared_files pte '*.bpte' 262144 | while read -r f; do cp "$f" "$dir/"; done
      ;;
    xnnpack)
      local sources=(tests/ops/xnnpack_cases/*.pte)
      while IFS= read -r f; do sources+=("$f"); done < <(shared_files pte '*.pte' 65536)
      "$PYTHON" tools/pte/delegate_blobs.py "$dir" "${sources[@]}" >/dev/null
      ;;
    zip|pickle|pt2_archive)
      local archives=()
      [ -f build/samples/digits.pt2 ] && archives+=(build/samples/digits.pt2)
      while IFS= read -r f; do archives+=("$f"); done < <(shared_files pt2 '*.pt2' 262144)
      if [ "$1" = pt2_archive ]; then
        for f in "${archives[@]}"; do cp "$f" "$dir/"; done
      else
        local kind=zips
        [ "$1" = pickle ] && kind=pickles
        "$PYTHON" tests/fuzz/extract_seeds.py "$kind" "$dir" "${archives[@]}"
      fi
      ;;
    pt2)
      # The fuzzer wraps each input, a model JSON, in an archive of its own.
      cp tests/fuzz/pt2_seeds/*.json "$dir/"
      f=$SHARED/pt2/pytorch__executorch/linear.pt2
      if [ -f "$f" ]; then
        "$PYTHON" -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("linear_3/models/model.json"))' \
          "$f" "$dir/linear.json"
      fi
      ;;
    mlir|bef)
      local text=$dir
      [ "$1" = bef ] && text=$(mktemp -d)
      cp tests/fuzz/mlir_seeds/*.mlir "$text/"
      [ -d "$SHARED/bef/mlir_tests" ] &&
        find "$SHARED/bef/mlir_tests" -name '*.mlir' -exec cp --backup=numbered {} "$text/" \;
      if [ "$1" = bef ]; then
        # BEF seeds are TFRT's tests, translated by the native translator.
        for f in "$text"/*; do
          ./build/fuzz/tools/trident-mlir-to-bef "$f" -o "$dir/$(basename "$f").bef" 2>/dev/null || true
        done
        rm -rf "$text"
      fi
      ;;
  esac
  # Inputs that once failed go in as seeds too.
  [ -d "tests/fuzz/regressions/$1" ] && cp tests/fuzz/regressions/"$1"/* "$dir/"
  return 0
}

# report_failure TARGET LOG: the report's tail and each found input.
report_failure() {
  tail -n 80 "$2"
  for found in build/fuzz/found/"$1"-*; do
    [ -f "$found" ] || continue
    echo "input $found, base64:"
    base64 -w 0 "$found"
    echo
  done
}

# fuzz TARGET CORPUS SEEDS SECONDS SEED: one libFuzzer run.
fuzz() {
  local target=$1 log=build/fuzz/$1.log
  local env=()
  local program=$SHARED/pte/pytorch__executorch/extension__module__test__resources__linear.pte
  [ "$target" = ptd ] && [ -f "$program" ] && env=(TRIDENT_FUZZ_PTD_PROGRAM="$program")
  local dirs=("$2")
  [ "$3" = "$2" ] || dirs+=("$3")
  rm -f build/fuzz/found/"$target"-*
  if ! env "${env[@]}" ./build/fuzz/tests/fuzz/"$target"_fuzzer "${dirs[@]}" \
    -seed="$5" -max_total_time="$4" -max_len="${MAX_LEN[$target]}" \
    -dict=tests/fuzz/dicts/"${DICT[$target]}".dict \
    -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix=build/fuzz/found/"$target"- >"$log" 2>&1; then
    report_failure "$target" "$log"
    return 1
  fi
}

# summary TARGET LOG: executions, edges, features, corpus size, as tab-separated
# fields (libFuzzer's last status line and its final stats).
summary() {
  local execs status
  execs=$(grep -m1 'stat::number_of_executed_units' "$2" | awk '{print $2}')
  status=$(grep -E '^#[0-9]+' "$2" | grep 'cov:' | tail -n 1)
  local cov ft corp
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$status")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status")
  corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$status")
  printf '%s\texecs=%s\tedges=%s\tfeatures=%s\tcorpus=%s' "$1" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}"
}

# replay: every committed input that once failed, run once by its target.
replay() {
  local dir target inputs
  for dir in tests/fuzz/regressions/*/; do
    target=$(basename "$dir")
    inputs=("$dir"*)
    [ -f "${inputs[0]}" ] || continue
    if ! ./build/fuzz/tests/fuzz/"$target"_fuzzer "${inputs[@]}" >build/fuzz/replay-"$target".log 2>&1; then
      tail -n 80 build/fuzz/replay-"$target".log
      echo "fuzz.sh: a regression input of $target fails again" >&2
      return 1
    fi
    echo "replayed ${#inputs[@]} regression input(s) of $target"
  done
}

case "$mode" in
  replay) replay ;;
  test)
    (cd build/fuzz && ctest --output-on-failure -j"$(nproc)" | tail -n 3)
    replay
    for target in "${targets[@]}"; do
      work=$(mktemp -d)
      seeds "$target" "$work"
      fuzz "$target" "$work" "$work" "${FUZZ_SECONDS:-${SECONDS_IN_TEST[$target]}}" 1
      summary "$target" build/fuzz/"$target".log
      echo
      rm -rf "$work"
    done
    ;;
  campaign)
    replay
    for target in "${targets[@]}"; do
      corpus=build/fuzz/corpus/$target
      mkdir -p "$corpus"
      work=$(mktemp -d)
      seeds "$target" "$work"
      started=$(date -u +%FT%TZ)
      status=ok
      fuzz "$target" "$corpus" "$work" "$((minutes * 60))" 0 || status=crash
      line="$started	${minutes}min	$(summary "$target" build/fuzz/"$target".log)	$status"
      echo "$line" | tee -a build/fuzz/campaigns.tsv
      rm -rf "$work"
      [ "$status" = ok ] || exit 1
    done
    ;;
esac
