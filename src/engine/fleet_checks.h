// FleetChecks: the hub's Kueue AdmissionChecks that hand workloads to member clusters
// (DESIGN.md "Fleet wiring"): controllerName open-cluster-management.io/placement with
// parameters naming a Placement, or kueue.x-k8s.io/multikueue with parameters naming a
// MultiKueueConfig. Resolved once per plan; a check whose parameters name nothing usable is
// kept with an error, so its workloads wait with that message. Pure; internal to engine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/snapshot.h"

namespace berth::engine {

inline constexpr const char* kPlacementCheckController = "open-cluster-management.io/placement";
inline constexpr const char* kMultiKueueCheckController = "kueue.x-k8s.io/multikueue";
// The namespace OCM's kueue addon keeps the Placements of its admission checks in; a name
// found in several namespaces resolves to this one.
inline constexpr const char* kKueueSystemNamespace = "kueue-system";

enum class FleetCheckKind { kPlacement, kMultiKueue };

struct FleetCheck {
  std::string name;  // the AdmissionCheck's
  FleetCheckKind kind = FleetCheckKind::kPlacement;
  std::optional<int32_t> placement;          // index into snapshot.placements
  std::optional<int32_t> multikueue_config;  // index into snapshot.multikueue_configs
  std::string error;                         // non-empty: why no cluster can be chosen
};

struct FleetChecks {
  std::vector<FleetCheck> checks;
  // hub ClusterQueue name -> index into `checks` of the fleet check among its
  // admissionChecks (the first, when it names several).
  std::unordered_map<std::string, int32_t> by_cluster_queue;

  const FleetCheck* ForClusterQueue(const std::string& cluster_queue) const {
    auto it = by_cluster_queue.find(cluster_queue);
    return it == by_cluster_queue.end() ? nullptr : &checks[static_cast<size_t>(it->second)];
  }
};

// The fleet checks of `hub`'s AdmissionChecks and the hub ClusterQueues they gate.
FleetChecks FindFleetChecks(const model::Snapshot& snapshot, const std::string& hub);

}  // namespace berth::engine
