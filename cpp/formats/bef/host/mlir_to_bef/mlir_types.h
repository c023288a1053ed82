// Facts about builtin MLIR types, read from their printed spelling (the IR
// keeps every type as the string MLIR would print, which is also what goes
// into the BEF Types section).
#pragma once

#include <cstdint>
#include <string_view>

namespace tri::bef::mlir {

struct IntTypeInfo {
  bool valid = false;
  uint32_t width = 0;
  bool is_unsigned = false;  // ui32
  bool is_signed = false;    // si32 (signless i32 is neither)
};

// i1..i64, si8, ui64 and other widths up to 64 bits.
IntTypeInfo integer_type_info(std::string_view type);

// 16 for f16 and bf16, 32, 64; 0 for anything else.
uint32_t float_type_width(std::string_view type);

// TFRT's DType codes (1 UI8 ... 13 Complex128, 14 F16, 15 BF16, 16 String,
// 17 Resource, 18 Variant, 19..23 quantized) for a type named in a type
// attribute or as a dense element type; 0 when TFRT has no DType for it.
uint8_t dtype_of_type(std::string_view type);

// Bytes per element of a DType as TFRT lays it out on the host.
uint32_t dtype_host_size(uint8_t dtype);

// The IEEE bits of `value` rounded (to nearest, ties to even) to the float
// type `type` (bf16, f16, f32, f64). Returns false for other types.
bool float_bits_for_type(double value, std::string_view type, uint64_t* bits);

// Sign-extends the low `width` bits of `bits`.
int64_t sign_extend(uint64_t bits, uint32_t width);

// `bits` with everything above `width` cleared.
uint64_t truncate_bits(uint64_t bits, uint32_t width);

}  // namespace tri::bef::mlir
