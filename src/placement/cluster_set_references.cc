#include "placement/cluster_set_references.h"

#include <string>
#include <unordered_set>

namespace berth::placement {

void ReportMissingClusterSets(const model::Snapshot& snapshot, core::Diagnostics& diags) {
  std::unordered_set<std::string> sets;
  for (const model::ManagedClusterSet& s : snapshot.managed_cluster_sets) sets.insert(s.meta.name);
  sets.insert(kGlobalClusterSet);
  for (const model::Placement& p : snapshot.placements) {
    for (size_t i = 0; i < p.cluster_sets.size(); ++i) {
      if (sets.count(p.cluster_sets[i]) != 0) continue;
      // OCM leaves the set out of the eligible ones, as if it were not bound: the Placement
      // may still select clusters from its other sets, so the message says only what is lost.
      diags.Report(core::NotFound(
          "ManagedClusterSet " + p.cluster_sets[i] +
              " doesn't exist; the Placement selects no cluster through it",
          {"", "Placement/" + p.meta.namespace_ + "/" + p.meta.name,
           "spec.clusterSets[" + std::to_string(i) + "]"}));
    }
  }
  for (const model::ManagedClusterSetBinding& b : snapshot.managed_cluster_set_bindings) {
    if (sets.count(b.cluster_set) != 0) continue;
    // OCM's binding controller: Bound=False; no Placement in the namespace sees the set.
    diags.Report(core::NotFound(
        "ManagedClusterSet " + b.cluster_set + " doesn't exist; the binding binds nothing",
        {"", "ManagedClusterSetBinding/" + b.meta.namespace_ + "/" + b.meta.name,
         "spec.clusterSet"}));
  }
}

}  // namespace berth::placement
