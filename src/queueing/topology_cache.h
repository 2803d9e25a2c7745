// TopologyCache: the TopologySnapshot of every topology-aware (TAS) ResourceFlavor of one
// admission run, built on first use, and the topology usage each quota holder puts on it.
// Owned by AdmissionState, which records a holder's usage on Hold and takes it back on
// Release; flavor assignment and preemption read the snapshots and suspend a holder's usage
// to simulate its eviction. Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/kueue.h"
#include "model/resources.h"
#include "model/snapshot.h"
#include "queueing/topology_snapshot.h"

namespace berth::queueing {

// One pod set's pods on one TAS flavor.
struct TopologyUsage {
  int32_t flavor = -1;  // index into snapshot.resource_flavors
  model::TopologyAssignment assignment;
  model::ResourceVector per_pod;  // one pod's requests, without `pods`
  // The pods are bound in the input: TopologySnapshot::Build already charged them, so
  // holding adds nothing and releasing frees them.
  bool counted_by_build = false;
};

class TopologyCache {
 public:
  explicit TopologyCache(const model::Snapshot& snapshot);
  TopologyCache(const TopologyCache&) = delete;
  TopologyCache& operator=(const TopologyCache&) = delete;

  // Whether flavor `flavor` names a topology (spec.topologyName).
  bool IsTasFlavor(int32_t flavor) const;
  // The Topology of a TAS flavor in the flavor's cluster; null when there is none.
  const model::Topology* TopologyOf(int32_t flavor) const;
  // The flavor's capacity tree with every recorded usage applied, built on the first call.
  // Null when the flavor is not TAS or its Topology is missing. The pointer stays valid for
  // the cache's lifetime.
  TopologySnapshot* Get(int32_t flavor);

  // Records (and applies) the usage of workload `wl`, which must hold none. O(domains).
  void Hold(int32_t wl, std::vector<TopologyUsage> usage);
  // Takes back what Hold recorded (a no-op for a workload without TAS usage).
  void Release(int32_t wl);
  // Simulated eviction: Suspend removes the usage of `wl` from the snapshots, Resume puts it
  // back. Calls pair up; the record stays.
  void Suspend(int32_t wl);
  void Resume(int32_t wl);
  bool HasUsage(int32_t wl) const { return usage_.count(wl) > 0; }
  // Whether any usage of `wl` is on flavor `flavor`.
  bool UsesFlavor(int32_t wl, int32_t flavor) const;

  // Applies (sign 1) or takes back (-1) one pod set's placement on `flavor` on the trees of
  // every TAS flavor of its cluster except `except` (-1: none), without recording it: a
  // workload's pod sets placed through one flavor are seen by its sibling flavors while the
  // rest are placed. Calls pair up.
  void ApplyToAll(int32_t flavor, const model::TopologyAssignment& assignment,
                  const model::ResourceVector& per_pod, int64_t sign, int32_t except);

  // A TopologyAssignment over every level of `flavor`'s topology counting the bound,
  // non-terminal pods `pods` (indices into snapshot.pods) per node; empty when none is bound
  // to a node of the cluster.
  model::TopologyAssignment BoundAssignment(int32_t flavor, const std::vector<int32_t>& pods);

 private:
  void Apply(const TopologyUsage& u, int64_t sign);
  bool SameCluster(int32_t a, int32_t b) const;

  const model::Snapshot& snapshot_;
  std::vector<std::unique_ptr<TopologySnapshot>> trees_;  // by flavor; null until built
  std::map<int32_t, std::vector<TopologyUsage>> usage_;    // by workload
  std::unordered_map<std::string, int32_t> node_by_name_;  // built on first BoundAssignment
  bool nodes_indexed_ = false;
};

}  // namespace berth::queueing
