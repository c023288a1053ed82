// torch.save files (a zip of data.pkl plus one record per storage) as PT2
// archives nest them: state dicts, constants, sample inputs and pickled
// weight payloads. Tensors come out through the TensorStore.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "cpp/formats/pt2/host/tensor_store.h"
#include "cpp/formats/pt2/host/torch_pickle.h"
#include "cpp/formats/pt2/zip/zip_archive.h"

namespace tri::pt2 {

class TorchSave {
 public:
  // Opens the zip, finds its root folder and runs data.pkl.
  static Result<TorchSave> read(ByteSpan bytes, const std::string& what);

  const PickleRef& object() const { return object_; }
  // The tensor a pickled tensor describes, its storage read from the zip.
  Result<HostTensor> tensor(const PickleTensor& tensor, TensorStore& store,
                            const std::string& what) const;
  // A dict of name -> tensor (a state dict or constants).
  Result<std::map<std::string, HostTensor>> tensor_dict(TensorStore& store) const;

 private:
  ZipArchive zip_;
  std::string root_;
  // Shared so that the zip's pointer to it survives moves.
  std::shared_ptr<const std::string> what_;
  PickleRef object_;
};

}  // namespace tri::pt2
