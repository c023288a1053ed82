// ATen operator schemas ("aten::add.Tensor(Tensor self, Tensor other, *,
// Scalar alpha=1) -> Tensor"), parsed, and the table that pairs each
// functional overload a PT2 graph may name with the out variant the kernel
// library implements (aten_schemas.inc, generated from PyTorch's own schemas
// by tools/pt2/gen_aten_schemas.py). torch.export leaves out arguments that
// are at their default; the defaults come from here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cpp/runtime/core/result.h"

namespace tri::pt2 {

struct SchemaArg {
  std::string type;  // "Tensor?", "int[2]", "SymInt[]", "Scalar", ...
  std::string name;
  bool has_default = false;
  std::string default_text;  // "1", "None", "[0, 0]", "False", "\"none\""
  bool keyword_only = false;
  bool is_out = false;  // a keyword-only mutable argument: an out tensor
};

struct AtenSchema {
  std::string name;      // "aten::add"
  std::string overload;  // "Tensor", "" for the default overload
  std::vector<SchemaArg> args;
  std::vector<std::string> returns;  // types, e.g. {"Tensor(a!)"}; empty for ()
  bool tuple_return = false;         // "(Tensor, Tensor)" rather than "Tensor"

  std::string full_name() const { return overload.empty() ? name : name + "." + overload; }
  const SchemaArg* arg(const std::string& arg_name) const;
  size_t num_outs() const;
};

Result<AtenSchema> parse_schema(const std::string& text);

struct OpLowering {
  AtenSchema functional;  // empty name for an out variant listed alone
  AtenSchema out;         // empty name for a composite that a rewrite handles
};

// The lowering of "aten::add.Tensor" (or "aten::relu" for a default
// overload); nullptr when the table has none.
const OpLowering* find_lowering(const std::string& full_name);
// Every entry of the table, and how many entries failed to parse (a
// generator bug; the unit test requires zero).
const std::vector<OpLowering>& all_lowerings();
size_t unparsed_schemas();
// An out variant by its full name ("aten::_native_batch_norm_legit.out").
const AtenSchema* find_out_schema(const std::string& full_name);

}  // namespace tri::pt2
