// RunPlan: one scheduling cycle over a snapshot (DESIGN.md data flow). For a single cluster
// this is the binding stage over every pending pod; later stages (queueing, placement)
// plug in here. Pure: the input is not modified; the result carries a copy with decisions
// written where Kubernetes components write them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "core/result.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::engine {

struct PlanOptions {
  // Overrides the NodeResourcesFit scoring strategy of every profile (the CLI's --scoring).
  std::optional<model::ScoringStrategyType> scoring;
};

struct Plan {
  model::Snapshot planned;  // pods with spec.nodeName and PodScheduled conditions written
  std::vector<model::PodDecision> pod_decisions;  // in scheduling order
};

Plan RunPlan(const model::Snapshot& snapshot, const PlanOptions& options);

// The per-node explanation for one pod, at the state it meets in the cycle (after every pod
// ahead of it in the queue was placed). NotFound when no pod has that name
// ("namespace/name", or "name" when unique).
core::Result<binding::PodExplanation> ExplainPod(const model::Snapshot& snapshot,
                                                 const std::string& pod_name,
                                                 const PlanOptions& options);

}  // namespace berth::engine
