#include "cpp/formats/bef/bef_encoding.h"

namespace tri::bef {

const char* section_name(SectionId id) {
  switch (id) {
    case SectionId::Strings: return "Strings";
    case SectionId::Attributes: return "Attributes";
    case SectionId::Kernels: return "Kernels";
    case SectionId::Types: return "Types";
    case SectionId::FunctionIndex: return "FunctionIndex";
    case SectionId::Functions: return "Functions";
    case SectionId::LocationStrings: return "LocationStrings";
    case SectionId::Locations: return "Locations";
    case SectionId::AttributeTypes: return "AttributeTypes";
    case SectionId::AttributeNames: return "AttributeNames";
    case SectionId::RegisterTypes: return "RegisterTypes";
  }
  return "unknown";
}

}  // namespace tri::bef
