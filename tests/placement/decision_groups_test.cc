// Decision groups: the cases of ocm scheduling_controller_test.go (groups by selector,
// clustersPerDecisionGroup as int and percent), by semantics.
#include "placement/decision_groups.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "placement/fleet_builder.h"

namespace berth::placement {
namespace BERTH_UNITY_ID {

using testing::Cluster;
using testing::MakePlacement;

TEST(GroupLengthTest, IntPercentAndOutOfRange) {
  auto length = [](model::IntOrPercent v, int32_t selected) {
    auto r = GroupLength(v, selected);
    return r.has_value() ? *r : -1000;
  };
  EXPECT_EQ(length({false, 3, ""}, 10), 3);
  EXPECT_EQ(length({true, 0, "25%"}, 10), 3);  // ceil(2.5)
  EXPECT_EQ(length({true, 0, "12.5%"}, 10), 2);
  EXPECT_EQ(length({true, 0, "100%"}, 10), 10);
  EXPECT_EQ(length({false, 0, ""}, 10), 10);
  EXPECT_EQ(length({false, -2, ""}, 10), 10);
  EXPECT_EQ(length({false, 11, ""}, 10), 10);
  EXPECT_EQ(length({true, 0, "150%"}, 10), 10);
  EXPECT_EQ(length({true, 0, "0%"}, 10), 10);
  for (const char* bad : {"abc", "3", "%", "x%", "5%%"}) {
    auto r = GroupLength({true, 0, bad}, 10);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().message(), std::string(bad) + " invalid type: string is not a percentage");
  }
}

TEST(GroupClustersTest, NamedGroupsFirstThenTheRestChunkedByName) {
  std::vector<model::ManagedCluster> clusters;
  for (const char* name : {"c5", "c1", "c4", "c2", "c3", "c6"}) {
    bool canary = std::string(name) == "c1" || std::string(name) == "c4";
    clusters.push_back(Cluster(name, canary ? core::Labels{{"canary", "true"}} : core::Labels{}));
  }
  std::vector<const model::ManagedCluster*> selected;
  for (const model::ManagedCluster& c : clusters) selected.push_back(&c);
  model::Placement p = MakePlacement("p");
  model::DecisionGroupSpec canary;
  canary.group_name = "canary";
  canary.group_cluster_selector.label_selector = core::LabelSelector{{{"canary", "true"}}, {}};
  model::DecisionGroupSpec nothing;
  nothing.group_name = "empty";
  nothing.group_cluster_selector.label_selector = core::LabelSelector{{{"x", "y"}}, {}};
  p.group_strategy.decision_groups = {canary, nothing};

  std::vector<ClusterGroup> groups = GroupClusters(p, selected, 3);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].name, "canary");
  EXPECT_EQ(groups[0].clusters, (std::vector<std::string>{"c1", "c4"}));
  EXPECT_EQ(groups[1].name, "");
  EXPECT_EQ(groups[1].clusters, (std::vector<std::string>{"c2", "c3", "c5"}));
  EXPECT_EQ(groups[2].clusters, (std::vector<std::string>{"c6"}));
}

TEST(GroupClustersTest, NoClustersMakeOneEmptyGroup) {
  std::vector<ClusterGroup> groups = GroupClusters(MakePlacement("p"), {}, 0);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_TRUE(groups[0].clusters.empty());
  EXPECT_EQ(groups[0].name, "");
}

TEST(GroupClustersTest, AClusterJoinsTheFirstMatchingGroup) {
  model::ManagedCluster c = Cluster("c1", {{"a", "1"}, {"b", "1"}});
  model::Placement p = MakePlacement("p");
  model::DecisionGroupSpec a{"a", {}};
  a.group_cluster_selector.label_selector = core::LabelSelector{{{"a", "1"}}, {}};
  model::DecisionGroupSpec b{"b", {}};
  b.group_cluster_selector.claim_selector = model::ClaimSelector{};
  b.group_cluster_selector.label_selector = core::LabelSelector{{{"b", "1"}}, {}};
  p.group_strategy.decision_groups = {a, b};
  std::vector<ClusterGroup> groups = GroupClusters(p, {&c}, 1);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].name, "a");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement
