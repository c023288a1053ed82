#include "cpp/formats/pte/pte_file.h"

#include <cinttypes>

#include "cpp/formats/pte/file_checks.h"
#include "cpp/formats/pte/schema/program_generated.h"

namespace tri::pte {

namespace fb = executorch_flatbuffer;

Result<PteFile> PteFile::open(ByteSpan bytes) {
  // Tables hold 8-byte fields; the verifier checks alignment relative to the
  // buffer start only.
  TRI_TRY(check_file_alignment(bytes, 8, ".pte"));
  PteFile file;
  file.bytes = bytes;
  TRI_ASSIGN_OR_RETURN(file.header, parse_pte_header(bytes));
  // parse_pte_header accepts any "ET" and two digits; this reader needs ET12.
  TRI_TRY(check_identifier(bytes, kFileIdentifierOffset, "ET12",
                           Error::InvalidProgram, ".pte file"));
  // The verifier checks every offset, vector length and string inside the
  // program data before anything reads it. Limits bound the work on hostile
  // files (deep nesting, huge table counts).
  flatbuffers::Verifier::Options opts;
  opts.max_depth = 64;
  opts.max_tables = 10000000;
  opts.check_alignment = true;
  flatbuffers::Verifier verifier(bytes.data(),
                                 static_cast<size_t>(file.header.program_size),
                                 opts);
  TRI_CHECK(fb::VerifyProgramBuffer(verifier), Error::InvalidProgram,
            "program flatbuffer failed verification (an offset or length in "
            "the first %" PRIu64 " bytes points outside the data, or the file "
            "is truncated)",
            file.header.program_size);
  file.program = fb::GetProgram(bytes.data());
  // Segments must lie inside the file; report the first that does not.
  for (size_t i = 0; i < file.num_segments(); ++i) {
    Result<ByteSpan> seg = file.segment(i);
    if (!seg.ok()) {
      return seg.error();
    }
  }
  return file;
}

size_t PteFile::num_segments() const {
  const auto* segments = program->segments();
  return segments ? segments->size() : 0;
}

Result<ByteSpan> PteFile::segment(size_t index) const {
  const auto* segments = program->segments();
  TRI_CHECK(segments != nullptr && index < segments->size(),
            Error::InvalidProgram, "segment %zu does not exist (the file has %zu)",
            index, num_segments());
  const fb::DataSegment* seg = segments->Get(static_cast<flatbuffers::uoffset_t>(index));
  const uint64_t base = header.segment_base_offset;
  const uint64_t offset = seg->offset();
  const uint64_t size = seg->size();
  const uint64_t file_size = bytes.size();
  TRI_CHECK(offset <= file_size && base <= file_size - offset &&
                size <= file_size - base - offset,
            Error::InvalidProgram,
            "segment %zu [%" PRIu64 ", +%" PRIu64 ") from base %" PRIu64
            " lies past the end of the %" PRIu64 "-byte file (truncated?)",
            index, offset, size, base, file_size);
  return ByteSpan(bytes.data() + base + offset, static_cast<size_t>(size));
}

}  // namespace tri::pte
