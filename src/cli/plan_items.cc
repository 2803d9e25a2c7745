#include "cli/plan_items.h"

#include <map>

namespace berth::cli {

io::PlanItems PlanItemsOf(const engine::Plan& plan) {
  io::PlanItems items;
  items.pods = &plan.pod_decisions;
  items.claims = plan.changed_claims;
  items.workloads = plan.workloads;
  items.deleted_pods = plan.deleted_pods;
  items.placements = plan.placement_items;
  items.placement_decisions = plan.placement_decision_items;
  items.manifest_works = plan.manifest_work_items;
  items.deleted_objects = plan.deleted_objects;
  if (plan.cycles > 0) {
    // The cycle that decided each workload, from the Kueue decisions of its cluster.
    std::map<int32_t, int32_t> cycle_of;
    for (const engine::Plan::ClusterAdmission& admission : plan.admissions) {
      for (const auto& d : admission.result.decisions) cycle_of[d.workload] = d.cycle;
    }
    for (int32_t w : items.workloads) {
      auto it = cycle_of.find(w);
      items.workload_cycles.push_back(it == cycle_of.end() ? -1 : it->second);
    }
  }
  return items;
}

}  // namespace berth::cli
