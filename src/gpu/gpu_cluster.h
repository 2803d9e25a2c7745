// GpuCluster: the nodes of one GPU-sharing cluster with the totals a replay reports after
// every event (GPU capacity, allocated share, fragment and idle share; GPUs per model, which
// the berth policy reads), kept incrementally:
// each node's fragment F(n) is cached and only the node a pod lands on (or leaves) is
// recomputed, so an event costs one F evaluation instead of a cluster-wide rescan. Used by
// the replay and the scorers (FGD reads the cached F of a candidate). Not thread-safe; one per
// run. Borrows the FragmentationModel, which must outlive it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/fragmentation.h"
#include "gpu/node_state.h"

namespace berth::gpu {

class GpuCluster {
 public:
  // Empty nodes of those specs. `fragmentation` may be null: then fragments read as 0.
  GpuCluster(std::span<const NodeSpec> nodes, const FragmentationModel* fragmentation);

  int size() const { return static_cast<int>(nodes_.size()); }
  const NodeState& node(int index) const { return nodes_[index]; }
  // The cached F(node) in GPU thousandths.
  double node_fragment_milli(int index) const { return fragment_[index]; }
  const FragmentationModel* fragmentation() const { return fragmentation_; }

  int64_t gpu_capacity_milli() const { return gpu_capacity_milli_; }
  // The GPUs of the nodes of one model, all and still free (0 for kNoGpuModel).
  int64_t gpu_capacity_milli(GpuModelId model) const {
    return ByModel(model_capacity_milli_, model);
  }
  int64_t gpu_free_milli(GpuModelId model) const { return ByModel(model_free_milli_, model); }
  int64_t gpu_allocated_milli() const { return gpu_allocated_milli_; }
  int64_t gpu_idle_milli() const { return gpu_capacity_milli_ - gpu_allocated_milli_; }
  // Sum of the nodes' F.
  double fragment_milli() const { return fragment_milli_; }
  // Sum of the nodes' fragment breakdowns, recomputed over all nodes: O(nodes), for reports.
  FragBreakdown Breakdown() const;

  // Place / Remove as node_state.h on node `index`, keeping the totals and that node's F.
  void Place(int index, const PodSpec& pod, GpuSet gpus);
  void Remove(int index, const PodSpec& pod, GpuSet gpus);
  // Replaces node `index`'s state with one read elsewhere (binding's GpuShareNodeModel mirrors
  // its ClusterState this way), keeping the totals and that node's F. Precondition (checked):
  // the same GPU count and model as the node had.
  void SetNode(int index, const NodeState& state);

 private:
  void Refresh(int index);
  static int64_t ByModel(const std::array<int64_t, kMaxGpuModels>& table, GpuModelId model) {
    return model == kNoGpuModel ? 0 : table[static_cast<uint8_t>(model)];
  }

  const FragmentationModel* fragmentation_;
  std::vector<NodeState> nodes_;
  std::vector<double> fragment_;
  int64_t gpu_capacity_milli_ = 0;
  int64_t gpu_allocated_milli_ = 0;
  double fragment_milli_ = 0;
  std::array<int64_t, kMaxGpuModels> model_capacity_milli_{};
  std::array<int64_t, kMaxGpuModels> model_free_milli_{};
};

}  // namespace berth::gpu
