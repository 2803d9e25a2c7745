// KaiNode and KaiCluster: a node of binding's cluster as a GPU-sharing policy reads it for one
// pod, the second node input of NodeScorer (node_scorer.h) beside the simulator's NodeState.
// binding implements KaiNode over its own state (binding/plugins/gpu_share_cycle.h), so a
// policy scores binding's nodes without a second copy of the cluster. What this input has
// and NodeState has not, each a named part here, not a second implementation of a policy:
// - the node as binding's KAI view (GpuNodeView): fractions by GPU memory and over several
//   GPUs, and where the node's FractionLedger puts a fraction's portions (Choose);
// - the max spec the paper's scores divide by (KaiCluster::max_spec: the snapshot's largest
//   node, not OpenB's fixed 128 cores and 8 GPUs), components clamped to it;
// - Clustering's pod kinds as binding counts them per node (Kinds);
// - F before and after on the KAI view (KaiCluster::fragmentation, GpuFragmentModel).
// An implementation is borrowed for one Score call; not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "gpu/fragmentation.h"
#include "gpu/gpu_node_view.h"

namespace berth::gpu {

// The largest node's allocatable CPU and GPU share (milli), each at least 1.
struct MaxSpec {
  int64_t cpu_milli = 1;
  int64_t gpu_milli = 1;
};

// How the pods on a node group by GPU kind (GpuClustering): whether the pod's own kind is
// among them, and how many kinds have pods.
struct KindsOnNode {
  bool same_kind = false;
  int64_t kinds_present = 0;
};

// What every node of one cluster shares; borrowed, outlives the scoring.
struct KaiCluster {
  MaxSpec max_spec;
  const GpuFragmentModel* fragmentation = nullptr;  // non-null
};

class KaiNode {
 public:
  virtual ~KaiNode() = default;
  // The node's index in its cluster and a number that moves whenever its state changes:
  // what a scorer's per-node memo keys on.
  virtual int32_t index() const = 0;
  virtual uint32_t version() const = 0;
  // The node now. O(GPUs reserved for fractions).
  virtual GpuNodeView View() const = 0;
  // Where the node's ledger would put the request's fraction portions (an index into
  // View().shared, or -1 for a newly reserved free GPU; empty for a pod without a fraction);
  // nullopt when it does not fit. O(portions x shared GPUs).
  virtual std::optional<std::vector<int32_t>> Choose(const GpuRequest& request) const = 0;
  // F(node) now (cached by the implementation per version).
  virtual double FragmentMilli() const = 0;
  // The pods on the node by GPU kind (`pod_kind`: 0 for a fraction, k for k whole GPUs).
  // O(kinds on the node).
  virtual KindsOnNode Kinds(int64_t pod_kind) const = 0;
};

}  // namespace berth::gpu
