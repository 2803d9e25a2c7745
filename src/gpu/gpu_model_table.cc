#include "gpu/gpu_model_table.h"

namespace berth::gpu {

core::Result<GpuModelId> GpuModelTable::Intern(std::string_view name) {
  if (std::optional<GpuModelId> id = Find(name)) return *id;
  if (size() >= kMaxGpuModels) {
    return core::Error(core::ErrorCode::kResourceExhausted,
                       "more than " + std::to_string(kMaxGpuModels) + " GPU models; '" +
                           std::string(name) + "' does not fit");
  }
  names_.emplace_back(name);
  return GpuModelId{static_cast<uint8_t>(names_.size() - 1)};
}

std::optional<GpuModelId> GpuModelTable::Find(std::string_view name) const {
  // A linear scan: traces name a handful of models, and lookups happen while reading only.
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return GpuModelId{static_cast<uint8_t>(i)};
  }
  return std::nullopt;
}

const std::string& GpuModelTable::Name(GpuModelId id) const {
  const auto index = static_cast<size_t>(id);
  BERTH_CHECK(index < names_.size(), "GpuModelId from another table");
  return names_[index];
}

}  // namespace berth::gpu
