// TopologySnapshot: which nodes a TAS flavor covers, the domain tree, free capacity after
// bound pods (Kueue's non-TAS usage), and incremental usage updates.
#include "queueing/topology_snapshot.h"

#include <gtest/gtest.h>

#include "queueing/topology_fixtures.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using tas_testing::kBlock;
using tas_testing::kHost;
using tas_testing::kRack;
using tas_testing::Place;
using tas_testing::Required;
using tas_testing::TasFixture;
using tas_testing::TasNode;

std::vector<std::string> ValuesAt(const TopologySnapshot& s, int32_t level) {
  std::vector<std::string> out;
  for (TopologyDomainId d : s.domains_at(level)) {
    std::string joined;
    for (const std::string& v : s.domain(d).values) joined += (joined.empty() ? "" : "/") + v;
    out.push_back(joined);
  }
  return out;
}

int64_t RemainingOn(const TopologySnapshot& s, const std::vector<std::string>& values,
                    model::ResourceId r) {
  std::optional<int32_t> leaf = s.FindLeaf(values);
  EXPECT_TRUE(leaf.has_value());
  return leaf.has_value() ? s.Remaining(*leaf, r) : -1;
}

TEST(TopologySnapshotTest, BuildsDomainsInValueOrderWhateverTheInputOrder) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("n4", "b2", "r1", "x4", 1000));
  f.Add(TasNode("n1", "b1", "r2", "x1", 1000));
  f.Add(TasNode("n3", "b1", "r1", "x3", 1000));
  f.Add(TasNode("n2", "b1", "r2", "x2", 1000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_TRUE(s.lowest_level_is_hostname());
  EXPECT_EQ(ValuesAt(s, 0), (std::vector<std::string>{"b1", "b2"}));
  EXPECT_EQ(ValuesAt(s, 1), (std::vector<std::string>{"b1/r1", "b1/r2", "b2/r1"}));
  EXPECT_EQ(ValuesAt(s, 2),
            (std::vector<std::string>{"b1/r1/x3", "b1/r2/x1", "b1/r2/x2", "b2/r1/x4"}));
  const TopologyDomain& b1 = s.domain(s.domains_at(0)[0]);
  ASSERT_EQ(b1.children.size(), 2u);
  EXPECT_EQ(s.domain(b1.children[1]).values.back(), "r2");
  EXPECT_EQ(s.domain(b1.children[1]).parent, s.domains_at(0)[0]);
  EXPECT_EQ(s.domain(b1.children[1]).children.size(), 2u);
  ASSERT_EQ(s.leaves().size(), 4u);
  EXPECT_EQ(s.leaves()[0].node_name, "n3");
}

TEST(TopologySnapshotTest, CoversOnlySchedulableNodesOfTheFlavorAndCluster) {
  TasFixture f(tas_testing::ThreeLevels());
  f.flavor().node_labels["pool"] = "tas";
  f.Add(TasNode("in", "b1", "r1", "x1", 1000).Label("pool", "tas"));
  f.Add(TasNode("other-pool", "b1", "r1", "x2", 1000).Label("pool", "cpu"));
  f.Add(TasNode("no-pool", "b1", "r1", "x3", 1000));
  f.Add(TasNode("cordoned", "b1", "r1", "x4", 1000).Label("pool", "tas").Unschedulable());
  f.Add(TasNode("no-rack", "b1", "r1", "x5", 1000).Label("pool", "tas").NoLabel(kRack));
  f.model();
  model::Node remote =
      TasNode("remote", "b1", "r1", "x6", 1000).Label("pool", "tas").Build(f.model().resources);
  remote.cluster = "east";
  f.model().nodes.push_back(remote);
  TopologySnapshot s = f.Snapshot();
  ASSERT_EQ(s.leaves().size(), 1u);
  EXPECT_EQ(s.leaves()[0].node_name, "in");
}

TEST(TopologySnapshotTest, SubtractsBoundPodsThatStillRun) {
  TasFixture f({kHost});
  f.Add(testing::NodeBuilder("x1").Cpu(8000).Memory(16 * testing::kGi));
  f.Add(testing::PodBuilder("running")
            .NodeName("x1")
            .Phase(model::PodPhase::kRunning)
            .Container({{"cpu", 1000}}));
  // Bound but still Pending (scheduled, not started): holds capacity too.
  f.Add(testing::PodBuilder("scheduled").NodeName("x1").Container({{"cpu", 500}}));
  f.Add(testing::PodBuilder("unbound").Container({{"cpu", 4000}}));
  f.Add(testing::PodBuilder("done")
            .NodeName("x1")
            .Phase(model::PodPhase::kSucceeded)
            .Container({{"cpu", 4000}}));
  f.Add(testing::PodBuilder("failed")
            .NodeName("x1")
            .Phase(model::PodPhase::kFailed)
            .Container({{"cpu", 4000}}));
  // max(app 200 + sidecar 100, init 1000 + sidecar-before 0) + overhead 50 = 1050.
  f.Add(testing::PodBuilder("init")
            .NodeName("x1")
            .InitContainer({{"cpu", 1000}})
            .Sidecar({{"cpu", 100}, {"memory", testing::kGi}})
            .Container({{"cpu", 200}})
            .Overhead({{"cpu", 50}}));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(RemainingOn(s, {"x1"}, model::kCpu), 8000 - 1000 - 500 - 1050);
  EXPECT_EQ(RemainingOn(s, {"x1"}, model::kMemory), 15 * testing::kGi);
  EXPECT_EQ(RemainingOn(s, {"x1"}, model::kPods), 110 - 3);
}

TEST(TopologySnapshotTest, FoldsNodesIntoLeavesAboveTheHost) {
  TasFixture f(tas_testing::TwoLevels());
  f.Add(TasNode("a", "b1", "r1", "a", 1000));
  f.Add(TasNode("b", "b1", "r1", "b", 2000).Taint("gpu", "only"));
  f.Add(testing::PodBuilder("p")
            .NodeName("b")
            .Phase(model::PodPhase::kRunning)
            .Container({{"cpu", 500}}));
  TopologySnapshot s = f.Snapshot();
  EXPECT_FALSE(s.lowest_level_is_hostname());
  ASSERT_EQ(s.leaves().size(), 1u);
  EXPECT_EQ(s.leaves()[0].nodes.size(), 2u);
  EXPECT_EQ(RemainingOn(s, {"b1", "r1"}, model::kCpu), 2500);
  // Kueue filters nodes only when they are the leaves: the taint does not apply here.
  EXPECT_EQ(Place(s, f.Request({{"cpu", 500}}, 5, Required(kRack))), "b1/r1:5");
}

TEST(TopologySnapshotTest, AddAndRemoveUsageUpdateOnlyTheNamedLeaves) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("n1", "b1", "r1", "x1", 4000));
  f.Add(TasNode("n2", "b1", "r1", "x2", 4000));
  TopologySnapshot s = f.Snapshot();
  TopologyPodSetRequest r = f.Request({{"cpu", 1000}}, 6, Required(kRack));
  core::Result<model::TopologyAssignment> a = FindTopologyAssignment(s, r);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(tas_testing::Render(*a), "x1:4,x2:2");

  s.AddUsage(*a, r.per_pod);
  EXPECT_EQ(RemainingOn(s, {"b1", "r1", "x1"}, model::kCpu), 0);
  EXPECT_EQ(RemainingOn(s, {"b1", "r1", "x1"}, model::kPods), 6);
  EXPECT_EQ(RemainingOn(s, {"b1", "r1", "x2"}, model::kCpu), 2000);
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 3, Required(kRack))),
            "error: topology \"default\" allows to fit only 2 out of 3 pod(s). Total nodes: 2; "
            "excluded: resource \"cpu\": 1");

  // A node gone since admission is skipped, the rest applies.
  model::TopologyAssignment gone = *a;
  gone.domains.push_back(model::TopologyDomainAssignment{{"x9"}, 1});
  s.RemoveUsage(gone, r.per_pod);
  EXPECT_EQ(RemainingOn(s, {"b1", "r1", "x1"}, model::kCpu), 4000);
  EXPECT_EQ(RemainingOn(s, {"b1", "r1", "x2"}, model::kPods), 10);

  // The every-level form addresses the same leaves.
  model::TopologyAssignment full;
  full.levels = tas_testing::ThreeLevels();
  full.domains.push_back(model::TopologyDomainAssignment{{"b1", "r1", "x2"}, 3});
  s.AddUsage(full, r.per_pod);
  EXPECT_EQ(RemainingOn(s, {"b1", "r1", "x2"}, model::kCpu), 1000);
}

TEST(TopologySnapshotTest, EmptyTopologyHasNoLeaves) {
  TasFixture f(std::vector<std::string>{});
  f.Add(TasNode("n1", "b1", "r1", "x1", 4000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_TRUE(s.leaves().empty());
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1)), "error: topology has no levels");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
