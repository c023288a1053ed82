// Operators whose out may take over an input's memory when that input dies
// at the call. Memory planners that place buffers by lifetime (the .pt2
// front end; a .pte method re-planned at load) then give the two one buffer.
#pragma once

namespace tri {

enum class InPlaceKind {
  kNone,
  // Element-wise out variants: each element is read before it is written,
  // at the same index, when input and out agree in dtype, shape and dim
  // order. Any tensor argument may be taken over.
  kElementwise,
  // Views and copies that keep the bytes (view_copy, squeeze/unsqueeze,
  // alias, clone, a same-dtype _to_copy): out holds exactly `self`'s bytes
  // when the two agree in dtype and element count and are both contiguous in
  // the same dim order (for a reshape, both in the default one). Placed over
  // self, the kernel finds nothing to copy. Only self (the first argument)
  // may be taken over.
  kSameBytes,
};

// `full_name` as the operator registry spells it: "aten::add.out".
InPlaceKind in_place_kind(const char* full_name);

}  // namespace tri
