// Scenario: failures and maintenance berth simulate injects into a replay, read from a
// SimulationScenario YAML file (docs/simulate.md, "Scenarios") that also names the fleet,
// trace and run settings, so one file reproduces a study. Actions name nodes by name or by a
// label selector; ResolveActions turns them into node indices of the fleet. Parsed by the CLI
// once per command; plain value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/selector.h"
#include "core/result.h"
#include "model/snapshot.h"

namespace berth::sim {

enum class ActionKind {
  kNodeFailure,  // nodes go down: their workloads fail and are requeued (Kueue backoff)
  kGpuFailure,   // `gpus` GPUs of each node are lost: the node's GPU workloads fail
  kDrain,        // planned maintenance: cordon, evict within the budget, uncordon later
  kScaleUp,      // standby nodes join after a cold start
};
const char* ActionKindName(ActionKind kind);

struct ScenarioAction {
  ActionKind kind = ActionKind::kNodeFailure;
  int64_t at_ms = 0;
  // Which nodes: by name, or every node the selector matches (both: the union).
  std::vector<std::string> node_names;
  std::optional<core::LabelSelector> selector;
  int32_t gpus = 1;                 // kGpuFailure: GPUs lost per node
  int64_t recover_after_ms = 0;     // failures: back after this long; 0 = never
  int64_t duration_ms = 0;          // kDrain: uncordon after this long; 0 = never
  // kDrain: the disruption budget, as a PodDisruptionBudget's maxUnavailable over the pool's
  // running workloads: at most this many are evicted per wave (0 = no eviction: cordon and
  // wait for them to finish), a wave every `wave_interval_ms`.
  int32_t max_unavailable = 1;
  int64_t wave_interval_ms = 300'000;
  int32_t count = 0;                // kScaleUp: standby nodes to add (0 = all matched)
  int64_t cold_start_ms = 0;        // kScaleUp: delay until they take pods
  std::string line;                 // "events[3]", for messages
  // "FILE: spec.events[3]" when read from a scenario file, for errors; empty: `line`.
  std::string field_path;
};

// An action with its nodes resolved (snapshot indices, ascending).
struct ResolvedAction {
  ScenarioAction action;
  std::vector<int32_t> nodes;
};

// Node indices of `cluster` in `fleet` per action. An action whose names or selector match no
// node is an error naming the action ("events[2]: node gpu-x-9 not found in the fleet").
core::Result<std::vector<ResolvedAction>> ResolveActions(const std::vector<ScenarioAction>& actions,
                                                         const model::Snapshot& fleet,
                                                         const std::string& cluster);

// Nodes labelled sim.berth.dev/standby=true start out of service; kScaleUp brings them in.
inline constexpr const char* kStandbyLabel = "sim.berth.dev/standby";

}  // namespace berth::sim
