// cortex_m::quantized_lstm.out: a single-layer unidirectional LSTM in int8
// with int16 gates, as CMSIS-NN's arm_lstm_unidirectional_s8 computes it
// (ExecuTorch's Cortex-M backend fuses torch.nn.LSTM into it). Gates in
// PyTorch's order i, f, g, o: rows [kH, (k+1)H) of the stacked weights and
// entry k of the multiplier lists. Per step: each gate's int8 dot products
// requantized to Q3.12 and passed through CMSIS's int16 sigmoid/tanh table;
// the int16 cell c = f*c + i*g (clipped); h = o * tanh(c) requantized to
// int8. The cell starts at zero and the first step has no recurrent term.
// temp1/temp2/cell_state are CMSIS work buffers: this kernel uses its own
// scratch and never reads or writes them.
#include <cinttypes>

#include "cpp/kernels/cortex_m/act4.h"
#include "cpp/kernels/cortex_m/cmsis_nn.h"
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/scratch_size.h"

namespace tri {
namespace kernels {
namespace {

using cortex_m::check_shift;

// CMSIS-NN's sigmoid_table_uint16 (arm_nntables.c): sigmoid(i / 24) in
// unsigned Q0.16. Not exactly a rounding of the function (44 entries are one
// higher), so it is data, not a formula.
const uint16_t kSigmoidTable[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
    40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
    47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
    53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
    60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
    62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
    63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
    64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
    65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
    65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
    65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
    65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
    65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
    65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65534, 65535,
};

// arm_nn_activation_s16 on one value; left_shift scales the input so that
// a table step is 1/24 (sigmoid) or 1/48 (tanh = 2 sigmoid(2x) - 1).
int16_t activation_s16(int32_t x, int32_t left_shift, bool tanh) {
  const uint32_t abs_shift = tanh ? 8 : 9;
  const uint32_t saturated = tanh ? (0xFFFFu << 8) : (0x7FFFu << 10);
  const int32_t mult = left_shift >= 0 ? 3 << left_shift : 3;
  const int32_t down = left_shift < 0 ? -left_shift : 0;
  const int32_t rounding = down > 0 ? 1 << (down - 1) : 0;
  const int32_t d = cmsis::wrap32(static_cast<int64_t>(x) * mult + rounding) >> down;
  const uint32_t a = d < 0 ? static_cast<uint32_t>(-static_cast<int64_t>(d)) : static_cast<uint32_t>(d);
  const uint32_t uh = a >> abs_shift;
  uint32_t r;
  if (uh >= 255) {
    r = saturated;
  } else {
    const uint32_t ua = kSigmoidTable[uh], ub = kSigmoidTable[uh + 1];
    r = (ua << abs_shift) + (a & ((1u << abs_shift) - 1)) * (ub - ua);
  }
  if (tanh) {
    r = d >= 0 ? r - (1u << 23) + (1u << 7) : (1u << 23) - r + (1u << 7) - 1;
    r >>= 8;
  } else {
    r = d >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1;
    r >>= 10;
  }
  return static_cast<int16_t>(static_cast<uint16_t>(r & 0xFFFFu));
}

int32_t clamp(int64_t v, int64_t lo, int64_t hi) {
  return static_cast<int32_t>(v < lo ? lo : (v > hi ? hi : v));
}

struct LstmArgs {
  Tensor* input = nullptr;
  Tensor* w_in = nullptr;
  Tensor* w_hid = nullptr;
  Tensor* b_in = nullptr;
  Tensor* b_hid = nullptr;
  Span<const int64_t> in_mults, in_shifts, hid_mults, hid_shifts;
  int64_t out_off = 0, f2c_mult = 0, f2c_shift = 0, i2c_mult = 0, i2c_shift = 0;
  int64_t out_mult = 0, out_shift = 0, cell_scale_power = 0, cell_clip = 0;
  bool time_major = true;
  Tensor* out = nullptr;
  int64_t steps = 0, batch = 0, in_size = 0, hidden = 0;
};

Error read_lstm(KernelArgs& args, LstmArgs* a) {
  TRI_ASSIGN_OR_RETURN(a->input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(a->w_in, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(a->w_hid, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(a->b_in, args.tensor(3));
  TRI_ASSIGN_OR_RETURN(a->b_hid, args.tensor(4));
  TRI_ASSIGN_OR_RETURN(a->in_mults, args.int_list(5));
  TRI_ASSIGN_OR_RETURN(a->in_shifts, args.int_list(6));
  TRI_ASSIGN_OR_RETURN(a->hid_mults, args.int_list(7));
  TRI_ASSIGN_OR_RETURN(a->hid_shifts, args.int_list(8));
  TRI_ASSIGN_OR_RETURN(const int64_t in_off, args.int_value(9));
  (void)in_off;  // folded into input_effective_bias by the exporter; CMSIS never reads it
  int64_t* ints[] = {&a->out_off, &a->f2c_mult, &a->f2c_shift, &a->i2c_mult, &a->i2c_shift,
                     &a->out_mult, &a->out_shift, &a->cell_scale_power, &a->cell_clip};
  for (size_t i = 0; i < 9; ++i) {
    TRI_ASSIGN_OR_RETURN(*ints[i], args.int_value(10 + i));
  }
  TRI_ASSIGN_OR_RETURN(a->time_major, args.bool_value(19));
  TRI_ASSIGN_OR_RETURN(a->out, args.tensor(23));
  for (const Tensor* t : {a->input, a->w_in, a->w_hid}) {
    TRI_CHECK(t->scalar_type() == ScalarType::Char && t->is_contiguous(), Error::InvalidArgument,
              "input and weights must be contiguous int8 tensors");
  }
  TRI_CHECK(a->input->dim() == 3 && a->w_in->dim() == 2 && a->w_hid->dim() == 2,
            Error::InvalidArgument, "input must be 3-D and the weights 2-D");
  const int64_t h = a->w_hid->size(1);
  TRI_CHECK(h > 0 && a->w_in->size(0) == 4 * h && a->w_hid->size(0) == 4 * h &&
                a->w_in->size(1) == a->input->size(2),
            Error::InvalidArgument,
            "weights must be [4H, I] and [4H, H] for input [.., .., I] (got [%d, %d] and [%d, %d])",
            a->w_in->size(0), a->w_in->size(1), a->w_hid->size(0), a->w_hid->size(1));
  for (const Tensor* b : {a->b_in, a->b_hid}) {
    TRI_CHECK(b->scalar_type() == ScalarType::Int && static_cast<int64_t>(b->numel()) == 4 * h &&
                  b->is_contiguous(),
              Error::InvalidArgument, "effective biases must be %" PRId64 " contiguous int32 values", 4 * h);
  }
  for (const Span<const int64_t>* l : {&a->in_mults, &a->in_shifts, &a->hid_mults, &a->hid_shifts}) {
    TRI_CHECK(l->size() == 4, Error::InvalidArgument, "per-gate lists must have 4 entries, got %zu",
              l->size());
  }
  for (size_t k = 0; k < 4; ++k) {
    TRI_TRY(check_shift(a->in_shifts[k], "input shift"));
    TRI_TRY(check_shift(a->hid_shifts[k], "hidden shift"));
  }
  TRI_TRY(check_shift(a->f2c_shift, "forget_to_cell_shift"));
  TRI_TRY(check_shift(a->i2c_shift, "input_to_cell_shift"));
  TRI_TRY(check_shift(a->out_shift, "output_shift"));
  TRI_CHECK(a->cell_scale_power + 12 >= -31 && a->cell_scale_power + 12 <= 29, Error::InvalidArgument,
            "cell_scale_power %" PRId64 " is out of range", a->cell_scale_power);
  a->hidden = h;
  a->in_size = a->input->size(2);
  a->steps = a->time_major ? a->input->size(0) : a->input->size(1);
  a->batch = a->time_major ? a->input->size(1) : a->input->size(0);
  return Error::Ok;
}

int32_t rq(int64_t v, int64_t mult, int64_t shift) {
  return cmsis::requantize(cmsis::wrap32(v), static_cast<int32_t>(mult), static_cast<int32_t>(shift));
}

// Gate k for one batch row: Q3.12 pre-activation, then the int16 table.
void gate(const LstmArgs& a, int k, const int8_t* x, const int8_t* h, bool tanh, int16_t* dst) {
  const int8_t* wi = static_cast<const int8_t*>(a.w_in->data());
  const int8_t* wh = static_cast<const int8_t*>(a.w_hid->data());
  const int32_t* bi = static_cast<const int32_t*>(a.b_in->data());
  const int32_t* bh = static_cast<const int32_t*>(a.b_hid->data());
  const int64_t H = a.hidden, I = a.in_size;
  for (int64_t r = 0; r < H; ++r) {
    const int64_t row = k * H + r;
    int64_t acc = bi[row];
    for (int64_t j = 0; j < I; ++j) acc += static_cast<int32_t>(x[j]) * wi[row * I + j];
    int32_t v = clamp(rq(acc, a.in_mults[k], a.in_shifts[k]), INT16_MIN, INT16_MAX);
    if (h != nullptr) {
      acc = bh[row];
      for (int64_t j = 0; j < H; ++j) acc += static_cast<int32_t>(h[j]) * wh[row * H + j];
      v = clamp(static_cast<int64_t>(rq(acc, a.hid_mults[k], a.hid_shifts[k])) + v, INT16_MIN, INT16_MAX);
    }
    dst[r] = activation_s16(v, 0, tanh);
  }
}

}  // namespace

size_t cortex_m_quantized_lstm_scratch(KernelArgs& args) {
  Result<Tensor*> w_hid = args.tensor(2);
  if (!w_hid.ok() || (*w_hid)->dim() != 2) return 0;
  return ScratchSize().add<int16_t>(3 * static_cast<int64_t>((*w_hid)->size(1))).bytes();
}

Error cortex_m_quantized_lstm_out(KernelContext& ctx, KernelArgs& args) {
  LstmArgs a;
  TRI_TRY(read_lstm(args, &a));
  const int64_t H = a.hidden, I = a.in_size;
  const int64_t sizes[3] = {a.input->size(0), a.input->size(1), H};
  TRI_CHECK(a.out->scalar_type() == ScalarType::Char, Error::InvalidType, "out must be int8");
  TRI_TRY(resize_out(*a.out, Span<const int64_t>(sizes, 3)));
  TRI_CHECK(a.out->is_contiguous(), Error::NotSupported, "out must be contiguous");
  TRI_CHECK(ctx.temp != nullptr, Error::InvalidState, "quantized_lstm needs scratch memory");
  int16_t* g1 = ctx.temp->allocate_array<int16_t>(static_cast<size_t>(3 * H));
  TRI_CHECK(g1 != nullptr, Error::MemoryAllocationFailed,
            "quantized_lstm: no scratch for %" PRId64 " hidden units", H);
  int16_t* g2 = g1 + H;
  int16_t* cell = g2 + H;
  const int8_t* in = static_cast<const int8_t*>(a.input->data());
  int8_t* out = static_cast<int8_t*>(a.out->mutable_data());
  const int64_t lo = a.cell_clip > 0 ? -a.cell_clip : INT16_MIN;
  const int64_t hi = a.cell_clip > 0 ? a.cell_clip : INT16_MAX;
  const int32_t tanh_shift = static_cast<int32_t>(a.cell_scale_power + 12);
  for (int64_t b = 0; b < a.batch; ++b) {
    for (int64_t r = 0; r < H; ++r) cell[r] = 0;
    const int8_t* h = nullptr;
    for (int64_t t = 0; t < a.steps; ++t) {
      const int64_t at = a.time_major ? t * a.batch + b : b * a.steps + t;
      const int8_t* x = in + at * I;
      int8_t* y = out + at * H;
      gate(a, 1, x, h, false, g1);  // forget
      for (int64_t r = 0; r < H; ++r) {
        cell[r] = static_cast<int16_t>(clamp(rq(static_cast<int64_t>(g1[r]) * cell[r], a.f2c_mult, a.f2c_shift),
                                             INT16_MIN, INT16_MAX));
      }
      gate(a, 0, x, h, false, g1);  // input
      gate(a, 2, x, h, true, g2);   // cell candidate
      for (int64_t r = 0; r < H; ++r) {
        const int64_t v = static_cast<int64_t>(rq(static_cast<int64_t>(g1[r]) * g2[r], a.i2c_mult, a.i2c_shift)) + cell[r];
        // CMSIS stores the clamped sum as int16_t.
        cell[r] = static_cast<int16_t>(static_cast<uint16_t>(clamp(v, lo, hi) & 0xFFFF));
      }
      gate(a, 3, x, h, false, g1);  // output
      for (int64_t r = 0; r < H; ++r) {
        const int16_t tc = activation_s16(cell[r], tanh_shift, true);
        const int64_t v = static_cast<int64_t>(rq(static_cast<int64_t>(g1[r]) * tc, a.out_mult, a.out_shift)) + a.out_off;
        y[r] = static_cast<int8_t>(clamp(v, -128, 127));
      }
      h = y;
    }
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
