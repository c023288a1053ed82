#include "tests/cpp/ops/op_case_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cpp/kernels/util/half.h"

namespace tri::testing {
namespace {

std::vector<uint8_t> base64_decode(const std::string& text) {
  static const std::string alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<uint8_t> out;
  uint32_t acc = 0;
  int bits = 0;
  for (char ch : text) {
    if (ch == '=') break;
    const size_t v = alphabet.find(ch);
    if (v == std::string::npos) continue;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<uint8_t>((acc >> bits) & 0xff));
    }
  }
  return out;
}

CaseTensor read_tensor(const nlohmann::json& j) {
  CaseTensor t;
  if (j.contains("kind")) {
    t.kind = j.at("kind").get<std::string>();
    t.value = j.at("value").get<std::string>();
    return t;
  }
  const std::string dtype = j.at("dtype").get<std::string>();
  if (!scalar_type_from_numpy_name(dtype.c_str(), &t.dtype)) {
    ADD_FAILURE_AT(__FILE__, __LINE__);
  }
  t.shape = j.at("shape").get<std::vector<int32_t>>();
  t.bytes = base64_decode(j.at("data").get<std::string>());
  return t;
}

bool is_float(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half ||
         t == ScalarType::BFloat16;
}

double load_float(ScalarType t, const uint8_t* p) {
  switch (t) {
    case ScalarType::Float: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case ScalarType::Double: {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    case ScalarType::Half: {
      Half h;
      std::memcpy(&h.bits, p, 2);
      return half_to_float(h);
    }
    default: {
      BFloat16 b;
      std::memcpy(&b.bits, p, 2);
      return bfloat16_to_float(b);
    }
  }
}

int64_t load_int(ScalarType t, const uint8_t* p) {
  switch (t) {
    case ScalarType::Byte: return p[0];
    case ScalarType::Bool: return p[0];
    case ScalarType::Char: return static_cast<int8_t>(p[0]);
    case ScalarType::Short: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case ScalarType::Int: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

std::string shape_text(const std::vector<int32_t>& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

}  // namespace

std::vector<OpCaseFile> read_op_case_files(const std::string& dir, const std::string& only) {
  std::set<std::string> wanted;
  std::stringstream ss(only);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) wanted.insert(item);
  }
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) names.push_back(name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  std::vector<OpCaseFile> files;
  for (const std::string& name : names) {
    std::ifstream in(dir + "/" + name);
    const nlohmann::json j = nlohmann::json::parse(in);
    OpCaseFile f;
    f.op = j.at("op").get<std::string>();
    if (!wanted.empty() && wanted.count(f.op) == 0) continue;
    f.pte_path = dir + "/" + name.substr(0, name.size() - 5) + ".pte";
    for (const nlohmann::json& jc : j.at("cases")) {
      OpCase c;
      c.method = jc.at("method").get<std::string>();
      c.desc = jc.at("desc").get<std::string>();
      for (const auto& t : jc.at("inputs")) c.inputs.push_back(read_tensor(t));
      for (const auto& t : jc.at("outputs")) c.outputs.push_back(read_tensor(t));
      c.rtol = jc.at("rtol").get<double>();
      c.atol = jc.at("atol").get<double>();
      c.check = jc.at("check").get<std::string>();
      f.cases.push_back(std::move(c));
    }
    files.push_back(std::move(f));
  }
  return files;
}

namespace {

// One entry of a comma-separated per-output list, or the single check.
std::string check_of(const std::string& check, size_t index) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= check.size(); ++i) {
    if (i == check.size() || check[i] == ',') {
      parts.push_back(check.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts.size() > 1 && index < parts.size() ? parts[index] : parts[0];
}

}  // namespace

std::string compare_case_output(const OpCase& c, size_t index, const CaseTensor& expected,
                                ScalarType dtype, const std::vector<int32_t>& shape, const uint8_t* actual) {
  if (dtype != expected.dtype || shape != expected.shape) {
    return std::string("got ") + scalar_type_numpy_name(dtype) + shape_text(shape) +
           ", PyTorch gives " + scalar_type_numpy_name(expected.dtype) +
           shape_text(expected.shape);
  }
  const std::string check = check_of(c.check, index);
  if (check == "shape") return "";
  const size_t elem = element_size(dtype);
  const size_t n = expected.bytes.size() / elem;
  char buf[256];
  if (check.rfind("range:", 0) == 0) {
    double lo = 0;
    double hi = 0;
    std::sscanf(check.c_str(), "range:%lf:%lf", &lo, &hi);
    for (size_t i = 0; i < n; ++i) {
      const double v = is_float(dtype) ? load_float(dtype, actual + i * elem)
                                       : static_cast<double>(load_int(dtype, actual + i * elem));
      if (!(v >= lo && v < hi)) {
        std::snprintf(buf, sizeof buf, "element %zu = %.9g is outside [%g, %g)", i, v, lo, hi);
        return buf;
      }
    }
    return "";
  }
  if (check == "permutation") {
    std::vector<int64_t> seen;
    for (size_t i = 0; i < n; ++i) {
      seen.push_back(is_float(dtype) ? static_cast<int64_t>(load_float(dtype, actual + i * elem))
                                     : load_int(dtype, actual + i * elem));
    }
    std::sort(seen.begin(), seen.end());
    for (size_t i = 0; i < n; ++i) {
      if (seen[i] != static_cast<int64_t>(i)) return "not a permutation of 0..n-1";
    }
    return "";
  }
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* a = actual + i * elem;
    const uint8_t* e = expected.bytes.data() + i * elem;
    if (is_float(dtype)) {
      const double av = load_float(dtype, a);
      const double ev = load_float(dtype, e);
      const bool ok = (std::isnan(av) && std::isnan(ev)) || av == ev ||
                      std::fabs(av - ev) <= c.atol + c.rtol * std::fabs(ev);
      if (!ok) {
        std::snprintf(buf, sizeof buf, "element %zu: got %.9g, PyTorch gives %.9g (rtol %g, atol %g)",
                      i, av, ev, c.rtol, c.atol);
        return buf;
      }
    } else if (load_int(dtype, a) != load_int(dtype, e)) {
      std::snprintf(buf, sizeof buf, "element %zu: got %lld, PyTorch gives %lld", i,
                    static_cast<long long>(load_int(dtype, a)),
                    static_cast<long long>(load_int(dtype, e)));
      return buf;
    }
  }
  return "";
}

}  // namespace tri::testing
