#!/usr/bin/env bash
# The portable runtime takes all memory from caller-provided allocators and
# builds without exceptions or RTTI. This proves it on a built library
# (default build/native/libtrident_runtime.a; the wasm ones are checked the
# same way): no object references malloc and its family, the other libc
# functions that allocate (strdup, asprintf, getline, ...), operator
# new/delete, exception machinery or type_info; and the library was compiled
# with -fno-exceptions -fno-rtti and with alloca and variable-length arrays
# made errors (stack memory leaves no symbol to find).
#
#   check-runtime-symbols.sh [LIB]   check one library
#   check-runtime-symbols.sh --self-test
#                                    plant each forbidden kind in a library of
#                                    its own, natively and for wasm, and prove
#                                    the check fails on every one
set -euo pipefail
cd "$(dirname "$0")/.."

NM=nm
if [ -x /usr/lib/llvm-14/bin/llvm-nm ]; then NM=/usr/lib/llvm-14/bin/llvm-nm; fi
# Demangled names that must not appear as undefined references.
FORBIDDEN='^(malloc|calloc|realloc|reallocarray|free|cfree|aligned_alloc|posix_memalign|memalign|valloc|pvalloc|__libc_malloc|__libc_calloc|__libc_realloc|__libc_free|strdup|__strdup|strndup|__strndup|wcsdup|asprintf|vasprintf|__asprintf|getline|getdelim|__getdelim|open_memstream|open_wmemstream|fmemopen|realpath|tempnam|scandir|scandir64|glob|glob64|mmap|mmap64|sbrk|brk|fopen|fopen64|fdopen|dlopen|operator new|operator delete|__cxa_allocate_exception|__cxa_throw|__cxa_begin_catch|__cxa_rethrow|__gxx_personality_v0|__dynamic_cast|typeinfo for|vtable for __cxxabiv1)\b'
REQUIRED_FLAGS=(-fno-exceptions -fno-rtti -Werror=alloca -Werror=vla)

# check_symbols LIB: fails, listing them, on forbidden references; fails too
# when nm cannot read every object (an unreadable library proves nothing).
check_symbols() {
  local lib=$1 listing members read_objects errors
  errors=$(mktemp)
  if ! listing=$("$NM" --undefined-only --format=posix --print-file-name "$lib" 2>"$errors") ||
    grep -qv 'no symbols' "$errors"; then
    echo "check-runtime-symbols: $NM cannot read every object of $lib:" >&2
    sed -n '1,5s/^/  /p' "$errors" >&2
    rm -f "$errors"
    return 1
  fi
  rm -f "$errors"
  members=$(ar t "$lib" | wc -l)
  # nm says when it cannot read an object (above); this also catches a
  # library it reads no symbols from at all.
  read_objects=$("$NM" --defined-only --format=posix --print-file-name "$lib" 2>/dev/null |
    sed -n 's/^[^[]*\[\([^]]*\)\]:.*/\1/p' | sort -u | wc -l)
  if [ "$members" -eq 0 ] || [ "$read_objects" -eq 0 ]; then
    echo "check-runtime-symbols: $NM read no symbols from the $members objects in $lib" >&2
    return 1
  fi
  local undefined bad
  undefined=$(awk 'NF >= 3 {print $2}' <<<"$listing" | sort -u | c++filt)
  bad=$(grep -E "$FORBIDDEN" <<<"$undefined" || true)
  if [ -n "$bad" ]; then
    echo "check-runtime-symbols: $lib references forbidden symbols:" >&2
    printf '%s\n' "$bad" | sed 's/^/  /' >&2
    return 1
  fi
  echo "check-runtime-symbols: $lib: $members objects, no allocator, exception or RTTI references"
}

# check_flags FLAGS_MAKE: every required flag is among the runtime's CXX_FLAGS.
check_flags() {
  local flags_file=$1 line flag
  [ -f "$flags_file" ] || { echo "check-runtime-symbols: no $flags_file (is the library built by cmake?)" >&2; return 1; }
  line=$(grep -m1 '^CXX_FLAGS' "$flags_file")
  for flag in "${REQUIRED_FLAGS[@]}"; do
    if ! grep -qw -- "$flag" <<<"$line"; then
      echo "check-runtime-symbols: $flags_file lacks $flag" >&2
      return 1
    fi
  done
  echo "check-runtime-symbols: compiled with ${REQUIRED_FLAGS[*]}"
}

# self_test COMPILER SUFFIX: one library per forbidden kind, each of which the
# check must refuse; alloca and a VLA must not compile with the flags.
self_test() {
  local cxx=$1 kind=$2 dir
  dir=$(mktemp -d)
  declare -A planted=(
    [new]='void* f() { return new int(3); }'
    [malloc]='#include <cstdlib>
void* f() { return std::malloc(8); }'
    [strdup]='#include <cstring>
char* f(const char* s) { return strdup(s); }'
    [asprintf]='#include <cstdio>
char* f(int x) { char* s = nullptr; return asprintf(&s, "%d", x) < 0 ? nullptr : s; }'
    [getline]='#include <cstdio>
long f(FILE* in) { char* line = nullptr; size_t n = 0; return getline(&line, &n, in); }'
    [throw]='int f(int x) { if (x) throw x; return 0; }'
    [typeid]='#include <typeinfo>
const char* f() { return typeid(long).name(); }'
  )
  local name failed=0
  for name in "${!planted[@]}"; do
    printf '%s\n' "${planted[$name]}" >"$dir/$name.cpp"
    "$cxx" -c "$dir/$name.cpp" -o "$dir/$name.o" 2>/dev/null
    rm -f "$dir/lib$name.a"
    ar rcs "$dir/lib$name.a" "$dir/$name.o"
    if check_symbols "$dir/lib$name.a" >/dev/null 2>&1; then
      echo "check-runtime-symbols: self-test FAILED ($kind): a call to $name went unnoticed" >&2
      failed=1
    fi
  done
  # The control: a clean library passes, so the refusals above are for
  # what was planted and not because nm cannot read this compiler's objects.
  printf 'int f(int x) { return x * 2; }\n' >"$dir/clean.cpp"
  "$cxx" "${REQUIRED_FLAGS[@]}" -c "$dir/clean.cpp" -o "$dir/clean.o"
  ar rcs "$dir/libclean.a" "$dir/clean.o"
  if ! check_symbols "$dir/libclean.a" >/dev/null 2>&1; then
    echo "check-runtime-symbols: self-test FAILED ($kind): a clean library was refused" >&2
    failed=1
  fi
  printf 'int f(int n) { char* p = (char*)__builtin_alloca(n); p[0] = 1; return p[0]; }\n' >"$dir/alloca.cpp"
  printf 'int f(int n) { char p[n]; p[0] = 1; return p[0]; }\n' >"$dir/vla.cpp"
  for name in alloca vla; do
    if "$cxx" "${REQUIRED_FLAGS[@]}" -c "$dir/$name.cpp" -o "$dir/$name.o" 2>/dev/null; then
      echo "check-runtime-symbols: self-test FAILED ($kind): $name compiled with ${REQUIRED_FLAGS[*]}" >&2
      failed=1
    fi
  done
  # An archive nm cannot read proves nothing, and must fail the check.
  printf 'not an object' >"$dir/junk.o"
  rm -f "$dir/libjunk.a"
  ar rcs "$dir/libjunk.a" "$dir/junk.o"
  if check_symbols "$dir/libjunk.a" >/dev/null 2>&1; then
    echo "check-runtime-symbols: self-test FAILED ($kind): an unreadable library passed" >&2
    failed=1
  fi
  rm -rf "$dir"
  [ "$failed" = 0 ] || return 1
  echo "check-runtime-symbols: self-test ok ($kind: ${#planted[@]} planted references, alloca, a VLA and an unreadable library refused; a clean library passes)"
}

if [ "${1:-}" = "--self-test" ]; then
  self_test c++ native
  if command -v em++ >/dev/null; then
    # Debian's Emscripten finds acorn only here (ENVIRONMENT.md).
    NODE_PATH=/usr/share/nodejs self_test em++ wasm
  else
    echo "check-runtime-symbols: self-test needs em++ for the wasm half" >&2
    exit 1
  fi
  exit 0
fi

lib=${1:-build/native/libtrident_runtime.a}
[ -f "$lib" ] || { echo "check-runtime-symbols: $lib not built" >&2; exit 1; }
check_symbols "$lib"
check_flags "$(dirname "$lib")/CMakeFiles/trident_runtime.dir/flags.make"
