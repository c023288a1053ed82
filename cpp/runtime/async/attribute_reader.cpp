#include "cpp/runtime/async/attribute_reader.h"

#include "cpp/runtime/core/byte_reader.h"

namespace tri::async {

int64_t DenseAttr::dim(uint32_t i) const {
  return static_cast<int64_t>(read_u64_le(dims + 8 * size_t{i}));
}

Error AttributeReader::out_of_range(uint32_t offset, uint64_t size) const {
  return fail(Error::InvalidProgram,
              "BEF attribute at offset %u (%llu bytes) runs past the Attributes section (%zu bytes)",
              offset, static_cast<unsigned long long>(size), section_.size());
}

Result<bool> AttributeReader::boolean(uint32_t offset) const {
  TRI_ASSIGN_OR_RETURN(const uint8_t byte, scalar<uint8_t>(offset));
  return byte != 0;
}

Result<StringAttr> AttributeReader::string(uint32_t offset) const {
  TRI_ASSIGN_OR_RETURN(const uint32_t size, scalar<uint32_t>(offset));
  if (!fits(uint64_t{offset} + 4, size)) return out_of_range(offset, uint64_t{size} + 4);
  return StringAttr{reinterpret_cast<const char*>(section_.data() + offset + 4), size};
}

Result<ArrayAttr> AttributeReader::array(uint32_t offset, uint32_t element_size) const {
  TRI_ASSIGN_OR_RETURN(const uint32_t count, scalar<uint32_t>(offset));
  const uint64_t bytes = uint64_t{count} * element_size;
  if (!fits(uint64_t{offset} + 4, bytes)) return out_of_range(offset, bytes + 4);
  return ArrayAttr{section_.data() + offset + 4, count};
}

Result<DenseAttr> AttributeReader::dense(uint32_t offset) const {
  // base{u8 alignment, u8 dtype, u16 prefix_size, u32 byte_size}, then
  // u32 element_offset, u32 element_count, u32 rank, rank × i64 dims.
  if (!fits(offset, 20)) return out_of_range(offset, 20);
  const uint8_t* base = section_.data() + offset;
  const uint32_t byte_size = read_u32_le(base + 4);
  const uint32_t element_offset = read_u32_le(base + 8);
  DenseAttr dense;
  dense.dtype = base[1];
  dense.count = read_u32_le(base + 12);
  dense.rank = read_u32_le(base + 16);
  if (!fits(offset, byte_size)) return out_of_range(offset, byte_size);
  const uint32_t element_size = dtype_size(dense.dtype);
  if (element_size == 0) {
    return fail(Error::InvalidProgram, "BEF dense attribute at offset %u has unsupported dtype %u",
                offset, dense.dtype);
  }
  const uint64_t header = 20 + 8 * uint64_t{dense.rank};
  const uint64_t data_bytes = uint64_t{dense.count} * element_size;
  if (header > byte_size || element_offset < header || element_offset > byte_size ||
      data_bytes > byte_size - element_offset) {
    return fail(Error::InvalidProgram,
                "BEF dense attribute at offset %u: rank %u, %u elements and data offset %u do not "
                "fit its %u bytes",
                offset, dense.rank, dense.count, element_offset, byte_size);
  }
  dense.dims = base + 20;
  uint64_t product = 1;
  for (uint32_t i = 0; i < dense.rank; ++i) {
    const int64_t d = dense.dim(i);
    if (d < 0 || (d != 0 && product > UINT32_MAX / static_cast<uint64_t>(d))) {
      return fail(Error::InvalidProgram, "BEF dense attribute at offset %u: bad dimension %lld",
                  offset, static_cast<long long>(d));
    }
    product *= static_cast<uint64_t>(d);
  }
  if (product != dense.count) {
    return fail(Error::InvalidProgram,
                "BEF dense attribute at offset %u: %u elements, but its shape holds %llu", offset,
                dense.count, static_cast<unsigned long long>(product));
  }
  dense.data = base + element_offset;
  return dense;
}

Result<AggregateAttr> AttributeReader::aggregate(uint32_t offset) const {
  TRI_ASSIGN_OR_RETURN(const uint8_t alignment, scalar<uint8_t>(offset));
  AggregateAttr aggregate;
  aggregate.base = offset;
  if (alignment == 0) return aggregate;  // the empty aggregate: a u32 0
  if (!fits(offset, 12)) return out_of_range(offset, 12);
  const uint8_t* base = section_.data() + offset;
  const uint32_t byte_size = read_u32_le(base + 4);
  aggregate.count = read_u32_le(base + 8);
  if (!fits(offset, byte_size) || 12 + 4 * uint64_t{aggregate.count} > byte_size) {
    return fail(Error::InvalidProgram,
                "BEF aggregate attribute at offset %u: %u elements do not fit its %u bytes", offset,
                aggregate.count, byte_size);
  }
  aggregate.element_offsets = base + 12;
  return aggregate;
}

Result<uint32_t> AttributeReader::aggregate_element(const AggregateAttr& aggregate,
                                                    uint32_t index, uint8_t* tag) const {
  if (index >= aggregate.count) {
    return fail(Error::InvalidArgument, "BEF aggregate at offset %u has %u elements, not %u",
                aggregate.base, aggregate.count, index + 1);
  }
  const uint32_t relative = read_u32_le(aggregate.element_offsets + 4 * size_t{index});
  const uint64_t offset = uint64_t{aggregate.base} + relative;
  if (relative == 0 || offset >= section_.size()) {
    return fail(Error::InvalidProgram, "BEF aggregate at offset %u: element %u is out of range",
                aggregate.base, index);
  }
  *tag = section_[static_cast<size_t>(offset - 1)];
  return static_cast<uint32_t>(offset);
}

}  // namespace tri::async
