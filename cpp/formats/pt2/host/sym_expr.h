// Symbolic sizes as torch.export writes them (the str() of a sympy
// expression: "s0", "2*s0", "s77 + 1", "((s0 - 1)//2) + 1", "Max(1, s0)"),
// evaluated for given symbol values. The lowering uses it to plan each
// dynamic tensor for the upper bounds of its symbols.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cpp/runtime/core/result.h"

namespace tri::pt2 {

// The value of `expr` with `symbols` bound; an error names an unknown symbol
// or what does not parse. Integers are exact below 2^53.
Result<int64_t> eval_sym_expr(const std::string& expr, const std::map<std::string, int64_t>& symbols);

// The symbols `expr` names, in order of appearance.
std::vector<std::string> sym_expr_symbols(const std::string& expr);

}  // namespace tri::pt2
