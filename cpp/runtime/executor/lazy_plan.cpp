#include "cpp/runtime/executor/lazy_plan.h"

#include <algorithm>
#include <cinttypes>

namespace tri {
namespace {

constexpr uint32_t kUnseen = UINT32_MAX;

// The value table index of slot `v`, or -1 for a slot outside the table.
int64_t index_of(Span<EValue> values, const EValue* v) {
  if (v < values.data() || v >= values.data() + values.size()) return -1;
  return v - values.data();
}

// Calls fn(index) for each tensor an argument names: the value itself, or a
// list's members.
template <typename Fn>
void for_each_tensor(Span<EValue> values, const EValue* arg, Fn fn) {
  if (arg->is_tensor()) {
    const int64_t i = index_of(values, arg);
    if (i >= 0) fn(static_cast<size_t>(i));
    return;
  }
  if (arg->tag != Tag::TensorList && arg->tag != Tag::OptionalTensorList) return;
  const BoxedTensorList& list = arg->payload.as_tensor_list;
  for (size_t k = 0; k < list.size; ++k) {
    if (list.items[k] == nullptr || !list.items[k]->is_tensor()) continue;
    const int64_t i = index_of(values, list.items[k]);
    if (i >= 0) fn(static_cast<size_t>(i));
  }
}

// Whether argument `a` of `instr` is where the call's kernel writes: the
// returned value (the last argument), and the out argument(s) it mirrors
// (ExecuTorch's layout: inputs, outs, then the returned value): the one
// right before it, or, for m separate outs, the m right before it.
bool is_out_position(const Instruction& instr, uint32_t a) {
  const uint32_t n = instr.num_args;
  if (a + 2 >= n) return true;
  return returns_separate_outs(instr) && a + 1 + instr.args[n - 1]->payload.as_tensor_list.size >= n;
}

struct Groups {
  int32_t* parent;
  int32_t find(int32_t v) {
    while (parent[v] != v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  }
  void join(int32_t a, int32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[b] = a;
  }
};

}  // namespace

Result<LazySchedule> plan_lazy_tensors(Span<EValue> values, Span<const Instruction> instructions,
                                       Span<const int32_t> inputs, Span<const int32_t> outputs,
                                       MemoryAllocator& alloc) {
  const size_t nv = values.size();
  size_t num_lazy = 0;
  size_t num_unplaced = 0;
  for (const EValue& v : values) {
    if (!v.is_tensor()) continue;
    const Tensor& t = *v.payload.as_tensor;
    if (t.binder() != nullptr) ++num_lazy;
    if (t.binder() == nullptr && t.data() == nullptr) ++num_unplaced;
  }
  if (num_lazy == 0) return LazySchedule{};
  for (size_t pc = 0; pc < instructions.size(); ++pc) {
    TRI_CHECK(instructions[pc].kind == InstructionKind::KernelCall, Error::NotSupported,
              "planning per shape needs a method of kernel calls only; instruction %zu is not one",
              pc);
  }
  TRI_CHECK(instructions.size() < kUnseen && nv < static_cast<size_t>(INT32_MAX),
            Error::NotSupported, "too many instructions or values to plan per shape");

  uint32_t* first = alloc.allocate_array<uint32_t>(nv);
  uint32_t* last = alloc.allocate_array<uint32_t>(nv);
  uint32_t* group_last = alloc.allocate_array<uint32_t>(nv);
  int32_t* parent = alloc.allocate_array<int32_t>(nv);
  bool* is_input = alloc.allocate_array<bool>(nv);
  bool* is_view = alloc.allocate_array<bool>(nv);
  LazyTensor* lazy = alloc.allocate_array<LazyTensor>(num_lazy + num_unplaced);
  uint32_t* by_last = alloc.allocate_array<uint32_t>(num_lazy + num_unplaced);
  TRI_CHECK(first && last && group_last && parent && is_input && is_view && lazy && by_last,
            Error::MemoryAllocationFailed,
            "method allocator exhausted (per-shape plan of %zu values)", nv);
  for (size_t v = 0; v < nv; ++v) {
    first[v] = kUnseen;
    last[v] = 0;
    group_last[v] = 0;
    parent[v] = static_cast<int32_t>(v);
    is_input[v] = false;
    is_view[v] = false;
  }
  for (const int32_t i : inputs) {
    if (i >= 0 && static_cast<size_t>(i) < nv) is_input[i] = true;
  }
  Groups groups{parent};

  for (size_t pc = 0; pc < instructions.size(); ++pc) {
    const Instruction& instr = instructions[pc];
    const uint32_t step = static_cast<uint32_t>(pc);
    for (uint32_t a = 0; a < instr.num_args; ++a) {
      bool read_unbound = false;
      for_each_tensor(values, instr.args[a], [&](size_t v) {
        if (first[v] == kUnseen) first[v] = step;
        last[v] = step;
        // A lazy tensor has no memory until its first kernel sizes it as an
        // out; read there as an input, it would be read through a null
        // pointer (a hostile file can name it so).
        if (first[v] == step && values[v].payload.as_tensor->binder() != nullptr &&
            !is_input[v] && !is_out_position(instr, a)) {
          read_unbound = true;
        }
      });
      TRI_CHECK(!read_unbound, Error::NotSupported,
                "planning per shape: instruction %zu reads, as argument %" PRIu32
                ", a tensor that no earlier instruction writes",
                pc, a);
    }
    if (instr.num_args == 0) continue;
    // The returned value without memory of its own and not an input: a view
    // over the call's tensors.
    const int64_t ret = index_of(values, instr.args[instr.num_args - 1]);
    if (ret < 0 || !values[ret].is_tensor()) continue;
    const Tensor& r = *values[ret].payload.as_tensor;
    if (r.data() != nullptr || r.binder() != nullptr || is_input[ret]) continue;
    is_view[ret] = true;
    for (uint32_t a = 0; a + 1 < instr.num_args; ++a) {
      for_each_tensor(values, instr.args[a], [&](size_t v) {
        groups.join(static_cast<int32_t>(ret), static_cast<int32_t>(v));
      });
    }
  }
  for (size_t v = 0; v < nv; ++v) {
    if (first[v] == kUnseen) continue;
    const int32_t g = groups.find(static_cast<int32_t>(v));
    if (last[v] > group_last[g]) group_last[g] = last[v];
  }
  for (const int32_t o : outputs) {
    if (o < 0 || static_cast<size_t>(o) >= nv) continue;
    for_each_tensor(values, &values[o], [&](size_t v) {
      group_last[groups.find(static_cast<int32_t>(v))] = LazyTensor::kLiveToEnd;
      if (first[v] == kUnseen) first[v] = 0;  // an output no instruction writes
    });
  }

  size_t n = 0;
  for (size_t v = 0; v < nv; ++v) {
    if (!values[v].is_tensor()) continue;
    const bool placed = values[v].payload.as_tensor->binder() != nullptr;
    if (!placed && !is_view[v]) continue;
    if (first[v] == kUnseen) continue;  // never used: never placed
    LazyTensor& l = lazy[n++];
    l.tensor = values[v].payload.as_tensor;
    l.first = first[v];
    l.last = group_last[groups.find(static_cast<int32_t>(v))];
    l.view = !placed;
  }
  // std::sort, not stable_sort, which may take a heap buffer; ties go by
  // value order (tensors are allocated in it), so the schedule is the same
  // on every load.
  std::sort(lazy, lazy + n, [](const LazyTensor& a, const LazyTensor& b) {
    return a.first != b.first ? a.first < b.first : a.tensor < b.tensor;
  });
  for (size_t i = 0; i < n; ++i) by_last[i] = static_cast<uint32_t>(i);
  std::sort(by_last, by_last + n, [&](uint32_t a, uint32_t b) {
    return lazy[a].last != lazy[b].last ? lazy[a].last < lazy[b].last : a < b;
  });
  return LazySchedule{Span<LazyTensor>(lazy, n), Span<const uint32_t>(by_last, n)};
}

bool returns_separate_outs(const Instruction& instr) {
  const uint32_t n = instr.num_args;
  return n >= 2 && instr.args[n - 1]->tag == Tag::TensorList &&
         instr.args[n - 2]->tag != Tag::TensorList;
}

}  // namespace tri
