// Kueue's injection into admitted pods: flavors' nodeLabels and tolerations, TAS pinning.
#include "dispatch/flavor_injection.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "dispatch/dispatch_fixture.h"

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

using testing::Assign;
using testing::Flavor;
using testing::Tolerate;
using testing::Topology;
using Selector = std::map<std::string, std::string>;

TEST(InjectionForTest, FlavorsInNameOrderFirstLabelWins) {
  model::Snapshot s;
  s.resource_flavors.push_back(Flavor("b-gpu", {{"zone", "z2"}, {"pool", "h100"}}));
  s.resource_flavors.push_back(Flavor("a-cpu", {{"zone", "z1"}, {"arch", "amd64"}}));
  // Two resources on a-cpu: it still counts once.
  auto a = Assign("main", {{"cpu", "a-cpu"}, {"memory", "a-cpu"}, {"nvidia.com/gpu", "b-gpu"}});
  FlavorInjection got = InjectionFor(s, testing::kHub, a);
  EXPECT_EQ(got.node_selector, (Selector{{"arch", "amd64"}, {"pool", "h100"}, {"zone", "z1"}}));
  EXPECT_TRUE(got.tolerations.empty());
}

TEST(InjectionForTest, TolerationsInFlavorOrderEachOnce) {
  model::Snapshot s;
  s.resource_flavors.push_back(Flavor("b", {}, {Tolerate("gpu"), Tolerate("spot", "true")}));
  s.resource_flavors.push_back(Flavor("a", {}, {Tolerate("gpu")}));
  FlavorInjection got =
      InjectionFor(s, testing::kHub, Assign("main", {{"cpu", "b"}, {"gpu", "a"}}));
  ASSERT_EQ(got.tolerations.size(), 2u);
  EXPECT_EQ(got.tolerations[0], Tolerate("gpu"));
  EXPECT_EQ(got.tolerations[1], Tolerate("spot", "true"));
}

TEST(InjectionForTest, MissingFlavorOrOtherClustersFlavorAddsNothing) {
  model::Snapshot s;
  s.resource_flavors.push_back(Flavor("gpu", {{"pool", "a100"}}, {Tolerate("gpu")}, "us-1"));
  FlavorInjection got = InjectionFor(s, testing::kHub, Assign("main", {{"gpu", "gpu"}}));
  EXPECT_TRUE(got.empty());
  FlavorInjection there = InjectionFor(s, "us-1", Assign("main", {{"gpu", "gpu"}}));
  EXPECT_EQ(there.node_selector, (Selector{{"pool", "a100"}}));
  EXPECT_EQ(there.tolerations.size(), 1u);
}

TEST(PodTopologySelectorTest, CountsLaidOutFlatInDomainOrder) {
  auto t = Topology({"rack", "kubernetes.io/hostname"},
                    {{{"r1", "h1"}, 2}, {{"r1", "h2"}, 0}, {{"r2", "h3"}, 1}});
  EXPECT_EQ(PodTopologySelector(t, 0),
            (Selector{{"rack", "r1"}, {"kubernetes.io/hostname", "h1"}}));
  EXPECT_EQ(PodTopologySelector(t, 1),
            (Selector{{"rack", "r1"}, {"kubernetes.io/hostname", "h1"}}));
  EXPECT_EQ(PodTopologySelector(t, 2),
            (Selector{{"rack", "r2"}, {"kubernetes.io/hostname", "h3"}}));
  EXPECT_EQ(PodTopologySelector(t, 3), std::nullopt);
  EXPECT_EQ(PodTopologySelector(t, -1), std::nullopt);
}

TEST(SharedTopologySelectorTest, OneDomainPinsEveryLevelSeveralOnlyTheShared) {
  auto one = Topology({"block", "rack", "host"}, {{{"b1", "r1", "h1"}, 4}});
  EXPECT_EQ(SharedTopologySelector(one),
            (Selector{{"block", "b1"}, {"rack", "r1"}, {"host", "h1"}}));
  auto racks =
      Topology({"block", "rack", "host"},
               {{{"b1", "r1", "h1"}, 2}, {{"b1", "r2", "h2"}, 2}, {{"b9", "r9", "h9"}, 0}});
  EXPECT_EQ(SharedTopologySelector(racks), (Selector{{"block", "b1"}}));
  auto blocks = Topology({"block", "rack"}, {{{"b1", "r1"}, 1}, {{"b2", "r2"}, 1}});
  EXPECT_TRUE(SharedTopologySelector(blocks).empty());
  EXPECT_TRUE(SharedTopologySelector(Topology({"rack"}, {})).empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
