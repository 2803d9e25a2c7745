// AllocatedState: what allocated claims already hold in one cluster, as the search sees
// it: devices in exclusive use, devices shared through consumable capacity (and how much
// of each capacity the shares consume), and the shared counters left per pool generation.
// Built from the Snapshot's allocated claims, updated by Allocator::Commit() and undone by
// Allocator::Release(). Allocations with adminAccess hold nothing, as in kube-scheduler.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/quantity.h"
#include "devices/internal/capacity_policy.h"
#include "devices/internal/ids.h"
#include "devices/internal/pool_index.h"
#include "model/resource_claim.h"

namespace berth::devices::internal {

class AllocatedState {
 public:
  explicit AllocatedState(PoolIndex& pools) : pools_(pools) {}

  // Records every device of `allocation` as held.
  void Add(const model::AllocationResult& allocation);
  // Undoes Add() of the same allocation: its devices, shares and consumed capacity are no
  // longer held (by it; another allocation holding the same device still does), and the
  // counters of their pool generations are recomputed. Precondition: `allocation` was
  // added and not removed since (BERTH_CHECK on the counts).
  void Remove(const model::AllocationResult& allocation);

  bool exclusive(DeviceKeyId key) const {
    return static_cast<size_t>(key.v) < exclusive_.size() && exclusive_[key.v] != 0;
  }
  bool shared(DeviceKeyId key) const {
    return static_cast<size_t>(key.v) < shared_.size() && shared_[key.v] != 0;
  }
  // Capacity consumed by allocated shares of the device: qualified name -> milli-units.
  // nullptr when nothing is consumed.
  const std::map<std::string, core::Int128>* consumed(DeviceKeyId key) const {
    auto it = consumed_.find(key.v);
    return it == consumed_.end() ? nullptr : &it->second;
  }

  // Counters left in a pool generation (totals minus what allocated devices consume; may be
  // negative), indexed like PoolGen::counter_names. Recomputed after changes.
  const std::vector<core::Int128>& Available(PoolGenId gen);

  // The resolved capacities of a device record, computed once.
  const std::vector<CapacityEntry>& Capacities(DeviceRecordId record);

  size_t MemoryBytes() const;

 private:
  void Grow();
  void Touch(DeviceKeyId key);

  PoolIndex& pools_;
  // Per device key, how many allocations hold it exclusively (more than one only for
  // inconsistent input), and how many shares of it are allocated: counts, so that Remove()
  // undoes exactly one Add().
  std::vector<int32_t> exclusive_;
  std::vector<int32_t> shared_;
  std::unordered_map<int32_t, std::map<std::string, core::Int128>> consumed_;
  std::vector<std::vector<core::Int128>> available_;
  std::vector<uint8_t> available_valid_;
  std::unordered_map<int32_t, std::vector<CapacityEntry>> capacities_;
};

}  // namespace berth::devices::internal
