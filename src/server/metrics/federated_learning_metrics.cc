// Why every phase gets a series (0 for the three a FederatedLearning is not in): a
// Prometheus rule such as `berth_federated_learning_phase{phase="Failed"} == 1` then flips
// from 0 to 1 instead of appearing from nothing, which alerting reads as a new series with
// no history (kube-state-metrics writes its phase gauges the same way).
#include "server/metrics/federated_learning_metrics.h"

#include <utility>
#include <vector>

#include "model/federated_learning.h"

namespace berth::server {

namespace {

constexpr model::FlPhase kFlPhases[] = {model::FlPhase::kWaiting, model::FlPhase::kRunning,
                                        model::FlPhase::kCompleted, model::FlPhase::kFailed};

}  // namespace

void DescribeFederatedLearningMetrics(MetricsRegistry& r) {
  r.Describe("berth_federated_learning_phase", MetricType::kGauge,
             "FederatedLearnings by phase (Waiting, Running, Completed, Failed): 1 for the phase "
             "each is in, 0 for the others");
  r.Describe("berth_federated_learning_round", MetricType::kGauge,
             "The training round each FederatedLearning is in (status.currentRound)");
  r.Describe("berth_federated_learning_min_clients", MetricType::kGauge,
             "Clients each FederatedLearning needs to train (spec.server.minAvailableClients)");
  r.Describe("berth_federated_learning_clients", MetricType::kGauge,
             "Member clusters holding each FederatedLearning's data, by state (training, "
             "eligible, excluded, lost)");
  r.Describe("berth_federated_learning_loss", MetricType::kGauge,
             "The loss each FederatedLearning's server last reported");
}

void UpdateFederatedLearningGauges(std::span<const engine::FederatedLearningRun> runs,
                                   MetricsRegistry& registry) {
  std::vector<std::pair<MetricLabels, double>> phase, round, min_clients, clients, loss;
  for (const engine::FederatedLearningRun& run : runs) {
    const MetricLabels labels{{"namespace", run.namespace_}, {"name", run.name}};
    for (model::FlPhase p : kFlPhases) {
      MetricLabels with_phase = labels;
      with_phase.emplace_back("phase", model::FlPhaseName(p));
      phase.emplace_back(std::move(with_phase), run.phase == p ? 1 : 0);
    }
    round.emplace_back(labels, run.current_round);
    min_clients.emplace_back(labels, run.min_clients);
    for (const auto& [state, n] : {std::pair{"training", run.clients}, std::pair{"eligible", run.eligible},
                                   std::pair{"excluded", run.excluded}, std::pair{"lost", run.lost}}) {
      MetricLabels with_state = labels;
      with_state.emplace_back("state", state);
      clients.emplace_back(std::move(with_state), n);
    }
    if (run.loss.has_value()) loss.emplace_back(labels, *run.loss);
  }
  registry.ReplaceGauge("berth_federated_learning_phase", std::move(phase));
  registry.ReplaceGauge("berth_federated_learning_round", std::move(round));
  registry.ReplaceGauge("berth_federated_learning_min_clients", std::move(min_clients));
  registry.ReplaceGauge("berth_federated_learning_clients", std::move(clients));
  registry.ReplaceGauge("berth_federated_learning_loss", std::move(loss));
}

}  // namespace berth::server
