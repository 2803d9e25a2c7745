// Issue 14: a Placement (or a ManagedClusterSetBinding) naming a ManagedClusterSet that is
// not there passed without a word; each reference is now an error on the referring object.
#include "placement/cluster_set_references.h"

#include <gtest/gtest.h>

namespace berth::placement {
namespace BERTH_UNITY_ID {

model::Placement PlacementOf(std::string name, std::vector<std::string> sets) {
  model::Placement p;
  p.meta.name = std::move(name);
  p.meta.namespace_ = "ns";
  p.cluster_sets = std::move(sets);
  return p;
}

TEST(ClusterSetReferencesTest, ReportsEachMissingSetOnItsReferrer) {
  model::Snapshot s;
  model::ManagedClusterSet set;
  set.meta.name = "gpu";
  s.managed_cluster_sets.push_back(set);
  s.placements.push_back(PlacementOf("fine", {"gpu", "global"}));  // global always exists
  s.placements.push_back(PlacementOf("typo", {"gpu", "gpus"}));
  s.placements.push_back(PlacementOf("all-bound", {}));  // every bound set: nothing named
  model::ManagedClusterSetBinding good;
  good.meta.name = "gpu";
  good.meta.namespace_ = "ns";
  good.cluster_set = "gpu";
  model::ManagedClusterSetBinding dangling = good;
  dangling.meta.name = "cpu";
  dangling.cluster_set = "cpu";
  s.managed_cluster_set_bindings = {good, dangling};

  core::Diagnostics diags;
  ReportMissingClusterSets(s, diags);
  ASSERT_EQ(diags.error_count(), 2u);
  EXPECT_EQ(diags.entries()[0].error.location().object, "Placement/ns/typo");
  EXPECT_EQ(diags.entries()[0].error.location().field, "spec.clusterSets[1]");
  EXPECT_EQ(diags.entries()[0].error.code(), core::ErrorCode::kNotFound);
  EXPECT_NE(diags.entries()[0].error.message().find("ManagedClusterSet gpus doesn't exist"),
            std::string::npos);
  EXPECT_EQ(diags.entries()[1].error.location().object, "ManagedClusterSetBinding/ns/cpu");
  EXPECT_EQ(diags.entries()[1].error.location().field, "spec.clusterSet");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement
