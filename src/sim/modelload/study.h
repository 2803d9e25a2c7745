// RunModelLoadStudy: serve a model from central storage or from node caches, and compare how
// long a scaled-out InferenceService takes to load it (docs/data.md, "Simulating cold and
// warm caches"). The replicas are planned once (engine::ExplainInferenceService: the
// engine's binding); then each strategy gets its own copies and limits and one run of the
// data module's fetch schedule (data::ScheduleFetches) over virtual time. Called by `berth
// simulate --scenario STUDY`; pure function of its inputs, deterministic; thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "engine/plan.h"
#include "model/snapshot.h"
#include "sim/core/stats.h"
#include "sim/modelload/study_file.h"

namespace berth::sim::modelload {

struct StrategyResult {
  StudyStrategy strategy;
  // Per replica that loads (bound and allowed by residency): seconds from the scale-out until
  // the model is in its GPU memory, ascending. Their distribution is `load_s`.
  std::vector<double> ready_s;
  DistributionSummary load_s;
  // The last replica in GPU memory; only when every replica is bound and allowed.
  bool all_ready = false;
  double all_ready_s = 0;
  int64_t origin_bytes = 0;  // the scale-out's pulls
  int32_t peak_origin_pulls = 0;
  // Replicas per load source name (data::LoadSourceName: "node-cache", "peer", ...).
  std::map<std::string, int32_t> by_source;
  int32_t forbidden = 0;  // residency forbids their node
  // Nodes of the replicas holding the model before any warm-up: the fleet's cache labels
  // (unless fleetCache is off) and warmNodes.
  int32_t warm_nodes = 0;
  // Staged warm-up (strategy.warmup_seed_nodes > 0): the seed nodes, the time until the
  // last has the model on disk, and the origin bytes it cost; before the scale-out, so not
  // in the times above.
  std::vector<std::string> seed_nodes;
  double warmup_s = 0;
  int64_t warmup_origin_bytes = 0;
};

struct StudyResult {
  std::string name;      // the study's
  std::string service;   // "namespace/name"
  std::string artifact;  // "model/<cache name>"
  int64_t model_bytes = 0;
  std::string origin;                      // "s3://bucket (us-east-1)"
  int32_t replicas = 0;                    // the scale-out
  int32_t unplaced = 0;                    // replicas the plan could not bind (they never load)
  int32_t nodes = 0;                       // distinct nodes the bound replicas landed on
  std::vector<StrategyResult> strategies;  // in the file's order
};

// A strategy as run, in a few words for tables: "cold, no pull limit, p2p", "8 nodes warm
// (25%), 12 origin pulls at once", "warm-up to 4 seeds, no pull limit, origin 4 GB/s".
std::string DescribeStrategy(const StrategyResult& r);

// Scales the study's InferenceService to `study.replicas` predictor pods (copies of its
// first pod named <service>-<k>, or the last pods removed), plans `fleet` once, then runs
// every strategy. Errors: NotFound / InvalidArgument for the service (FindInferenceService,
// object named); FailedPrecondition when it has no pod to copy or no model size; errors of
// the data module (a bad topology or limits) with the strategy named.
core::Result<StudyResult> RunModelLoadStudy(model::Snapshot&& fleet, const ModelLoadStudy& study,
                                            const engine::PlanOptions& options);

}  // namespace berth::sim::modelload
