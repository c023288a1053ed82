// TFRT's tensor shape kernels (lib/tensor/tensor_shape_kernels.cc, the `ts`
// dialect): building, printing, comparing and converting TensorShape,
// PartialTensorShape and FixedRankShape values. Print formats and messages
// are TFRT's; what TFRT only asserts (a rank that does not match, an index
// out of range, an overflowing element count) is a kernel error here.
#include <cinttypes>

#include "cpp/kernels/tfrt/tensor/tensor_kernel_util.h"
#include "cpp/kernels/tfrt/tensor/tensor_shape.h"
#include "cpp/runtime/async/attribute_reader.h"

namespace tri::tfrt_kernels {
namespace {

// The i64 array attribute `i`; reports a bad offset.
bool read_i64_array(KernelFrame& frame, uint32_t i, async::ArrayAttr* out) {
  Result<async::ArrayAttr> array = frame.attributes().array(frame.attribute_offset(i), 8);
  if (!array.ok()) {
    report_last_error(frame);
    return false;
  }
  *out = *array;
  return true;
}

// build_shape {value = [1 : i64, ...]} -> !ts.shape
void build_shape(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1, 1)) return;
  async::ArrayAttr dims;
  if (!read_i64_array(frame, 0, &dims)) return;
  set_object_result(frame, 0, TensorShape::make(frame.host(), dims.data, dims.count));
}

// print_shape %shape, %chain -> !tfrt.chain: "shape = [1, 57, 92]"
void print_shape(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  TensorShape* shape = read_object<TensorShape>(frame, 0);
  if (shape == nullptr || !check_kind(frame, 1, async::ValueKind::Chain)) return;
  PrintOut out(frame.host());
  out.write("shape = ");
  write_dims(out, shape->dims(), shape->rank());
  out.write("\n");
  out.flush();
  frame.set_result(0, frame.host().make_chain());
}

// equal_shape %a, %b -> i1
void equal_shape(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  TensorShape* a = read_object<TensorShape>(frame, 0);
  if (a == nullptr) return;
  TensorShape* b = read_object<TensorShape>(frame, 1);
  if (b == nullptr) return;
  frame.set_result(0, frame.host().make_i1(a->equals(*b)));
}

// get_dimension %shape, %index -> i64
void get_dimension(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  TensorShape* shape = read_object<TensorShape>(frame, 0);
  if (shape == nullptr) return;
  int32_t index;
  if (!read_argument(frame, 1, &index)) return;
  if (index < 0 || static_cast<uint32_t>(index) >= shape->rank()) {
    frame.report_error("dimension index %" PRId32 " is out of range for a shape of rank %u", index,
                       shape->rank());
    return;
  }
  frame.set_result(0, frame.host().make_i64(shape->dims()[index]));
}

// get_num_elements %shape -> i64
void get_num_elements(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  TensorShape* shape = read_object<TensorShape>(frame, 0);
  if (shape == nullptr) return;
  int64_t n = 0;
  if (!shape->num_elements(&n)) {
    char text[256];
    frame.report_error("the number of elements of shape %s overflows int64",
                       dims_text(shape->dims(), shape->rank(), text, sizeof(text)));
    return;
  }
  frame.set_result(0, frame.host().make_i64(n));
}

// as_fixed_rank_shape.<N> %shape -> !ts.fixed_rank_shape.<N>
template <uint32_t kRank>
void as_fixed_rank_shape(KernelFrame& frame) {
  static_assert(kRank <= FixedRankShape::kMaxRank, "FixedRankShape holds up to kMaxRank dims");
  if (!check_arity(frame, 1, 1)) return;
  TensorShape* shape = read_object<TensorShape>(frame, 0);
  if (shape == nullptr) return;
  if (shape->rank() != kRank) {
    char text[256];
    frame.report_error("shape %s has rank %u, expected rank %u",
                       dims_text(shape->dims(), shape->rank(), text, sizeof(text)), shape->rank(),
                       kRank);
    return;
  }
  FixedRankShape* fixed = frame.host().make_object<FixedRankShape>(shape->dims(), kRank);
  if (fixed == nullptr) {
    frame.report_error("out of memory: the BEF executor's heap is exhausted");
    return;
  }
  set_object_result(frame, 0, fixed);
}

// print_fixed_rank_shape.<N> %shape, %chain -> !tfrt.chain:
// "fixed_rank_shape = [1, 57, 92]"
template <uint32_t kRank>
void print_fixed_rank_shape(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  FixedRankShape* shape = read_object<FixedRankShape>(frame, 0);
  if (shape == nullptr || !check_kind(frame, 1, async::ValueKind::Chain)) return;
  if (shape->rank() != kRank) {
    frame.report_error("argument 0 has rank %u, expected a fixed_rank_shape of rank %u",
                       shape->rank(), kRank);
    return;
  }
  PrintOut out(frame.host());
  out.write("fixed_rank_shape = ");
  write_dims(out, shape->dims(), shape->rank());
  out.write("\n");
  out.flush();
  frame.set_result(0, frame.host().make_chain());
}

// build_partial_shape {value = [-1 : i64, ...]} -> !ts.partial_shape
void build_partial_shape(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1, 1)) return;
  async::ArrayAttr dims;
  if (!read_i64_array(frame, 0, &dims)) return;
  set_object_result(frame, 0, PartialTensorShape::make(frame.host(), dims.data, dims.count));
}

// build_unranked_partial_shape -> !ts.partial_shape
void build_unranked_partial_shape(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1)) return;
  set_object_result(frame, 0, PartialTensorShape::make_unranked(frame.host()));
}

// print_partial_shape %shape, %chain -> !tfrt.chain:
// "partial_tensor_shape = [-1, 57]" or "partial_tensor_shape = Unknown rank"
void print_partial_shape(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  PartialTensorShape* shape = read_object<PartialTensorShape>(frame, 0);
  if (shape == nullptr || !check_kind(frame, 1, async::ValueKind::Chain)) return;
  PrintOut out(frame.host());
  out.write("partial_tensor_shape = ");
  if (shape->ranked()) {
    write_dims(out, shape->dims(), shape->rank());
  } else {
    out.write("Unknown rank");
  }
  out.write("\n");
  out.flush();
  frame.set_result(0, frame.host().make_chain());
}

// to_shape %partial -> !ts.shape; fails unless the rank and every dim are known.
void to_shape(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  PartialTensorShape* partial = read_object<PartialTensorShape>(frame, 0);
  if (partial == nullptr) return;
  if (!partial->ranked()) {
    frame.report_error("Unknown rank");
    return;
  }
  char text[512];
  BufferOut unknown(text, sizeof(text));
  bool any_unknown = false;
  unknown.write("[");
  for (uint32_t i = 0; i < partial->rank(); ++i) {
    if (partial->dims()[i] != PartialTensorShape::kUnknownDim) continue;
    unknown.format(any_unknown ? ", %u" : "%u", i);
    any_unknown = true;
  }
  unknown.write("]");
  if (any_unknown) {
    frame.report_error("Unknown dimensions at following indices = %s", unknown.c_str());
    return;
  }
  set_object_result(frame, 0, TensorShape::make(frame.host(), partial->dims(), partial->rank()));
}

// to_partial_shape %shape -> !ts.partial_shape
void to_partial_shape(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  TensorShape* shape = read_object<TensorShape>(frame, 0);
  if (shape == nullptr) return;
  set_object_result(frame, 0, PartialTensorShape::make(frame.host(), shape->dims(), shape->rank()));
}

const async::KernelEntry kKernels[] = {
    {"ts.build_shape", &build_shape},
    {"ts.print_shape", &print_shape},
    {"ts.equal_shape", &equal_shape},
    {"ts.get_dimension", &get_dimension},
    {"ts.get_num_elements", &get_num_elements},
    {"ts.as_fixed_rank_shape.0", &as_fixed_rank_shape<0>},
    {"ts.as_fixed_rank_shape.1", &as_fixed_rank_shape<1>},
    {"ts.as_fixed_rank_shape.2", &as_fixed_rank_shape<2>},
    {"ts.as_fixed_rank_shape.3", &as_fixed_rank_shape<3>},
    {"ts.as_fixed_rank_shape.4", &as_fixed_rank_shape<4>},
    {"ts.print_fixed_rank_shape.0", &print_fixed_rank_shape<0>},
    {"ts.print_fixed_rank_shape.1", &print_fixed_rank_shape<1>},
    {"ts.print_fixed_rank_shape.2", &print_fixed_rank_shape<2>},
    {"ts.print_fixed_rank_shape.3", &print_fixed_rank_shape<3>},
    {"ts.print_fixed_rank_shape.4", &print_fixed_rank_shape<4>},
    {"ts.build_partial_shape", &build_partial_shape},
    {"ts.build_unranked_partial_shape", &build_unranked_partial_shape},
    {"ts.print_partial_shape", &print_partial_shape},
    {"ts.to_shape", &to_shape},
    {"ts.to_partial_shape", &to_partial_shape},
};

}  // namespace

void register_shape_kernels() { async::register_kernels(kKernels); }

}  // namespace tri::tfrt_kernels
