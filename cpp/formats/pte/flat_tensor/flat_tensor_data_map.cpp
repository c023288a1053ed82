#include "cpp/formats/pte/flat_tensor/flat_tensor_data_map.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "cpp/runtime/core/byte_reader.h"
#include "cpp/formats/pte/file_checks.h"
#include "cpp/formats/pte/schema/flat_tensor_generated.h"
#include "cpp/formats/pte/schema/flat_tensor_v0_generated.h"
#include "cpp/runtime/core/tensor.h"

namespace tri::pte {
namespace {

namespace cur = flat_tensor_flatbuffer;
namespace v0 = flat_tensor_v0_flatbuffer;

// Where the FH01 header starts: after the flatbuffer root offset and the
// file identifier.
constexpr size_t kHeaderStart = 8;
// magic + length + four u64 fields.
constexpr uint32_t kMinHeaderLength = 4 + 4 + 8 + 8 + 8 + 8;
constexpr size_t kMinFileSize = kHeaderStart + kMinHeaderLength;
// The flatbuffer holds u64 fields; the verifier checks alignment relative to
// the start of the buffer, so the buffer itself must be this aligned for the
// reads to be aligned.
constexpr size_t kFileAlignment = 8;
// Keys are printed in messages up to this many characters.
constexpr int kMaxKeyPrint = 128;
constexpr const char kIdentifier[] = "FT01";
constexpr const char kHeaderMagic[] = "FH01";

// True when [offset, offset + size) lies inside [0, limit), without overflow.
bool range_within(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}

int key_print_len(size_t size) {
  return size > static_cast<size_t>(kMaxKeyPrint) ? kMaxKeyPrint
                                                  : static_cast<int>(size);
}

bool key_equals(const flatbuffers::String* stored, Span<const char> key) {
  return stored != nullptr && stored->size() == key.size() &&
         (key.size() == 0 || memcmp(stored->data(), key.data(), key.size()) == 0);
}

// Checks dtype, rank, sizes and dim order of a tensor entry and computes its
// byte size. `what` names the entry for messages.
Error check_tensor_layout(const char* what, int8_t dtype_value,
                          const flatbuffers::Vector<int32_t>* sizes,
                          const flatbuffers::Vector<uint8_t>* dim_order,
                          FlatTensorLayoutView* view, uint64_t* nbytes) {
  TRI_CHECK(is_valid_scalar_type(dtype_value), Error::InvalidExternalData,
            "%s: scalar_type %d is not a known dtype", what,
            static_cast<int>(dtype_value));
  const ScalarType dtype = static_cast<ScalarType>(dtype_value);
  const size_t rank = sizes ? sizes->size() : 0;
  TRI_CHECK(rank <= kTensorDimLimit, Error::InvalidExternalData,
            "%s: %zu dimensions, more than the limit of %zu", what, rank,
            kTensorDimLimit);
  const Span<const int32_t> size_span(sizes ? sizes->data() : nullptr, rank);
  size_t numel = 0;
  char text[160];
  TRI_CHECK(checked_numel(size_span, &numel), Error::InvalidExternalData,
            "%s: sizes %s are negative or overflow", what,
            format_sizes(size_span, text, sizeof(text)));
  const size_t elem = element_size(dtype);
  TRI_CHECK(elem != 0 && numel <= UINT64_MAX / elem, Error::InvalidExternalData,
            "%s: sizes %s of %s overflow", what,
            format_sizes(size_span, text, sizeof(text)), scalar_type_name(dtype));
  const size_t order_len = dim_order ? dim_order->size() : 0;
  TRI_CHECK(order_len == 0 || order_len == rank, Error::InvalidExternalData,
            "%s: dim_order has %zu entries for %zu dimensions", what, order_len,
            rank);
  bool seen[kTensorDimLimit] = {};
  for (size_t i = 0; i < order_len; ++i) {
    const uint8_t d = dim_order->Get(static_cast<flatbuffers::uoffset_t>(i));
    TRI_CHECK(d < rank && !seen[d], Error::InvalidExternalData,
              "%s: dim_order is not a permutation of 0..%zu (entry %zu is %u)",
              what, rank == 0 ? 0 : rank - 1, i, static_cast<unsigned>(d));
    seen[d] = true;
  }
  view->dtype = dtype;
  view->sizes = size_span;
  view->dim_order =
      Span<const uint8_t>(dim_order ? dim_order->data() : nullptr, order_len);
  *nbytes = static_cast<uint64_t>(numel) * elem;
  return Error::Ok;
}

}  // namespace

const char* flat_tensor_layout_name(FlatTensorLayout layout) {
  switch (layout) {
    case FlatTensorLayout::NamedData:
      return "named_data";
    case FlatTensorLayout::Tensors:
      return "tensors (early 2025)";
  }
  return "unknown";
}

Result<FlatTensorDataMap> FlatTensorDataMap::load(ByteSpan file) {
  const uint64_t file_size = file.size();
  TRI_TRY(check_file_start(file, kMinFileSize, kFileAlignment, ".ptd"));
  // Identifier and header magic. A different version digit is a format we do
  // not read; anything else is not a FlatTensor file at all.
  TRI_TRY(check_identifier(file, kFileIdentifierOffset, kIdentifier,
                           Error::InvalidExternalData,
                           "FlatTensor (.ptd) file"));
  TRI_TRY(check_identifier(file, kHeaderStart, kHeaderMagic,
                           Error::InvalidExternalData,
                           "FlatTensor (.ptd) header"));
  const uint8_t* bytes = file.data();

  FlatTensorDataMap map;
  map.file_ = file;
  FlatTensorHeader& h = map.header_;
  h.header_length = read_u32_le(bytes + kHeaderStart + 4);
  TRI_CHECK(h.header_length >= kMinHeaderLength, Error::InvalidExternalData,
            ".ptd: FH01 header length %" PRIu32
            " (bytes 12..16) is less than the %" PRIu32 " bytes it must hold",
            h.header_length, kMinHeaderLength);
  TRI_CHECK(range_within(kHeaderStart, h.header_length, file_size),
            Error::InvalidExternalData,
            ".ptd: FH01 header length %" PRIu32
            " runs past the end of the %" PRIu64 "-byte file",
            h.header_length, file_size);
  h.flatbuffer_offset = read_u64_le(bytes + kHeaderStart + 8);
  h.flatbuffer_size = read_u64_le(bytes + kHeaderStart + 16);
  h.segment_base_offset = read_u64_le(bytes + kHeaderStart + 24);
  h.segment_data_size = read_u64_le(bytes + kHeaderStart + 32);

  const uint64_t header_end = kHeaderStart + h.header_length;
  TRI_CHECK(h.flatbuffer_offset >= header_end, Error::InvalidExternalData,
            ".ptd: header flatbuffer_offset %" PRIu64
            " (bytes 16..24) lies inside the header, which ends at %" PRIu64,
            h.flatbuffer_offset, header_end);
  TRI_CHECK(range_within(h.flatbuffer_offset, h.flatbuffer_size, file_size),
            Error::InvalidExternalData,
            ".ptd: header flatbuffer [offset %" PRIu64 ", size %" PRIu64
            ") (bytes 16..32) extends past the end of the %" PRIu64
            "-byte file (truncated?)",
            h.flatbuffer_offset, h.flatbuffer_size, file_size);
  const uint64_t flatbuffer_end = h.flatbuffer_offset + h.flatbuffer_size;
  TRI_CHECK(h.segment_base_offset >= flatbuffer_end, Error::InvalidExternalData,
            ".ptd: header segment_base_offset %" PRIu64
            " (bytes 32..40) overlaps the flatbuffer, which ends at %" PRIu64,
            h.segment_base_offset, flatbuffer_end);
  TRI_CHECK(range_within(h.segment_base_offset, h.segment_data_size, file_size),
            Error::InvalidExternalData,
            ".ptd: header segment data [offset %" PRIu64 ", size %" PRIu64
            ") (bytes 32..48) extends past the end of the %" PRIu64
            "-byte file (truncated?)",
            h.segment_base_offset, h.segment_data_size, file_size);
  TRI_CHECK(flatbuffer_end < FLATBUFFERS_MAX_BUFFER_SIZE,
            Error::InvalidExternalData,
            ".ptd: the flatbuffer (%" PRIu64 " bytes) is larger than "
            "flatbuffers allows",
            flatbuffer_end);

  // The flatbuffer is [0, flatbuffer_end): its root offset and identifier are
  // the first 8 bytes of the file and the header sits in its padding. Verify
  // it against both layouts; the verifier only reads inside the buffer.
  flatbuffers::Verifier::Options opts;
  opts.max_depth = 64;
  opts.max_tables = 1000000;
  opts.check_alignment = true;
  const size_t fb_size = static_cast<size_t>(flatbuffer_end);
  flatbuffers::Verifier current_verifier(bytes, fb_size, opts);
  const bool current_ok = cur::VerifyFlatTensorBuffer(current_verifier);
  flatbuffers::Verifier v0_verifier(bytes, fb_size, opts);
  const bool v0_ok = v0::VerifyFlatTensorBuffer(v0_verifier);
  TRI_CHECK(current_ok || v0_ok, Error::InvalidExternalData,
            ".ptd: the FlatTensor flatbuffer (bytes 0..%" PRIu64
            ") fails verification against both known layouts (named_data "
            "and early-2025 tensors): an offset or length points outside the "
            "data, or the file is damaged",
            flatbuffer_end);

  // Both layouts keep the root's field 0 (version) and put a vector of
  // tables at field 2; they differ at field 1 (segments vs the scalar
  // tensor_alignment) and field 3 (the early layout's segments; the current
  // one has no field 3). When the bytes happen to verify both ways, the
  // presence of field 3 decides.
  const v0::FlatTensor* as_v0 = v0_ok ? v0::GetFlatTensor(bytes) : nullptr;
  const bool use_v0 =
      v0_ok && (!current_ok ||
                (as_v0->segments() != nullptr && as_v0->tensors() != nullptr));
  if (use_v0) {
    map.layout_ = FlatTensorLayout::Tensors;
    map.v0_ = as_v0;
  } else {
    map.layout_ = FlatTensorLayout::NamedData;
    map.current_ = cur::GetFlatTensor(bytes);
  }
  TRI_TRY(map.validate());
  return map;
}

Error FlatTensorDataMap::validate_segments() const {
  const size_t n = layout_ == FlatTensorLayout::Tensors
                       ? (v0_->segments() ? v0_->segments()->size() : 0)
                       : (current_->segments() ? current_->segments()->size() : 0);
  for (size_t i = 0; i < n; ++i) {
    const auto index = static_cast<flatbuffers::uoffset_t>(i);
    uint64_t offset = 0;
    uint64_t size = 0;
    if (layout_ == FlatTensorLayout::Tensors) {
      offset = v0_->segments()->Get(index)->offset();
      size = v0_->segments()->Get(index)->size();
    } else {
      offset = current_->segments()->Get(index)->offset();
      size = current_->segments()->Get(index)->size();
    }
    TRI_CHECK(range_within(offset, size, header_.segment_data_size),
              Error::InvalidExternalData,
              ".ptd: segments[%zu] [offset %" PRIu64 ", size %" PRIu64
              ") extends past the %" PRIu64
              " bytes of segment data (at file offset %" PRIu64 ")",
              i, offset, size, header_.segment_data_size,
              header_.segment_base_offset);
  }
  return Error::Ok;
}

Error FlatTensorDataMap::validate() const {
  if (layout_ == FlatTensorLayout::Tensors) {
    TRI_CHECK(v0_->tensors() != nullptr, Error::InvalidExternalData,
              ".ptd (tensors layout): FlatTensor.tensors is missing");
    TRI_CHECK(v0_->segments() != nullptr, Error::InvalidExternalData,
              ".ptd (tensors layout): FlatTensor.segments is missing");
  } else {
    TRI_CHECK(current_->named_data() != nullptr, Error::InvalidExternalData,
              ".ptd: FlatTensor.named_data is missing");
    TRI_CHECK(current_->segments() != nullptr, Error::InvalidExternalData,
              ".ptd: FlatTensor.segments is missing");
  }
  TRI_TRY(validate_segments());
  // Every entry goes through the same checks its accessors use.
  for (size_t i = 0; i < size(); ++i) {
    Result<Entry> e = entry(i);
    if (!e.ok()) {
      return e.error();
    }
  }
  return Error::Ok;
}

size_t FlatTensorDataMap::size() const {
  if (layout_ == FlatTensorLayout::Tensors) {
    return v0_ && v0_->tensors() ? v0_->tensors()->size() : 0;
  }
  return current_ && current_->named_data() ? current_->named_data()->size()
                                            : 0;
}

uint32_t FlatTensorDataMap::version() const {
  if (v0_) {
    return v0_->version();
  }
  return current_ ? current_->version() : 0;
}

uint32_t FlatTensorDataMap::tensor_alignment() const {
  return v0_ ? v0_->tensor_alignment() : 0;
}

Result<FlatTensorDataMap::Entry> FlatTensorDataMap::entry(size_t index) const {
  const size_t count = size();
  TRI_CHECK(index < count, Error::InvalidArgument,
            ".ptd: entry index %zu is out of range (the file has %zu entries)",
            index, count);
  const auto i = static_cast<flatbuffers::uoffset_t>(index);
  Entry out;
  char what[kMaxKeyPrint + 64];
  const flatbuffers::String* key = nullptr;
  uint32_t segment_index = 0;
  size_t num_segments = 0;

  if (layout_ == FlatTensorLayout::Tensors) {
    const v0::TensorMetadata* t = v0_->tensors()->Get(i);
    key = t->fully_qualified_name();
    TRI_CHECK(key != nullptr, Error::InvalidExternalData,
              ".ptd: tensors[%zu] has no fully_qualified_name", index);
    snprintf(what, sizeof(what), ".ptd: tensors[%zu] (key '%.*s')", index,
             key_print_len(key->size()), key->c_str());
    segment_index = t->segment_index();
    num_segments = v0_->segments()->size();
  } else {
    const cur::NamedData* nd = current_->named_data()->Get(i);
    key = nd->key();
    TRI_CHECK(key != nullptr, Error::InvalidExternalData,
              ".ptd: named_data[%zu] has no key", index);
    snprintf(what, sizeof(what), ".ptd: named_data[%zu] (key '%.*s')", index,
             key_print_len(key->size()), key->c_str());
    segment_index = nd->segment_index();
    num_segments = current_->segments()->size();
  }
  out.key = Span<const char>(key->c_str(), key->size());
  TRI_CHECK(segment_index < num_segments, Error::InvalidExternalData,
            "%s: segment_index %" PRIu32
            " is out of range (the file has %zu segments)",
            what, segment_index, num_segments);

  uint64_t seg_offset = 0;
  uint64_t seg_size = 0;
  if (layout_ == FlatTensorLayout::Tensors) {
    const v0::DataSegment* seg = v0_->segments()->Get(segment_index);
    seg_offset = seg->offset();
    seg_size = seg->size();
  } else {
    const cur::DataSegment* seg = current_->segments()->Get(segment_index);
    seg_offset = seg->offset();
    seg_size = seg->size();
  }
  TRI_CHECK(range_within(seg_offset, seg_size, header_.segment_data_size),
            Error::InvalidExternalData,
            "%s: segment %" PRIu32 " [offset %" PRIu64 ", size %" PRIu64
            ") extends past the %" PRIu64 " bytes of segment data",
            what, segment_index, seg_offset, seg_size,
            header_.segment_data_size);
  // Both are inside the file (checked in load()), so this cannot overflow.
  const uint64_t seg_start = header_.segment_base_offset + seg_offset;

  if (layout_ == FlatTensorLayout::Tensors) {
    const v0::TensorMetadata* t = v0_->tensors()->Get(i);
    uint64_t nbytes = 0;
    TRI_TRY(check_tensor_layout(what, static_cast<int8_t>(t->scalar_type()),
                                t->sizes(), t->dim_order(), &out.layout,
                                &nbytes));
    out.has_layout = true;
    const uint64_t offset = t->offset();
    TRI_CHECK(range_within(offset, nbytes, seg_size), Error::InvalidExternalData,
              "%s: tensor bytes [offset %" PRIu64 ", size %" PRIu64
              ") extend past segment %" PRIu32 " (%" PRIu64 " bytes)",
              what, offset, nbytes, segment_index, seg_size);
    out.data = ByteSpan(file_.data() + seg_start + offset,
                        static_cast<size_t>(nbytes));
  } else {
    const cur::NamedData* nd = current_->named_data()->Get(i);
    const cur::TensorLayout* layout = nd->tensor_layout();
    if (layout != nullptr) {
      uint64_t nbytes = 0;
      TRI_TRY(check_tensor_layout(what, static_cast<int8_t>(layout->scalar_type()),
                                  layout->sizes(), layout->dim_order(),
                                  &out.layout, &nbytes));
      out.has_layout = true;
      TRI_CHECK(nbytes <= seg_size, Error::InvalidExternalData,
                "%s: tensor_layout needs %" PRIu64 " bytes but segment %" PRIu32
                " holds %" PRIu64,
                what, nbytes, segment_index, seg_size);
    }
    out.data = ByteSpan(file_.data() + seg_start, static_cast<size_t>(seg_size));
  }
  return out;
}

Result<size_t> FlatTensorDataMap::find(Span<const char> key) const {
  const size_t count = size();
  for (size_t i = 0; i < count; ++i) {
    const auto index = static_cast<flatbuffers::uoffset_t>(i);
    const flatbuffers::String* stored =
        layout_ == FlatTensorLayout::Tensors
            ? v0_->tensors()->Get(index)->fully_qualified_name()
            : current_->named_data()->Get(index)->key();
    if (key_equals(stored, key)) {
      return i;
    }
  }
  return fail(Error::NotFound,
              ".ptd: key '%.*s' not found (the file has %zu keys)",
              key_print_len(key.size()), key.data() ? key.data() : "", count);
}

Result<ByteSpan> FlatTensorDataMap::get(Span<const char> key) const {
  TRI_ASSIGN_OR_RETURN(const size_t index, find(key));
  return data_at(index);
}

Result<ByteSpan> FlatTensorDataMap::data_at(size_t index) const {
  TRI_ASSIGN_OR_RETURN(const Entry e, entry(index));
  return e.data;
}

Result<Span<const char>> FlatTensorDataMap::key_at(size_t index) const {
  TRI_ASSIGN_OR_RETURN(const Entry e, entry(index));
  return e.key;
}

Result<FlatTensorLayoutView> FlatTensorDataMap::tensor_layout_at(
    size_t index) const {
  TRI_ASSIGN_OR_RETURN(const Entry e, entry(index));
  TRI_CHECK(e.has_layout, Error::NotFound,
            ".ptd: key '%.*s' has no tensor_layout", key_print_len(e.key.size()),
            e.key.data());
  return e.layout;
}

Result<FlatTensorLayoutView> FlatTensorDataMap::tensor_layout(
    Span<const char> key) const {
  TRI_ASSIGN_OR_RETURN(const size_t index, find(key));
  return tensor_layout_at(index);
}

Result<size_t> FlatTensorDataMap::file_offset_at(size_t index) const {
  TRI_ASSIGN_OR_RETURN(const Entry e, entry(index));
  return static_cast<size_t>(e.data.data() - file_.data());
}

}  // namespace tri::pte
