#include "cpp/formats/bef/host/mlir_to_bef/mlir_custom_ops.h"

#include <map>
#include <utility>

#include "cpp/formats/bef/host/mlir_to_bef/mlir_parser_impl.h"

namespace tri::bef::mlir {

namespace {

using Table = std::map<std::string, CustomOpSpec>;

CustomOpSpec spec(CustomForm form, uint32_t num_operands, std::vector<std::string> results,
                  std::string attr = "", std::string attr_type = "") {
  CustomOpSpec s;
  s.form = form;
  s.num_operands = num_operands;
  s.results = std::move(results);
  s.attr = std::move(attr);
  s.attr_type = std::move(attr_type);
  return s;
}

void add_tfrt_ops(Table* t) {
  const std::string chain = kChainType;
  for (const char* type : {"i1", "i32", "i64", "bf16", "f16", "f32", "f64", "ui32", "ui64"}) {
    (*t)[std::string("tfrt.constant.") + type] = spec(CustomForm::Value, 0, {type}, "value", type);
  }
  for (const char* type : {"i64", "f16", "f32", "f64"}) {
    (*t)[std::string("tfrt.constant_s.") + type] = spec(CustomForm::Value, 0, {type}, "value", type);
  }
  (*t)["tfrt.constant.complex64"] = spec(CustomForm::ComplexConstant, 0, {"complex<f32>"}, "", "f32");
  (*t)["tfrt.constant.complex128"] =
      spec(CustomForm::ComplexConstant, 0, {"complex<f64>"}, "", "f64");
  (*t)["tfrt.new.chain"] = spec(CustomForm::AttrDict, 0, {chain});
  (*t)["tfrt.merge.chains"] = spec(CustomForm::MergeChains, 0, {chain});
  for (const char* type : {"i32", "i64", "f32", "f64"}) {
    (*t)[std::string("tfrt.add.") + type] = spec(CustomForm::Operands, 2, {type});
    (*t)[std::string("tfrt.print.") + type] = spec(CustomForm::Operands, 2, {chain});
  }
  (*t)["tfrt.print.i1"] = spec(CustomForm::Operands, 2, {chain});
  (*t)["tfrt.and.i1"] = spec(CustomForm::Operands, 2, {"i1"});
  for (const char* type : {"i32", "i64"}) {
    (*t)[std::string("tfrt.equal.") + type] = spec(CustomForm::Operands, 2, {"i1"});
    (*t)[std::string("tfrt.div.") + type] = spec(CustomForm::Operands, 2, {type, type});
    (*t)[std::string("tfrt.mul.") + type] = spec(CustomForm::Operands, 2, {type});
    (*t)[std::string("tfrt.mul_s.") + type] = spec(CustomForm::Operands, 2, {type});
  }
  (*t)["tfrt.get_device"] = spec(CustomForm::Operands, 1, {"!tfrt.device"});
  (*t)["tfrt.call"] = spec(CustomForm::Call, 0, {});
  (*t)["tfrt.return"] = spec(CustomForm::Return, 0, {});
  (*t)["tfrt.if"] = spec(CustomForm::If, 0, {});
  (*t)["tfrt.repeat.i32"] = spec(CustomForm::Repeat, 0, {});
  (*t)["tfrt.parallel_for.i32"] = spec(CustomForm::ParallelFor, 0, {chain});
  (*t)["tfrt.parallel_call.i32"] = spec(CustomForm::ParallelCall, 0, {chain});
  (*t)["tfrt.cond"] = spec(CustomForm::Cond, 0, {});
  (*t)["tfrt.case"] = spec(CustomForm::Case, 0, {});
  (*t)["tfrt.while"] = spec(CustomForm::While, 0, {});
  (*t)["tfrt.once"] = spec(CustomForm::Once, 0, {});
}

void add_test_ops(Table* t) {
  (*t)["tfrt_test.do.async"] = spec(CustomForm::DoAsync, 0, {});
  (*t)["tfrt_test.benchmark"] = spec(CustomForm::Benchmark, 0, {kChainType});
  for (const char* type : {"i32", "i64"}) {
    (*t)[std::string("tfrt_test.count3.") + type] =
        spec(CustomForm::Operands, 1, {type, type, type});
  }
  (*t)["tfrt_test.decode_jpeg"] = spec(CustomForm::Operands, 1, {kTensorType});
  (*t)["tfrt_test.resize_bilinear"] = spec(CustomForm::Operands, 3, {kTensorType});
  (*t)["tfrt_test.parse_example_from_bytes"] = spec(CustomForm::Operands, 1, {"!proto.example"});
  (*t)["tfrt_test.get_bytes_field_from_example"] = spec(CustomForm::Operands, 2, {kStringType});
  (*t)["tfrt_test.get_int64_field_from_example"] = spec(CustomForm::Operands, 2, {"i64"});
  (*t)["tfrt_test.get_string"] = spec(CustomForm::AttrDict, 0, {kStringType});
  (*t)["tfrt_test.get_string_sync"] = spec(CustomForm::AttrDict, 0, {kStringType});
  (*t)["tfrt_test.test_cost"] = spec(CustomForm::TestCost, 0, {"i32"});
}

void add_tensor_ops(Table* t) {
  const std::string chain = kChainType;
  for (const char* dtype :
       {"ui8", "ui16", "ui32", "ui64", "i32", "f32", "i64", "bool", "complex64", "complex128"}) {
    const std::string dt = dtype;
    for (int rank = 0; rank <= 4; ++rank) {
      const std::string suffix = dt + "." + std::to_string(rank);
      (*t)["tfrt_dht.create_uninitialized_tensor." + suffix] =
          spec(CustomForm::Value, 0, {kTensorType}, "shape");
      (*t)["tfrt_dht_sync.create_uninitialized_tensor." + suffix] =
          spec(CustomForm::Value, 0, {kTensorType}, "shape");
    }
    (*t)["tfrt_dht.fill_tensor_with_constant." + dt] =
        spec(CustomForm::OperandsValue, 2, {chain}, "value");
    (*t)["tfrt_dht.make_tensor." + dt] = spec(CustomForm::Operands, 3, {kTensorType, chain});
    (*t)["tfrt_dht.set_tensor_with_constant_values." + dt] =
        spec(CustomForm::OperandsValue, 2, {chain}, "values");
    (*t)["tfrt_dht.tensor_equal." + dt] = spec(CustomForm::Operands, 3, {"i1", chain});
    (*t)["tfrt_dht_sync.set_tensor_with_constant_values." + dt] =
        spec(CustomForm::TensorValues, 1, {}, "values");
    (*t)["tfrt_dht_sync.make_tensor." + dt] = spec(CustomForm::Operands, 2, {kTensorType});
  }
  (*t)["tfrt_dht.print_tensor"] = spec(CustomForm::Operands, 2, {chain});
  (*t)["tfrt_dht.allocate_buffer"] = spec(CustomForm::Operands, 2, {kHostBufferType});
  (*t)["tfrt_dht.get_buffer"] = spec(CustomForm::Operands, 2, {kHostBufferType, chain});
  (*t)["tfrt_dht.get_buffer_slice"] = spec(CustomForm::Operands, 3, {kHostBufferType});
  (*t)["tfrt_dht.print_buffer"] = spec(CustomForm::Operands, 2, {chain});
  (*t)["tfrt_dht.get_tensor_shape"] = spec(CustomForm::Operands, 1, {kShapeType});
  (*t)["tfrt_dht_sync.print_tensor"] = spec(CustomForm::Operands, 1, {});
  (*t)["tfrt_dht_sync.allocate_buffer"] = spec(CustomForm::Operands, 2, {kHostBufferType});
  (*t)["tfrt_dht_sync.get_tensor_shape"] = spec(CustomForm::Operands, 1, {kShapeType});
  (*t)["tfrt_dht_sync.get_buffer_slice"] = spec(CustomForm::Operands, 3, {kHostBufferType});

  (*t)["ts.build_shape"] = spec(CustomForm::Value, 0, {kShapeType}, "value");
  (*t)["ts.equal_shape"] = spec(CustomForm::Operands, 2, {"i1"});
  (*t)["ts.get_dimension"] = spec(CustomForm::Operands, 2, {"i64"});
  (*t)["ts.get_num_elements"] = spec(CustomForm::Operands, 1, {"i64"});
  (*t)["ts.print_shape"] = spec(CustomForm::Operands, 2, {chain});
  for (int rank = 0; rank <= 3; ++rank) {
    const std::string r = std::to_string(rank);
    (*t)["ts.as_fixed_rank_shape." + r] =
        spec(CustomForm::Operands, 1, {"!ts.fixed_rank_shape." + r});
    (*t)["ts.print_fixed_rank_shape." + r] = spec(CustomForm::Operands, 2, {chain});
  }
  (*t)["ts.build_partial_shape"] = spec(CustomForm::Value, 0, {kPartialShapeType}, "value");
  (*t)["ts.build_unranked_partial_shape"] = spec(CustomForm::AttrDict, 0, {kPartialShapeType});
  (*t)["ts.print_partial_shape"] = spec(CustomForm::Operands, 2, {chain});
  (*t)["ts.to_shape"] = spec(CustomForm::Operands, 1, {kShapeType});
  (*t)["ts.to_partial_shape"] = spec(CustomForm::Operands, 1, {kPartialShapeType});
}

const Table& table() {
  static const Table* const instance = [] {
    auto* t = new Table();
    add_tfrt_ops(t);
    add_test_ops(t);
    add_tensor_ops(t);
    return t;
  }();
  return *instance;
}

std::string count_mismatch(size_t present, size_t expected) {
  return std::to_string(present) + " operands present, but expected " + std::to_string(expected);
}

}  // namespace

const CustomOpSpec* find_custom_op(const std::string& name) {
  const Table& t = table();
  auto it = t.find(name);
  return it == t.end() ? nullptr : &it->second;
}

bool is_registered_op(const std::string& name) { return find_custom_op(name) != nullptr; }

namespace {

// Helpers over a Parser for the pieces the custom forms share.
class CustomOpParser {
 public:
  CustomOpParser(Parser* p, Op* op) : p_(*p), op_(*op) {}

  bool operands(std::vector<UnresolvedOperand>* uses) { return p_.parse_unresolved_list(uses); }

  bool resolve(const std::vector<UnresolvedOperand>& uses) {
    return p_.resolve_all(uses, &op_.operands);
  }

  bool resolve_counted(const std::vector<UnresolvedOperand>& uses, size_t expected,
                       SourceLoc loc) {
    if (uses.size() != expected) return p_.fail_at(loc, count_mismatch(uses.size(), expected));
    return resolve(uses);
  }

  bool attr_dict() {
    if (!p_.at(TokenKind::LBrace)) return true;
    return p_.parse_attribute_dict(&op_.attributes);
  }

  // `attributes {...}` as tfrt.if, tfrt.repeat.i32 and do.async allow.
  bool keyword_attr_dict() {
    if (!p_.consume_keyword_if("attributes")) return true;
    if (!p_.at(TokenKind::LBrace)) return p_.fail_expected("'{'");
    return attr_dict();
  }

  bool named(const std::string& name, const std::string* type) {
    NamedAttr attr;
    attr.name = name;
    const SourceLoc loc = p_.loc();
    if (!p_.parse_attribute(&attr.value, type)) return false;
    return p_.add_attribute(&op_.attributes, std::move(attr), loc);
  }

  bool symbol(const std::string& name) {
    if (!p_.at(TokenKind::AtIdentifier)) return p_.fail_expected("symbol reference (@name)");
    return named(name, nullptr);
  }

  // `( %a, %b )`.
  bool paren_operands(std::vector<UnresolvedOperand>* uses) {
    return p_.expect(TokenKind::LParen, "'('") && operands(uses) &&
           p_.expect(TokenKind::RParen, "')'");
  }

  // `: ( T... ) -> ( T... )` as ODS prints `type($x)` lists in parentheses.
  bool paren_signature(std::vector<std::string>* inputs) {
    return p_.expect(TokenKind::Colon, "':'") && p_.parse_paren_type_list(inputs) &&
           p_.expect(TokenKind::Arrow, "'->'") && p_.parse_paren_type_list(&op_.result_types);
  }

 private:
  Parser& p_;
  Op& op_;
};

}  // namespace

bool Parser::parse_custom_op(Op* op, SourceLoc name_loc) {
  const CustomOpSpec* s = find_custom_op(op->name);
  if (s == nullptr) return fail_at(name_loc, "custom op '" + op->name + "' is unknown");
  CustomOpParser c(this, op);
  std::vector<UnresolvedOperand> uses;
  std::vector<std::string> types;
  const SourceLoc start = tok_.loc;
  switch (s->form) {
    case CustomForm::Operands:
      op->result_types = s->results;
      return c.operands(&uses) && c.resolve_counted(uses, s->num_operands, start) && c.attr_dict();

    case CustomForm::Value:
      op->result_types = s->results;
      return c.named(s->attr, s->attr_type.empty() ? nullptr : &s->attr_type) && c.attr_dict();

    case CustomForm::OperandsValue:
      op->result_types = s->results;
      return c.operands(&uses) && c.resolve_counted(uses, s->num_operands, start) &&
             c.named(s->attr, nullptr) && c.attr_dict();

    case CustomForm::TensorValues: {
      op->result_types = s->results;
      UnresolvedOperand tensor;
      if (!parse_unresolved(&tensor)) return false;
      uses.push_back(tensor);
      return c.resolve(uses) && c.named(s->attr, nullptr) && c.attr_dict();
    }

    case CustomForm::AttrDict:
      op->result_types = s->results;
      return c.attr_dict();

    case CustomForm::ComplexConstant:
      op->result_types = s->results;
      return c.named("real", &s->attr_type) && expect(TokenKind::Comma, "','") &&
             c.named("imaginary", &s->attr_type) && c.attr_dict();

    case CustomForm::MergeChains:
    case CustomForm::TestCost: {
      op->result_types = s->results;
      if (!c.operands(&uses) || !c.attr_dict()) return false;
      const SourceLoc loc = tok_.loc;
      if (!expect(TokenKind::Colon, "':'") || !parse_type_list(&types)) return false;
      return c.resolve_counted(uses, types.size(), loc);
    }

    case CustomForm::Call: {
      if (!c.symbol("callee") || !c.paren_operands(&uses) || !c.attr_dict()) return false;
      if (!expect(TokenKind::Colon, "':'")) return false;
      if (!parse_function_type(&types, &op->result_types)) return false;
      return c.resolve_counted(uses, types.size(), name_loc);
    }

    case CustomForm::Return: {
      if (!c.operands(&uses)) return false;
      if (!uses.empty()) {
        const SourceLoc loc = tok_.loc;
        if (!expect(TokenKind::Colon, "':'") || !parse_type_list(&types)) return false;
        return c.resolve_counted(uses, types.size(), loc);
      }
      return true;
    }

    case CustomForm::If:
    case CustomForm::DoAsync: {
      if (!c.operands(&uses) || !c.keyword_attr_dict()) return false;
      if (!expect(TokenKind::Colon, "':'")) return false;
      const SourceLoc type_loc = tok_.loc;
      if (!parse_function_type(&types, &op->result_types)) return false;
      // tfrt.if takes an i1 condition before the values its regions receive.
      const size_t leading = s->form == CustomForm::If ? 1 : 0;
      if (uses.size() < leading) return fail("expected condition");
      if (!c.resolve_counted(uses, types.size() + leading, type_loc)) return false;
      const std::vector<UnresolvedOperand> body(uses.begin() + static_cast<long>(leading),
                                                uses.end());
      Region then_region;
      if (!parse_region(&then_region, body, types, /*isolated=*/true, op->loc)) return false;
      op->regions.push_back(std::move(then_region));
      if (s->form == CustomForm::DoAsync) return true;
      Region else_region;
      if (consume_keyword_if("else")) {
        if (!parse_region(&else_region, body, types, /*isolated=*/true, op->loc)) return false;
      } else {
        // The else region is required in the IR; the parser fills in one that
        // just returns, located at the tfrt.if itself.
        if (!op->result_types.empty()) {
          return fail("expected 'else' in 'tfrt.if' with result values");
        }
        else_region.loc = op->loc;
        else_region.block.arg_types = types;
        Op ret;
        ret.name = kReturnOpName;
        ret.loc = op->loc;
        else_region.block.ops.push_back(std::move(ret));
      }
      op->regions.push_back(std::move(else_region));
      return true;
    }

    case CustomForm::Repeat: {
      if (!c.operands(&uses) || !c.keyword_attr_dict()) return false;
      const SourceLoc type_loc = tok_.loc;
      if (consume_if(TokenKind::Colon) && !parse_type_list(&types)) return false;
      if (uses.empty()) return fail("expected trip count");
      if (!c.resolve_counted(uses, types.size() + 1, type_loc)) return false;
      op->result_types = types;
      std::vector<UnresolvedOperand> body(uses.begin() + 1, uses.end());
      Region region;
      if (!parse_region(&region, body, types, /*isolated=*/true, op->loc)) return false;
      op->regions.push_back(std::move(region));
      return true;
    }

    case CustomForm::ParallelFor:
    case CustomForm::ParallelCall: {
      op->result_types = s->results;
      UnresolvedOperand start_use, end_use, block_size;
      if (!parse_unresolved(&start_use) || !expect_keyword("to") || !parse_unresolved(&end_use) ||
          !expect_keyword("fixed") || !parse_unresolved(&block_size)) {
        return false;
      }
      std::vector<UnresolvedOperand> extra;
      if (s->form == CustomForm::ParallelFor) {
        if (consume_if(TokenKind::Comma) && !c.operands(&extra)) return false;
      } else {
        if (!c.symbol("callee") || !c.paren_operands(&extra)) return false;
      }
      const SourceLoc type_loc = tok_.loc;
      if (consume_if(TokenKind::Colon) && !parse_type_list(&types)) return false;
      uses = {start_use, end_use, block_size};
      uses.insert(uses.end(), extra.begin(), extra.end());
      if (!c.resolve_counted(uses, types.size() + 3, type_loc)) return false;
      if (s->form == CustomForm::ParallelCall) return true;
      std::vector<UnresolvedOperand> body = {start_use, end_use};
      body.insert(body.end(), extra.begin(), extra.end());
      std::vector<std::string> body_types = {"i32", "i32"};
      body_types.insert(body_types.end(), types.begin(), types.end());
      Region region;
      if (!parse_region(&region, body, body_types, /*isolated=*/true, op->loc)) return false;
      op->regions.push_back(std::move(region));
      return true;
    }

    case CustomForm::Cond:
    case CustomForm::Case:
    case CustomForm::While:
    case CustomForm::Once: {
      UnresolvedOperand first;
      const bool has_first = s->form != CustomForm::Once;
      if (has_first && !parse_unresolved(&first)) return false;
      if (s->form == CustomForm::Cond) {
        if (!c.symbol("a_true_fn") || !c.symbol("b_false_fn")) return false;
      } else if (s->form == CustomForm::Case) {
        if (!c.named("branches", nullptr)) return false;
      } else if (s->form == CustomForm::While) {
        if (!c.symbol("body_fn")) return false;
      } else {
        if (!c.symbol("function")) return false;
      }
      if (!c.paren_operands(&uses) || !c.attr_dict()) return false;
      if (s->form == CustomForm::While) {
        static const std::string kI64 = "i64";
        if (!expect_keyword("parallel_iterations") || !expect(TokenKind::LParen, "'('") ||
            !c.named("parallel_iterations", &kI64) || !expect(TokenKind::RParen, "')'")) {
          return false;
        }
      }
      const SourceLoc type_loc = tok_.loc;
      if (!c.paren_signature(&types)) return false;
      if (has_first) uses.insert(uses.begin(), first);
      return c.resolve_counted(uses, types.size() + (has_first ? 1 : 0), type_loc);
    }

    case CustomForm::Benchmark: {
      op->result_types = s->results;
      if (!at(TokenKind::String)) return fail_expected("benchmark name string");
      if (!c.named("name", nullptr)) return false;
      if (!expect(TokenKind::LParen, "'('")) return false;
      if (!consume_if(TokenKind::RParen)) {
        while (true) {
          UnresolvedOperand use;
          std::string type;
          if (!parse_unresolved(&use) || !expect(TokenKind::Colon, "':'") || !parse_type(&type)) {
            return false;
          }
          uses.push_back(std::move(use));
          types.push_back(std::move(type));
          if (consume_if(TokenKind::RParen)) break;
          if (!expect(TokenKind::Comma, "')' or ','")) return false;
        }
      }
      if (!c.resolve(uses)) return false;
      static const std::string kI32 = "i32";
      bool warmup = false;
      do {
        if (!at(TokenKind::BareIdentifier)) return fail_expected("keyword attribute");
        const std::string key(spelling());
        advance();
        if (!expect(TokenKind::Equal, "'='") || !c.named(key, &kI32)) return false;
        warmup = warmup || key == "num_warmup_runs";
      } while (consume_if(TokenKind::Comma));
      if (!warmup) {
        NamedAttr attr;
        attr.name = "num_warmup_runs";
        attr.value.kind = AttrKind::Integer;
        attr.value.type = "i32";
        attr.value.bits = 1;
        if (!add_attribute(&op->attributes, std::move(attr), op->loc)) return false;
      }
      Region region;
      if (!parse_region(&region, uses, types, /*isolated=*/true, op->loc)) return false;
      op->regions.push_back(std::move(region));
      return true;
    }
  }
  return fail_at(name_loc, "custom op '" + op->name + "' is unknown");
}

}  // namespace tri::bef::mlir
