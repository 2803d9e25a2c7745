// NodeSelector: kube-scheduler's filter, score and selectHost steps for one pod over a
// GpuCluster: the feasible node with the highest score, ties broken by the run's rule
// (TieBreak below: upstream's seeded node order, or a uniform draw; Random always draws
// uniformly). Used by the replay once per arriving pod.
//
// Nodes in the same state pass the same filters and get the same score, so the selector keeps
// the nodes grouped by state (node classes, updated on every placement through Update) and
// filters and scores one member per class: O(classes x score + log nodes) per pod instead of
// O(nodes x score). Its choices are the node-by-node scan's (SelectByScan below), draw for
// draw: the seeded order takes the lowest (rank, index) among the top classes' members, the
// uniform rule draws one number over the tied nodes' count, as the scan does, and finds the
// node of that position in index order through the classes' sorted member lists. Random's
// scores are all equal, so for it a class is coarser: the fields its filter reads (free CPU and
// memory, model, the free shares as a multiset); and Random needs no class at all for the pod
// shapes (CPU, memory, GPUs, share, models) it has seen, up to kMaxFeasibleShapes of them (the OpenB default trace has 151): per
// shape a Fenwick tree over the nodes marks the feasible ones, kept on Update (one filter per
// shape), so a pod costs O(log nodes): the feasible count for the draw, then the node at the
// drawn position. Not thread-safe (keeps scratch space).
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpu/gpu_cluster.h"
#include "gpu/policy.h"
#include "sim/core/rng.h"

namespace berth::sim::gpushare {

// How the replay picks among feasible nodes with the same top score.
enum class TieBreak : uint8_t {
  // The node first in a seeded random order of the nodes. Upstream's kube-scheduler fork
  // (mental2008/kubernetes v1.20.5-minor, selectHost) takes the smallest node name, and the
  // simulator prefixes every name with its place in a seeded permutation ("%04d-"), so a
  // run keeps filling the same preferred nodes among equals; this is what the paper measured.
  kSeededNodeOrder,
  // A uniformly random top node, drawn per pod (stock kube-scheduler).
  kUniform,
};

// The reference rule, one pass over every node (O(nodes x score)): the node the pod goes to,
// or -1. `ranks[i]` orders node i among equals (lower first). NodeSelector must answer the
// same and draw the same; tests compare the two.
int SelectByScan(const gpu::NodeScorer& scorer, const gpu::PodSpec& pod,
                 const gpu::GpuCluster& cluster, const std::vector<int32_t>& ranks,
                 TieBreak tie_break, Rng& rng);

class NodeSelector {
 public:
  // Random's pod shapes with a Fenwick tree each: every placement re-filters the node once per
  // shape, so the table stays small; further shapes are answered through the node classes.
  static constexpr size_t kMaxFeasibleShapes = 256;
  // And at most this many (shape, node) cells in all (5 bytes each: 80 MiB), so a large fleet
  // keeps fewer shapes (64 on 262,144 nodes) rather than a memory blow-up.
  static constexpr size_t kMaxFeasibleCells = size_t{1} << 24;

  // `ranks[i]` orders node i among equals (lower first); NodeRanks in replay.h draws them.
  NodeSelector(std::vector<int32_t> ranks, TieBreak tie_break);

  // The node the pod goes to, or -1 when it passes the filters nowhere. The first call
  // groups the cluster's nodes (O(nodes)); later calls rely on Update.
  // Precondition: ranks has one entry per node of `cluster`; the same cluster on every call,
  // and Update called for every node changed since the last call. A scorer of the other kind
  // (Random or not) than the last call's regroups the nodes (O(nodes)).
  int Select(const gpu::NodeScorer& scorer, const gpu::PodSpec& pod, const gpu::GpuCluster& cluster,
             Rng& rng);
  // Node `index` of the cluster changed state (a pod placed or removed): moves it to its new
  // class. O(log nodes + the size of the classes it leaves and joins). A no-op before the
  // first Select.
  void Update(int index, const gpu::GpuCluster& cluster);

  // Classes with members now (for tests and benches).
  int classes() const { return static_cast<int>(active_.size()); }

 private:
  // Random's feasible nodes for one pod shape: fits[i] says whether node i passes the filter,
  // tree is a Fenwick tree over fits (positions 1..nodes).
  struct FeasibleShape {
    gpu::PodSpec shape;  // the fields gpu::Fits reads; name empty
    std::vector<char> fits;
    std::vector<int32_t> tree;
    int32_t count = 0;
  };

  struct KeyHash {
    size_t operator()(const gpu::NodeState& s) const;
  };
  struct NodeClass {
    gpu::NodeState key;
    std::vector<int32_t> members;                  // node indices, ascending
    std::set<std::pair<int32_t, int32_t>> ranked;  // (rank, index) of members; seeded order only
    int32_t slot = -1;                             // position in active_
  };

  // Random's pick through the shape's Fenwick tree; -2 when the shape has none and the table
  // is full (then the classes answer).
  int SelectFeasible(const gpu::PodSpec& pod, const gpu::GpuCluster& cluster, Rng& rng);
  void SetFits(FeasibleShape& shape, int index, bool fits);
  gpu::NodeState KeyOf(const gpu::NodeState& node) const;
  void Build(const gpu::NodeScorer& scorer, const gpu::GpuCluster& cluster);
  void Join(int index, const gpu::NodeState& key);
  void Leave(int index);
  // The node at position k (0-based, index order) among the members of tied_.
  int32_t KthTied(uint64_t k);

  std::vector<int32_t> ranks_;
  TieBreak tie_break_;
  bool built_ = false;
  bool filter_key_ = false;  // classes keyed by what the filter reads (Random)
  std::vector<NodeClass> classes_;
  std::vector<int32_t> free_classes_;
  std::vector<int32_t> active_;  // class ids with members
  std::unordered_map<gpu::NodeState, int32_t, KeyHash> by_key_;
  std::vector<int32_t> class_of_;  // per node
  std::vector<int32_t> tied_;      // scratch: the top classes of one Select
  std::vector<char> marked_;       // scratch: per class, for KthTied's pass over the nodes
  std::vector<FeasibleShape> shapes_;  // Random only
};

}  // namespace berth::sim::gpushare
