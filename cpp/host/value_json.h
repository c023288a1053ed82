// JSON descriptions of values and signatures, in the forms the JS API and the
// CLI share (numpy-style dtype names).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "cpp/formats/pte/bundled/bundled_program.h"
#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/executor/program.h"

namespace tri::host {

// {"kind":"Tensor","dtype":"float32","shape":[..],"dynamism":"static"} or
// {"kind":"Int"} etc.
nlohmann::json value_info_json(const ValueInfo& info);

// A run-time value. Tensors carry their address and size when `with_pointer`
// (the bindings copy the bytes out of wasm memory themselves); Int values are
// decimal strings so 64-bit values survive JavaScript numbers.
nlohmann::json value_json(const EValue& value, bool with_pointer);

// The CLI's JSON value form: {"dtype","shape","values"} for tensors (values
// row-major; non-finite floats as "NaN"/"Infinity"/"-Infinity"), and
// {"type":"Int"|"Double"|"Bool","value"} for scalars.
nlohmann::json tensor_values_json(ScalarType dtype, const uint8_t* data,
                                  size_t numel);
nlohmann::json bundled_value_json(const pte::BundledValue& value);

// JSON text for the bindings and tools. Strings may come from a file (names,
// keys, messages quoting them) and need not be UTF-8: invalid bytes become
// U+FFFD, where a plain dump() would abort (exceptions are off).
std::string dump_json(const nlohmann::json& json);

}  // namespace tri::host
