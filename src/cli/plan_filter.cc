#include "cli/plan_filter.h"

#include <optional>

#include "cli/resource_name.h"
#include "model/kind_info.h"

namespace berth::cli {

namespace {

// The indices of `list` into `objects` whose metadata passes.
template <typename Objects>
std::vector<int32_t> KeptIndices(const std::vector<int32_t>& list, const Objects& objects,
                                 const ObjectFilter& filter) {
  std::vector<int32_t> kept;
  for (int32_t i : list) {
    const auto& meta = objects[static_cast<size_t>(i)].meta;
    if (filter.Matches(meta.namespace_, meta.labels)) kept.push_back(i);
  }
  return kept;
}

// A deleted object's labels: from the planned snapshot when it still has the object.
core::Labels DeletedObjectLabels(const model::Snapshot& planned, const model::ObjectDeletion& d) {
  core::Labels labels;
  const model::KindInfo* kind = model::FindKind(model::ApiGroupOf(d.api_version), d.kind);
  if (kind == nullptr) return labels;
  ForEachObjectOfKind(planned, *kind, [&](const model::ObjectMeta& meta) {
    if (meta.name == d.name && meta.namespace_ == d.namespace_) labels = meta.labels;
  });
  return labels;
}

}  // namespace

io::PlanItems FilterPlanItems(const model::Snapshot& planned, const io::PlanItems& items,
                              const ObjectFilter& filter, std::vector<model::PodDecision>* pods) {
  if (!filter.active()) return items;
  const io::PlanItems all = io::WithPrintedLists(planned, items);
  io::PlanItems out = all;
  pods->clear();
  if (all.pods != nullptr) {
    for (const model::PodDecision& d : *all.pods) {
      const model::Pod& pod = planned.pod(d.pod);
      if (filter.Matches(pod.meta.namespace_, pod.meta.labels)) pods->push_back(d);
    }
  }
  out.pods = pods;
  out.deleted_pods.clear();
  for (const model::PodDeletion& d : all.deleted_pods) {
    const model::Pod& pod = planned.pod(d.pod);
    if (filter.Matches(pod.meta.namespace_, pod.meta.labels)) out.deleted_pods.push_back(d);
  }
  out.claims = KeptIndices(all.claims, planned.resource_claims, filter);
  out.workloads.clear();
  out.workload_cycles.clear();
  for (size_t row = 0; row < all.workloads.size(); ++row) {
    const model::ObjectMeta& meta =
        planned.kueue_workloads[static_cast<size_t>(all.workloads[row])].meta;
    if (!filter.Matches(meta.namespace_, meta.labels)) continue;
    out.workloads.push_back(all.workloads[row]);
    if (row < all.workload_cycles.size()) out.workload_cycles.push_back(all.workload_cycles[row]);
  }
  out.placements = KeptIndices(all.placements, planned.placements, filter);
  out.placement_decisions =
      KeptIndices(all.placement_decisions, planned.placement_decisions, filter);
  out.manifest_works = KeptIndices(all.manifest_works, planned.manifest_works, filter);
  out.replica_sets = KeptIndices(*all.replica_sets, planned.manifest_work_replica_sets, filter);
  out.controller_revisions =
      KeptIndices(*all.controller_revisions, planned.controller_revisions, filter);
  out.federated_learnings =
      KeptIndices(*all.federated_learnings, planned.federated_learnings, filter);
  out.deleted_objects.clear();
  for (const model::ObjectDeletion& d : all.deleted_objects) {
    if (filter.Matches(d.namespace_, DeletedObjectLabels(planned, d))) {
      out.deleted_objects.push_back(d);
    }
  }
  return out;
}

}  // namespace berth::cli
