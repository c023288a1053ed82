#include "cpp/formats/pt2/host/torch_save.h"

#include <cinttypes>

namespace tri::pt2 {

Result<TorchSave> TorchSave::read(ByteSpan bytes, const std::string& what) {
  TorchSave saved;
  saved.what_ = std::make_shared<const std::string>(what);
  TRI_ASSIGN_OR_RETURN(saved.zip_, ZipArchive::open(bytes, saved.what_->c_str()));
  // Every record sits under one root folder ("archive/" inside exports).
  ZipArchive::Cursor cursor = saved.zip_.entries();
  ZipEntry first;
  TRI_ASSIGN_OR_RETURN(const bool any, cursor.next(&first));
  TRI_CHECK(any, Error::InvalidProgram, "%s: an empty zip, not a torch.save file", what.c_str());
  const std::string first_name(first.name.data(), first.name.size());
  const size_t slash = first_name.find('/');
  TRI_CHECK(slash != std::string::npos, Error::InvalidProgram,
            "%s: entry '%s' is not inside a root folder, so this is not a torch.save file",
            what.c_str(), first_name.c_str());
  saved.root_ = first_name.substr(0, slash + 1);
  Result<ZipEntry> order = saved.zip_.find((saved.root_ + "byteorder").c_str());
  if (order.ok()) {
    TRI_ASSIGN_OR_RETURN(const ByteSpan text, saved.zip_.data(*order));
    TRI_CHECK(std::string(reinterpret_cast<const char*>(text.data()), text.size()) == "little",
              Error::NotSupported, "%s: big-endian tensors are not supported", what.c_str());
  }
  TRI_ASSIGN_OR_RETURN(const ZipEntry pickle, saved.zip_.find((saved.root_ + "data.pkl").c_str()));
  TRI_ASSIGN_OR_RETURN(const ByteSpan pickle_bytes, saved.zip_.data(pickle));
  TRI_ASSIGN_OR_RETURN(saved.object_, read_pickle(pickle_bytes, what + " data.pkl"));
  return saved;
}

Result<HostTensor> TorchSave::tensor(const PickleTensor& tensor, TensorStore& store,
                                     const std::string& what) const {
  const PickleStorage& storage = tensor.storage->storage;
  const std::string record = root_ + "data/" + storage.key;
  TRI_ASSIGN_OR_RETURN(const ZipEntry entry, zip_.find(record.c_str()));
  TRI_ASSIGN_OR_RETURN(const ByteSpan bytes, zip_.data(entry));
  const size_t element = storage.untyped ? 1 : element_size(storage.dtype);
  TRI_CHECK(static_cast<uint64_t>(storage.numel) <= bytes.size() / (element ? element : 1) &&
                bytes.size() == static_cast<uint64_t>(storage.numel) * element,
            Error::InvalidProgram,
            "%s: storage '%s' should hold %" PRId64 " elements but its record has %zu bytes",
            what.c_str(), storage.key.c_str(), storage.numel, bytes.size());
  StridedView view;
  view.dtype = tensor.dtype;
  view.sizes = tensor.sizes;
  view.strides = tensor.strides;
  view.storage_offset = tensor.storage_offset;
  return store.view(bytes, view, what);
}

Result<std::map<std::string, HostTensor>> TorchSave::tensor_dict(TensorStore& store) const {
  TRI_CHECK(object_->kind == PickleKind::Dict, Error::InvalidProgram,
            "%s: expected a dict of tensors, found a %s", what_->c_str(),
            pickle_kind_name(object_->kind));
  std::map<std::string, HostTensor> out;
  for (const auto& [key, value] : object_->entries) {
    TRI_CHECK(key->kind == PickleKind::String, Error::InvalidProgram,
              "%s: a key that is a %s, not a name", what_->c_str(), pickle_kind_name(key->kind));
    TRI_CHECK(value->kind == PickleKind::Tensor, Error::NotSupported,
              "%s: '%s' is a %s; only tensors are supported", what_->c_str(), key->text.c_str(),
              pickle_kind_name(value->kind));
    TRI_ASSIGN_OR_RETURN(HostTensor t, tensor(value->tensor, store, *what_ + " '" + key->text + "'"));
    out[key->text] = std::move(t);
  }
  return out;
}

}  // namespace tri::pt2
