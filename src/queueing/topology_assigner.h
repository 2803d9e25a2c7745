// Topology-aware placement of one pod set on a TopologySnapshot (Kueue's
// TASFlavorSnapshot.findTopologyAssignment with TASProfileMixed on, TASBalancedPlacement and
// TASRespectNodeAffinityPreferred off: upstream defaults). Called by flavor assignment for
// each pod set that gets a TAS flavor; the result goes into
// PodSetAssignment::topology_assignment. Pure functions of their inputs; thread-safe on a
// const snapshot. Algorithm and deviations: docs/topology.md.
#pragma once

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "core/taint.h"
#include "model/kueue.h"
#include "model/pod.h"
#include "model/resources.h"
#include "queueing/topology_snapshot.h"

namespace berth::queueing {

struct TopologyPodSetRequest {
  // The pod set's annotations. Empty (no annotation) means implied unconstrained, as Kueue
  // treats pod sets of a TAS flavor without any.
  model::TopologyRequest request;
  // One pod's requests, without the `pods: 1` the placement adds itself.
  model::ResourceVector per_pod;
  int32_t count = 0;
  // Optional borrow for the call: tolerations, nodeSelector and required node affinity.
  // Checked per node only when the lowest level is kubernetes.io/hostname (upstream).
  const model::Pod* pod_template = nullptr;
  // Tolerations beyond the pod's and the snapshot's flavor's (e.g. from podSetUpdates).
  std::vector<core::Toleration> flavor_tolerations;
};

// Places `request.count` pods. On success the assignment lists the lowest-level domains that
// receive pods, ascending by level values, levels = [kubernetes.io/hostname] when that is the
// lowest level (Kueue's form) and every level otherwise. Errors:
//  - ResourceExhausted: the pods do not fit, with Kueue's message, e.g.
//    `topology "default" allows to fit only 3 out of 4 pod(s)` (or `doesn't allow to fit any
//    of 1 pod(s). Total nodes: 4; excluded: nodeSelector: 2, resource "cpu": 1`).
//  - InvalidArgument: the request names a level the topology lacks, or slice settings are
//    inconsistent (same messages as Kueue).
//  - FailedPrecondition: no domain at the searched level (`no topology domains at level: X`).
// Cost: O(leaves × requested resources + domains × log domains); the snapshot is unchanged.
core::Result<model::TopologyAssignment> FindTopologyAssignment(
    const TopologySnapshot& snapshot, const TopologyPodSetRequest& request);

// The pod sets of one workload on the same flavor, in order: each later pod set sees the
// earlier ones' pods as used (Kueue's assumed usage). All or nothing; the snapshot is left
// as it was on return either way (the caller commits with AddUsage once it admits).
core::Result<std::vector<model::TopologyAssignment>> FindTopologyAssignments(
    TopologySnapshot& snapshot, const std::vector<TopologyPodSetRequest>& pod_sets);

// Whether every level `request` names exists in the snapshot's topology (Kueue's HasLevel):
// flavor assignment skips a TAS flavor whose topology cannot express the request.
bool TopologySupportsRequest(const TopologySnapshot& snapshot,
                             const model::TopologyRequest& request);

}  // namespace berth::queueing
