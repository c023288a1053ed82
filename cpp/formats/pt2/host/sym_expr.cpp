#include "cpp/formats/pt2/host/sym_expr.h"

#include <cctype>
#include <cmath>

namespace tri::pt2 {
namespace {

// Recursive descent over: sum := product (('+'|'-') product)*;
// product := unary (('*'|'/'|'//'|'%') unary)*; unary := '-' unary | atom;
// atom := number | symbol | call | '(' sum ')'. Values are doubles so that
// sympy's true division inside floor()/ceiling() works; nesting is bounded.
class Parser {
 public:
  Parser(const std::string& text, const std::map<std::string, int64_t>* symbols)
      : text_(text), symbols_(symbols) {}

  Result<double> parse() {
    TRI_ASSIGN_OR_RETURN(const double v, sum());
    skip();
    if (at_ != text_.size()) return error("unexpected text");
    return v;
  }
  std::vector<std::string> names;

 private:
  Error error(const char* what) const {
    return fail(Error::InvalidProgram, "symbolic size '%s': %s at character %zu", text_.c_str(),
                what, at_);
  }
  void skip() {
    while (at_ < text_.size() && text_[at_] == ' ') ++at_;
  }
  bool eat(const char* token) {
    skip();
    const size_t n = std::char_traits<char>::length(token);
    if (text_.compare(at_, n, token) == 0) {
      at_ += n;
      return true;
    }
    return false;
  }
  Result<double> sum() {
    TRI_ASSIGN_OR_RETURN(double v, product());
    for (;;) {
      if (eat("+")) {
        TRI_ASSIGN_OR_RETURN(const double r, product());
        v += r;
      } else if (eat("-")) {
        TRI_ASSIGN_OR_RETURN(const double r, product());
        v -= r;
      } else {
        return v;
      }
    }
  }
  Result<double> product() {
    TRI_ASSIGN_OR_RETURN(double v, unary());
    for (;;) {
      if (eat("//")) {
        TRI_ASSIGN_OR_RETURN(const double r, unary());
        if (r == 0) return error("division by zero");
        v = std::floor(v / r);
      } else if (eat("*")) {
        TRI_ASSIGN_OR_RETURN(const double r, unary());
        v *= r;
      } else if (eat("/")) {
        TRI_ASSIGN_OR_RETURN(const double r, unary());
        if (r == 0) return error("division by zero");
        v /= r;
      } else if (eat("%")) {
        TRI_ASSIGN_OR_RETURN(const double r, unary());
        if (r == 0) return error("division by zero");
        v = v - r * std::floor(v / r);
      } else {
        return v;
      }
    }
  }
  Result<double> unary() {
    if (eat("-")) {
      TRI_ASSIGN_OR_RETURN(const double v, unary());
      return -v;
    }
    return atom();
  }
  Result<double> atom() {
    skip();
    if (++depth_ > 64) return error("nested too deeply");
    struct Leave {
      int& d;
      ~Leave() { --d; }
    } leave{depth_};
    if (at_ >= text_.size()) return error("ends early");
    if (eat("(")) {
      TRI_ASSIGN_OR_RETURN(const double v, sum());
      if (!eat(")")) return error("missing ')'");
      return v;
    }
    const char c = text_[at_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      double v = 0;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
        v = v * 10 + (text_[at_++] - '0');
      }
      return v;
    }
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != '_') return error("unexpected character");
    const size_t start = at_;
    while (at_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) {
      ++at_;
    }
    const std::string name = text_.substr(start, at_ - start);
    if (eat("(")) return call(name);
    names.push_back(name);
    if (symbols_ == nullptr) return 0.0;
    auto it = symbols_->find(name);
    if (it == symbols_->end()) return error("unknown symbol");
    return static_cast<double>(it->second);
  }
  Result<double> call(const std::string& name) {
    std::vector<double> args;
    if (!eat(")")) {
      for (;;) {
        TRI_ASSIGN_OR_RETURN(const double v, sum());
        args.push_back(v);
        if (eat(")")) break;
        if (!eat(",")) return error("expected ',' or ')'");
      }
    }
    auto need = [&](size_t n) { return args.size() == n; };
    if ((name == "Max" || name == "Min") && !args.empty()) {
      double v = args[0];
      for (double a : args) v = name == "Max" ? std::max(v, a) : std::min(v, a);
      return v;
    }
    if ((name == "floor" || name == "FloorToInt") && need(1)) return std::floor(args[0]);
    if ((name == "ceiling" || name == "CeilToInt") && need(1)) return std::ceil(args[0]);
    if (name == "FloorDiv" && need(2) && args[1] != 0) return std::floor(args[0] / args[1]);
    if (name == "CeilDiv" && need(2) && args[1] != 0) return std::ceil(args[0] / args[1]);
    if ((name == "Mod" || name == "PythonMod") && need(2) && args[1] != 0) {
      return args[0] - args[1] * std::floor(args[0] / args[1]);
    }
    return error("unknown function or wrong arguments");
  }

  const std::string& text_;
  const std::map<std::string, int64_t>* symbols_;
  size_t at_ = 0;
  int depth_ = 0;
};

}  // namespace

Result<int64_t> eval_sym_expr(const std::string& expr, const std::map<std::string, int64_t>& symbols) {
  Parser parser(expr, &symbols);
  TRI_ASSIGN_OR_RETURN(const double v, parser.parse());
  TRI_CHECK(std::fabs(v) < 9.0e15, Error::InvalidProgram, "symbolic size '%s' is out of range",
            expr.c_str());
  return static_cast<int64_t>(std::llround(v));
}

std::vector<std::string> sym_expr_symbols(const std::string& expr) {
  Parser parser(expr, nullptr);
  (void)parser.parse();
  return parser.names;
}

}  // namespace tri::pt2
