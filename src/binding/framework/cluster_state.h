// ClusterState: the evolving per-node state one Scheduler works on: what each node can give
// (allocatable) and what its pods take (requested, the non-zero cpu/memory the scores use,
// the pod count), which (namespace, labels) signatures run there, and where the pods with
// inter-pod affinity terms run. Starts from the snapshot's bound, non-terminal pods; AddPod
// records each bind and RemovePod undoes one (a gang rolled back, a preemption victim).
// Every change bumps the node's version and appends the node to a change log, which lets
// indexes catch up lazily. Amounts are dense rows indexed by ResourceId.
// Also how fractional pods share each node's GPUs (gpu::FractionBook; GpuSharing) and
// how many pods of each GPU kind run there (the GpuClustering score plugin), and for pods
// with ResourceClaims a bound on each node's free DRA devices (the index skips nodes below
// a pod's need; ClaimTracker computes it, the Scheduler copies it here), and the host
// ports its pods use (NodePorts).
// Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "binding/framework/host_port_table.h"
#include "binding/framework/label_sig_table.h"
#include "binding/framework/pod_info.h"
#include "binding/framework/resource_table.h"
#include "devices/allocator.h"
#include "gpu/fraction_ledger.h"
#include "model/snapshot.h"

namespace berth::binding {

class GpuFractionPlacer;

// A read-only view of one node's load, shared by the filters, the scores and the index.
struct NodeLoad {
  const int64_t* allocatable;  // ResourceTable::size() slots
  const int64_t* requested;
  int64_t nonzero_cpu;
  int64_t nonzero_memory;
  int32_t pod_count;
};

struct SigCount {
  LabelSigId sig;
  int32_t count = 0;
};

struct PlacedPod {
  model::PodIndex pod;
  model::NodeIndex node;
};

// How many pods of one GPU kind a node runs (GpuClustering's "affinity tag"): kind 0 for
// pods with a fractional GPU request, k for pods of k whole nvidia.com/gpu.
struct GpuKindCount {
  int64_t kind = 0;
  int32_t count = 0;
};

class ClusterState {
 public:
  // On the snapshot's own nodes.
  ClusterState(const model::Snapshot& snapshot, const ResourceTable& resources);
  // On `nodes`, borrowed for the state's lifetime (node i is *nodes[i]), instead of the
  // snapshot's own: a fleet's member cluster reads its nodes in the whole input. The
  // snapshot must then have no GPU-fraction pods (the fraction ledgers index its nodes).
  ClusterState(const model::Snapshot& snapshot, const ResourceTable& resources,
               std::vector<const model::Node*> nodes);

  int32_t num_nodes() const { return static_cast<int32_t>(nodes_.size()); }
  const model::Node& node(model::NodeIndex n) const { return *nodes_[idx(n)]; }
  NodeLoad load(model::NodeIndex n) const {
    return NodeLoad{&allocatable_[idx(n) * width_], &requested_[idx(n) * width_],
                    nonzero_cpu_[idx(n)], nonzero_memory_[idx(n)], pod_count_[idx(n)]};
  }
  // What is left of `resource` on the node: allocatable minus what the pods bound there
  // request (the input's bound pods and every bind since, as AddPod and RemovePod account
  // them; negative on an overcommitted node). O(1).
  int64_t free(model::NodeIndex n, model::ResourceId resource) const {
    const size_t at = idx(n) * width_ + resource.v;
    return resource.v < width_ ? allocatable_[at] - requested_[at] : 0;
  }
  // Position of the node in name order; lower wins score ties.
  int32_t rank(model::NodeIndex n) const { return rank_[idx(n)]; }
  const std::vector<model::NodeIndex>& by_name() const { return by_name_; }
  std::optional<model::NodeIndex> FindNode(std::string_view name) const;

  std::span<const SigCount> label_sigs(model::NodeIndex n) const { return sigs_[idx(n)]; }
  // Pods with any inter-pod affinity or anti-affinity term, in the order they were placed.
  const std::vector<PlacedPod>& affinity_pods() const { return affinity_pods_; }
  // How many pods RemovePod took out of affinity_pods(): a position in it names the same
  // pod only while this count is unchanged (appending keeps positions, removing shifts them).
  uint64_t affinity_removals() const { return affinity_removals_; }

  // The GPU kinds of the pods on the node, in the order they first came; CPU-only pods are
  // not counted. An entry goes when its count drops to 0.
  std::span<const GpuKindCount> gpu_kinds(model::NodeIndex n) const { return gpu_kinds_[idx(n)]; }

  // The host ports the node's pods use (upstream NodeInfo.UsedPorts); AddPod and RemovePod
  // keep it, so a gang rolled back frees its ports.
  const HostPortTable& host_ports(model::NodeIndex n) const { return host_ports_[idx(n)]; }

  uint32_t version(model::NodeIndex n) const { return version_[idx(n)]; }
  // Node indexes in the order their state changed (a node appears once per change).
  const std::vector<int32_t>& change_log() const { return change_log_; }

  // At least as many devices as one DRA allocation on the node could take
  // (devices::Allocator::FreeDeviceBound); kUnboundedDevices until the Scheduler sets it.
  static constexpr int32_t kUnboundedDevices = devices::Allocator::kUnboundedDevices;
  int32_t free_devices(model::NodeIndex n) const { return free_devices_[idx(n)]; }
  // Sets the node's bound; a change bumps the node's version and logs it, as a bind does,
  // so every index re-evaluates the node.
  void SetFreeDevices(model::NodeIndex n, int32_t free);

  // Fractional GPU use per node; inactive unless a pod carries gpu-fraction annotations.
  const gpu::FractionBook& gpu_fractions() const { return gpu_fractions_; }
  // Lets `placer` choose the GPUs of the fractional pods added from now on; null keeps the
  // ledger's rule. Borrowed: it must outlive this state or be reset.
  void set_fraction_placer(const GpuFractionPlacer* placer) { fraction_placer_ = placer; }

  // Places `pod` (described by `info`) on `node`. A fractional pod takes its GPU portions
  // in the node's ledger; each GPU it newly reserves adds 1 to the node's requested
  // nvidia.com/gpu, as KAI's reservation pod does, so whole-GPU pods cannot take it.
  void AddPod(model::PodIndex pod, model::NodeIndex node, const PodInfo& info);

  // Undoes AddPod(pod, node, info), whatever came after it: the node's amounts and counts
  // lose the pod's, its signature count drops (the entry goes at zero), it leaves
  // affinity_pods(), its host ports leave the node's table, and its GPU portions leave the node's ledger, where a shared GPU no
  // fractional pod holds any more is unreserved and its nvidia.com/gpu counts as free again
  // (LedgerWithout). Removing the pods added last, newest first, restores every value as it
  // was before them; only versions and the change log keep moving forward, so indexes see
  // the node as changed. `info` must describe the pod as AddPod saw it. Precondition: the
  // pod is on `node` (BERTH_CHECK on the counts). O(resources + placed pods with affinity
  // terms + the node's fractional holders).
  void RemovePod(model::PodIndex pod, model::NodeIndex node, const PodInfo& info);

 private:
  static size_t idx(model::NodeIndex n) { return static_cast<size_t>(n.v); }
  // The pod's GPU kind (GpuKindCount), or -1 for a pod without a GPU request.
  int64_t GpuKind(const PodInfo& info) const;

  size_t width_;
  std::vector<const model::Node*> nodes_;
  std::vector<int64_t> allocatable_;
  std::vector<int64_t> requested_;
  std::vector<int64_t> nonzero_cpu_;
  std::vector<int64_t> nonzero_memory_;
  std::vector<int32_t> pod_count_;
  std::vector<int32_t> rank_;
  std::vector<model::NodeIndex> by_name_;
  std::unordered_map<std::string_view, int32_t> by_name_map_;
  std::vector<std::vector<SigCount>> sigs_;
  std::vector<std::vector<GpuKindCount>> gpu_kinds_;
  std::vector<HostPortTable> host_ports_;
  std::vector<PlacedPod> affinity_pods_;
  uint64_t affinity_removals_ = 0;
  std::vector<int32_t> free_devices_;
  std::vector<uint32_t> version_;
  std::vector<int32_t> change_log_;
  gpu::FractionBook gpu_fractions_;
  const GpuFractionPlacer* fraction_placer_ = nullptr;
  std::optional<model::ResourceId> gpu_;  // nvidia.com/gpu, when some object names it
};

}  // namespace berth::binding
