#include "cpp/kernels/tfrt/kernel_util.h"

namespace tri::tfrt_kernels {

const char* value_kind_name(async::ValueKind kind) {
  switch (kind) {
    case async::ValueKind::None: return "nothing";
    case async::ValueKind::Chain: return "!tfrt.chain";
    case async::ValueKind::I1: return "i1";
    case async::ValueKind::I32: return "i32";
    case async::ValueKind::I64: return "i64";
    case async::ValueKind::F32: return "f32";
    case async::ValueKind::F64: return "f64";
    case async::ValueKind::Object: return "object";
  }
  return "unknown";
}

bool check_arity(KernelFrame& frame, uint32_t arguments, uint32_t results, uint32_t attributes,
                 uint32_t functions) {
  if (frame.num_arguments() == arguments && frame.num_results() == results &&
      frame.num_attributes() == attributes && frame.num_functions() == functions) {
    return true;
  }
  frame.report_error(
      "kernel expects %u arguments, %u results, %u attributes and %u functions, but the file "
      "gives %u, %u, %u and %u",
      arguments, results, attributes, functions, frame.num_arguments(), frame.num_results(),
      frame.num_attributes(), frame.num_functions());
  return false;
}

bool check_kind(KernelFrame& frame, uint32_t i, async::ValueKind kind) {
  const async::ValueKind actual = frame.argument(i)->kind();
  if (actual == kind) return true;
  frame.report_error("argument %u is %s, expected %s", i, value_kind_name(actual), value_kind_name(kind));
  return false;
}

void set_all_results(KernelFrame& frame, AsyncValue* value) {
  for (uint32_t i = 0; i < frame.num_results(); ++i) {
    value->add_ref();
    frame.set_result(i, value);
  }
  value->drop_ref();
}

}  // namespace tri::tfrt_kernels
