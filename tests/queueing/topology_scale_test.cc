// TAS at the shape of Kueue's scheduler performance test (test/performance/scheduler, "tas"):
// 1 block × 10 racks × 64 nodes of 96 cpu / 256Gi, with usage committed between decisions.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "queueing/topology_assigner.h"
#include "queueing/topology_fixtures.h"
#include "queueing/topology_snapshot.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using tas_testing::kRack;
using tas_testing::Preferred;
using tas_testing::Required;
using tas_testing::TasFixture;
using tas_testing::TasNode;
using tas_testing::Unconstrained;

constexpr int kRacks = 10;
constexpr int kNodesPerRack = 64;

std::string TwoDigits(int i) { return (i < 10 ? "0" : "") + std::to_string(i); }

// Hosts are named "r<rack>-n<node>", zero-padded so name order is numeric order.
TasFixture PerfTestCluster() {
  TasFixture f(tas_testing::ThreeLevels());
  for (int r = 0; r < kRacks; ++r) {
    for (int n = 0; n < kNodesPerRack; ++n) {
      std::string host = "r" + std::to_string(r) + "-n" + TwoDigits(n);
      f.Add(TasNode(host, "b1", "r" + std::to_string(r), host, 96000, 110)
                .Memory(256 * testing::kGi));
    }
  }
  return f;
}

std::set<std::string> RacksOf(const model::TopologyAssignment& a) {
  std::set<std::string> racks;
  for (const auto& d : a.domains) racks.insert(d.values[0].substr(0, d.values[0].find('-')));
  return racks;
}

int32_t PodsIn(const model::TopologyAssignment& a) {
  int32_t n = 0;
  for (const auto& d : a.domains) n += d.count;
  return n;
}

TEST(TopologyScaleTest, RackRequiredWorkloadsEachTakeAWholeRack) {
  TasFixture f = PerfTestCluster();
  TopologySnapshot s = f.Snapshot();
  ASSERT_EQ(s.leaves().size(), 640u);
  TopologyPodSetRequest whole_rack =
      f.Request({{"cpu", 96000}, {"memory", 64 * testing::kGi}}, 64, Required(kRack));
  std::set<std::string> used;
  for (int i = 0; i < kRacks; ++i) {
    core::Result<model::TopologyAssignment> a = FindTopologyAssignment(s, whole_rack);
    ASSERT_TRUE(a.has_value()) << a.error().message();
    EXPECT_EQ(a->domains.size(), 64u);
    std::set<std::string> racks = RacksOf(*a);
    ASSERT_EQ(racks.size(), 1u);
    EXPECT_TRUE(used.insert(*racks.begin()).second) << *racks.begin() << " used twice";
    s.AddUsage(*a, whole_rack.per_pod);
  }
  core::Result<model::TopologyAssignment> full = FindTopologyAssignment(s, whole_rack);
  ASSERT_FALSE(full.has_value());
  EXPECT_EQ(full.error().message(),
            "topology \"default\" doesn't allow to fit any of 64 pod(s). Total nodes: 640; "
            "excluded: resource \"cpu\": 640");
}

TEST(TopologyScaleTest, PreferredRackSpillsIntoTheFewestRacks) {
  TasFixture f = PerfTestCluster();
  TopologySnapshot s = f.Snapshot();
  core::Result<model::TopologyAssignment> a =
      FindTopologyAssignment(s, f.Request({{"cpu", 96000}}, 100, Preferred(kRack)));
  ASSERT_TRUE(a.has_value()) << a.error().message();
  EXPECT_EQ(PodsIn(*a), 100);
  EXPECT_EQ(RacksOf(*a), (std::set<std::string>{"r0", "r1"}));
}

TEST(TopologyScaleTest, SmallPodsPackIntoThePartlyUsedHosts) {
  TasFixture f = PerfTestCluster();
  TopologySnapshot s = f.Snapshot();
  TopologyPodSetRequest medium = f.Request({{"cpu", 40000}}, 10, Required(kRack));
  core::Result<model::TopologyAssignment> a = FindTopologyAssignment(s, medium);
  ASSERT_TRUE(a.has_value()) << a.error().message();
  EXPECT_EQ(tas_testing::Render(*a), "r0-n00:2,r0-n01:2,r0-n02:2,r0-n03:2,r0-n04:2");
  s.AddUsage(*a, medium.per_pod);

  // LeastFreeCapacity (unconstrained) and BestFit (required) both choose a host with 16 cpu
  // left over the hundreds of empty ones.
  EXPECT_EQ(tas_testing::Place(s, f.Request({{"cpu", 1000}}, 1, Unconstrained())), "r0-n00:1");
  EXPECT_EQ(tas_testing::Place(s, f.Request({{"cpu", 1000}}, 16, Required(kRack))), "r0-n00:16");
  // BestFit minimises hosts: one empty host beats two partly used ones.
  EXPECT_EQ(tas_testing::Place(s, f.Request({{"cpu", 8000}}, 4, Required(kRack))), "r0-n05:4");

  s.RemoveUsage(*a, medium.per_pod);
  EXPECT_EQ(tas_testing::Place(s, f.Request({{"cpu", 1000}}, 1, Unconstrained())), "r0-n00:1");
  EXPECT_EQ(tas_testing::Place(s, medium), tas_testing::Render(*a));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
