// upsample_nearest1d/2d and upsample_linear1d/bilinear2d, .out (output size
// and optional scales) and .vec_out (output size or scale factors).
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/upsample_plane.h"

namespace tri {
namespace kernels {
namespace {

// .out: [self, output_size, (align_corners,) scales..., out].
Error upsample_sized(KernelArgs& args, int32_t spatial, bool linear) {
  Resample r;
  r.spatial = spatial;
  r.linear = linear;
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(1));
  TRI_CHECK(static_cast<int32_t>(size.size()) == spatial, Error::InvalidArgument,
            "output_size must have %d elements, got %zu", spatial, size.size());
  size_t i = 2;
  if (linear) {
    TRI_ASSIGN_OR_RETURN(r.align_corners, args.bool_value(i));
    ++i;
  }
  for (int32_t d = 0; d < spatial; ++d) {
    r.out_size[d] = size[d];
    TRI_ASSIGN_OR_RETURN(r.scale[d], args.optional_double(i + d));
  }
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(i + spatial));
  return resample(r, *self, *out);
}

// .vec_out: [input, output_size?, (align_corners,) scale_factors?, out].
Error upsample_vec(KernelArgs& args, int32_t spatial, bool linear) {
  Resample r;
  r.spatial = spatial;
  r.linear = linear;
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Optional<Span<const int64_t>> size, args.optional_int_list(1));
  size_t i = 2;
  if (linear) {
    TRI_ASSIGN_OR_RETURN(r.align_corners, args.bool_value(i));
    ++i;
  }
  TRI_ASSIGN_OR_RETURN(EValue* factors_slot, args.slot(i));
  Span<const double> factors;
  const bool has_factors = !factors_slot->is_none();
  if (has_factors) {
    TRI_ASSIGN_OR_RETURN(factors, args.double_list(i));
  }
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(i + 1));
  TRI_CHECK(size.has_value != has_factors, Error::InvalidArgument,
            "must specify exactly one of output_size and scale_factors");
  if (size.has_value) {
    TRI_CHECK(static_cast<int32_t>(size.value.size()) == spatial, Error::InvalidArgument,
              "output_size must have %d elements, got %zu", spatial, size.value.size());
    for (int32_t d = 0; d < spatial; ++d) r.out_size[d] = size.value[d];
  } else {
    TRI_CHECK(static_cast<int32_t>(factors.size()) == spatial, Error::InvalidArgument,
              "scale_factors must have %d elements, got %zu", spatial, factors.size());
    TRI_CHECK(self->dim() == spatial + 2, Error::InvalidArgument,
              "expected a %dD input, got rank %d", spatial + 2, self->dim());
    for (int32_t d = 0; d < spatial; ++d) {
      const double v = static_cast<double>(self->size(2 + d)) * factors[d];
      // NaN, negative and huge sizes are refused before the conversion.
      TRI_CHECK(v >= 1 && v < 2147483648.0, Error::InvalidArgument,
                "scale_factors[%d] = %g gives an output size out of range", d, factors[d]);
      r.out_size[d] = static_cast<int64_t>(v);
      r.scale[d].has_value = true;
      r.scale[d].value = factors[d];
    }
  }
  return resample(r, *self, *out);
}

}  // namespace

Error upsample_nearest1d_out(KernelContext&, KernelArgs& args) { return upsample_sized(args, 1, false); }
Error upsample_nearest1d_vec_out(KernelContext&, KernelArgs& args) { return upsample_vec(args, 1, false); }
Error upsample_nearest2d_out(KernelContext&, KernelArgs& args) { return upsample_sized(args, 2, false); }
Error upsample_nearest2d_vec_out(KernelContext&, KernelArgs& args) { return upsample_vec(args, 2, false); }
Error upsample_linear1d_out(KernelContext&, KernelArgs& args) { return upsample_sized(args, 1, true); }
Error upsample_linear1d_vec_out(KernelContext&, KernelArgs& args) { return upsample_vec(args, 1, true); }
Error upsample_bilinear2d_out(KernelContext&, KernelArgs& args) { return upsample_sized(args, 2, true); }
Error upsample_bilinear2d_vec_out(KernelContext&, KernelArgs& args) { return upsample_vec(args, 2, true); }

}  // namespace kernels
}  // namespace tri
