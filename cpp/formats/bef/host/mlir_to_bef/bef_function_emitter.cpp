#include "cpp/formats/bef/host/mlir_to_bef/bef_function_emitter.h"

#include "cpp/formats/bef/bef_encoding.h"

#include <algorithm>

#include "cpp/formats/bef/host/mlir_to_bef/bef_attribute_encoder.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_types.h"
#include "cpp/formats/bef/host/mlir_to_bef/stream_analysis.h"

namespace tri::bef {

using mlir::Attribute;
using mlir::Block;
using mlir::Op;
using mlir::Operand;

namespace {


// Ops whose cost TFRT's StreamAnalysis takes from `_tfrt_cost` (those
// implementing CostFunctionInterface through the attribute cost trait).
bool has_attribute_cost(const std::string& name) {
  return name == "tfrt_test.test_cost" || name == "tfrt_fallback_async.executeop" ||
         name == "tfrt_fallback_async.executeop.seq";
}

int64_t integer_value(const Attribute& attr) {
  const mlir::IntTypeInfo info = mlir::integer_type_info(attr.type);
  return mlir::sign_extend(attr.bits, info.valid ? info.width : 64);
}

class FunctionEmitter {
 public:
  FunctionEmitter(const FunctionRecord& entry, const FunctionEmitContext& context)
      : entry_(entry), c_(context), block_(entry.region->block) {}

  void emit(ByteEmitter* out) {
    number_registers();
    number_kernels();
    out->emit_vbr(c_.locations->emit_file_line_col(c_.filename, entry_.owner_loc));
    emit_register_table(out);
    out->emit_vbr(num_kernels_);
    if (c_.attribute_names != nullptr) c_.attribute_names->emit_vbr(num_kernels_);

    const StreamAssignment streams = analyze_streams(stream_ops(), stream_options());
    ByteEmitter kernel_list;
    out->emit_vbr(kernel_list.size());
    out->emit_vbr(0);
    out->emit_vbr(static_cast<uint64_t>(streams.root_stream));
    emit_pseudo_kernel(&kernel_list);
    const Op* ret = nullptr;
    for (size_t i = 0; i < block_.ops.size(); ++i) {
      const Op& op = block_.ops[i];
      if (mlir::is_return(op)) {
        ret = &op;
        continue;
      }
      out->emit_vbr(kernel_list.size());
      out->emit_vbr(op.operands.size());
      out->emit_vbr(static_cast<uint64_t>(streams.op_streams[i]));
      emit_kernel(op, i, &kernel_list);
    }
    if (ret != nullptr) {
      for (const Operand& operand : ret->operands) out->emit_vbr(register_of(operand));
    }
    out->emit_alignment(4);
    out->emit_emitter(kernel_list);
  }

 private:
  void number_registers() {
    const size_t args = block_.arg_types.size();
    first_result_.resize(block_.ops.size());
    uint32_t next = static_cast<uint32_t>(args);
    for (size_t i = 0; i < block_.ops.size(); ++i) {
      first_result_[i] = next;
      next += static_cast<uint32_t>(block_.ops[i].result_types.size());
    }
    num_registers_ = next;
    for (const std::string& type : block_.arg_types) register_types_.push_back(&type);
    for (const Op& op : block_.ops) {
      for (const std::string& type : op.result_types) register_types_.push_back(&type);
    }
    // Users of each register in use-list order. MLIR prepends each new use,
    // so a parsed block lists the latest use first.
    users_.assign(num_registers_, {});
    use_counts_.assign(num_registers_, 0);
    for (size_t i = 0; i < block_.ops.size(); ++i) {
      for (const Operand& operand : block_.ops[i].operands) {
        const uint32_t reg = register_of(operand);
        ++use_counts_[reg];
        users_[reg].push_back(static_cast<uint32_t>(i));
      }
    }
    for (std::vector<uint32_t>& list : users_) std::reverse(list.begin(), list.end());
  }

  void number_kernels() {
    kernel_index_.assign(block_.ops.size(), 0);
    num_kernels_ = 1;  // the pseudo kernel
    for (size_t i = 0; i < block_.ops.size(); ++i) {
      if (!mlir::is_return(block_.ops[i])) kernel_index_[i] = num_kernels_++;
    }
  }

  uint32_t register_of(const Operand& operand) const {
    if (operand.op < 0) return operand.index;
    return first_result_[static_cast<size_t>(operand.op)] + operand.index;
  }

  const std::string& type_of_register(uint32_t reg) const { return *register_types_[reg]; }

  void emit_register_table(ByteEmitter* out) {
    out->emit_vbr(num_registers_);
    for (uint32_t reg = 0; reg < num_registers_; ++reg) out->emit_vbr(use_counts_[reg]);
    if (c_.register_types != nullptr) {
      c_.register_types->emit_vbr(num_registers_);
      for (uint32_t reg = 0; reg < num_registers_; ++reg) {
        c_.register_types->emit_vbr(c_.table->type_id(type_of_register(reg)));
      }
    }
  }

  const Attribute* option(const char* name) const {
    if (entry_.function != nullptr) {
      const Attribute* attr = entry_.function->attribute(name);
      if (attr != nullptr) return attr;
    }
    return c_.module->attribute(name);
  }

  StreamOptions stream_options() const {
    StreamOptions options;
    const Attribute* threshold = option("tfrt.cost_threshold");
    if (threshold != nullptr && threshold->kind == mlir::AttrKind::Integer) {
      options.cost_threshold = std::max<int64_t>(1, integer_value(*threshold));
    }
    const Attribute* upper = option("tfrt.upper_cost_threshold");
    if (upper != nullptr && upper->kind == mlir::AttrKind::Integer) {
      options.upper_cost_threshold = integer_value(*upper);
    }
    const Attribute* merge = option("tfrt.merge_inter_dependent_streams");
    if (merge != nullptr && merge->kind == mlir::AttrKind::Integer && merge->type == "i1") {
      options.merge_inter_dependent_streams = merge->bits != 0;
    }
    return options;
  }

  std::vector<StreamOp> stream_ops() const {
    const int64_t threshold = stream_options().cost_threshold;
    std::vector<StreamOp> ops;
    for (const Op& op : block_.ops) {
      StreamOp s;
      for (const Operand& operand : op.operands) {
        s.operand_defs.push_back(operand.op);
        s.operand_is_chain.push_back(type_of_register(register_of(operand)) == mlir::kChainType);
      }
      s.cost = threshold;
      if (op.name == mlir::kReturnOpName || op.name == "tfrt.merge.chains") {
        s.cost = 1;
      } else if (has_attribute_cost(op.name)) {
        const Attribute* cost = op.attribute("_tfrt_cost");
        if (cost != nullptr && cost->kind == mlir::AttrKind::Integer && integer_value(*cost) > 0) {
          s.cost = integer_value(*cost);
        }
      }
      ops.push_back(std::move(s));
    }
    return ops;
  }

  // The used-by count goes into the header, the kernel ids into the body.
  void emit_users(const std::vector<uint32_t>& ops, ByteEmitter* list, ByteEmitter* body) const {
    uint32_t count = 0;
    for (uint32_t op : ops) {
      if (mlir::is_return(block_.ops[op])) continue;
      ++count;
      body->emit_u32(kernel_index_[op]);
    }
    list->emit_u32(count);
  }

  void emit_pseudo_kernel(ByteEmitter* list) const {
    const uint32_t num_args = static_cast<uint32_t>(block_.arg_types.size());
    list->emit_u32(kPseudoKernelCode);
    list->emit_u32(kPseudoKernelLocation);
    list->emit_u32(0);  // arguments
    list->emit_u32(0);  // attributes
    list->emit_u32(0);  // functions
    list->emit_u32(num_args + 1);
    ByteEmitter body;
    // The synthetic first result, one past the last register, starts the
    // kernels that take no operands, in block order.
    body.emit_u32(num_registers_);
    for (uint32_t arg = 0; arg < num_args; ++arg) body.emit_u32(arg);
    std::vector<uint32_t> ready;
    for (size_t i = 0; i < block_.ops.size(); ++i) {
      if (block_.ops[i].operands.empty()) ready.push_back(static_cast<uint32_t>(i));
    }
    emit_users(ready, list, &body);
    for (uint32_t arg = 0; arg < num_args; ++arg) emit_users(users_[arg], list, &body);
    list->emit_emitter(body);
  }

  uint32_t function_index(const std::string& name) const {
    // An unknown name can only come from an array of references, which TFRT
    // does not check; it writes -1.
    return static_cast<uint32_t>(c_.table->function_named(name));
  }

  void emit_kernel(const Op& op, size_t index, ByteEmitter* list) const {
    list->emit_u32(c_.table->kernel_id(op.name));
    list->emit_u32(static_cast<uint32_t>(c_.locations->emit_file_line_col(c_.filename, op.loc)));
    ByteEmitter body;
    list->emit_u32(static_cast<uint32_t>(op.operands.size()));
    for (const Operand& operand : op.operands) body.emit_u32(register_of(operand));

    std::vector<uint32_t> functions;
    uint32_t num_attributes = 0;
    for (const mlir::NamedAttr& attr : op.attributes) {
      if (attr.name == "_tfrt_cost") continue;
      if (is_function_array(attr.value)) {
        for (const Attribute& fn : attr.value.elements) functions.push_back(function_index(fn.text));
        continue;
      }
      if (attr.value.kind == mlir::AttrKind::SymbolRef) {
        functions.push_back(function_index(attr.value.text));
        continue;
      }
      if (c_.attribute_names != nullptr) {
        auto it = c_.offsets->strings.find(attr.name);
        c_.attribute_names->emit_vbr(it == c_.offsets->strings.end() ? 0 : it->second);
      }
      ++num_attributes;
      body.emit_u32(c_.offsets->attributes[c_.table->attribute_id(attr.value)]);
    }
    list->emit_u32(num_attributes);
    for (const mlir::Region& region : op.regions) {
      auto it = c_.table->region_ids.find(&region);
      functions.push_back(it == c_.table->region_ids.end() ? 0 : it->second);
    }
    list->emit_u32(static_cast<uint32_t>(functions.size()));
    for (uint32_t fn : functions) body.emit_u32(fn);

    list->emit_u32(static_cast<uint32_t>(op.result_types.size()));
    const uint32_t first = first_result_[index];
    for (uint32_t r = 0; r < op.result_types.size(); ++r) body.emit_u32(first + r);
    for (uint32_t r = 0; r < op.result_types.size(); ++r) emit_users(users_[first + r], list, &body);
    list->emit_alignment(4);
    list->emit_emitter(body);
  }

  const FunctionRecord& entry_;
  const FunctionEmitContext& c_;
  const Block& block_;
  std::vector<uint32_t> first_result_;
  std::vector<const std::string*> register_types_;
  std::vector<std::vector<uint32_t>> users_;
  std::vector<uint32_t> use_counts_;
  std::vector<uint32_t> kernel_index_;
  uint32_t num_registers_ = 0;
  uint32_t num_kernels_ = 0;
};

}  // namespace

void emit_function(const FunctionRecord& entry, const FunctionEmitContext& context,
                   ByteEmitter* out) {
  FunctionEmitter(entry, context).emit(out);
}

}  // namespace tri::bef
