// aten::grid_sampler_2d.out: out[n, c, h, w] samples input[n, c] at the
// point grid[n, h, w] = (x, y) in [-1, 1] coordinates, with bilinear (0),
// nearest (1) or bicubic (2) interpolation and zeros (0), border (1) or
// reflection (2) padding, following ATen's GridSampler.h step for step.
// The source point and its tap weights are computed once per output
// position and reused for every channel. Computed in double.
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

enum Interp : int64_t { kBilinear = 0, kNearest = 1, kBicubic = 2 };
enum Padding : int64_t { kZeros = 0, kBorder = 1, kReflection = 2 };

// [-1, 1] to pixel coordinates: the corner pixels' centers (align_corners)
// or their outer edges at -1 and 1.
double unnormalize(double coord, int64_t size, bool align) {
  return align ? (coord + 1) / 2 * static_cast<double>(size - 1)
               : ((coord + 1) * static_cast<double>(size) - 1) / 2;
}

double clip(double x, int64_t size) {
  // NaN stays NaN, as in ATen's vectorized CPU kernel; it then reads as
  // outside the image.
  if (std::isnan(x)) return x;
  return x < 0 ? 0 : (x > static_cast<double>(size - 1) ? static_cast<double>(size - 1) : x);
}

// Reflects x into [twice_low / 2, twice_high / 2].
double reflect(double x, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return 0;
  const double lo = static_cast<double>(twice_low) / 2;
  const double span = static_cast<double>(twice_high - twice_low) / 2;
  x = std::fabs(x - lo);
  const double extra = std::fmod(x, span);
  const double flips = std::floor(x / span);
  return std::fmod(flips, 2.0) == 0 ? extra + lo : span - extra + lo;
}

double apply_padding(double x, int64_t size, int64_t padding, bool align) {
  if (padding == kBorder) return clip(x, size);
  if (padding == kReflection) {
    x = align ? reflect(x, 0, 2 * (size - 1)) : reflect(x, -1, 2 * size - 1);
    return clip(x, size);
  }
  return x;
}

// A tap: the input element index (or -1 outside the image) and its weight.
struct Taps {
  int64_t offset[16];
  double weight[16];
  int count;
};

constexpr double kOutside = 1e18;  // beyond any int64 image coordinate

bool inside(double x, int64_t size) { return x >= 0 && x < static_cast<double>(size); }

void add_tap(Taps& t, double x, double y, int64_t h, int64_t w, const int64_t* st, double weight) {
  if (inside(x, w) && inside(y, h)) {
    t.offset[t.count] = static_cast<int64_t>(y) * st[0] + static_cast<int64_t>(x) * st[1];
  } else {
    t.offset[t.count] = -1;
  }
  t.weight[t.count++] = weight;
}

double cubic1(double x, double a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
double cubic2(double x, double a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }

void cubic_coefficients(double t, double c[4]) {
  constexpr double kA = -0.75;
  c[0] = cubic2(t + 1, kA);
  c[1] = cubic1(t, kA);
  c[2] = cubic1(1 - t, kA);
  c[3] = cubic2(2 - t, kA);
}

struct Sampler {
  int64_t interp, padding;
  bool align;
  int64_t h, w;
  int64_t st[2];  // input's element strides along H and W
};

Taps taps_at(const Sampler& s, double gx, double gy) {
  Taps t{};
  if (s.interp == kBicubic) {
    // Bicubic pads each tap, not the source point.
    const double x = unnormalize(gx, s.w, s.align);
    const double y = unnormalize(gy, s.h, s.align);
    if (std::isnan(x) || std::isnan(y)) return t;
    const double x0 = std::floor(x), y0 = std::floor(y);
    double cx[4], cy[4];
    cubic_coefficients(x - x0, cx);
    cubic_coefficients(y - y0, cy);
    for (int j = 0; j < 4; ++j) {
      for (int i = 0; i < 4; ++i) {
        double px = apply_padding(x0 - 1 + i, s.w, s.padding, s.align);
        double py = apply_padding(y0 - 1 + j, s.h, s.padding, s.align);
        // ATen truncates the padded coordinate toward zero.
        px = std::isnan(px) || std::fabs(px) > kOutside ? -1 : std::trunc(px);
        py = std::isnan(py) || std::fabs(py) > kOutside ? -1 : std::trunc(py);
        add_tap(t, px, py, s.h, s.w, s.st, cx[i] * cy[j]);
      }
    }
    return t;
  }
  const double x = apply_padding(unnormalize(gx, s.w, s.align), s.w, s.padding, s.align);
  const double y = apply_padding(unnormalize(gy, s.h, s.align), s.h, s.padding, s.align);
  if (std::isnan(x) || std::isnan(y) || std::fabs(x) > kOutside || std::fabs(y) > kOutside) return t;
  if (s.interp == kNearest) {
    add_tap(t, std::nearbyint(x), std::nearbyint(y), s.h, s.w, s.st, 1.0);  // ties to even
    return t;
  }
  const double x0 = std::floor(x), y0 = std::floor(y);
  const double fx = x - x0, fy = y - y0;
  add_tap(t, x0, y0, s.h, s.w, s.st, (1 - fx) * (1 - fy));
  add_tap(t, x0 + 1, y0, s.h, s.w, s.st, fx * (1 - fy));
  add_tap(t, x0, y0 + 1, s.h, s.w, s.st, (1 - fx) * fy);
  add_tap(t, x0 + 1, y0 + 1, s.h, s.w, s.st, fx * fy);
  return t;
}

}  // namespace

Error grid_sampler_2d_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* grid, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const int64_t interp, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const int64_t padding, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(const bool align, args.bool_value(4));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(5));
  TRI_TRY(check_dtype(input->scalar_type(), kFloatHBTypes, "input"));
  TRI_TRY(check_same_dtype(*grid, input->scalar_type(), "grid"));
  TRI_TRY(check_same_dtype(*out, input->scalar_type(), "out"));
  TRI_CHECK(input->dim() == 4 && grid->dim() == 4, Error::InvalidArgument,
            "grid_sampler_2d: expected 4-D input and grid, got ranks %d and %d", input->dim(),
            grid->dim());
  TRI_CHECK(grid->size(0) == input->size(0), Error::InvalidArgument,
            "grid_sampler_2d: input and grid must have the same batch size, got %d and %d",
            static_cast<int>(input->size(0)), static_cast<int>(grid->size(0)));
  TRI_CHECK(grid->size(3) == 2, Error::InvalidArgument,
            "grid_sampler_2d: grid must end in a dim of 2 (x, y), got %d",
            static_cast<int>(grid->size(3)));
  TRI_CHECK(input->size(2) > 0 && input->size(3) > 0, Error::InvalidArgument,
            "grid_sampler_2d: expected input to have non-empty spatial dims");
  TRI_CHECK(interp >= kBilinear && interp <= kBicubic, Error::InvalidArgument,
            "interpolation_mode must be 0 (bilinear), 1 (nearest) or 2 (bicubic), got %" PRId64,
            interp);
  TRI_CHECK(padding >= kZeros && padding <= kReflection, Error::InvalidArgument,
            "padding_mode must be 0 (zeros), 1 (border) or 2 (reflection), got %" PRId64, padding);
  const int64_t n = input->size(0), c = input->size(1);
  const int64_t ho = grid->size(1), wo = grid->size(2);
  const int64_t shape[] = {n, c, ho, wo};
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, 4)));
  const Sampler s{interp, padding, align, input->size(2), input->size(3),
                  {input->strides()[2], input->strides()[3]}};
  const auto* st_in = input->strides().data();
  const auto* st_g = grid->strides().data();
  const auto* st_o = out->strides().data();
  const char* in = static_cast<const char*>(input->mutable_data());
  const char* g = static_cast<const char*>(grid->mutable_data());
  char* o = static_cast<char*>(out->mutable_data());
  const int64_t es = static_cast<int64_t>(input->element_size());
  const ScalarType type = input->scalar_type();
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t y = 0; y < ho; ++y) {
      for (int64_t x = 0; x < wo; ++x) {
        const char* gp = g + (b * st_g[0] + y * st_g[1] + x * st_g[2]) * es;
        const double gx = load_one<double>(type, gp);
        const double gy = load_one<double>(type, gp + st_g[3] * es);
        const Taps t = taps_at(s, gx, gy);
        for (int64_t ch = 0; ch < c; ++ch) {
          const char* plane = in + (b * st_in[0] + ch * st_in[1]) * es;
          double v = 0;
          for (int k = 0; k < t.count; ++k) {
            if (t.offset[k] >= 0) v += load_one<double>(type, plane + t.offset[k] * es) * t.weight[k];
          }
          store_one<double>(type, v, o + (b * st_o[0] + ch * st_o[1] + y * st_o[2] + x * st_o[3]) * es);
        }
      }
    }
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
