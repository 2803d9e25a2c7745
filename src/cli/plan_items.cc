#include "cli/plan_items.h"

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
  return items;
}

}  // namespace berth::cli
