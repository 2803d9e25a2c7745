#include "devices/internal/allocated_state.h"

#include "core/check.h"

namespace berth::devices::internal {

void AllocatedState::Grow() {
  const auto keys = static_cast<size_t>(pools_.key_count());
  if (exclusive_.size() < keys) {
    exclusive_.resize(keys, 0);
    shared_.resize(keys, 0);
  }
  const auto gens = static_cast<size_t>(pools_.gen_count());
  if (available_.size() < gens) {
    available_.resize(gens);
    available_valid_.resize(gens, 0);
  }
}

void AllocatedState::Touch(DeviceKeyId key) {
  for (DeviceRecordId r : pools_.RecordsOfKey(key)) {
    available_valid_[static_cast<size_t>(pools_.record(r).gen.v)] = 0;
  }
}

void AllocatedState::Add(const model::AllocationResult& allocation) {
  for (const model::DeviceRequestAllocationResult& r : allocation.results) {
    // Admin access does not hold the device (kube-scheduler skips such results).
    if (r.admin_access) continue;
    const DeviceKeyId key = pools_.InternKey(r.driver, r.pool, r.device);
    Grow();
    if (r.share_id.empty()) {
      ++exclusive_[key.v];
    } else {
      ++shared_[key.v];
      std::map<std::string, core::Int128>& used = consumed_[key.v];
      for (const auto& [name, amount] : r.consumed_capacity) {
        const std::string qualified =
            name.find('/') == std::string::npos ? r.driver + "/" + name : name;
        used[qualified] += amount.milli();
      }
    }
    Touch(key);
  }
}

void AllocatedState::Remove(const model::AllocationResult& allocation) {
  for (const model::DeviceRequestAllocationResult& r : allocation.results) {
    if (r.admin_access) continue;  // Add() recorded nothing for it
    // Add() interned the key, so this finds it rather than making a new one.
    const DeviceKeyId key = pools_.InternKey(r.driver, r.pool, r.device);
    Grow();
    if (r.share_id.empty()) {
      BERTH_CHECK(exclusive_[key.v] > 0, "Remove of a device allocation that was not added");
      --exclusive_[key.v];
    } else {
      BERTH_CHECK(shared_[key.v] > 0, "Remove of a device share that was not added");
      --shared_[key.v];
      auto it = consumed_.find(key.v);
      if (it != consumed_.end()) {
        std::map<std::string, core::Int128>& used = it->second;
        for (const auto& [name, amount] : r.consumed_capacity) {
          const std::string qualified =
              name.find('/') == std::string::npos ? r.driver + "/" + name : name;
          auto u = used.find(qualified);
          if (u == used.end()) continue;
          u->second -= amount.milli();
          // A capacity nothing consumes any more is dropped, so consumed() reads exactly as
          // before the Add() (nullptr once no share consumes anything).
          if (u->second == 0) used.erase(u);
        }
        if (used.empty()) consumed_.erase(it);
      }
    }
    Touch(key);
  }
}

const std::vector<core::Int128>& AllocatedState::Available(PoolGenId gen_id) {
  Grow();
  const auto g = static_cast<size_t>(gen_id.v);
  if (available_valid_[g] != 0) return available_[g];
  const PoolGen& gen = pools_.gen(gen_id);
  std::vector<core::Int128>& out = available_[g];
  out = gen.counter_totals;
  // Every device of the generation that is held consumes its counters, whichever node
  // it is published for.
  for (DeviceRecordId r : gen.records) {
    const DeviceRecord& rec = pools_.record(r);
    if (!exclusive(rec.key) && !shared(rec.key)) continue;
    for (const auto& [counter, amount] : rec.counters) out[static_cast<size_t>(counter)] -= amount;
  }
  available_valid_[g] = 1;
  return out;
}

const std::vector<CapacityEntry>& AllocatedState::Capacities(DeviceRecordId record) {
  auto it = capacities_.find(record.v);
  if (it == capacities_.end()) {
    it = capacities_
             .emplace(record.v,
                      ResolveDeviceCapacity(pools_.slice_of(record).driver, pools_.device(record)))
             .first;
  }
  return it->second;
}

size_t AllocatedState::MemoryBytes() const {
  size_t bytes =
      (exclusive_.capacity() + shared_.capacity()) * sizeof(int32_t) + available_valid_.capacity();
  for (const auto& v : available_) bytes += v.capacity() * sizeof(core::Int128);
  bytes += consumed_.size() * 96 + capacities_.size() * 96;
  return bytes;
}

}  // namespace berth::devices::internal
