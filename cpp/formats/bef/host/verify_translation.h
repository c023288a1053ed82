// `tfrt_translate -mlir-to-bef [-split-input-file] -verify-diagnostics`:
// translates each chunk of a test file and checks that the translator's
// errors are exactly the ones its `expected-error` comments announce, at
// their lines. TFRT's mlir_to_bef/err.mlir is such a test.
#pragma once

#include <string>
#include <string_view>

namespace tri::bef {

struct TranslationCheck {
  int exit_code = 0;  // 0 when every chunk behaved as announced
  std::string err;    // MLIR-style diagnostics for what did not
};

TranslationCheck verify_translation(std::string_view source, std::string_view filename,
                                    bool split);

}  // namespace tri::bef
