// Operators whose out may take over an input's memory when that input dies
// at the call: element-wise out variants read each element before they write
// it, at the same index, when the two agree in dtype and shape. Memory
// planners that place buffers by lifetime (the .pt2 front end; a .pte
// method re-planned at load) share a buffer between such an input and out.
#pragma once

namespace tri {

// `full_name` as the operator registry spells it: "aten::add.out".
bool writes_in_place_safely(const char* full_name);

}  // namespace tri
