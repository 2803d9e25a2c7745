#include "engine/multikueue_dispatch.h"

#include <algorithm>
#include <cstddef>
#include <set>

namespace berth::engine {
namespace {

bool GateEnabled(const model::KueueConfig& config, std::string_view gate) {
  auto it = config.feature_gates.find(std::string(gate));
  // Both gates berth reads are on by default (Beta since Kueue 0.19).
  return it == config.feature_gates.end() || it->second;
}

}  // namespace

DispatchPolicy ResolveDispatchPolicy(const model::Snapshot& snapshot) {
  DispatchPolicy policy;
  if (!snapshot.kueue_config || !snapshot.kueue_config->multikueue_dispatcher_given) {
    return policy;
  }
  const model::KueueConfig& config = *snapshot.kueue_config;
  policy.dispatcher_name = config.multikueue_dispatcher;
  if (config.multikueue_dispatcher == kAllAtOnceDispatcher) {
    policy.mode = DispatchMode::kAllAtOnce;
  } else if (config.multikueue_dispatcher == kIncrementalDispatcher) {
    policy.mode = DispatchMode::kIncremental;
    // The step size is read only with its gate on (stepSize() in incrementaldispatcher.go).
    if (config.multikueue_incremental_step_size && GateEnabled(config, kIncrementalConfigGate)) {
      policy.step_size = *config.multikueue_incremental_step_size;
    }
    policy.respect_config_order = GateEnabled(config, kIncrementalConfigOrderGate);
  } else {
    // Any other name is a dispatcher Kueue does not run: MultiKueue syncs copies to the
    // clusters it finds nominated (workload.go, nominateAndSynchronizeWorkers).
    policy.mode = DispatchMode::kExternal;
  }
  return policy;
}

std::string_view DispatchModeName(DispatchMode mode) {
  switch (mode) {
    case DispatchMode::kBestFit:
      return "BestFit";
    case DispatchMode::kAllAtOnce:
      return "AllAtOnce";
    case DispatchMode::kIncremental:
      return "Incremental";
    case DispatchMode::kExternal:
      return "External";
  }
  return "BestFit";
}

std::vector<std::string> NextNominatedWorkers(const std::vector<std::string>& remote_clusters,
                                              const std::vector<std::string>& already_nominated,
                                              int32_t step_size, bool respect_config_order) {
  const std::set<std::string> nominated(already_nominated.begin(), already_nominated.end());
  std::vector<std::string> workers;
  for (const std::string& c : remote_clusters) {
    if (nominated.count(c) == 0) workers.push_back(c);
  }
  // The copy is sorted, never the configuration's list (upstream sorts its local copy too).
  if (!respect_config_order) std::sort(workers.begin(), workers.end());
  if (step_size > 0 && workers.size() > static_cast<size_t>(step_size)) {
    workers.resize(static_cast<size_t>(step_size));
  }
  return workers;
}

std::vector<std::vector<std::string>> IncrementalRounds(
    const std::vector<std::string>& remote_clusters, int32_t step_size, bool respect_config_order) {
  // Calling NextNominatedWorkers round after round gives consecutive slices of one order
  // (the list without repeats, sorted when the order gate is off); sliced directly, a Placement
  // of thousands of clusters costs one sort instead of one per round.
  std::vector<std::string> order;
  std::set<std::string> seen;
  for (const std::string& c : remote_clusters) {
    if (seen.insert(c).second) order.push_back(c);
  }
  if (!respect_config_order) std::sort(order.begin(), order.end());
  const size_t step = step_size > 0 ? static_cast<size_t>(step_size) : std::max<size_t>(order.size(), 1);
  std::vector<std::vector<std::string>> rounds;
  for (size_t at = 0; at < order.size(); at += step) {
    const size_t end = std::min(order.size(), at + step);
    rounds.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(at),
                        order.begin() + static_cast<std::ptrdiff_t>(end));
  }
  return rounds;
}

}  // namespace berth::engine
