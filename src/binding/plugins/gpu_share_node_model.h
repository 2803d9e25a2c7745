// GpuShareNodeModel: one Scheduler's cluster in the gpu module's node model (gpu/node_state.h),
// so that the GPU-sharing policies behind gpu::NodeScorer (the simulator's, berth's own
// included) score binding's nodes with the same code and the same numbers as in the
// simulator. Per node: free CPU and memory from ClusterState, the GPUs the node's
// FractionLedger reserved for fractions (their free milli-GPU, in the ledger's order) and then
// the whole GPUs still free (1000 each); the model is the interned nvidia.com/gpu.product.
// Per pod: CPU, memory, and whole GPUs (nvidia.com/gpu) or a gpu-fraction on num_devices GPUs.
// The typical pods are the snapshot's non-terminal pods, as GpuShareCycle takes them.
// Kept in a gpu::GpuCluster brought up to date from ClusterState's change log (Sync: only
// the nodes changed since the last pod), so a pod's scoring sees the cluster-wide totals
// berth's policy reads. Only berth's policy needs this copy (gpu::ReadsKaiView); the paper's
// six read binding's nodes directly (GpuShareCycle::Node). Also the GpuFractionPlacer that makes a
// bind take the GPU the policy chose. Owned by GpuShareCycle; borrows the snapshot's state.
// Not thread-safe. Limits: nodes with more than gpu::kMaxGpusPerNode GPUs count that many;
// pods asking a fraction by GPU memory are not expressible (the plugin skips them).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "binding/framework/cluster_state.h"
#include "binding/framework/pod_info.h"
#include "binding/framework/pod_info_store.h"
#include "binding/plugins/gpu_fraction_placer.h"
#include "gpu/fragmentation.h"
#include "gpu/gpu_cluster.h"
#include "gpu/gpu_model_table.h"
#include "gpu/gpu_spec.h"
#include "gpu/node_scorer.h"
#include "gpu/policy.h"
#include "model/snapshot.h"

namespace berth::binding {

class GpuShareNodeModel final : public GpuFractionPlacer {
 public:
  // O(pods + nodes x typical pods).
  GpuShareNodeModel(const model::Snapshot& snapshot, const ClusterState& state,
                    const PodInfoStore& pod_infos, std::optional<model::ResourceId> gpu);

  // The pod in the node model; nullopt for a pod the model cannot express (a fraction by
  // GPU memory, or malformed). O(allowed products).
  std::optional<gpu::PodSpec> Shape(const model::Pod& pod, const PodInfo& info) const;

  // Brings every node whose ClusterState version moved up to date, reading the change log
  // from where the last Sync stopped. O(log entries since then) plus O(GPUs) and one F
  // evaluation per changed node.
  void Sync();
  const gpu::GpuCluster& cluster() const { return *cluster_; }

  // The scorer of `policy` over this cluster, made on first use.
  const gpu::NodeScorer& Scorer(gpu::Policy policy);

  // Marks the pod of `info` (PodInfoStore's entry, which the bind passes again) as scored by
  // `policy`: its bind takes the GPU that policy chooses (Choose below). One pod at a time:
  // the next call replaces it.
  void SetScoredPod(const PodInfo* info, gpu::Policy policy);

  std::optional<std::vector<int32_t>> Choose(model::PodIndex pod, model::NodeIndex node,
                                             const PodInfo& info,
                                             int64_t free_whole) const override;

 private:
  gpu::NodeState StateOf(model::NodeIndex node) const;
  void SyncNode(model::NodeIndex node);

  const ClusterState& state_;
  const PodInfoStore& pod_infos_;
  std::optional<model::ResourceId> gpu_;
  gpu::GpuModelTable models_;
  std::vector<gpu::GpuModelId> node_model_;
  std::vector<gpu::NodeSpec> specs_;
  std::unique_ptr<gpu::FragmentationModel> fragmentation_;
  std::unique_ptr<gpu::GpuCluster> cluster_;
  std::vector<uint32_t> synced_version_;
  size_t log_pos_ = 0;  // ClusterState::change_log() entries already read
  std::vector<std::unique_ptr<gpu::NodeScorer>> scorers_;  // by gpu::Policy
  const PodInfo* scored_pod_ = nullptr;
  gpu::Policy scored_policy_ = gpu::Policy::kBerth;
};

}  // namespace berth::binding
