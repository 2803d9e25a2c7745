// GpuModelTable and ModelSet: GPU model names ("G2", "T4", "V100M32") interned to small ids,
// and sets of them as a bit mask, so a pod's allowed-model check is one AND on the hot path.
// Filled by the OpenB reader, read by the node model, the policies and the fragmentation
// measure. Plain values; thread-compatible (read-only sharing between replay threads is safe).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace berth::gpu {

// A GPU model's index in its GpuModelTable. kNoGpuModel marks a node without GPUs (or one
// whose model is not given).
enum class GpuModelId : uint8_t {};
inline constexpr GpuModelId kNoGpuModel{255};
inline constexpr int kMaxGpuModels = 64;  // ModelSet is one 64-bit mask

// The GPU models a pod may run on. Empty means "any model", as an empty gpu_spec does
// upstream (a pod with a non-empty set cannot use a node without a model).
class ModelSet {
 public:
  ModelSet() = default;
  static ModelSet Of(GpuModelId id) {
    ModelSet set;
    set.Add(id);
    return set;
  }
  void Add(GpuModelId id) { bits_ |= uint64_t{1} << static_cast<uint8_t>(id); }
  bool empty() const { return bits_ == 0; }
  uint64_t bits() const { return bits_; }
  // Whether a node of `model` is accessible to a pod with this set (IsNodeAccessibleToPod).
  bool Allows(GpuModelId model) const {
    if (bits_ == 0) return true;
    if (model == kNoGpuModel) return false;
    return (bits_ >> static_cast<uint8_t>(model)) & 1U;
  }
  bool operator==(const ModelSet&) const = default;

 private:
  uint64_t bits_ = 0;
};

class GpuModelTable {
 public:
  // The id of `name`, added if new. Fails with ResourceExhausted beyond kMaxGpuModels.
  core::Result<GpuModelId> Intern(std::string_view name);
  std::optional<GpuModelId> Find(std::string_view name) const;
  // Precondition: id came from this table.
  const std::string& Name(GpuModelId id) const;
  int size() const { return static_cast<int>(names_.size()); }

 private:
  std::vector<std::string> names_;
};

}  // namespace berth::gpu
