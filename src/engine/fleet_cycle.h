// FleetCycle: RunPlan for a fleet (the input has ManagedClusters; DESIGN.md "Fleet wiring").
// Order: (1) every member cluster runs its own cycle (its pods, gangs, its own Kueue);
// (2) their free capacity and caches are measured and every Placement is decided with it,
// then every FederatedLearning (federated_learning.h);
// (3) the hub runs Kueue, and each admission through a fleet admission check is dispatched to
// the best-scored candidate cluster that fits (FleetDispatcher); (4) the hub Workloads get
// status.clusterName and their check's state, and each dispatched workload a ManifestWork for
// its cluster; stale PlacementDecisions and ManifestWorks are deleted. Internal to engine.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "core/time.h"
#include "engine/cluster_part.h"
#include "engine/plan.h"
#include "model/scheduler_config.h"
#include "model/snapshot.h"

namespace berth::engine {

// Objects without a member cluster live on the hub.
inline constexpr const char* kHubCluster = "default";

// Whether the input describes a fleet: it has ManagedClusters, Placements,
// FederatedLearnings or ManifestWorkReplicaSets.
bool IsFleet(const model::Snapshot& snapshot);

// Runs the fleet cycle over `parts` (SplitByCluster(snapshot)) into `plan`. `changed`: claim
// indices whose status changed. plan.planned arrives with every object of `snapshot` but its
// nodes and Kueue Workloads: RunFleet copies the Workloads in once dispatch is done (the
// member parts' own nodes are dropped then: the parts are spent), and the caller adds the
// nodes, which no stage writes. `cycles`: PlanOptions::cycles (0: settled), for every
// member cluster and the hub alike.
void RunFleet(const model::Snapshot& snapshot, std::vector<ClusterPart>& parts,
              const model::SchedulerConfig& config, core::Timestamp now, Plan& plan,
              std::set<int32_t>& changed, int32_t cycles = 0);

}  // namespace berth::engine
