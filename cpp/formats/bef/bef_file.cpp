#include "cpp/formats/bef/bef_file.h"

#include <cstdio>
#include <cstring>

#include "cpp/formats/bef/bef_cursor.h"

namespace tri::bef {
namespace {

constexpr SectionId kRequiredSections[] = {
    SectionId::Strings,       SectionId::Attributes,    SectionId::Kernels,
    SectionId::Types,         SectionId::FunctionIndex, SectionId::Functions,
};

Error corrupt(const char* what) {
  return fail(Error::InvalidProgram, "BEF file %s", what);
}

Error read_sections(Span<const uint8_t> bytes, Span<const uint8_t>* sections) {
  BefCursor cursor(bytes.data() + 3, bytes.data() + bytes.size());
  while (!cursor.at_end()) {
    const size_t header_offset = 3 + cursor.offset();
    uint8_t id = 0;
    uint32_t length_and_flag = 0;
    if (!cursor.read_byte(&id) || !cursor.read_vbr(&length_and_flag)) {
      return fail(Error::InvalidProgram,
                  "BEF file section header corrupted (at byte %zu)", header_offset);
    }
    const uint32_t length = length_and_flag >> 1;
    if (length_and_flag & 1) {
      uint8_t alignment = 0;
      if (!cursor.read_byte(&alignment) || alignment == 0 ||
          (alignment & (alignment - 1)) != 0) {
        return fail(Error::InvalidProgram,
                    "BEF file section header corrupted (at byte %zu: bad alignment %u)",
                    header_offset, alignment);
      }
      if (!cursor.align_address(alignment)) {
        return fail(Error::InvalidProgram,
                    "BEF file section header corrupted (at byte %zu: padding runs past the end)",
                    header_offset);
      }
    }
    const uint8_t* payload = cursor.position();
    if (!cursor.skip(length)) {
      return fail(Error::InvalidProgram,
                  "BEF section %u at byte %zu claims %u bytes but only %zu remain",
                  id, header_offset, length, cursor.remaining());
    }
    // Unknown ids are skipped; a repeated id replaces the earlier one, as in
    // TFRT's reader.
    if (id < kNumSections) {
      // A present-but-empty section still gets a non-null pointer.
      sections[id] = Span<const uint8_t>(payload, length);
    }
  }
  for (SectionId id : kRequiredSections) {
    if (sections[static_cast<uint32_t>(id)].data() == nullptr) {
      return fail(Error::InvalidProgram, "BEF file has no %s section (id %u)",
                  section_name(id), static_cast<unsigned>(id));
    }
  }
  return Error::Ok;
}

}  // namespace

const char* BefFile::string_at(uint32_t offset) const {
  const Span<const uint8_t> strings = section(SectionId::Strings);
  if (offset >= strings.size()) return nullptr;
  const void* nul = std::memchr(strings.data() + offset, 0, strings.size() - offset);
  return nul == nullptr ? nullptr : reinterpret_cast<const char*>(strings.data() + offset);
}

int64_t BefFile::find_function(const char* name) const {
  for (uint32_t i = 0; i < functions_.size(); ++i) {
    if (functions_[i].name[0] != '\0' && std::strcmp(functions_[i].name, name) == 0) {
      return i;
    }
  }
  return -1;
}

namespace {

// Reads the Kernels or Types table: a count, then string offsets.
Error read_name_table(const BefFile& file, SectionId id, MemoryAllocator& allocator,
                      Span<const char* const>* out) {
  const Span<const uint8_t> bytes = file.section(id);
  BefCursor cursor(bytes.data(), bytes.data() + bytes.size());
  uint32_t count = 0;
  if (!cursor.read_vbr(&count) || count > cursor.remaining()) {
    return fail(Error::InvalidProgram, "BEF %s section: bad entry count", section_name(id));
  }
  const char** names = allocator.allocate_array<const char*>(count);
  if (names == nullptr) return fail(Error::MemoryAllocationFailed, "BEF %s table: out of memory", section_name(id));
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t offset = 0;
    if (!cursor.read_vbr(&offset)) {
      return fail(Error::InvalidProgram, "BEF %s section: entry %u is truncated", section_name(id), i);
    }
    names[i] = file.string_at(offset);
    if (names[i] == nullptr) {
      return fail(Error::InvalidProgram,
                  "BEF %s section: entry %u names string offset %u, outside the Strings section",
                  section_name(id), i, offset);
    }
  }
  *out = Span<const char* const>(names, count);
  return Error::Ok;
}

Error read_type_list(BefCursor& cursor, uint32_t num_types, MemoryAllocator& allocator,
                     uint32_t function, const char* what, Span<const uint32_t>* out) {
  uint32_t count = 0;
  if (!cursor.read_vbr(&count) || count > cursor.remaining()) {
    return fail(Error::InvalidProgram, "BEF FunctionIndex entry %u: bad %s count", function, what);
  }
  uint32_t* types = static_cast<uint32_t*>(allocator.allocate(4 * size_t{count} + 4, 4));
  if (types == nullptr) return fail(Error::MemoryAllocationFailed, "BEF FunctionIndex: out of memory");
  for (uint32_t i = 0; i < count; ++i) {
    if (!cursor.read_vbr(&types[i]) || types[i] >= num_types) {
      return fail(Error::InvalidProgram,
                  "BEF FunctionIndex entry %u: %s %u has no valid type index (the Types table has %u)",
                  function, what, i, num_types);
    }
  }
  *out = Span<const uint32_t>(types, count);
  return Error::Ok;
}

class BodyReader {
 public:
  BodyReader(const BefFile& file, uint32_t index, FunctionEntry& entry, MemoryAllocator& allocator)
      : file_(file), index_(index), entry_(entry), allocator_(allocator) {}

  Error read();

 private:
  Error bad(const char* format, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0) {
    char what[256];
    std::snprintf(what, sizeof(what), format, a, b, c);
    return fail(Error::InvalidProgram, "BEF function %u ('%s'): %s", index_, entry_.name, what);
  }
  Error read_header(BefCursor& cursor);
  Error check_kernel(uint32_t k, uint32_t* trigger_counts, uint32_t* register_uses,
                     uint8_t* register_defined);
  Error check_every_kernel_can_run(uint32_t* waiting);

  const BefFile& file_;
  uint32_t index_;
  FunctionEntry& entry_;
  MemoryAllocator& allocator_;
  FunctionBody body_;
  const uint8_t* section_end_ = nullptr;
};

Error BodyReader::read_header(BefCursor& cursor) {
  if (!cursor.read_vbr(&body_.location_offset) || !cursor.read_vbr(&body_.num_registers) ||
      body_.num_registers > cursor.remaining()) {
    return bad("truncated function header");
  }
  uint32_t* uses = static_cast<uint32_t*>(allocator_.allocate(4 * size_t{body_.num_registers} + 4, 4));
  if (uses == nullptr) return fail(Error::MemoryAllocationFailed, "BEF function %u: out of memory", index_);
  for (uint32_t r = 0; r < body_.num_registers; ++r) {
    if (!cursor.read_vbr(&uses[r])) return bad("truncated register table");
  }
  body_.register_use_counts = Span<const uint32_t>(uses, body_.num_registers);

  uint32_t num_kernels = 0;
  if (!cursor.read_vbr(&num_kernels) || num_kernels == 0 || num_kernels > cursor.remaining() / 3) {
    return bad("bad kernel count");
  }
  KernelTableEntry* kernels = allocator_.allocate_array<KernelTableEntry>(num_kernels);
  if (kernels == nullptr) return fail(Error::MemoryAllocationFailed, "BEF function %u: out of memory", index_);
  for (uint32_t k = 0; k < num_kernels; ++k) {
    if (!cursor.read_vbr(&kernels[k].offset) || !cursor.read_vbr(&kernels[k].num_operands) ||
        !cursor.read_vbr(&kernels[k].stream_id)) {
      return bad("truncated kernel table at kernel %u", k);
    }
  }
  body_.kernels = Span<const KernelTableEntry>(kernels, num_kernels);

  const uint32_t num_results = static_cast<uint32_t>(entry_.result_types.size());
  uint32_t* results = static_cast<uint32_t*>(allocator_.allocate(4 * size_t{num_results} + 4, 4));
  if (results == nullptr) return fail(Error::MemoryAllocationFailed, "BEF function %u: out of memory", index_);
  for (uint32_t i = 0; i < num_results; ++i) {
    if (!cursor.read_vbr(&results[i])) return bad("truncated result register list");
    if (results[i] >= body_.num_registers) {
      return bad("result %u is register %u, but the function has %u registers", i, results[i],
                 body_.num_registers);
    }
  }
  body_.result_registers = Span<const uint32_t>(results, num_results);
  if (!cursor.align_address(4)) return bad("kernel list padding runs past the end");
  body_.kernel_list = cursor.position();
  return Error::Ok;
}

// Checks one record against the function's tables, and counts how often
// each kernel is triggered and each register is read, so that read() can
// compare them with the declared ready counts and use counts: the executor
// relies on both being exact.
Error BodyReader::check_kernel(uint32_t k, uint32_t* trigger_counts, uint32_t* register_uses,
                               uint8_t* register_defined) {
  const uint32_t offset = body_.kernels[k].offset;
  const size_t available = static_cast<size_t>(section_end_ - body_.kernel_list);
  if (offset % 4 != 0 || offset > available || available - offset < 4 * kKernelHeaderWords) {
    return bad("kernel %u: record offset %u is misaligned or outside the Functions section", k, offset);
  }
  const size_t words_available = (available - offset) / 4;
  const KernelRecord record(body_.kernel_list + offset);
  const uint64_t fixed = kKernelHeaderWords + uint64_t{record.num_results()} * 2 +
                         record.num_arguments() + record.num_attributes() + record.num_functions();
  if (fixed > words_available) return bad("kernel %u: record runs past the end of the file", k);
  if (record.size_in_words() > words_available) {
    return bad("kernel %u: used-by lists run past the end of the file", k);
  }
  const uint32_t num_kernels = static_cast<uint32_t>(body_.kernels.size());
  const uint32_t num_registers = body_.num_registers;
  if (k == 0) {
    if (record.num_arguments() != 0 || record.num_attributes() != 0 || record.num_functions() != 0 ||
        record.num_results() != entry_.argument_types.size() + 1 || body_.kernels[0].num_operands != 0) {
      return bad("kernel 0 is not a pseudo kernel with %u results",
                 static_cast<uint32_t>(entry_.argument_types.size() + 1));
    }
    if (record.result(0) != num_registers) {
      return bad("the pseudo kernel's first result must be the synthetic register %u", num_registers);
    }
  } else {
    if (record.code() >= file_.num_kernel_names()) {
      return bad("kernel %u: code %u is outside the Kernels table (%u names)", k, record.code(),
                 file_.num_kernel_names());
    }
    if (record.num_arguments() != body_.kernels[k].num_operands) {
      return bad("kernel %u: the kernel table says %u operands but the record has %u", k,
                 body_.kernels[k].num_operands, record.num_arguments());
    }
    const uint32_t attributes_size = static_cast<uint32_t>(file_.attributes().size());
    for (uint32_t i = 0; i < record.num_arguments(); ++i) {
      const uint32_t r = record.argument(i);
      if (r >= num_registers) return bad("kernel %u: argument register %u out of range", k, r);
      ++register_uses[r];
    }
    for (uint32_t i = 0; i < record.num_attributes(); ++i) {
      if (record.attribute_offset(i) >= attributes_size) {
        return bad("kernel %u: attribute offset %u is outside the Attributes section", k,
                   record.attribute_offset(i));
      }
    }
    for (uint32_t i = 0; i < record.num_functions(); ++i) {
      if (record.function_index(i) >= file_.num_functions()) {
        return bad("kernel %u: function index %u out of range", k, record.function_index(i));
      }
    }
  }
  for (uint32_t i = (k == 0 ? 1 : 0); i < record.num_results(); ++i) {
    const uint32_t r = record.result(i);
    if (r >= num_registers) return bad("kernel %u: result register %u out of range", k, r);
    if (register_defined[r]) return bad("kernel %u: register %u is defined twice", k, r);
    register_defined[r] = 1;
  }
  for (uint32_t i = 0; i < record.num_results(); ++i) {
    for (uint32_t u = 0; u < record.num_used_by(i); ++u) {
      const uint32_t user = record.used_by(i, u);
      if (user == 0 || user >= num_kernels) {
        return bad("kernel %u: result %u is used by kernel %u, which does not exist", k, i, user);
      }
      ++trigger_counts[user];
    }
  }
  return Error::Ok;
}

// The executor runs a kernel once every result it waits for is ready (its
// trigger count, checked exact above), so kernels that wait on each other
// through their used-by lists would never run and leave their results unset.
// A walk from the pseudo kernel, the order the executor could take, must
// reach every kernel. `waiting` holds each kernel's trigger count; it is used
// up.
Error BodyReader::check_every_kernel_can_run(uint32_t* waiting) {
  const uint32_t num_kernels = static_cast<uint32_t>(body_.kernels.size());
  uint32_t* ready = allocator_.allocate_array<uint32_t>(num_kernels);
  if (ready == nullptr) return fail(Error::MemoryAllocationFailed, "BEF function %u: out of memory", index_);
  uint32_t head = 0;
  uint32_t tail = 0;
  ready[tail++] = 0;
  while (head < tail) {
    const KernelRecord record = body_.kernel(ready[head++]);
    for (uint32_t i = 0; i < record.num_results(); ++i) {
      for (uint32_t u = 0; u < record.num_used_by(i); ++u) {
        const uint32_t user = record.used_by(i, u);
        // Each kernel is queued once: when the last of its triggers arrives.
        if (--waiting[user] == 0) ready[tail++] = user;
      }
    }
  }
  for (uint32_t k = 1; k < num_kernels && tail < num_kernels; ++k) {
    if (waiting[k] != 0) {
      return bad("kernel %u can never run: it waits, directly or through other kernels, on its own "
                 "results",
                 k);
    }
  }
  return Error::Ok;
}

Error BodyReader::read() {
  const Span<const uint8_t> functions = file_.section(SectionId::Functions);
  if (entry_.function_offset >= functions.size()) {
    return bad("body offset %u is outside the Functions section", entry_.function_offset);
  }
  section_end_ = functions.data() + functions.size();
  BefCursor cursor(functions.data() + entry_.function_offset, section_end_);
  TRI_TRY(read_header(cursor));

  const uint32_t num_kernels = static_cast<uint32_t>(body_.kernels.size());
  uint32_t* trigger_counts = allocator_.allocate_array<uint32_t>(num_kernels);
  uint32_t* register_uses = allocator_.allocate_array<uint32_t>(body_.num_registers);
  uint8_t* register_defined = allocator_.allocate_array<uint8_t>(body_.num_registers);
  if (trigger_counts == nullptr || register_uses == nullptr || register_defined == nullptr) {
    return fail(Error::MemoryAllocationFailed, "BEF function %u: out of memory", index_);
  }
  std::memset(trigger_counts, 0, 4 * size_t{num_kernels});
  std::memset(register_uses, 0, 4 * size_t{body_.num_registers});
  std::memset(register_defined, 0, body_.num_registers);

  for (uint32_t k = 0; k < num_kernels; ++k) {
    TRI_TRY(check_kernel(k, trigger_counts, register_uses, register_defined));
  }
  for (uint32_t k = 1; k < num_kernels; ++k) {
    const uint32_t operands = body_.kernels[k].num_operands;
    const uint32_t expected = operands == 0 ? 1 : operands;
    if (trigger_counts[k] != expected) {
      return bad("kernel %u waits for %u operands but is triggered %u times", k, expected,
                 trigger_counts[k]);
    }
  }
  TRI_TRY(check_every_kernel_can_run(trigger_counts));
  for (uint32_t r = 0; r < body_.num_registers; ++r) {
    if (!register_defined[r]) return bad("register %u is never defined", r);
  }
  for (uint32_t r : body_.result_registers) ++register_uses[r];
  for (uint32_t r = 0; r < body_.num_registers; ++r) {
    if (register_uses[r] != body_.register_use_counts[r]) {
      return bad("register %u is used %u times but declares a use count of %u", r, register_uses[r],
                 body_.register_use_counts[r]);
    }
  }
  body_.kernel_list_size = static_cast<size_t>(section_end_ - body_.kernel_list);
  entry_.body = body_;
  return Error::Ok;
}

}  // namespace

Result<BefFile> BefFile::open(Span<const uint8_t> bytes, MemoryAllocator& allocator) {
  if (bytes.size() < 3 || bytes[0] != kMagic0 || bytes[1] != kMagic1) {
    return fail(Error::InvalidProgram, "invalid BEF file header detected");
  }
  if (bytes[2] != kFormatVersion) {
    return fail(Error::InvalidProgram, "Unknown BEF format version detected (version %u)", bytes[2]);
  }
  if (reinterpret_cast<uintptr_t>(bytes.data()) % kAttributeMaxAlignment != 0) {
    return fail(Error::InvalidArgument, "The BEF file memory should be aligned by %u",
                kAttributeMaxAlignment);
  }
  BefFile file;
  TRI_TRY(read_sections(bytes, file.sections_));
  TRI_TRY(read_name_table(file, SectionId::Kernels, allocator, &file.kernel_names_));
  TRI_TRY(read_name_table(file, SectionId::Types, allocator, &file.type_names_));

  const Span<const uint8_t> index = file.section(SectionId::FunctionIndex);
  BefCursor cursor(index.data(), index.data() + index.size());
  uint32_t count = 0;
  if (!cursor.read_vbr(&count) || count > cursor.remaining() / 5) {
    return corrupt("FunctionIndex section has a bad function count");
  }
  FunctionEntry* functions = allocator.allocate_array<FunctionEntry>(count);
  if (functions == nullptr) return fail(Error::MemoryAllocationFailed, "BEF FunctionIndex: out of memory");
  for (uint32_t i = 0; i < count; ++i) {
    FunctionEntry& entry = functions[i];
    uint8_t kind = 0;
    uint32_t name_offset = 0;
    if (!cursor.read_byte(&kind) || !cursor.read_vbr(&entry.function_offset) ||
        !cursor.read_vbr(&name_offset)) {
      return fail(Error::InvalidProgram, "BEF FunctionIndex entry %u is truncated", i);
    }
    if (kind > static_cast<uint8_t>(FunctionKind::Sync)) {
      return fail(Error::InvalidProgram, "BEF FunctionIndex entry %u has unknown kind %u", i, kind);
    }
    entry.kind = static_cast<FunctionKind>(kind);
    entry.name = file.string_at(name_offset);
    if (entry.name == nullptr) {
      return fail(Error::InvalidProgram,
                  "BEF FunctionIndex entry %u: name offset %u is outside the Strings section", i,
                  name_offset);
    }
    TRI_TRY(read_type_list(cursor, file.num_types(), allocator, i, "argument", &entry.argument_types));
    TRI_TRY(read_type_list(cursor, file.num_types(), allocator, i, "result", &entry.result_types));
  }
  file.functions_ = Span<const FunctionEntry>(functions, count);
  for (uint32_t i = 0; i < count; ++i) {
    if (functions[i].kind == FunctionKind::Native) continue;
    TRI_TRY(BodyReader(file, i, functions[i], allocator).read());
  }
  return file;
}

}  // namespace tri::bef
