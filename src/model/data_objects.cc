// The cache names are berth's and Fluid's conventions; both the binding score that prefers
// nodes holding a pod's artifacts and the engine's transfer inputs read node labels by them,
// so they are computed here, once.
#include "model/data_objects.h"

#include <string_view>

#include "core/ascii.h"
#include "model/berth_names.h"

namespace berth::model {

// The annotation wins because a storage URI's last segment is often a version or a file
// ("…/snapshots/main"), while operators label nodes with the model's own name.
std::string ModelCacheName(const InferenceServiceModel& model) {
  if (auto it = model.meta.annotations.find(kBerthModelsKey); it != model.meta.annotations.end()) {
    std::string_view first = it->second;
    first = first.substr(0, first.find(','));
    // A sized entry ("llama=140Gi") names the model before '='.
    first = first.substr(0, first.find('='));
    while (!first.empty() && first.front() == ' ') first.remove_prefix(1);
    while (!first.empty() && first.back() == ' ') first.remove_suffix(1);
    if (!first.empty()) return std::string(first);
  }
  std::string_view path = model.storage.path;
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  const size_t slash = path.rfind('/');
  std::string_view last = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (last.empty()) last = model.storage.location;
  return core::AsciiLower(last);
}

std::string FluidDatasetLabel(const ObjectMeta& dataset) {
  return std::string(kFluidDatasetLabelPrefix) + dataset.namespace_ + "-" + dataset.name;
}

}  // namespace berth::model
