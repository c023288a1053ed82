#include "cpp/formats/pt2/host/torch_pickle.h"

#include <cstring>

#include "cpp/runtime/core/byte_reader.h"

namespace tri::pt2 {
namespace {

// torch.<Name>Storage classes and torch.<dtype> objects, with their types.
struct NamedType {
  const char* storage;  // "FloatStorage"
  const char* dtype;    // "float32"
  ScalarType type;
};
constexpr NamedType kTypes[] = {
    {"FloatStorage", "float32", ScalarType::Float},
    {"DoubleStorage", "float64", ScalarType::Double},
    {"HalfStorage", "float16", ScalarType::Half},
    {"BFloat16Storage", "bfloat16", ScalarType::BFloat16},
    {"LongStorage", "int64", ScalarType::Long},
    {"IntStorage", "int32", ScalarType::Int},
    {"ShortStorage", "int16", ScalarType::Short},
    {"CharStorage", "int8", ScalarType::Char},
    {"ByteStorage", "uint8", ScalarType::Byte},
    {"BoolStorage", "bool", ScalarType::Bool},
    {"ComplexFloatStorage", "complex64", ScalarType::ComplexFloat},
    {"ComplexDoubleStorage", "complex128", ScalarType::ComplexDouble},
    {nullptr, "uint16", ScalarType::UInt16},
    {nullptr, "uint32", ScalarType::UInt32},
    {nullptr, "uint64", ScalarType::UInt64},
};

const char* const kFunctions[] = {
    "collections.OrderedDict",
    "torch._utils._rebuild_tensor_v2",
    "torch._utils._rebuild_tensor_v3",
    "torch._utils._rebuild_parameter",
    "torch._utils._rebuild_parameter_with_state",
    "torch.UntypedStorage",
};

bool is_whitelisted(const std::string& name) {
  for (const char* f : kFunctions) {
    if (name == f) return true;
  }
  for (const NamedType& t : kTypes) {
    if (t.storage != nullptr && name == std::string("torch.") + t.storage) return true;
    if (name == std::string("torch.") + t.dtype) return true;
  }
  return false;
}

const NamedType* type_named(const std::string& global) {
  for (const NamedType& t : kTypes) {
    if (t.storage != nullptr && global == std::string("torch.") + t.storage) return &t;
    if (global == std::string("torch.") + t.dtype) return &t;
  }
  return nullptr;
}

PickleRef make(PickleKind kind) {
  PickleRef v = std::make_shared<PickleValue>();
  v->kind = kind;
  return v;
}

class Machine {
 public:
  Machine(ByteSpan bytes, const std::string& what) : bytes_(bytes), what_(what) {}
  Result<PickleRef> run();

 private:
  Error error(const char* format_text, const std::string& detail = "") const {
    return fail(Error::InvalidProgram, "%s: pickle opcode at byte %zu: %s%s", what_.c_str(),
                op_at_, format_text, detail.c_str());
  }
  Result<const uint8_t*> take(size_t n) {
    if (n > bytes_.size() - at_) {
      return error("runs past the end of the data (truncated?)");
    }
    const uint8_t* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  Result<std::string> line();
  Error push(PickleRef v) {
    stack_.push_back(std::move(v));
    return Error::Ok;
  }
  Result<PickleRef> pop();
  // Items above the topmost mark, which is removed.
  Result<std::vector<PickleRef>> pop_to_mark();
  Error adopt(PickleValue& parent, const PickleRef& child);
  Error memo_put(uint32_t index);
  Error memo_get(uint32_t index);
  Error tuple_of(std::vector<PickleRef> items);
  Error reduce();
  Error persistent_id();
  Result<PickleRef> rebuild_tensor(const std::vector<PickleRef>& args, bool v3);

  ByteSpan bytes_;
  std::string what_;
  size_t at_ = 0;
  size_t op_at_ = 0;
  std::vector<PickleRef> stack_;
  std::vector<size_t> marks_;
  std::vector<PickleRef> memo_;
};

Result<std::string> Machine::line() {
  std::string out;
  for (;;) {
    TRI_ASSIGN_OR_RETURN(const uint8_t* p, take(1));
    if (*p == '\n') return out;
    if (out.size() > 256) return error("a GLOBAL name longer than 256 bytes");
    out += static_cast<char>(*p);
  }
}

Result<PickleRef> Machine::pop() {
  if (stack_.empty() || (!marks_.empty() && marks_.back() == stack_.size())) {
    return error("pops an empty stack");
  }
  PickleRef v = std::move(stack_.back());
  stack_.pop_back();
  return v;
}

Result<std::vector<PickleRef>> Machine::pop_to_mark() {
  if (marks_.empty()) return error("needs a MARK and there is none");
  const size_t mark = marks_.back();
  marks_.pop_back();
  std::vector<PickleRef> items(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
  stack_.resize(mark);
  return items;
}

Error Machine::adopt(PickleValue& parent, const PickleRef& child) {
  if (child.get() == &parent) return error("puts a container inside itself");
  if (child->depth + 1 > kMaxPickleDepth) {
    return error("objects nest too deeply");
  }
  if (child->depth + 1 > parent.depth) parent.depth = child->depth + 1;
  child->contained = true;
  return Error::Ok;
}

Error Machine::memo_put(uint32_t index) {
  if (stack_.empty()) return error("memoizes from an empty stack");
  // The memo is indexed densely by every pickler we read; a sparse index
  // would let a tiny file demand a huge table.
  if (index > memo_.size()) return error("memo index out of order");
  if (index == memo_.size()) {
    memo_.push_back(stack_.back());
  } else {
    memo_[index] = stack_.back();
  }
  return Error::Ok;
}

Error Machine::memo_get(uint32_t index) {
  if (index >= memo_.size() || memo_[index] == nullptr) {
    return error("reads a memo entry that was never written");
  }
  return push(memo_[index]);
}

Error Machine::tuple_of(std::vector<PickleRef> items) {
  PickleRef t = make(PickleKind::Tuple);
  for (const PickleRef& item : items) TRI_TRY(adopt(*t, item));
  t->items = std::move(items);
  return push(std::move(t));
}

Result<PickleRef> Machine::rebuild_tensor(const std::vector<PickleRef>& args, bool v3) {
  // (storage, storage_offset, size, stride, requires_grad, hooks[, dtype v3][, metadata])
  if (args.size() < (v3 ? 7u : 6u)) return error("a tensor is rebuilt from too few arguments");
  const PickleRef& storage = args[0];
  if (storage->kind != PickleKind::Storage) return error("a tensor's storage is not a storage");
  if (args[1]->kind != PickleKind::Int || args[2]->kind != PickleKind::Tuple ||
      args[3]->kind != PickleKind::Tuple) {
    return error("a tensor's offset, sizes or strides have the wrong kind");
  }
  PickleRef t = make(PickleKind::Tensor);
  t->tensor.storage = storage;
  t->tensor.dtype = storage->storage.dtype;
  if (v3) {
    const NamedType* type = args[6]->kind == PickleKind::Global ? type_named(args[6]->text) : nullptr;
    if (type == nullptr) return error("_rebuild_tensor_v3 without a known dtype");
    t->tensor.dtype = type->type;
  } else if (storage->storage.untyped) {
    return error("an untyped storage rebuilt without a dtype");
  }
  t->tensor.storage_offset = args[1]->integer;
  for (int pass = 0; pass < 2; ++pass) {
    for (const PickleRef& item : args[2 + pass]->items) {
      if (item->kind != PickleKind::Int) return error("a tensor size or stride is not an int");
      (pass == 0 ? t->tensor.sizes : t->tensor.strides).push_back(item->integer);
    }
  }
  if (t->tensor.sizes.size() != t->tensor.strides.size()) {
    return error("a tensor has different numbers of sizes and strides");
  }
  t->depth = 2;
  return t;
}

Error Machine::reduce() {
  TRI_ASSIGN_OR_RETURN(PickleRef args, pop());
  TRI_ASSIGN_OR_RETURN(PickleRef callable, pop());
  if (callable->kind != PickleKind::Global || args->kind != PickleKind::Tuple) {
    return error("REDUCE of something that is not a whitelisted global with a tuple");
  }
  const std::string& f = callable->text;
  const std::vector<PickleRef>& a = args->items;
  if (f == "collections.OrderedDict") {
    if (!a.empty()) return error("OrderedDict built from arguments");
    return push(make(PickleKind::Dict));
  }
  if (f == "torch._utils._rebuild_tensor_v2" || f == "torch._utils._rebuild_tensor_v3") {
    TRI_ASSIGN_OR_RETURN(PickleRef t, rebuild_tensor(a, f.back() == '3'));
    return push(std::move(t));
  }
  if (f == "torch._utils._rebuild_parameter" ||
      f == "torch._utils._rebuild_parameter_with_state") {
    if (a.empty() || a[0]->kind != PickleKind::Tensor) {
      return error("a parameter rebuilt from something that is not a tensor");
    }
    return push(a[0]);
  }
  return error("REDUCE cannot call ", f);
}

Error Machine::persistent_id() {
  TRI_ASSIGN_OR_RETURN(PickleRef pid, pop());
  const std::vector<PickleRef>& a = pid->items;
  if (pid->kind != PickleKind::Tuple || a.size() != 5 || a[0]->kind != PickleKind::String ||
      a[0]->text != "storage" || a[1]->kind != PickleKind::Global ||
      a[2]->kind != PickleKind::String || a[4]->kind != PickleKind::Int) {
    return error("a persistent id that is not (\"storage\", class, key, location, numel)");
  }
  PickleRef s = make(PickleKind::Storage);
  if (a[1]->text == "torch.UntypedStorage") {
    s->storage.untyped = true;
    s->storage.dtype = ScalarType::Byte;
  } else {
    const NamedType* type = type_named(a[1]->text);
    if (type == nullptr || type->storage == nullptr) return error("unknown storage class ", a[1]->text);
    s->storage.dtype = type->type;
  }
  s->storage.key = a[2]->text;
  s->storage.numel = a[4]->integer;
  if (s->storage.numel < 0) return error("a storage with a negative size");
  return push(std::move(s));
}

Result<PickleRef> Machine::run() {
  for (;;) {
    op_at_ = at_;
    TRI_ASSIGN_OR_RETURN(const uint8_t* p, take(1));
    const uint8_t op = *p;
    switch (op) {
      case 0x80: {  // PROTO
        TRI_ASSIGN_OR_RETURN(const uint8_t* v, take(1));
        if (*v > 5) return error("unknown protocol version");
        break;
      }
      case 0x95:  // FRAME: a length to skip
        TRI_TRY(take(8).error());
        break;
      case '.': {  // STOP
        TRI_ASSIGN_OR_RETURN(PickleRef result, pop());
        return result;
      }
      case '(':
        marks_.push_back(stack_.size());
        break;
      case 'N':
        TRI_TRY(push(make(PickleKind::None)));
        break;
      case 0x88:
      case 0x89: {
        PickleRef v = make(PickleKind::Bool);
        v->boolean = op == 0x88;
        TRI_TRY(push(std::move(v)));
        break;
      }
      case 'J':
      case 'K':
      case 'M': {  // BININT, BININT1, BININT2
        const size_t n = op == 'J' ? 4 : op == 'K' ? 1 : 2;
        TRI_ASSIGN_OR_RETURN(const uint8_t* v, take(n));
        PickleRef i = make(PickleKind::Int);
        i->integer = n == 4 ? static_cast<int32_t>(read_u32_le(v)) : n == 2 ? read_u16_le(v) : *v;
        TRI_TRY(push(std::move(i)));
        break;
      }
      case 0x8a: {  // LONG1: little-endian two's complement of n bytes
        TRI_ASSIGN_OR_RETURN(const uint8_t* n, take(1));
        if (*n > 8) return error("an integer wider than 64 bits");
        TRI_ASSIGN_OR_RETURN(const uint8_t* v, take(*n));
        uint64_t u = 0;
        for (size_t k = 0; k < *n; ++k) u |= static_cast<uint64_t>(v[k]) << (8 * k);
        if (*n > 0 && *n < 8 && (v[*n - 1] & 0x80)) u |= ~uint64_t{0} << (8 * *n);
        PickleRef i = make(PickleKind::Int);
        i->integer = static_cast<int64_t>(u);
        TRI_TRY(push(std::move(i)));
        break;
      }
      case 'G': {  // BINFLOAT: big-endian double
        TRI_ASSIGN_OR_RETURN(const uint8_t* v, take(8));
        uint64_t u = 0;
        for (size_t k = 0; k < 8; ++k) u = (u << 8) | v[k];
        PickleRef f = make(PickleKind::Float);
        memcpy(&f->number, &u, sizeof(u));
        TRI_TRY(push(std::move(f)));
        break;
      }
      case 'X':
      case 0x8c: {  // BINUNICODE, SHORT_BINUNICODE
        TRI_ASSIGN_OR_RETURN(const uint8_t* n, take(op == 'X' ? 4 : 1));
        const size_t length = op == 'X' ? read_u32_le(n) : *n;
        TRI_ASSIGN_OR_RETURN(const uint8_t* v, take(length));
        PickleRef s = make(PickleKind::String);
        s->text.assign(reinterpret_cast<const char*>(v), length);
        TRI_TRY(push(std::move(s)));
        break;
      }
      case ')':
        TRI_TRY(push(make(PickleKind::Tuple)));
        break;
      case ']':
        TRI_TRY(push(make(PickleKind::List)));
        break;
      case '}':
        TRI_TRY(push(make(PickleKind::Dict)));
        break;
      case 't': {
        TRI_ASSIGN_OR_RETURN(std::vector<PickleRef> items, pop_to_mark());
        TRI_TRY(tuple_of(std::move(items)));
        break;
      }
      case 0x85:
      case 0x86:
      case 0x87: {  // TUPLE1..3
        std::vector<PickleRef> items(op - 0x84);
        for (size_t k = items.size(); k-- > 0;) {
          TRI_ASSIGN_OR_RETURN(items[k], pop());
        }
        TRI_TRY(tuple_of(std::move(items)));
        break;
      }
      case 'q':
      case 'r': {  // BINPUT, LONG_BINPUT
        TRI_ASSIGN_OR_RETURN(const uint8_t* v, take(op == 'q' ? 1 : 4));
        TRI_TRY(memo_put(op == 'q' ? *v : read_u32_le(v)));
        break;
      }
      case 0x94:  // MEMOIZE
        TRI_TRY(memo_put(static_cast<uint32_t>(memo_.size())));
        break;
      case 'h':
      case 'j': {  // BINGET, LONG_BINGET
        TRI_ASSIGN_OR_RETURN(const uint8_t* v, take(op == 'h' ? 1 : 4));
        TRI_TRY(memo_get(op == 'h' ? *v : read_u32_le(v)));
        break;
      }
      case 'c': {  // GLOBAL module\nname\n
        TRI_ASSIGN_OR_RETURN(std::string module, line());
        TRI_ASSIGN_OR_RETURN(std::string name, line());
        const std::string full = module + "." + name;
        if (!is_whitelisted(full)) {
          return error("refuses the global ", full + " (torch.save's own pickles never name it)");
        }
        PickleRef g = make(PickleKind::Global);
        g->text = full;
        TRI_TRY(push(std::move(g)));
        break;
      }
      case 'R':
        TRI_TRY(reduce());
        break;
      case 'Q':
        TRI_TRY(persistent_id());
        break;
      case 'a':
      case 'e': {  // APPEND, APPENDS
        std::vector<PickleRef> items;
        if (op == 'a') {
          TRI_ASSIGN_OR_RETURN(PickleRef item, pop());
          items.push_back(std::move(item));
        } else {
          TRI_ASSIGN_OR_RETURN(items, pop_to_mark());
        }
        TRI_ASSIGN_OR_RETURN(PickleRef list, pop());
        if (list->kind != PickleKind::List || list->contained) {
          return error("appends to something that is not a free list");
        }
        for (const PickleRef& item : items) TRI_TRY(adopt(*list, item));
        list->items.insert(list->items.end(), items.begin(), items.end());
        TRI_TRY(push(std::move(list)));
        break;
      }
      case 's':
      case 'u': {  // SETITEM, SETITEMS
        std::vector<PickleRef> items;
        if (op == 's') {
          items.resize(2);
          TRI_ASSIGN_OR_RETURN(items[1], pop());
          TRI_ASSIGN_OR_RETURN(items[0], pop());
        } else {
          TRI_ASSIGN_OR_RETURN(items, pop_to_mark());
        }
        if (items.size() % 2 != 0) return error("SETITEMS with an odd number of items");
        TRI_ASSIGN_OR_RETURN(PickleRef dict, pop());
        if (dict->kind != PickleKind::Dict || dict->contained) {
          return error("sets items of something that is not a free dict");
        }
        for (size_t k = 0; k < items.size(); k += 2) {
          TRI_TRY(adopt(*dict, items[k]));
          TRI_TRY(adopt(*dict, items[k + 1]));
          dict->entries.emplace_back(items[k], items[k + 1]);
        }
        TRI_TRY(push(std::move(dict)));
        break;
      }
      case 'b': {  // BUILD: torch.save only sets empty state on its objects
        TRI_ASSIGN_OR_RETURN(PickleRef state, pop());
        if (stack_.empty()) return error("BUILD with nothing to build");
        const bool empty = state->kind == PickleKind::None ||
                           (state->kind == PickleKind::Dict && state->entries.empty()) ||
                           (state->kind == PickleKind::Tuple && state->items.empty());
        if (!empty) return error("BUILD sets object state, which is not supported");
        break;
      }
      default: {
        char name[32];
        snprintf(name, sizeof(name), "0x%02x", op);
        return error("unsupported opcode ", name);
      }
    }
  }
}

}  // namespace

const char* pickle_kind_name(PickleKind kind) {
  switch (kind) {
    case PickleKind::None: return "None";
    case PickleKind::Bool: return "bool";
    case PickleKind::Int: return "int";
    case PickleKind::Float: return "float";
    case PickleKind::String: return "str";
    case PickleKind::Tuple: return "tuple";
    case PickleKind::List: return "list";
    case PickleKind::Dict: return "dict";
    case PickleKind::Global: return "global";
    case PickleKind::Storage: return "storage";
    case PickleKind::Tensor: return "tensor";
  }
  return "?";
}

Result<PickleRef> read_pickle(ByteSpan bytes, const std::string& what) {
  Machine machine(bytes, what);
  return machine.run();
}

}  // namespace tri::pt2
