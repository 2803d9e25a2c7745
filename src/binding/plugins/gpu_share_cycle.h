// GpuShareCycle: what the GPU-sharing score plugin (GpuShareScore, gpu_share_names.h) shares
// across one Scheduler's pods, computed once: the typical pods of the snapshot and their
// fragmentation model, the cluster's largest node (the "max spec" the paper's scores divide
// by), each node's interned nvidia.com/gpu.product, and one gpu::NodeScorer per policy (FGD's
// keeps its memo across pods). It is binding's side of gpu::KaiNode (gpu/kai_node.h): a node
// is read from ClusterState and its FractionLedger when scored, with F(node) kept per node
// and checked against the node's ClusterState version, so no copy of the cluster is kept for
// the paper's six policies. Built by Scheduler when a profile weighs any of those plugins;
// borrows the snapshot and the state. Not thread-safe (the caches fill from const calls,
// like PodInfoStore).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "binding/framework/cluster_state.h"
#include "binding/framework/pod_info.h"
#include "binding/framework/pod_info_store.h"
#include "binding/framework/resource_table.h"
#include "binding/plugins/gpu_share_node_model.h"
#include "gpu/fragmentation.h"
#include "gpu/gpu_node_view.h"
#include "gpu/kai_node.h"
#include "gpu/node_scorer.h"
#include "gpu/policy.h"
#include "model/snapshot.h"

namespace berth::binding {

class GpuShareCycle {
 public:
  // One node as the policies read it, for one Score call; borrows the cycle.
  class Node final : public gpu::KaiNode {
   public:
    Node(const GpuShareCycle& cycle, model::NodeIndex node) : cycle_(cycle), node_(node) {}
    int32_t index() const override { return node_.v; }
    uint32_t version() const override;
    gpu::GpuNodeView View() const override { return cycle_.View(node_); }
    std::optional<std::vector<int32_t>> Choose(const gpu::GpuRequest& request) const override {
      return cycle_.Choose(node_, request);
    }
    double FragmentMilli() const override { return cycle_.NodeFragmentMilli(node_); }
    gpu::KindsOnNode Kinds(int64_t pod_kind) const override;

   private:
    const GpuShareCycle& cycle_;
    model::NodeIndex node_;
  };

  // The typical pods are the snapshot's non-terminal pods, bound or pending, whatever
  // their scheduler, CPU-only ones included (the paper's target workload is the whole
  // trace); pods with malformed fraction annotations are left out. O(pods + nodes).
  GpuShareCycle(const model::Snapshot& snapshot, const ResourceTable& resources,
                const ClusterState& state, const PodInfoStore& pod_infos);
  // kai_cluster() points into the cycle.
  GpuShareCycle(const GpuShareCycle&) = delete;
  GpuShareCycle& operator=(const GpuShareCycle&) = delete;

  // The pod's request in the paper's terms. O(1).
  gpu::GpuRequest Request(const PodInfo& info) const;
  // The node as the paper's model sees it now. O(GPUs reserved for fractions).
  gpu::GpuNodeView View(model::NodeIndex node) const;
  // Where the node's ledger would put the request's fraction portions (empty for a pod
  // without a fraction); nullopt when it does not fit. O(portions x shared GPUs).
  std::optional<std::vector<int32_t>> Choose(model::NodeIndex node,
                                             const gpu::GpuRequest& request) const;

  const gpu::GpuFragmentModel& fragmentation() const { return fragmentation_; }
  // F(node) at the node's current state, recomputed only when its version moved.
  double NodeFragmentMilli(model::NodeIndex node) const;

  // What every node shares for the policies (max spec, fragmentation model).
  const gpu::KaiCluster& kai_cluster() const { return kai_cluster_; }
  // The scorer of `policy`, made on first use: on this cycle's KaiNodes when
  // gpu::ReadsKaiView(policy), else node_model()'s. Lives as long as this cycle.
  const gpu::NodeScorer& Scorer(gpu::Policy policy) const;

  // The cluster's largest allocatable CPU and GPU share (milli), at least 1: the paper
  // divides by its largest node (128 cores, 8 GPUs in OpenB).
  int64_t max_cpu_milli() const { return max_cpu_milli_; }
  int64_t max_gpu_milli() const { return max_gpu_milli_; }

  // The cluster in the gpu module's node model, for a policy that does not read the KAI view
  // (berth's); made on first use (the paper's six never need it). The returned reference
  // lives as long as this cycle.
  GpuShareNodeModel& node_model() const;

  // Interned product id, or -1 for a name no node carries.
  int32_t FindProduct(const std::string& product) const;

 private:
  int32_t InternProduct(const std::string& product);

  const model::Snapshot& snapshot_;
  const ClusterState& state_;
  const PodInfoStore& pod_infos_;
  std::optional<model::ResourceId> gpu_;
  mutable std::unique_ptr<GpuShareNodeModel> node_model_;
  std::unordered_map<std::string, int32_t> products_;
  std::vector<int32_t> node_product_;
  int64_t max_cpu_milli_ = 1;
  int64_t max_gpu_milli_ = 1;
  gpu::GpuFragmentModel fragmentation_;
  gpu::KaiCluster kai_cluster_;
  mutable std::vector<std::unique_ptr<gpu::NodeScorer>> scorers_;  // by gpu::Policy

  struct FragmentCache {
    uint32_t version = 0;
    bool valid = false;
    double milli = 0;
  };
  mutable std::vector<FragmentCache> fragments_;
};

// The GPU products a pod accepts: the value of its nodeSelector on nvidia.com/gpu.product,
// else the union of the `In` values on that key when every required node-affinity term has
// one; empty (any) otherwise. Sorted, unique.
std::vector<std::string> AllowedGpuProducts(const model::Pod& pod);

}  // namespace berth::binding
