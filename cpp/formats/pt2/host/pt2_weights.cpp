#include "cpp/formats/pt2/host/pt2_weights.h"

#include "cpp/formats/pt2/host/pt2_graph.h"
#include "cpp/formats/pt2/host/pt2_json.h"
#include "cpp/formats/pt2/host/torch_save.h"

namespace tri::pt2 {
namespace {

Result<std::map<std::string, HostTensor>> read_pickled(const Pt2Archive& archive,
                                                       const std::string& record,
                                                       TensorStore& store) {
  if (record.empty()) return std::map<std::string, HostTensor>();
  TRI_ASSIGN_OR_RETURN(const ByteSpan bytes, archive.record(record));
  TRI_ASSIGN_OR_RETURN(const TorchSave saved, TorchSave::read(bytes, record));
  return saved.tensor_dict(store);
}

// {"config": {FQN: {"path_name", "is_param", "use_pickle", "tensor_meta"}}}
Result<std::map<std::string, HostTensor>> read_raw(const Pt2Archive& archive,
                                                   const std::string& config_record,
                                                   const std::string& folder,
                                                   TensorStore& store) {
  TRI_ASSIGN_OR_RETURN(const ByteSpan text, archive.record(config_record));
  TRI_ASSIGN_OR_RETURN(const Json config, parse_json(text, config_record));
  TRI_ASSIGN_OR_RETURN(const Json* entries, field(config, "config", config_record));
  TRI_CHECK(entries->is_object(), Error::InvalidProgram, "%s: 'config' is not an object",
            config_record.c_str());
  std::map<std::string, HostTensor> out;
  for (auto it = entries->begin(); it != entries->end(); ++it) {
    const std::string where = config_record + " '" + it.key() + "'";
    TRI_ASSIGN_OR_RETURN(const Json* path, field(*it, "path_name", where));
    TRI_ASSIGN_OR_RETURN(const std::string path_name, as_string(*path, where + ".path_name"));
    TRI_CHECK(path_name.find('/') == std::string::npos && path_name.find("..") == std::string::npos,
              Error::InvalidProgram, "%s: path_name '%s' leaves its folder", where.c_str(),
              path_name.c_str());
    TRI_ASSIGN_OR_RETURN(const Json* meta_json, optional_field(*it, "tensor_meta", where));
    TRI_CHECK(meta_json != nullptr, Error::NotSupported,
              "%s: not a tensor (torchbind and opaque objects are not supported)", where.c_str());
    TRI_ASSIGN_OR_RETURN(const TensorMeta meta, read_tensor_meta(*meta_json, where + ".tensor_meta"));
    TRI_ASSIGN_OR_RETURN(const Json* pickled, optional_field(*it, "use_pickle", where));
    bool use_pickle = false;
    if (pickled != nullptr) {
      TRI_ASSIGN_OR_RETURN(use_pickle, as_bool(*pickled, where + ".use_pickle"));
    }
    const std::string blob_record = archive.root() + folder + path_name;
    TRI_ASSIGN_OR_RETURN(const ByteSpan blob, archive.record(blob_record));
    if (use_pickle) {
      // A tensor subclass, saved whole with torch.save.
      TRI_ASSIGN_OR_RETURN(const TorchSave saved, TorchSave::read(blob, blob_record));
      TRI_CHECK(saved.object()->kind == PickleKind::Tensor, Error::NotSupported,
                "%s: the pickled payload is a %s, not a tensor", where.c_str(),
                pickle_kind_name(saved.object()->kind));
      TRI_ASSIGN_OR_RETURN(HostTensor t, saved.tensor(saved.object()->tensor, store, where));
      out[it.key()] = std::move(t);
      continue;
    }
    StridedView view;
    view.dtype = meta.dtype;
    view.storage_offset = meta.storage_offset;
    for (size_t d = 0; d < meta.sizes.size(); ++d) {
      TRI_CHECK(!meta.sizes[d].symbolic && !meta.strides[d].symbolic, Error::InvalidProgram,
                "%s: a weight with a symbolic shape", where.c_str());
      view.sizes.push_back(meta.sizes[d].value);
      view.strides.push_back(meta.strides[d].value);
    }
    TRI_ASSIGN_OR_RETURN(HostTensor t, store.view(blob, view, where));
    out[it.key()] = std::move(t);
  }
  return out;
}

}  // namespace

Result<Pt2Weights> load_weights(const Pt2Archive& archive, const Pt2ModelRecords& model,
                                TensorStore& store) {
  Pt2Weights weights;
  if (!model.weights_config.empty()) {
    TRI_ASSIGN_OR_RETURN(weights.state,
                         read_raw(archive, model.weights_config, "data/weights/", store));
    TRI_ASSIGN_OR_RETURN(weights.constants,
                         read_raw(archive, model.constants_config, "data/constants/", store));
    return weights;
  }
  TRI_ASSIGN_OR_RETURN(weights.state, read_pickled(archive, model.weights_pickle, store));
  TRI_ASSIGN_OR_RETURN(weights.constants, read_pickled(archive, model.constants_pickle, store));
  return weights;
}

}  // namespace tri::pt2
