// FractionLedger: how the fractional pods of one node share its GPUs (KAI Scheduler's GPU
// sharing). A GPU that takes a fraction is reserved whole for sharing (KAI runs a
// reservation pod that requests nvidia.com/gpu: 1 on it), so whole-GPU pods and fractional
// pods never share a GPU; fractional pods are packed on the reserved GPUs by milli-GPU and
// memory. Binding keeps a FractionBook (one ledger per node) in its ClusterState;
// gpu_occupancy replays the same sequence of pods through a ledger to name the physical
// GPUs. Plain values; not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gpu/fraction_request.h"
#include "model/node.h"
#include "model/pod.h"
#include "model/snapshot.h"

namespace berth::gpu {

// One pod's portion of one shared GPU.
struct FractionHolder {
  model::PodIndex pod;
  GpuPortion portion;
};

// One GPU reserved for fractional pods.
struct SharedGpu {
  int32_t gpu = -1;  // physical index, when the caller knows it (gpu_occupancy); else -1
  int64_t milli_used = 0;
  int64_t memory_used_mib = 0;
  std::vector<FractionHolder> holders;  // in placement order
};

class FractionLedger {
 public:
  // `gpu_memory_mib`: memory of each GPU of the node (0: unknown, then only gpu-fraction
  // requests fit). `shareable`: false for nodes whose GPUs cannot take fractions (MIG
  // single strategy, time-slicing or MPS); nothing fits there.
  FractionLedger(int64_t gpu_memory_mib, bool shareable)
      : gpu_memory_mib_(gpu_memory_mib), shareable_(shareable) {}

  // Where the request's portions would go at the current state: one entry per portion, an
  // index into shared() or -1 for a GPU newly reserved from the `free_whole_gpus` free
  // nvidia.com/gpu devices. Policy (bin-packing, as KAI's default): each portion goes to
  // the most used shared GPU it fits on (ties: the one reserved first), not one this
  // request already took; a new GPU only when none fits. nullopt when the request does
  // not fit. O(portions x shared GPUs).
  std::optional<std::vector<int32_t>> Choose(const FractionRequest& request,
                                             int64_t free_whole_gpus) const;

  // Records a Choose() result for `pod`. Returns how many GPUs it newly reserved; their
  // entries are appended to shared(), in portion order. Precondition: `choice` came from
  // Choose() with the same request and nothing applied since.
  int32_t Apply(const FractionRequest& request, std::span<const int32_t> choice,
                model::PodIndex pod);

  const std::vector<SharedGpu>& shared() const { return shared_; }
  // For gpu_occupancy, which names the physical GPU of each reservation.
  void SetPhysicalIndex(size_t slot, int32_t gpu) { shared_[slot].gpu = gpu; }

  int64_t gpu_memory_mib() const { return gpu_memory_mib_; }
  bool shareable() const { return shareable_; }

 private:
  int64_t gpu_memory_mib_;
  bool shareable_;
  std::vector<SharedGpu> shared_;
};

// One FractionLedger per node of a snapshot, for binding's ClusterState. Inactive (no
// ledgers, nothing read) when no pod of the snapshot carries fraction annotations, so
// clusters without GPU sharing pay nothing.
class FractionBook {
 public:
  // Reads each node's GPUs (gpu_inventory) when active. Borrows nothing.
  explicit FractionBook(const model::Snapshot& snapshot);

  bool active() const { return !ledgers_.empty(); }
  // Precondition for both: active(), `node` an index of the snapshot.
  const FractionLedger& ledger(model::NodeIndex node) const {
    return ledgers_[static_cast<size_t>(node.v)];
  }
  FractionLedger& mutable_ledger(model::NodeIndex node) {
    return ledgers_[static_cast<size_t>(node.v)];
  }

 private:
  std::vector<FractionLedger> ledgers_;
};

}  // namespace berth::gpu
