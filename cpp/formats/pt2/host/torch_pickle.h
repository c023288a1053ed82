// A bounded reader for the pickles torch.save writes (data.pkl inside its
// zip): state dicts, constants, sample inputs. It understands the opcodes and
// globals listed in ../shared/corpus/pt2/FORMAT-NOTES.md §6 and refuses
// everything else by name — it is not a Python unpickler and calls nothing.
//
// Bounds: every opcode consumes input, so reading ends; objects nest at most
// kMaxPickleDepth deep (so freeing them cannot overflow the stack); a
// container can no longer change once it is inside another (so there are no
// cycles).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/core/span.h"

namespace tri::pt2 {

constexpr uint32_t kMaxPickleDepth = 64;

enum class PickleKind : uint8_t {
  None,
  Bool,
  Int,
  Float,
  String,
  Tuple,
  List,
  Dict,
  Global,   // a whitelisted class or function, by "module.name"
  Storage,  // a persistent id: ("storage", class, key, location, numel)
  Tensor,   // _rebuild_tensor_v2 / v3 (and parameters wrapping one)
};

const char* pickle_kind_name(PickleKind kind);

struct PickleValue;
using PickleRef = std::shared_ptr<PickleValue>;

struct PickleStorage {
  ScalarType dtype = ScalarType::Float;
  bool untyped = false;  // torch.UntypedStorage: numel counts bytes
  std::string key;       // the record data/<key>
  int64_t numel = 0;
};

struct PickleTensor {
  PickleRef storage;
  ScalarType dtype = ScalarType::Float;
  int64_t storage_offset = 0;  // in elements
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
};

struct PickleValue {
  PickleKind kind = PickleKind::None;
  bool boolean = false;
  int64_t integer = 0;
  double number = 0;
  std::string text;  // String; Global as "module.name"
  std::vector<PickleRef> items;                             // Tuple, List
  std::vector<std::pair<PickleRef, PickleRef>> entries;     // Dict, in order
  PickleStorage storage;
  PickleTensor tensor;
  uint32_t depth = 1;
  bool contained = false;  // inside another object: frozen
};

// Runs the pickle `bytes` (named `what` in errors) and returns its object.
Result<PickleRef> read_pickle(ByteSpan bytes, const std::string& what);

}  // namespace tri::pt2
