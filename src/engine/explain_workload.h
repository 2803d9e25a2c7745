// ExplainWorkload: why a Kueue Workload was admitted, preempted or left waiting: the plan
// is run and the workload's admission decision returned with its ClusterQueue's state and
// the decisions made for its pods. For `berth explain workload/NAME`. Takes the input over
// (the plan is written into it, as RunPlan(Snapshot&&)); thread-compatible.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "engine/plan.h"
#include "queueing/admission.h"

namespace berth::engine {

struct WorkloadExplanation {
  int32_t workload = -1;  // index into plan.planned.kueue_workloads (= the input's)
  std::string cluster;
  queueing::WorkloadDecision decision;
  std::optional<queueing::ClusterQueueState> cluster_queue;  // nullopt: queue unknown
  std::vector<model::PodDecision> pods;  // decisions for the workload's pods, in order
  Plan plan;  // the whole plan, written into the input taken over: for names
};

// Finds a Workload by "namespace/name" or "name" (unique), also by the name of the job it
// was created for ("job-train" or "train"). NotFound / InvalidArgument (ambiguous) as
// FindPod.
core::Result<int32_t> FindWorkload(const model::Snapshot& snapshot, const std::string& name);

// Finds the Workload in `snapshot`, then plans it with RunPlan(Snapshot&&): the explanation
// holds the one planned snapshot, no copy of the input. Errors: those of FindWorkload
// (the snapshot is then dropped).
core::Result<WorkloadExplanation> ExplainWorkload(model::Snapshot&& snapshot,
                                                  const std::string& name,
                                                  const PlanOptions& options);

}  // namespace berth::engine
