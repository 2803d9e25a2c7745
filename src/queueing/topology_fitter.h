// TopologyFitter: topology-aware scheduling in the admission path (Kueue's
// tas_flavorassigner.go and the TAS steps of flavorassigner.go, preemption.go, scheduler.go).
// FlavorAssigner asks it whether a pod set may take a flavor (TAS match), places the TAS pod
// sets once quota fits, and the scheduler asks it to complete preemption targets so the
// placement fits and to re-place an entry against what this cycle already admitted. Reads
// and temporarily edits AdmissionState's TopologyCache (always restored). Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "queueing/admission_state.h"
#include "queueing/workload_info.h"

namespace berth::queueing {

struct Assignment;
struct PreemptionResult;

class TopologyFitter {
 public:
  explicit TopologyFitter(AdmissionState& state) : state_(state) {}

  // Whether pod set `p` of `wl` uses TAS: it has a topology annotation, or its ClusterQueue
  // has only TAS flavors (implied unconstrained).
  bool Requested(const WorkloadInfo& wl, size_t p) const;
  // Why pod set `p` cannot take flavor `flavor` (checkPodSetAndFlavorMatchForTAS), or "" when
  // it can: a TAS pod set needs a TAS flavor whose topology has the requested levels, and a
  // pod set without TAS cannot take a TAS flavor.
  std::string FlavorMismatch(const WorkloadInfo& wl, size_t p, int32_t flavor) const;

  struct Failure {
    std::string pod_set;
    std::string message;  // Kueue's, e.g. `topology "t" allows to fit only 3 out of 4 pod(s)`
  };
  // Places every TAS pod set of `a` (one FindTopologyAssignments per flavor, pod sets in
  // order) on the current usage and writes PlannedPodSet::topology_assignment. nullopt: all
  // placed (or none needed TAS); otherwise the first pod set that does not fit.
  std::optional<Failure> Place(const WorkloadInfo& wl, Assignment& a);

  // For a Preempt assignment with TAS pod sets, after the quota targets are known: with the
  // targets' topology usage removed, the placement must fit; if it does not, admitted
  // workloads of the same ClusterQueue that withinClusterQueue allows to preempt and that use
  // one of the flavors are added in Kueue's candidate order until it does, then the ones not
  // needed are given back (newest first, never the last). If it fails even with every such
  // candidate removed the assignment becomes NoFit (TopologyPlacementFailed) without targets.
  void CompleteTargets(const WorkloadInfo& wl, Assignment& a, PreemptionResult& preemption);

  // Whether any pod set of `a` was placed on a TAS flavor.
  static bool HasTopology(const Assignment& a);

 private:
  AdmissionState& state_;
};

}  // namespace berth::queueing
