// NodeState and GpuSet: the GPU-sharing node model. A node has free CPU and memory, one free
// share (thousandths) per GPU and a GPU model; a pod fits when CPU, memory and the model
// allow it and num_gpu of the GPUs each have gpu_milli free (a whole-GPU pod needs 1000).
// This is the Open-Gpu-Share filter plus kube's CPU/memory fit (shared/reference/traces.md
// §2.1). Used by GpuCluster, the policies and the fragmentation measure. Plain values,
// copyable in O(1) (fixed arrays); every function here is O(GPUs on the node).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "gpu/gpu_spec.h"

namespace berth::gpu {

// Which GPUs of a node a pod takes: bit i is GPU i.
class GpuSet {
 public:
  GpuSet() = default;
  static GpuSet Of(int gpu) {
    GpuSet set;
    set.Add(gpu);
    return set;
  }
  void Add(int gpu) { bits_ |= uint32_t{1} << gpu; }
  bool Contains(int gpu) const { return (bits_ >> gpu) & 1U; }
  int count() const { return std::popcount(bits_); }
  bool empty() const { return bits_ == 0; }
  uint32_t bits() const { return bits_; }
  bool operator==(const GpuSet&) const = default;

 private:
  uint32_t bits_ = 0;
};
static_assert(kMaxGpusPerNode <= 32, "GpuSet is a 32-bit mask");

// GpuClustering's affinity tag of a pod: 0 for a sharing pod, k for a pod of k whole GPUs,
// kNoAffinityTag for a CPU-only pod (upstream's "share-gpu", "<k>-gpu", "no-gpu").
inline constexpr int kNoAffinityTag = -1;
int AffinityTag(const PodSpec& pod);

struct NodeState {
  int64_t cpu_capacity_milli = 0;
  int64_t cpu_free_milli = 0;
  int64_t memory_free_mib = 0;
  int32_t num_gpu = 0;
  GpuModelId model = kNoGpuModel;
  // Free thousandths per GPU; entries at num_gpu and above stay 0.
  std::array<int32_t, kMaxGpusPerNode> gpu_free_milli{};
  // Pods on the node by affinity tag ([0] sharing, [k] k whole GPUs), and how many tags have
  // pods: what GpuClustering scores on.
  std::array<int32_t, kMaxGpusPerNode + 1> pods_by_tag{};
  int32_t tags_present = 0;

  // Every field equal: two such nodes pass the same filters and get the same score from every
  // policy (sim's NodeSelector groups nodes by it).
  bool operator==(const NodeState&) const = default;

  // An empty node of that spec.
  static NodeState FromSpec(const NodeSpec& spec);

  int64_t GpuFreeMilli() const;
  int32_t FullyFreeGpus() const;
  // How many GPUs have at least `milli` free.
  int32_t GpusWithFree(int32_t milli) const;
};

// Whether `pod` passes the filters on `node` (CPU, memory, GPU model, GPU shares).
bool Fits(const PodSpec& pod, const NodeState& node);

// Takes the pod's CPU, memory and gpu_milli on each GPU of `gpus`, and records its affinity
// tag. Precondition (checked): Fits, gpus has num_gpu GPUs of the node with room on each.
void Place(const PodSpec& pod, GpuSet gpus, NodeState& node);
// Gives back what Place took. Precondition (checked): the pod was placed there on `gpus`.
void Remove(const PodSpec& pod, GpuSet gpus, NodeState& node);

}  // namespace berth::gpu
