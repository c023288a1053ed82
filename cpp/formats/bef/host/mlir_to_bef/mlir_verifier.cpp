#include "cpp/formats/bef/host/mlir_to_bef/mlir_verifier.h"

#include <map>
#include <string>

namespace tri::bef::mlir {

namespace {

class Verifier {
 public:
  Verifier(const Module& module, Diag* diag) : diag_(diag) {
    for (const Function& fn : module.functions) functions_.emplace(fn.name, &fn);
  }

  bool block(const Block& b, const Function* function) {
    for (size_t i = 0; i < b.ops.size(); ++i) {
      const Op& op = b.ops[i];
      if (is_return(op) && i + 1 != b.ops.size()) {
        return fail(op, "must be the last operation in the parent block");
      }
      if (is_return(op) && function != nullptr && !function_return(b, op, *function)) {
        return false;
      }
      if (!callees(op) || !region_terminators(op)) return false;
      for (const Region& region : op.regions) {
        if (!block(region.block, nullptr)) return false;
      }
    }
    return true;
  }

 private:
  bool fail_at(SourceLoc loc, const std::string& message) {
    diag_->loc = loc;
    diag_->message = message;
    return false;
  }

  bool fail(const Op& op, const std::string& message) {
    return fail_at(op.loc, "'" + op.name + "' op " + message);
  }

  static const std::string* type_of(const Block& b, const Operand& operand) {
    if (operand.outer) return nullptr;
    if (operand.op < 0) return &b.arg_types[operand.index];
    return &b.ops[static_cast<size_t>(operand.op)].result_types[operand.index];
  }

  bool function_return(const Block& b, const Op& ret, const Function& fn) {
    if (ret.operands.size() != fn.result_types.size()) {
      return fail(ret, "has " + std::to_string(ret.operands.size()) +
                           " operands, but enclosing function returns " +
                           std::to_string(fn.result_types.size()));
    }
    for (size_t i = 0; i < ret.operands.size(); ++i) {
      const std::string* type = type_of(b, ret.operands[i]);
      if (type != nullptr && *type != fn.result_types[i]) {
        return fail_at(ret.loc, "type of return operand " + std::to_string(i) + " (" + *type +
                                    ") doesn't match function result type (" +
                                    fn.result_types[i] + ")");
      }
    }
    return true;
  }

  // The function a symbol attribute of `op` names, or nullptr after failing.
  const Function* callee(const Op& op, const char* attr_name) {
    const Attribute* attr = op.attribute(attr_name);
    if (attr == nullptr || attr->kind != AttrKind::SymbolRef || attr->nested_symbol) {
      fail(op, std::string("requires a '") + attr_name + "' symbol reference attribute");
      return nullptr;
    }
    auto it = functions_.find(attr->text);
    if (it == functions_.end()) {
      fail(op, "'" + attr->text + "' does not reference a valid function");
      return nullptr;
    }
    return it->second;
  }

  bool callees(const Op& op) {
    if (op.name == "tfrt.call") {
      const Function* fn = callee(op, "callee");
      if (fn == nullptr) return false;
      if (fn->input_types.size() != op.operands.size()) {
        return fail(op, "incorrect number of operands for callee");
      }
      if (fn->result_types.size() != op.result_types.size()) {
        return fail(op, "incorrect number of results for callee");
      }
    } else if (op.name == "tfrt.cond") {
      const Function* then_fn = callee(op, "a_true_fn");
      if (then_fn == nullptr) return false;
      const Function* else_fn = callee(op, "b_false_fn");
      if (else_fn == nullptr) return false;
      const size_t args = op.operands.empty() ? 0 : op.operands.size() - 1;
      if (then_fn->input_types.size() != args) {
        return fail(op, "incorrect number of operands for true function");
      }
      if (else_fn->input_types.size() != args) {
        return fail(op, "incorrect number of operands for false function");
      }
      if (then_fn->result_types.size() != op.result_types.size()) {
        return fail(op, "incorrect number of results for true function");
      }
      if (else_fn->result_types.size() != op.result_types.size()) {
        return fail(op, "incorrect number of results for false function");
      }
    } else if (op.name == "tfrt.parallel_call.i32") {
      const Function* fn = callee(op, "callee");
      if (fn == nullptr) return false;
      if (fn->input_types.size() + 1 != op.operands.size()) {
        return fail(op, "incorrect number of callee operands");
      }
    }
    return true;
  }

  bool region_terminators(const Op& op) {
    const bool checks_results = op.name == "tfrt.if" || op.name == "tfrt.repeat.i32" ||
                                op.name == "tfrt_test.do.async" ||
                                op.name == "tfrt.parallel_for.i32";
    if (op.name == "tfrt_test.benchmark") {
      for (const Region& region : op.regions) {
        const Block& b = region.block;
        if (b.ops.empty() || !is_return(b.ops.back())) return fail(op, "missing return statement");
        if (b.ops.back().operands.size() != 1) {
          return fail(op, "incorrect number of return values. One return value is expected");
        }
      }
      return true;
    }
    if (!checks_results) return true;
    for (const Region& region : op.regions) {
      const Block& b = region.block;
      if (b.ops.empty() || !is_return(b.ops.back())) {
        return fail(op, "expected tfrt.return in body");
      }
      const Op& ret = b.ops.back();
      // A synchronous parallel_for body returns nothing.
      if (op.name == "tfrt.parallel_for.i32" && ret.operands.empty()) continue;
      bool match = ret.operands.size() == op.result_types.size();
      for (size_t i = 0; match && i < ret.operands.size(); ++i) {
        const std::string* type = type_of(b, ret.operands[i]);
        match = type == nullptr || *type == op.result_types[i];
      }
      if (!match) return fail(ret, "operand types don't match '" + op.name + "' result");
    }
    return true;
  }

  Diag* diag_;
  std::map<std::string, const Function*> functions_;
};

}  // namespace

bool verify_module(const Module& module, Diag* diag) {
  Diag scratch;
  Verifier verifier(module, diag != nullptr ? diag : &scratch);
  for (const Function& fn : module.functions) {
    if (fn.has_body && !verifier.block(fn.body.block, &fn)) return false;
  }
  return true;
}

}  // namespace tri::bef::mlir
