// RunCycles: the engine's unit of time (DESIGN.md, "the one-cycle step"): exactly `n` Kueue
// scheduling cycles and kube-scheduler passes over a snapshot, with what the controllers
// wrote after them. `berth plan --cycles N` prints it; berth simulate and the hub are meant
// to step with it (docs/cycles.md says what one cycle holds). Stateless; as RunPlan.
#pragma once

#include <cstdint>

#include "engine/plan.h"
#include "model/snapshot.h"

namespace berth::engine {

// RunPlan with options.cycles = n: workloads Kueue evicted in cycle n keep their pods,
// terminating (metadata.deletionTimestamp at the plan time); preemptors of cycle n wait
// (QuotaReserved=False, WaitingForPreemptedWorkloads and Kueue's message); a workload whose
// quota an earlier entry of the same cycle took waits with "Workload no longer fits after
// processing another workload"; workloads admitted in cycles 1..n have their pods bound in
// the same cycle. `n` must be 1..kMaxPlanCycles (BERTH_CHECK: the CLI validates it).
Plan RunCycles(const model::Snapshot& snapshot, PlanOptions options, int32_t n);
Plan RunCycles(model::Snapshot&& snapshot, PlanOptions options, int32_t n);

}  // namespace berth::engine
