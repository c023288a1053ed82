#!/usr/bin/env bash
# The portable runtime must take all memory from caller-provided allocators and
# must build without exceptions or RTTI. This proves it on the built library:
# no object in libtrident_runtime.a references malloc/calloc/realloc/free,
# operator new/delete, exception machinery or type_info.
set -euo pipefail
cd "$(dirname "$0")/.."
# --self-test: prove the check fails on a library that calls new.
if [ "${1:-}" = "--self-test" ]; then
  dir=$(mktemp -d)
  echo 'void* make() { return new int(3); }' > "$dir/bad.cpp"
  c++ -c "$dir/bad.cpp" -o "$dir/bad.o" && ar rcs "$dir/libbad.a" "$dir/bad.o"
  if bash "$0" "$dir/libbad.a" >/dev/null 2>&1; then
    echo "check-runtime-symbols: self-test FAILED (a call to new went unnoticed)" >&2
    rm -rf "$dir"; exit 1
  fi
  rm -rf "$dir"
  echo "check-runtime-symbols: self-test ok (catches operator new)"
  exit 0
fi
lib=${1:-build/native/libtrident_runtime.a}
[ -f "$lib" ] || { echo "check-runtime-symbols: $lib not built" >&2; exit 1; }

# POSIX format puts the (mangled) name first on each line; demangle whole
# names so "operator new(unsigned long)" stays one line.
# llvm-nm reads both native and wasm objects.
NM=nm
if [ -x /usr/lib/llvm-14/bin/llvm-nm ]; then NM=/usr/lib/llvm-14/bin/llvm-nm; fi
undefined=$("$NM" --undefined-only --format=posix "$lib" | awk 'NF >= 2 {print $1}' | sort -u | c++filt)
# Demangled names: operator new/delete of every form, malloc family, the C++
# exception ABI and RTTI.
forbidden='^(malloc|calloc|realloc|free|aligned_alloc|posix_memalign|operator new|operator delete|__cxa_allocate_exception|__cxa_throw|__cxa_begin_catch|__gxx_personality_v0|typeinfo for|vtable for __cxxabiv1)'
bad=$(printf '%s\n' "$undefined" | grep -E "$forbidden" || true)
if [ -n "$bad" ]; then
  echo "check-runtime-symbols: the runtime references forbidden symbols:" >&2
  printf '%s\n' "$bad" | sed 's/^/  /' >&2
  exit 1
fi
# The flags themselves: every runtime object was compiled with both.
[ "$lib" = build/native/libtrident_runtime.a ] || { echo "check-runtime-symbols: $lib ok"; exit 0; }
flags=$(grep -h -o -- '-fno-exceptions -fno-rtti' build/native/CMakeFiles/trident_runtime.dir/flags.make | head -1)
[ -n "$flags" ] || { echo "check-runtime-symbols: runtime not built with -fno-exceptions -fno-rtti" >&2; exit 1; }
count=$(ar t "$lib" | wc -l)
echo "check-runtime-symbols: $count objects, no malloc/new/exceptions/RTTI references"
