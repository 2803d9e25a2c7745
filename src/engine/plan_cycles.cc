#include "engine/plan_cycles.h"

#include <utility>

#include "core/check.h"

namespace berth::engine {

Plan RunCycles(const model::Snapshot& snapshot, PlanOptions options, int32_t n) {
  // Callers validate counts from the outside world; a bad one here is a bug.
  BERTH_CHECK(n >= 1 && n <= kMaxPlanCycles, "RunCycles: cycle count out of range");
  options.cycles = n;
  return RunPlan(snapshot, options);
}

Plan RunCycles(model::Snapshot&& snapshot, PlanOptions options, int32_t n) {
  BERTH_CHECK(n >= 1 && n <= kMaxPlanCycles, "RunCycles: cycle count out of range");
  options.cycles = n;
  return RunPlan(std::move(snapshot), options);
}

}  // namespace berth::engine
