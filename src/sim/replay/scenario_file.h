// ScenarioFile: a SimulationScenario YAML document (docs/simulate.md, "Scenarios"): the
// fleet, trace, tenant mapping and run settings of a study plus its failure and maintenance
// actions, so `berth simulate --scenario FILE` reproduces it. Paths in the file are relative
// to the file. Errors name the file and the field ("drain.yaml: spec.events[2].at: ...").
// Read once per command by the CLI; plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "sim/replay/scenario.h"

namespace berth::sim {

struct ScenarioFile {
  std::string name;
  std::string fleet;          // resolved against the file's folder; empty: not given
  std::string trace;
  std::string format;         // a trace format name; empty: by extension
  std::string tenant_queues;  // a mapping file
  std::vector<std::string> tenant_queue;  // "TENANT=NAMESPACE/QUEUE" flags
  std::string cluster;        // empty: the fleet's only/default cluster
  std::optional<int64_t> until_s;
  std::optional<int64_t> metrics_interval_s;
  std::optional<int32_t> max_gpus_per_pod;
  std::vector<ScenarioAction> actions;
};

// Parses `text` read from `path` (for messages and relative paths).
core::Result<ScenarioFile> ParseScenario(const std::string& text, const std::string& path);
core::Result<ScenarioFile> ReadScenarioFile(const std::string& path);

}  // namespace berth::sim
