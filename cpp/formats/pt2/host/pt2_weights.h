// The tensors a PT2 model's signature names, from whichever payload its
// layout has: pickled state dict and constants (layouts A and B), or raw
// storages described by the payload configs (layout C).
#pragma once

#include <map>
#include <string>

#include "cpp/formats/pt2/host/pt2_archive.h"
#include "cpp/formats/pt2/host/tensor_store.h"

namespace tri::pt2 {

struct Pt2Weights {
  std::map<std::string, HostTensor> state;      // parameters, persistent buffers
  std::map<std::string, HostTensor> constants;  // tensor constants, other buffers
};

Result<Pt2Weights> load_weights(const Pt2Archive& archive, const Pt2ModelRecords& model,
                                TensorStore& store);

}  // namespace tri::pt2
