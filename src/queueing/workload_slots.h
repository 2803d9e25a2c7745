// WorkloadSlots<T>: one value per Kueue Workload of an admission state, keyed by index into
// snapshot.kueue_workloads. Dense storage (a vector over every workload) serves RunAdmission,
// which touches most workloads of its cluster; sparse storage (a hash map) serves QuotaProbe,
// which touches only the workloads holding quota in one worker of a snapshot that may hold
// 100,000 hub workloads, and is built once per worker. A missing entry reads as T{}.
// References stay valid until their entry is erased (the vector is never resized; hash map
// nodes never move). Used by AdmissionState; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace berth::queueing {

enum class WorkloadStorage { kDense, kSparse };

template <typename T>
class WorkloadSlots {
 public:
  WorkloadSlots(WorkloadStorage storage, size_t num_workloads)
      : dense_(storage == WorkloadStorage::kDense ? num_workloads : 0),
        sparse_mode_(storage == WorkloadStorage::kSparse) {}

  // The entry of `wl`, created as T{} when missing. O(1) (expected, sparse).
  T& operator[](int32_t wl) {
    if (!sparse_mode_) return dense_[static_cast<size_t>(wl)];
    return sparse_[wl];
  }
  // The entry of `wl`, or T{} when there is none; never creates one. O(1) (expected, sparse).
  const T& Get(int32_t wl) const {
    if (!sparse_mode_) return dense_[static_cast<size_t>(wl)];
    auto it = sparse_.find(wl);
    return it == sparse_.end() ? missing_ : it->second;
  }
  // Makes the entry of `wl` read as T{} again (sparse: frees it).
  void Erase(int32_t wl) {
    if (!sparse_mode_) {
      dense_[static_cast<size_t>(wl)] = T{};
    } else {
      sparse_.erase(wl);
    }
  }

 private:
  std::vector<T> dense_;
  std::unordered_map<int32_t, T> sparse_;
  T missing_{};  // what Get returns for an absent sparse entry
  bool sparse_mode_;
};

}  // namespace berth::queueing
