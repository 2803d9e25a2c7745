// FederatedLearningRun: what one plan decided for one FederatedLearning, as plain values for
// the hub's gauges (round, clients) and for printers; the status the plan writes carries the
// same facts in upstream's shape. Filled by engine/federated_learning.h into
// Plan::federated_learnings. Plain data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/federated_learning.h"

namespace berth::engine {

struct FederatedLearningRun {
  int32_t object = -1;  // index into Plan::planned.federated_learnings
  std::string namespace_;
  std::string name;
  model::FlPhase phase = model::FlPhase::kWaiting;
  int32_t current_round = 0;
  int32_t rounds = 0;          // spec.server.rounds (0: left to the server)
  int32_t clients = 0;         // clusters training (works planned)
  int32_t min_clients = 1;     // spec.server.minAvailableClients
  int32_t eligible = 0;        // clusters that hold the data and may train but are not clients
  int32_t excluded = 0;        // clusters that hold the data but may not train
  int32_t lost = 0;            // clients lost (their cluster or their client failed)
  std::optional<double> loss;  // the loss the server last reported, when it is a number
  // Why it waits or stopped: NotEnoughClients, ServerClusterUnavailable,
  // PlacementMisconfigured (Waiting); ClientsBelowMinimum, RoundTimeout, MetricDiverged,
  // ServerFailed, ServerLost (Failed); TrainingCompleted (Completed); empty while running.
  std::string reason;
  std::string server_cluster;
};

}  // namespace berth::engine
