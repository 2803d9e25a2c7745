// ClusterPart: the part of a snapshot one member cluster's scheduler sees. kube-scheduler
// runs per cluster and never sees another cluster's nodes, so each cluster is scheduled on
// its own. With a single cluster (the common case: no berth.dev/cluster annotations) the
// part borrows the whole snapshot and the index maps are the identity, so nothing is
// copied. With several, a part owns copies of its cluster's pods, claims and shared catalog
// but borrows its nodes from the whole snapshot (the Scheduler reads them through
// SchedulerOptions::node_source), unless its device allocator or GPU-fraction ledgers need
// a snapshot holding them (binding::CanBorrowNodes). Built by SplitByCluster for RunPlan
// and ExplainPod; plain data after that; borrows `whole` for its lifetime.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "devices/allocator.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::engine {

struct ClusterPart {
  const model::Snapshot* whole = nullptr;
  std::optional<model::Snapshot> owned;  // the cluster's objects, when the input has several
  std::vector<model::PodIndex> pods;     // local index -> index in `whole`; empty: identity
  std::vector<model::NodeIndex> nodes;   // local index -> index in `whole`; empty: identity
  // The part's nodes are whole->nodes[nodes[i]], not copied into `owned`.
  bool borrows_nodes = false;
  std::vector<int32_t> claims;           // local claim index -> index in `whole`
  std::unordered_map<int32_t, int32_t> pod_to_local;  // whole -> local, when owned
  std::vector<int32_t> kueue_workloads;  // the cluster's, as indices into whole.kueue_workloads
  std::string cluster;   // empty: the only cluster (Scheduler picks the name)
  std::string name;      // the cluster's name, "default" for the implicit one

  // The part's objects; its nodes are there unless borrows_nodes (read them with node()).
  const model::Snapshot& snapshot() const { return owned ? *owned : *whole; }

  // The part's nodes, by local index: those its Scheduler works on. O(1).
  int32_t num_nodes() const {
    return static_cast<int32_t>(borrows_nodes ? nodes.size() : snapshot().nodes.size());
  }
  const model::Node& node(model::NodeIndex local) const {
    return borrows_nodes ? whole->node(ToWhole(local)) : snapshot().node(local);
  }

  model::PodIndex ToWhole(model::PodIndex local) const {
    return pods.empty() ? local : pods[static_cast<size_t>(local.v)];
  }
  model::NodeIndex ToWhole(model::NodeIndex local) const {
    return nodes.empty() ? local : nodes[static_cast<size_t>(local.v)];
  }
  int32_t ToWholeClaim(devices::ClaimIndex local) const {
    return owned ? claims[static_cast<size_t>(local.v)] : local.v;
  }
  // nullopt when the pod is in another cluster. O(1).
  std::optional<model::PodIndex> ToLocal(model::PodIndex in_whole) const {
    if (!owned) return in_whole;
    auto it = pod_to_local.find(in_whole.v);
    if (it == pod_to_local.end()) return std::nullopt;
    return model::PodIndex{it->second};
  }
};

// One part per member cluster, in name order; a single borrowing part when the input has
// one cluster. Kueue objects stay in the whole snapshot (queueing filters by cluster); each
// part lists its Workloads. O(objects + clusters x shared objects).
std::vector<ClusterPart> SplitByCluster(const model::Snapshot& whole);

// Rewrites the indices of a part's decision so that they refer to the whole snapshot.
model::PodDecision ToWhole(const ClusterPart& part, model::PodDecision decision);

}  // namespace berth::engine
