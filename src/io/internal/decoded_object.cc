// Copies rather than moves: a cached object is appended to every later read's state until
// it changes, and the plan consumes the snapshot it is given.
#include "io/internal/decoded_object.h"

#include <type_traits>

namespace berth::io::internal {

namespace {

template <typename T>
void AppendList(const std::vector<T>& from, int32_t document_offset, std::vector<T>* to) {
  for (const T& object : from) {
    to->push_back(object);
    if constexpr (requires(T t) { t.source.document; }) {
      model::SourceRef& source = to->back().source;
      if (source.valid()) source.document += document_offset;
    }
  }
}

// ForEachList names every member of model::Snapshot; a member added there without a line
// here would be dropped from every cached read. The size check makes that a compile error
// (update the figure once the new list has its line).
static_assert(sizeof(model::Snapshot) == 1224 + 19 * 24,
              "model::Snapshot changed: give ForEachList its new member, then this size");

// Calls f(member, bit) for every list of model::Snapshot, bit its index (< kMaxSnapshotLists).
template <typename F>
constexpr void ForEachList(F&& f) {
  int bit = 0;
  auto each = [&](auto member) { f(member, bit++); };
  each(&model::Snapshot::nodes);
  each(&model::Snapshot::pods);
  each(&model::Snapshot::priority_classes);
  each(&model::Snapshot::namespaces);
  each(&model::Snapshot::workloads);
  each(&model::Snapshot::device_classes);
  each(&model::Snapshot::resource_claims);
  each(&model::Snapshot::resource_claim_templates);
  each(&model::Snapshot::resource_slices);
  each(&model::Snapshot::device_taint_rules);
  each(&model::Snapshot::resource_flavors);
  each(&model::Snapshot::cluster_queues);
  each(&model::Snapshot::cohorts);
  each(&model::Snapshot::local_queues);
  each(&model::Snapshot::workload_priority_classes);
  each(&model::Snapshot::topologies);
  each(&model::Snapshot::admission_checks);
  each(&model::Snapshot::kueue_workloads);
  each(&model::Snapshot::pod_groups);
  each(&model::Snapshot::training_runtimes);
  each(&model::Snapshot::managed_clusters);
  each(&model::Snapshot::cluster_claims);
  each(&model::Snapshot::managed_cluster_sets);
  each(&model::Snapshot::managed_cluster_set_bindings);
  each(&model::Snapshot::placements);
  each(&model::Snapshot::placement_decisions);
  each(&model::Snapshot::addon_placement_scores);
  each(&model::Snapshot::manifest_works);
  each(&model::Snapshot::manifest_work_replica_sets);
  each(&model::Snapshot::controller_revisions);
  each(&model::Snapshot::multikueue_configs);
  each(&model::Snapshot::multikueue_clusters);
  each(&model::Snapshot::federated_learnings);
  each(&model::Snapshot::resource_quotas);
  each(&model::Snapshot::limit_ranges);
  each(&model::Snapshot::network_policies);
  each(&model::Snapshot::service_accounts);
  each(&model::Snapshot::rbac_roles);
  each(&model::Snapshot::rbac_bindings);
  each(&model::Snapshot::persistent_volume_claims);
  each(&model::Snapshot::persistent_volumes);
  each(&model::Snapshot::storage_classes);
  each(&model::Snapshot::csi_nodes);
  each(&model::Snapshot::pod_disruption_budgets);
  each(&model::Snapshot::runtime_classes);
  each(&model::Snapshot::config_maps);
  each(&model::Snapshot::datasets);
  each(&model::Snapshot::data_runtimes);
  each(&model::Snapshot::data_loads);
  each(&model::Snapshot::serving_runtimes);
  each(&model::Snapshot::inference_services);
}

constexpr size_t ListCount() {
  size_t n = 0;
  ForEachList([&n](auto, int) { ++n; });
  return n;
}
static_assert(ListCount() <= kMaxSnapshotLists, "more Snapshot lists than ListMask has bits: widen it");

}  // namespace

void CountUnknownKind(std::vector<UnknownKind>* kinds, const std::string& api_version,
                      const std::string& kind, const std::string& file, size_t count) {
  for (UnknownKind& u : *kinds) {
    if (u.api_version == api_version && u.kind == kind) {
      u.count += count;
      return;
    }
  }
  kinds->push_back({api_version, kind, file, count});
}

ListMask ListsUsed(const model::Snapshot& snapshot) {
  ListMask used = 0;
  ForEachList([&](auto member, int bit) {
    if (!(snapshot.*member).empty()) used |= ListMask{1} << bit;
  });
  return used;
}

void ReserveLists(const std::array<size_t, kMaxSnapshotLists>& counts, model::Snapshot* to) {
  ForEachList([&](auto member, int bit) {
    auto& list = to->*member;
    list.reserve(list.size() + counts[static_cast<size_t>(bit)]);
  });
}

void AppendLists(const model::Snapshot& from, ListMask lists, int32_t document_offset,
                 model::Snapshot* to) {
  // Only the lists `lists` names are touched: a cached object has one list of one object,
  // and reading the headers of the other 28 of each would cost a read most of its time.
  ForEachList([&](auto member, int bit) {
    if ((lists & (ListMask{1} << bit)) != 0) AppendList(from.*member, document_offset, &(to->*member));
  });
}

}  // namespace berth::io::internal
