#include "cpp/formats/pte/pte_lifetime_plan.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "cpp/formats/pte/fb_read.h"
#include "cpp/formats/pte/pte_values.h"
#include "cpp/formats/pte/schema/program_generated.h"
#include "cpp/runtime/core/lifetime_planner.h"
#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/kernel/in_place_ops.h"

namespace tri::pte {
namespace {

namespace fb = executorch_flatbuffer;

constexpr int32_t kUnseen = INT32_MAX;
// The planner's offsets: cache lines, so that no two tensors share one.
constexpr uint64_t kAlignment = 64;

struct PlannedTensor {
  const fb::Tensor* tensor = nullptr;
  uint64_t file_offset = 0;
  int32_t value = 0;
};

const fb::Tensor* planned_tensor(const fb::EValue* v) {
  if (v == nullptr || v->val_type() != fb::KernelTypes::Tensor) return nullptr;
  const fb::Tensor* t = v->val_as_Tensor();
  return t != nullptr && t->allocation_info() != nullptr ? t : nullptr;
}

template <typename T>
bool same_vector(const flatbuffers::Vector<T>* a, const flatbuffers::Vector<T>* b) {
  const size_t n = a ? a->size() : 0;
  if (n != (b ? b->size() : 0)) return false;
  for (size_t i = 0; i < n; ++i) {
    if (a->Get(static_cast<flatbuffers::uoffset_t>(i)) !=
        b->Get(static_cast<flatbuffers::uoffset_t>(i))) {
      return false;
    }
  }
  return true;
}

bool same_layout(const fb::Tensor* a, const fb::Tensor* b) {
  return a->scalar_type() == b->scalar_type() && same_vector(a->sizes(), b->sizes()) &&
         same_vector(a->dim_order(), b->dim_order());
}

// Whether the tensor's dim order is the default one (0, 1, ..., rank - 1).
bool default_dim_order(const fb::Tensor* t) {
  const auto* order = t->dim_order();
  const size_t n = order ? order->size() : 0;
  for (size_t i = 0; i < n; ++i) {
    if (order->Get(static_cast<flatbuffers::uoffset_t>(i)) != i) return false;
  }
  return true;
}

uint64_t element_count(const fb::Tensor* t) {
  uint64_t n = 1;
  const auto* sizes = t->sizes();
  for (size_t i = 0; sizes && i < sizes->size(); ++i) {
    const int32_t s = sizes->Get(static_cast<flatbuffers::uoffset_t>(i));
    n *= s < 0 ? 0 : static_cast<uint64_t>(s);
  }
  return n;
}

// Whether out, written by `kind` from input a, may take over a's bytes.
bool may_take_over(InPlaceKind kind, const fb::Tensor* a, const fb::Tensor* out) {
  if (kind == InPlaceKind::kElementwise) return same_layout(a, out);
  return kind == InPlaceKind::kSameBytes && a->scalar_type() == out->scalar_type() &&
         element_count(a) == element_count(out) &&
         (same_layout(a, out) || (default_dim_order(a) && default_dim_order(out)));
}

using Values = flatbuffers::Vector<flatbuffers::Offset<fb::EValue>>;

// Appends value `v` to refs[n...], and when it is a tensor list, its
// members. Returns the new count, or -1 when an index is out of range (the
// method builder reports it).
int64_t append_value(const Values* values, int32_t v, int32_t* refs, size_t n,
                     size_t capacity) {
  const size_t nv = values->size();
  if (v < 0 || static_cast<size_t>(v) >= nv || n >= capacity) return -1;
  refs[n++] = v;
  const fb::EValue* value = values->Get(static_cast<flatbuffers::uoffset_t>(v));
  if (value == nullptr) return -1;
  const flatbuffers::Vector<int32_t>* items = nullptr;
  if (value->val_type() == fb::KernelTypes::TensorList && value->val_as_TensorList() != nullptr) {
    items = value->val_as_TensorList()->items();
  } else if (value->val_type() == fb::KernelTypes::OptionalTensorList &&
             value->val_as_OptionalTensorList() != nullptr) {
    items = value->val_as_OptionalTensorList()->items();
  }
  const size_t ni = items ? items->size() : 0;
  for (size_t j = 0; j < ni; ++j) {
    const int32_t item = read_element(items, j);
    if (item < 0) continue;  // a None in an optional list
    if (static_cast<size_t>(item) >= nv || n >= capacity) return -1;
    refs[n++] = item;
  }
  return static_cast<int64_t>(n);
}

// The value indices an instruction names: its arguments, and the members
// of the tensor lists among them; those of the last argument (the returned
// values) start at *returned. Returns how many, or -1 as append_value().
int64_t collect_refs(const fb::KernelCall* call, const Values* values, int32_t* refs,
                     size_t capacity, size_t* returned) {
  const auto* args = call->args();
  const size_t na = args ? args->size() : 0;
  int64_t n = 0;
  *returned = 0;
  for (size_t i = 0; i < na && n >= 0; ++i) {
    *returned = static_cast<size_t>(n);
    n = append_value(values, read_element(args, i), refs, static_cast<size_t>(n), capacity);
  }
  return n;
}

// Out variants ("aten::add.out", "aten::add.Scalar_out") write their out
// arguments without reading them; in-place ops ("aten::index_put_") and
// others may read what an argument held before.
bool is_out_variant(const fb::Operator* op) {
  if (op == nullptr || op->overload() == nullptr) return false;
  const flatbuffers::String* o = op->overload();
  const size_t n = o->size();
  return (n == 3 && memcmp(o->data(), "out", 3) == 0) ||
         (n > 4 && memcmp(o->data() + n - 4, "_out", 4) == 0);
}

bool is_input(const fb::ExecutionPlan* plan, int32_t v) {
  const auto* inputs = plan->inputs();
  for (size_t i = 0; inputs != nullptr && i < inputs->size(); ++i) {
    if (read_element(inputs, i) == v) return true;
  }
  return false;
}

// "aten::add" + "out" -> "aten::add.out"; false when it does not fit.
bool full_op_name(const fb::Operator* op, char* out, size_t capacity) {
  if (op == nullptr || op->name() == nullptr) return false;
  const char* overload = op->overload() && op->overload()->size() ? op->overload()->c_str() : nullptr;
  const int n = overload ? snprintf(out, capacity, "%s.%s", op->name()->c_str(), overload)
                         : snprintf(out, capacity, "%s", op->name()->c_str());
  return n > 0 && static_cast<size_t>(n) < capacity;
}

// The planned tensors' lifetimes, after every rule of pte_lifetime_plan.h
// has been checked. `views`: whether a kernel may return a tensor with no
// memory of its own (a view over its input, executorch_prim::et_view); the
// planner here does not follow a view's uses back to its base, the per-shape
// schedule (lazy_plan.h) does.
struct Lifetimes {
  int32_t* slot = nullptr;  // per value: its planned tensor, or -1
  LifetimeBuffer* buffers = nullptr;
  size_t np = 0;
};

// executorch_prim::et_view.default(self, size) -> out: ExecuTorch plans the
// view at its base's bytes, and the kernel points it there. (In-place ops
// such as copy_ also return a tensor they do not name as an out, but write
// it: that is not a view.)
bool is_view_op(const fb::Operator* op) {
  return op != nullptr && op->name() != nullptr &&
         strcmp(op->name()->c_str(), "executorch_prim::et_view") == 0 &&
         (op->overload() == nullptr || op->overload()->size() == 0 ||
          strcmp(op->overload()->c_str(), "default") == 0);
}

// A planned tensor a view op returns, named there for the first time.
bool is_view_birth(bool view_op, int32_t count, int32_t returned_at, int32_t step) {
  return view_op && count == 1 && returned_at == step;
}

Result<Lifetimes> analyze(const fb::ExecutionPlan* plan, MemoryAllocator& scratch, bool views,
                          Span<uint8_t> view_flags) {
  const auto* values = plan->values();
  const size_t nv = values ? values->size() : 0;
  const auto* chains = plan->chains();
  const auto* instructions =
      chains && chains->size() == 1 && chains->Get(0) ? chains->Get(0)->instructions() : nullptr;
  const size_t ni = instructions ? instructions->size() : 0;
  TRI_CHECK(ni < static_cast<size_t>(INT32_MAX) - 2, Error::NotSupported, "%zu instructions",
            ni);

  // Which values are planned tensors, and the checks that need only them.
  int32_t* slot = scratch.allocate_array<int32_t>(nv);
  TRI_CHECK(slot != nullptr || nv == 0, Error::MemoryAllocationFailed,
            "no scratch memory to re-plan %zu values", nv);
  size_t np = 0;
  for (size_t i = 0; i < nv; ++i) {
    slot[i] = -1;
    const fb::Tensor* t = planned_tensor(values->Get(static_cast<flatbuffers::uoffset_t>(i)));
    if (t == nullptr) continue;
    TRI_CHECK(t->allocation_info()->memory_id() == 1, Error::NotSupported,
              "value %zu lives in planned buffer %" PRIu32 " (only buffer 1 is re-planned)", i,
              static_cast<uint32_t>(t->allocation_info()->memory_id()));
    TRI_CHECK(t->data_buffer_idx() == 0 && t->extra_tensor_info() == nullptr,
              Error::NotSupported, "value %zu has data of its own (state kept across runs)", i);
    TRI_CHECK(np < kMaxLifetimePlannedTensors, Error::NotSupported,
              "more than %zu planned tensors", kMaxLifetimePlannedTensors);
    slot[i] = static_cast<int32_t>(np++);
  }
  TRI_CHECK(np > 0, Error::NotSupported, "nothing is planned");
  const auto* buffer_sizes = plan->non_const_buffer_sizes();
  TRI_CHECK(buffer_sizes != nullptr && buffer_sizes->size() >= 2 && read_element(buffer_sizes, 1) >= 0,
            Error::NotSupported, "the file plans no buffer 1");
  const uint64_t file_buffer = static_cast<uint64_t>(read_element(buffer_sizes, 1));

  PlannedTensor* planned = scratch.allocate_array<PlannedTensor>(np);
  LifetimeBuffer* buffers = scratch.allocate_array<LifetimeBuffer>(np);
  // Per value, for one instruction at a time: how often it names the value.
  int32_t* stamp = scratch.allocate_array<int32_t>(nv);
  int32_t* count = scratch.allocate_array<int32_t>(nv);
  // Per value: the last instruction that returned it.
  int32_t* returned_at = scratch.allocate_array<int32_t>(nv);
  TRI_CHECK(planned && buffers && stamp && count && returned_at, Error::MemoryAllocationFailed,
            "no scratch memory to re-plan %zu tensors", np);
  for (size_t i = 0; i < nv; ++i) {
    stamp[i] = -1;
    returned_at[i] = -1;
    if (slot[i] < 0) continue;
    const fb::Tensor* t = values->Get(static_cast<flatbuffers::uoffset_t>(i))->val_as_Tensor();
    Tensor shape;
    TRI_TRY_CONTEXT(parse_tensor_shape(t, &shape), "value %zu", i);
    const fb::AllocationDetails* a = t->allocation_info();
    PlannedTensor& p = planned[slot[i]];
    p.tensor = t;
    p.value = static_cast<int32_t>(i);
    p.file_offset = static_cast<uint64_t>(a->memory_offset_low()) |
                    (static_cast<uint64_t>(a->memory_offset_high()) << 32);
    LifetimeBuffer& b = buffers[slot[i]];
    b.size = shape.nbytes();
    // A tensor the file's plan cannot hold fails to load with it; so it
    // does with this one.
    TRI_CHECK(p.file_offset <= file_buffer && b.size <= file_buffer - p.file_offset,
              Error::NotSupported, "value %zu lies outside planned buffer 1 in the file", i);
    b.first = kUnseen;
    b.last = -1;
  }

  // Steps: 0 is before the first instruction (inputs arrive), k + 1 is
  // instruction k, ni + 1 after the last (outputs are read).
  const size_t ref_capacity = nv + 1;
  int32_t* refs = scratch.allocate_array<int32_t>(ref_capacity);
  TRI_CHECK(refs != nullptr, Error::MemoryAllocationFailed, "no scratch memory to re-plan");
  const auto* inputs = plan->inputs();
  for (size_t i = 0; inputs && i < inputs->size(); ++i) {
    const int64_t n = append_value(values, read_element(inputs, i), refs, 0, ref_capacity);
    TRI_CHECK(n >= 0, Error::NotSupported, "input %zu is out of range", i);
    for (int64_t r = 0; r < n; ++r) {
      if (slot[refs[r]] >= 0) buffers[slot[refs[r]]].first = 0;
    }
  }
  const auto* operators = plan->operators();
  for (size_t k = 0; k < ni; ++k) {
    const fb::Instruction* in = instructions->Get(static_cast<flatbuffers::uoffset_t>(k));
    TRI_CHECK(in != nullptr && in->instr_args_type() == fb::InstructionArguments::KernelCall &&
                  in->instr_args_as_KernelCall() != nullptr,
              Error::NotSupported, "instruction %zu is a %s, not a kernel call", k,
              in ? fb::EnumNameInstructionArguments(in->instr_args_type()) : "missing table");
    const fb::KernelCall* call = in->instr_args_as_KernelCall();
    size_t returned = 0;
    const int64_t n = collect_refs(call, values, refs, ref_capacity, &returned);
    TRI_CHECK(n >= 0, Error::NotSupported, "instruction %zu names a value out of range", k);
    if (!views && returned < static_cast<size_t>(n)) {
      const int32_t r = refs[returned];
      const fb::EValue* ret = values->Get(static_cast<flatbuffers::uoffset_t>(r));
      const fb::Tensor* t = ret && ret->val_type() == fb::KernelTypes::Tensor ? ret->val_as_Tensor()
                                                                              : nullptr;
      TRI_CHECK(t == nullptr || slot[r] >= 0 || t->data_buffer_idx() > 0 || is_input(plan, r),
                Error::NotSupported,
                "instruction %zu returns value %" PRId32
                ", a view with no memory of its own, whose base this planner does not keep "
                "alive",
                k, r);
    }
    const uint32_t op_index =
        call->op_index() < 0 ? UINT32_MAX : static_cast<uint32_t>(call->op_index());
    const bool out_variant = operators != nullptr && op_index < operators->size() &&
                             is_out_variant(operators->Get(op_index));
    const bool view_op =
        operators != nullptr && op_index < operators->size() && is_view_op(operators->Get(op_index));
    const int32_t step = static_cast<int32_t>(k + 1);
    for (int64_t r = 0; r < n; ++r) {
      const int32_t v = refs[r];
      if (stamp[v] != step) {
        stamp[v] = step;
        count[v] = 0;
      }
      ++count[v];
      if (static_cast<size_t>(r) >= returned) returned_at[v] = step;
    }
    for (int64_t r = 0; r < n; ++r) {
      const int32_t v = refs[r];
      if (slot[v] < 0) continue;
      LifetimeBuffer& b = buffers[slot[v]];
      if (b.first == kUnseen && views && is_view_birth(view_op, count[v], returned_at[v], step)) {
        view_flags[v] = 1;
        b.first = step;
      }
      if (b.first == kUnseen) {
        // Written here: an out variant's out, named twice (as the out
        // argument and as the returned value).
        TRI_CHECK(out_variant && count[v] >= 2 && returned_at[v] == step,
                  Error::NotSupported,
                  "value %" PRId32 " is read by instruction %zu before any kernel writes it "
                  "(state kept across runs?)",
                  v, k);
        b.first = step;
      }
      b.last = step;
    }
  }
  // Inputs may die at once; outputs live until they are read; a planned
  // tensor no instruction names is kept apart for the whole run.
  const int32_t end = static_cast<int32_t>(ni + 1);
  for (size_t i = 0; i < np; ++i) {
    LifetimeBuffer& b = buffers[i];
    if (b.first == kUnseen) {
      b.first = 0;
      b.last = end;
    }
    if (b.last < b.first) b.last = b.first;
  }
  const auto* outputs = plan->outputs();
  for (size_t i = 0; outputs && i < outputs->size(); ++i) {
    const int64_t n = append_value(values, read_element(outputs, i), refs, 0, ref_capacity);
    TRI_CHECK(n >= 0, Error::NotSupported, "output %zu is out of range", i);
    for (int64_t r = 0; r < n; ++r) {
      if (slot[refs[r]] >= 0) buffers[slot[refs[r]]].last = end;
    }
  }
  // An element-wise out, or a view's, may take over an input that dies
  // where it is born (the planner checks that it dies there).
  for (size_t k = 0; k < ni; ++k) {
    const fb::KernelCall* call =
        instructions->Get(static_cast<flatbuffers::uoffset_t>(k))->instr_args_as_KernelCall();
    const int32_t step = static_cast<int32_t>(k + 1);
    char name[256];
    const int32_t na = call->args() ? static_cast<int32_t>(call->args()->size()) : 0;
    const uint32_t op_index =
        call->op_index() < 0 ? UINT32_MAX : static_cast<uint32_t>(call->op_index());
    if (na < 2 || operators == nullptr || op_index >= operators->size() ||
        !full_op_name(operators->Get(op_index), name, sizeof(name))) {
      continue;
    }
    const InPlaceKind kind = in_place_kind(name);
    if (kind == InPlaceKind::kNone) continue;
    const int32_t out = read_element(call->args(), static_cast<size_t>(na - 1));
    if (slot[out] < 0 || buffers[slot[out]].first != step) continue;
    const int32_t candidates = kind == InPlaceKind::kSameBytes ? 1 : na - 1;
    for (int32_t j = 0; j < candidates; ++j) {
      const int32_t a = read_element(call->args(), static_cast<size_t>(j));
      if (a == out || slot[a] < 0) continue;
      const LifetimeBuffer& in_buffer = buffers[slot[a]];
      if (in_buffer.first < step && in_buffer.last == step &&
          may_take_over(kind, planned[slot[a]].tensor, planned[slot[out]].tensor)) {
        buffers[slot[out]].reuse = slot[a];
        break;
      }
    }
  }

  // The file's aliases: tensors live at the same step that share bytes.
  uint32_t* by_offset = scratch.allocate_array<uint32_t>(np);
  TRI_CHECK(by_offset != nullptr, Error::MemoryAllocationFailed, "no scratch memory to re-plan");
  for (size_t i = 0; i < np; ++i) by_offset[i] = static_cast<uint32_t>(i);
  std::sort(by_offset, by_offset + np, [&](uint32_t x, uint32_t y) {
    return planned[x].file_offset != planned[y].file_offset
               ? planned[x].file_offset < planned[y].file_offset
               : x < y;
  });
  for (size_t i = 0; i < np; ++i) {
    const uint32_t x = by_offset[i];
    if (buffers[x].size == 0) continue;
    const uint64_t x_end = planned[x].file_offset + buffers[x].size;
    for (size_t j = i + 1; j < np && planned[by_offset[j]].file_offset < x_end; ++j) {
      const uint32_t y = by_offset[j];
      if (buffers[y].size == 0) continue;
      // A view sits on its base's bytes on purpose.
      if (views && (view_flags[planned[x].value] || view_flags[planned[y].value])) continue;
      TRI_CHECK(buffers[x].last < buffers[y].first || buffers[y].last < buffers[x].first,
                Error::NotSupported,
                "the file's plan shares bytes between two tensors live at the same step "
                "(planned tensors %" PRIu32 " and %" PRIu32 ")",
                x, y);
    }
  }

  return Lifetimes{slot, buffers, np};
}

}  // namespace

Error check_replannable(const fb::ExecutionPlan* plan, MemoryAllocator scratch,
                        Span<uint8_t> views) {
  const size_t nv = plan->values() ? plan->values()->size() : 0;
  TRI_CHECK(views.size() == nv, Error::InvalidArgument, "%zu view flags for %zu values",
            views.size(), nv);
  for (uint8_t& v : views) v = 0;
  return analyze(plan, scratch, /*views=*/true, views).error();
}

Result<uint64_t> plan_by_lifetimes(const fb::ExecutionPlan* plan, Span<uint64_t> offsets,
                                   MemoryAllocator scratch, uint64_t max_bytes) {
  const size_t nv = plan->values() ? plan->values()->size() : 0;
  TRI_CHECK(offsets.size() == nv, Error::InvalidArgument, "%zu offsets for %zu values",
            offsets.size(), nv);
  TRI_ASSIGN_OR_RETURN(const Lifetimes lives, analyze(plan, scratch, /*views=*/false, {}));
  const size_t np = lives.np;
  LifetimeBuffer* buffers = lives.buffers;
  const int32_t* slot = lives.slot;
  TRI_ASSIGN_OR_RETURN(const uint64_t arena,
                       plan_lifetimes(Span<LifetimeBuffer>(buffers, np), kAlignment, scratch));
  TRI_CHECK(arena <= max_bytes, Error::LimitExceeded,
            "the lifetime plan needs %" PRIu64 " bytes, over the limit of %" PRIu64, arena,
            max_bytes);
  for (size_t i = 0; i < nv; ++i) {
    offsets[i] = slot[i] >= 0 ? buffers[slot[i]].offset : 0;
  }
  return arena;
}

}  // namespace tri::pte
