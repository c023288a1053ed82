#!/usr/bin/env bash
# The portable runtime must take all memory from caller-provided allocators and
# must build without exceptions or RTTI. This proves it on the built library:
# no object in libtrident_runtime.a references malloc/calloc/realloc/free,
# operator new/delete, exception machinery or type_info.
set -euo pipefail
cd "$(dirname "$0")/.."
lib=${1:-build/native/libtrident_runtime.a}
[ -f "$lib" ] || { echo "check-runtime-symbols: $lib not built" >&2; exit 1; }

undefined=$(nm -C --undefined-only "$lib" | awk 'NF >= 2 {print $NF}' | sort -u)
# Demangled names: operator new/delete of every form, malloc family, the C++
# exception ABI and RTTI.
forbidden='^(malloc|calloc|realloc|free|aligned_alloc|posix_memalign|operator new|operator delete|__cxa_allocate_exception|__cxa_throw|__cxa_begin_catch|__gxx_personality_v0|typeinfo for|vtable for __cxxabiv1)'
bad=$(printf '%s\n' "$undefined" | grep -E "$forbidden" || true)
if [ -n "$bad" ]; then
  echo "check-runtime-symbols: the runtime references forbidden symbols:" >&2
  printf '  %s\n' $bad >&2
  nm -C -A --undefined-only "$lib" | grep -E "$(printf '%s|' $bad | sed 's/|$//')" | head -20 >&2
  exit 1
fi
# The flags themselves: every runtime object was compiled with both.
flags=$(grep -h -o -- '-fno-exceptions -fno-rtti' build/native/CMakeFiles/trident_runtime.dir/flags.make | head -1)
[ -n "$flags" ] || { echo "check-runtime-symbols: runtime not built with -fno-exceptions -fno-rtti" >&2; exit 1; }
count=$(ar t "$lib" | wc -l)
echo "check-runtime-symbols: $count objects, no malloc/new/exceptions/RTTI references"
