// berth's gauges of FederatedLearnings (docs/fleet.md "Federated learning"), recomputed by the
// hub's scheduling loop after every cycle from what the plan decided for each
// (engine::FederatedLearningRun, Plan::federated_learnings): its phase, round, clients by
// state, the minimum it needs and the last loss its server reported, each labelled by the
// FederatedLearning's namespace and name. Called by the loop's thread; the registry is
// thread-safe.
#pragma once

#include <span>

#include "engine/federated_learning_run.h"
#include "server/metrics/metrics_registry.h"

namespace berth::server {

// Declares the families (help and type) once per registry.
void DescribeFederatedLearningMetrics(MetricsRegistry& registry);

// Replaces every series of the families with those of `runs` (one per FederatedLearning the
// cycle decided), so a deleted FederatedLearning's series disappear:
//   berth_federated_learning_phase{namespace,name,phase}   1 for its phase, 0 for the 3 others
//   berth_federated_learning_round{namespace,name}         status.currentRound
//   berth_federated_learning_min_clients{namespace,name}   spec.server.minAvailableClients
//   berth_federated_learning_clients{namespace,name,state} state training|eligible|excluded|lost
//   berth_federated_learning_loss{namespace,name}          the last loss reported (NaN and
//                                                          infinities as such); no series
//                                                          before the server reported one
// O(runs).
void UpdateFederatedLearningGauges(std::span<const engine::FederatedLearningRun> runs,
                                   MetricsRegistry& registry);

}  // namespace berth::server
