#include "cpp/formats/pte/pte_kept_bytes.h"

#include "cpp/formats/pte/schema/program_generated.h"
#include "cpp/runtime/backend/backend.h"

namespace tri::pte {
namespace {

namespace fb = executorch_flatbuffer;

// Where segment `index` ends in the file (open() checked that it lies inside).
uint64_t segment_end(const PteFile& file, uint64_t index) {
  const auto* segments = file.program->segments();
  if (segments == nullptr || index >= segments->size()) return 0;
  const fb::DataSegment* seg = segments->Get(static_cast<flatbuffers::uoffset_t>(index));
  return file.header.segment_base_offset + seg->offset() + seg->size();
}

}  // namespace

uint64_t bytes_needed_after_init(const PteProgram& program) {
  const PteFile& file = program.file();
  const fb::Program* p = file.program;
  uint64_t need = file.header.program_size;
  auto keep = [&](uint64_t segment) {
    const uint64_t end = segment_end(file, segment);
    need = end > need ? end : need;
  };
  if (p->constant_segment() != nullptr) keep(p->constant_segment()->segment_index());
  if (p->mutable_data_segments() != nullptr) {
    for (const fb::SubsegmentOffsets* sub : *p->mutable_data_segments()) {
      if (sub != nullptr) keep(sub->segment_index());
    }
  }
  bool named_data_read_at_run = false;
  for (size_t m = 0; m < program.num_methods(); ++m) {
    const auto* delegates = program.plan(m)->delegates();
    if (delegates == nullptr) continue;
    for (const fb::BackendDelegate* d : *delegates) {
      const Backend* backend = d != nullptr && d->id() != nullptr ? find_backend(d->id()->c_str()) : nullptr;
      if (backend != nullptr && backend->runs_without_sources()) continue;
      named_data_read_at_run = true;
      const fb::BackendDelegateDataReference* processed = d != nullptr ? d->processed() : nullptr;
      if (processed != nullptr && processed->location() == fb::DataLocation::SEGMENT) {
        keep(processed->index());
      }
    }
  }
  if (named_data_read_at_run && p->named_data() != nullptr) {
    for (const fb::NamedData* entry : *p->named_data()) {
      if (entry != nullptr) keep(entry->segment_index());
    }
  }
  return need < file.bytes.size() ? need : file.bytes.size();
}

}  // namespace tri::pte
