// ModelLoadStudy: the file of a model-load study (docs/simulate.md, "Model-load studies"):
// which fleet, which InferenceService scaled out to how many replicas, and the strategies
// to compare (origin pull limits, in-cluster sharing, warm node caches, a staged warm-up,
// origin bandwidth). Read once per `berth simulate --scenario FILE` by the CLI; plain values.
// Errors name the file, the study (ModelLoadStudy/<name>) and the field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace berth::sim::modelload {

// Bounds of the file's numbers (docs/limits.md): beyond them is an input error, not a run
// that takes hours.
inline constexpr int32_t kMaxStudyReplicas = 10000;
inline constexpr int32_t kMaxStudyStrategies = 16;
inline constexpr double kMaxGBps = 100000;  // 100 TB/s: no origin or link is faster

// The origin's bandwidths in decimal GB/s; 0 = the data module's default (docs/data.md).
struct OriginOverride {
  double egress_gbps = 0;  // all pulls from the origin together
  double stream_gbps = 0;  // one pull
};

struct StudyStrategy {
  std::string name;
  int32_t max_origin_pulls = 0;              // 0 = no limit
  int32_t max_origin_pulls_per_cluster = 0;  // 0 = no limit
  bool p2p = false;         // in-cluster sharing: one origin pull per cluster, then copies
  bool fleet_cache = true;  // the fleet's models.cache.berth.dev labels count
  // Nodes of the replicas that hold the model before the scale-out: a count, or a percent
  // of the nodes the replicas landed on (rounded up). At most one is set.
  int32_t warm_nodes = 0;
  std::optional<double> warm_percent;
  // Staged warm-up: a DataLoad to this many seed nodes before the scale-out; the seeds then
  // serve copies to the other nodes. 0 = none.
  int32_t warmup_seed_nodes = 0;
  OriginOverride origin;  // over the study's
};

struct ModelLoadStudy {
  std::string path;                 // the file, for messages
  std::string name;                 // metadata.name; the file's stem when absent
  std::string fleet;                // resolved against the file's folder
  std::string inference_service;    // "namespace/name" or "name"
  std::optional<int32_t> replicas;  // the scale-out; unset = the service's minReplicas
  OriginOverride origin;
  std::vector<StudyStrategy> strategies;
};

// True when `text` is a YAML map whose kind is ModelLoadStudy (the CLI's switch between
// scenario kinds); false for anything else, malformed YAML included.
bool IsModelLoadStudy(const std::string& text);

// Parses `text` read from `path` (for messages and relative paths). InvalidArgument for an
// unknown or missing field, a bad value, a duplicate strategy name, or no strategies.
core::Result<ModelLoadStudy> ParseModelLoadStudy(const std::string& text, const std::string& path);
// NotFound when the file cannot be opened.
core::Result<ModelLoadStudy> ReadModelLoadStudyFile(const std::string& path);

}  // namespace berth::sim::modelload
