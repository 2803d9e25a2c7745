// FindTopologyAssignment: the semantics of Kueue's TestFindTopologyAssignments cases
// (pkg/cache/scheduler/tas_cache_test.go) with upstream's default feature gates
// (TASProfileMixed on: unconstrained pod sets use LeastFreeCapacity).
#include "queueing/topology_assigner.h"

#include <gtest/gtest.h>

#include "queueing/topology_fixtures.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using tas_testing::kBlock;
using tas_testing::kHost;
using tas_testing::kRack;
using tas_testing::Place;
using tas_testing::Preferred;
using tas_testing::Required;
using tas_testing::TasFixture;
using tas_testing::TasNode;
using tas_testing::Unconstrained;
using tas_testing::WithSlices;

// b1: r1 {x3}, r2 {x5, x1, x6}; b2: r1 {x2}, r2 {x4}. One cpu and ten pods per host, but
// x4 with two cpus and 40 pods.
void AddDefaultNodes(TasFixture& f) {
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 1000).Memory(testing::kGi));
  f.Add(TasNode("b1-r2-x5", "b1", "r2", "x5", 1000).Memory(testing::kGi));
  f.Add(TasNode("b1-r2-x1", "b1", "r2", "x1", 1000).Memory(testing::kGi));
  f.Add(TasNode("b1-r2-x6", "b1", "r2", "x6", 1000).Memory(testing::kGi));
  f.Add(TasNode("b2-r2-x2", "b2", "r1", "x2", 1000).Memory(testing::kGi));
  f.Add(TasNode("b2-r2-x4", "b2", "r2", "x4", 2000, 40).Memory(4 * testing::kGi));
}

// b1: r1 {x3: 4 cpu, x5: 1, x1: 1}; b2: r1 {x6: 2, x2: 1}.
void AddScatteredNodes(TasFixture& f) {
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 4000));
  f.Add(TasNode("b1-r1-x5", "b1", "r1", "x5", 1000));
  f.Add(TasNode("b1-r1-x1", "b1", "r1", "x1", 1000));
  f.Add(TasNode("b2-r1-x6", "b2", "r1", "x6", 2000));
  f.Add(TasNode("b2-r1-x2", "b2", "r1", "x2", 1000));
}

TEST(TopologyAssignerTest, MinimizesRacksBeforeNodes) {
  // Fewest nodes would be r1+r2 (x3, x5); fewest racks is r3 with four 1-cpu nodes.
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 2000));
  f.Add(TasNode("b1-r2-x5", "b1", "r2", "x5", 2000, 20));
  f.Add(TasNode("b1-r3-x1", "b1", "r3", "x1", 1000));
  f.Add(TasNode("b1-r3-x6", "b1", "r3", "x6", 1000));
  f.Add(TasNode("b1-r3-x2", "b1", "r3", "x2", 1000));
  f.Add(TasNode("b1-r3-x4", "b1", "r3", "x4", 1000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 4, Required(kBlock))), "x1:1,x2:1,x4:1,x6:1");
}

TEST(TopologyAssignerTest, ChoosesTheNodeThatHoldsAllPods) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 2000));
  f.Add(TasNode("b1-r1-x5", "b1", "r1", "x5", 1000));
  f.Add(TasNode("b1-r1-x1", "b1", "r1", "x1", 1000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 2, Required(kBlock))), "x3:2");
}

TEST(TopologyAssignerTest, ImpliedUnconstrainedFillsLeastFreeNodesFirst) {
  // No annotation on a TAS flavor means unconstrained; LeastFreeCapacity takes the fullest
  // hosts first, across blocks, although one rack could hold all six pods.
  TasFixture f(tas_testing::ThreeLevels());
  AddScatteredNodes(f);
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 6)), "x1:1,x3:1,x5:1,x2:1,x6:2");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 6, Unconstrained())), "x1:1,x3:1,x5:1,x2:1,x6:2");
}

TEST(TopologyAssignerTest, UnconstrainedSinglePodTakesTheFirstLeastFreeHost) {
  TasFixture f(tas_testing::ThreeLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1, Unconstrained())), "x3:1");
}

TEST(TopologyAssignerTest, BlockRequiredSpreadsOverHostsOfOneBlock) {
  // Two blocks of two racks of two 1-cpu hosts.
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 1000));
  f.Add(TasNode("b1-r1-x5", "b1", "r1", "x5", 1000));
  f.Add(TasNode("b1-r2-x1", "b1", "r2", "x1", 1000));
  f.Add(TasNode("b1-r2-x6", "b1", "r2", "x6", 1000));
  f.Add(TasNode("b2-r1-x2", "b2", "r1", "x2", 1000));
  f.Add(TasNode("b2-r1-x4", "b2", "r1", "x4", 1000));
  f.Add(TasNode("b2-r2-x7", "b2", "r2", "x7", 1000));
  f.Add(TasNode("b2-r2-x8", "b2", "r2", "x8", 1000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 4, Required(kBlock))), "x3:1,x5:1,x1:1,x6:1");
}

TEST(TopologyAssignerTest, HostRequiredPicksTheTightestHost) {
  TasFixture f(tas_testing::ThreeLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1, Required(kHost))), "x3:1");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 2, Required(kHost))), "x4:2");
}

TEST(TopologyAssignerTest, RackRequiredBestFitsARack) {
  TasFixture f(tas_testing::TwoLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  // Without a hostname level, the assignment names every level.
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1, Required(kRack))), "b1/r1:1");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 2, Required(kRack))), "b2/r2:2");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 3, Required(kRack))), "b1/r2:3");
  EXPECT_EQ(Place(s, f.Request({{"memory", 1024}}, 4, Required(kRack))), "b1/r1:4");
}

TEST(TopologyAssignerTest, RackRequiredFailsWithKueueMessage) {
  TasFixture f(tas_testing::TwoLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  core::Result<model::TopologyAssignment> a =
      FindTopologyAssignment(s, f.Request({{"cpu", 1000}}, 4, Required(kRack)));
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().code(), core::ErrorCode::kResourceExhausted);
  EXPECT_EQ(a.error().message(), "topology \"default\" allows to fit only 3 out of 4 pod(s)");
}

TEST(TopologyAssignerTest, BlockRequiredDescendsToTheTightestRack) {
  TasFixture f(tas_testing::TwoLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1, Required(kBlock))), "b2/r1:1");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 4, Required(kBlock))), "b1/r1:1,b1/r2:3");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 5, Required(kBlock))),
            "error: topology \"default\" allows to fit only 4 out of 5 pod(s)");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 4000}}, 1, Required(kBlock))),
            "error: topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 4; "
            "excluded: resource \"cpu\": 4");
}

TEST(TopologyAssignerTest, PreferredClimbsToTheLevelThatFits) {
  TasFixture f(tas_testing::TwoLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 4, Preferred(kRack))), "b1/r1:1,b1/r2:3");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 6, Preferred(kRack))), "b1/r1:1,b1/r2:3,b2/r2:2");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 6, Preferred(kBlock))), "b1/r1:1,b1/r2:3,b2/r2:2");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 10, Preferred(kBlock))),
            "error: topology \"default\" allows to fit only 7 out of 10 pod(s)");
}

TEST(TopologyAssignerTest, PreferredAtTheTopLevelBestFitsTheLastDomain) {
  TasFixture f({kBlock});
  f.Add(testing::NodeBuilder("n1").Label(kBlock, "b1").Cpu(2000).Pods(20));
  f.Add(testing::NodeBuilder("n2").Label(kBlock, "b2").Cpu(1000).Pods(10));
  f.Add(testing::NodeBuilder("n3").Label(kBlock, "b3").Cpu(4000).Pods(40));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 5, Preferred(kBlock))), "b2:1,b3:4");
}

TEST(TopologyAssignerTest, UnknownLevelsAndEmptyLevelsAreReported) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(testing::NodeBuilder("no-host")
            .Label(kBlock, "b1")
            .Label(kRack, "r1")
            .NoLabel(kHost)
            .Cpu(1000));
  TopologySnapshot s = f.Snapshot();
  core::Result<model::TopologyAssignment> a =
      FindTopologyAssignment(s, f.Request({{"cpu", 1000}}, 1, Required(kRack)));
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().code(), core::ErrorCode::kFailedPrecondition);
  EXPECT_EQ(a.error().message(), "no topology domains at level: cloud.com/topology-rack");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1, Required("zone"))),
            "error: no requested topology level: zone");
}

TEST(TopologyAssignerTest, ExclusionStatsNameEveryReason) {
  TasFixture f({kHost});
  f.Add(testing::NodeBuilder("x1").Taint("key", "value").Cpu(1000));
  f.Add(testing::NodeBuilder("x2").Label("zone", "zone-b").Cpu(1000));
  f.Add(testing::NodeBuilder("x3").Label("zone", "zone-b").Cpu(2000));
  f.Add(testing::NodeBuilder("x4").Label("zone", "zone-a").Cpu(100));
  model::Pod pod =
      testing::PodBuilder("tmpl").NodeSelector("zone", "zone-a").Build(f.model().resources);
  TopologySnapshot s = f.Snapshot();
  TopologyPodSetRequest r = f.Request({{"cpu", 1000}}, 1, Required(kHost));
  r.pod_template = &pod;
  EXPECT_EQ(Place(s, r),
            "error: topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 4; "
            "excluded: nodeSelector: 2, resource \"cpu\": 1, taint \"key=value:NoSchedule\": 1");
}

TEST(TopologyAssignerTest, LimitingResourceTiesGoToTheFirstName) {
  TasFixture f({kHost});
  f.Add(testing::NodeBuilder("dual-shortage").Cpu(500).Allocatable("example.com/gpu", 0));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}, {"example.com/gpu", 1}}, 1, Required(kHost))),
            "error: topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; "
            "excluded: resource \"cpu\": 1");
}

TEST(TopologyAssignerTest, CountsPodsAgainstAllocatablePods) {
  TasFixture f({kHost});
  f.Add(testing::NodeBuilder("x3").Cpu(1000).Pods(1));
  f.Add(testing::PodBuilder("running")
            .NodeName("x3")
            .Phase(model::PodPhase::kRunning)
            .Container({{"cpu", 300}}));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 300}}, 1, Required(kHost))),
            "error: topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; "
            "excluded: resource \"pods\": 1");
}

TEST(TopologyAssignerTest, SkipsNodesWithUntoleratedTaints) {
  TasFixture f({kHost});
  f.Add(testing::NodeBuilder("x1").Taint("example.com/gpu", "present").Cpu(4000));
  f.Add(
      testing::NodeBuilder("x2").Taint("soft", "", core::TaintEffect::kPreferNoSchedule).Cpu(1000));
  TopologySnapshot s = f.Snapshot();
  // PreferNoSchedule does not exclude; the tainted 4-cpu host does.
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1, Required(kHost))), "x2:1");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 2, Required(kHost))),
            "error: topology \"default\" allows to fit only 1 out of 2 pod(s). Total nodes: 2; "
            "excluded: taint \"example.com/gpu=present:NoSchedule\": 1");

  model::Pod pod = testing::PodBuilder("tmpl")
                       .Toleration("example.com/gpu", core::TolerationOp::kEqual, "present")
                       .Build(f.model().resources);
  TopologyPodSetRequest tolerated = f.Request({{"cpu", 1000}}, 2, Required(kHost));
  tolerated.pod_template = &pod;
  EXPECT_EQ(Place(s, tolerated), "x1:2");

  TopologyPodSetRequest by_flavor = f.Request({{"cpu", 1000}}, 2, Required(kHost));
  by_flavor.flavor_tolerations.push_back(
      core::Toleration{"example.com/gpu", core::TolerationOp::kExists, "", std::nullopt, {}});
  EXPECT_EQ(Place(s, by_flavor), "x1:2");
}

TEST(TopologyAssignerTest, FlavorTolerationsFromTheSnapshotApply) {
  TasFixture f({kHost});
  f.Add(testing::NodeBuilder("x1").Taint("dedicated", "tas").Cpu(1000));
  f.flavor().tolerations.push_back(
      core::Toleration{"dedicated", core::TolerationOp::kEqual, "tas", std::nullopt, {}});
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1)), "x1:1");
}

TEST(TopologyAssignerTest, HonoursNodeSelectorAndRequiredAffinity) {
  TasFixture f({kHost});
  f.Add(testing::NodeBuilder("x1").Label("zone", "a").Label("gpu", "h100").Cpu(1000));
  f.Add(testing::NodeBuilder("x2").Label("zone", "b").Label("gpu", "h100").Cpu(4000));
  f.Add(testing::NodeBuilder("x3").Label("zone", "b").Label("gpu", "a100").Cpu(4000));
  model::Pod selector =
      testing::PodBuilder("s").NodeSelector("zone", "b").Build(f.model().resources);
  model::Pod affinity = testing::PodBuilder("a")
                            .RequiredNodeAffinity(testing::ExprTerm(
                                {testing::Req("gpu", core::SelectorOp::kIn, {"h100"})}))
                            .Build(f.model().resources);
  TopologySnapshot s = f.Snapshot();
  TopologyPodSetRequest r = f.Request({{"cpu", 1000}}, 1, Required(kHost));
  r.pod_template = &selector;
  EXPECT_EQ(Place(s, r), "x2:1");  // x1 is out; x2 and x3 tie, x2 first
  r.pod_template = &affinity;
  EXPECT_EQ(Place(s, r), "x1:1");  // x3 is out; x1 is the tightest
  r.count = 6;
  EXPECT_EQ(Place(s, r),
            "error: topology \"default\" allows to fit only 4 out of 6 pod(s). Total nodes: 3; "
            "excluded: affinity: 1");
}

TEST(TopologyAssignerTest, HostSlicesInARequiredBlock) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 3000));
  f.Add(TasNode("b1-r1-x5", "b1", "r1", "x5", 3000));
  f.Add(TasNode("b1-r1-x1", "b1", "r1", "x1", 3000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 6, WithSlices(Required(kBlock), kHost, 2))),
            "x1:2,x3:2,x5:2");
  // Slice-only requests search from the top level, unconstrained.
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 6, WithSlices({}, kHost, 2))), "x1:2,x3:2,x5:2");
}

TEST(TopologyAssignerTest, HostSlicesTakeMostSlicesFirstThenTheTightestLast) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 6000));
  f.Add(TasNode("b1-r1-x5", "b1", "r1", "x5", 5000));
  f.Add(TasNode("b1-r1-x1", "b1", "r1", "x1", 4000));
  f.Add(TasNode("b1-r1-x6", "b1", "r1", "x6", 2000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 12, WithSlices(Required(kBlock), kHost, 2))),
            "x1:4,x3:6,x6:2");
}

TEST(TopologyAssignerTest, HostSlicesPreferTightHosts) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 3000));
  f.Add(TasNode("b1-r1-x5", "b1", "r1", "x5", 2000));
  f.Add(TasNode("b1-r1-x1", "b1", "r1", "x1", 2000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 4, WithSlices(Required(kBlock), kHost, 2))),
            "x1:2,x5:2");
}

TEST(TopologyAssignerTest, HostSlicesOptimizeTheLastDomain) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 4000));
  f.Add(TasNode("b1-r1-x5", "b1", "r1", "x5", 3000));
  f.Add(TasNode("b1-r1-x1", "b1", "r1", "x1", 2000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 6, WithSlices(Required(kBlock), kHost, 2))),
            "x1:2,x3:4");
}

TEST(TopologyAssignerTest, HostSlicesOfThreeAcrossUnbalancedBlocks) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 3000));
  f.Add(TasNode("b1-r1-x5", "b1", "r1", "x5", 3000));
  f.Add(TasNode("b1-r1-x1", "b1", "r1", "x1", 3000));
  f.Add(TasNode("b2-r1-x6", "b2", "r1", "x6", 6000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 12, WithSlices(Preferred(kBlock), kHost, 3))),
            "x1:3,x3:3,x6:6");
}

TEST(TopologyAssignerTest, RackSlicesInARequiredBlock) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 1000));
  f.Add(TasNode("b1-r1-x5", "b1", "r1", "x5", 1000));
  f.Add(TasNode("b1-r2-x1", "b1", "r2", "x1", 1000));
  f.Add(TasNode("b1-r2-x6", "b1", "r2", "x6", 1000));
  f.Add(TasNode("b1-r2-x2", "b1", "r2", "x2", 1000));
  f.Add(TasNode("b2-r1-x4", "b2", "r1", "x4", 1000));
  f.Add(TasNode("b2-r1-x7", "b2", "r1", "x7", 1000));
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 4, WithSlices(Required(kBlock), kRack, 2))),
            "x3:1,x5:1,x1:1,x2:1");
}

TEST(TopologyAssignerTest, RackSlicesAcrossBlocks) {
  TasFixture f(tas_testing::ThreeLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 4, WithSlices(Preferred(kBlock), kRack, 2))),
            "x1:1,x5:1,x4:2");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 4, WithSlices({}, kRack, 2))), "x1:1,x5:1,x4:2");
}

TEST(TopologyAssignerTest, SliceOnlyRequestIsLeastFreeAcrossBlocks) {
  TasFixture f(tas_testing::ThreeLevels());
  AddScatteredNodes(f);
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 6, WithSlices({}, kHost, 2))), "x3:4,x6:2");
}

TEST(TopologyAssignerTest, SlicesThatDoNotFitAreCountedAsSlices) {
  TasFixture f(tas_testing::ThreeLevels());
  f.Add(TasNode("b1-r1-x1", "b1", "r1", "x1", 1000));
  f.Add(TasNode("b1-r1-x2", "b1", "r1", "x2", 1000));
  f.Add(TasNode("b1-r2-x3", "b1", "r2", "x3", 1000));
  f.Add(TasNode("b1-r2-x4", "b1", "r2", "x4", 1000));
  TopologySnapshot s = f.Snapshot();
  // Four pods fit in the block, but no rack holds a slice of three.
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 6, WithSlices(Required(kBlock), kRack, 3))),
            "error: topology \"default\" doesn't allow to fit any of 2 slice(s)");

  TasFixture g(tas_testing::ThreeLevels());
  g.Add(TasNode("b1-r1-x1", "b1", "r1", "x1", 3000));
  g.Add(TasNode("b1-r2-x3", "b1", "r2", "x3", 2000));
  TopologySnapshot t = g.Snapshot();
  EXPECT_EQ(Place(t, g.Request({{"cpu", 1000}}, 6, WithSlices(Required(kBlock), kRack, 3))),
            "error: topology \"default\" allows to fit only 1 out of 2 slice(s)");
}

TEST(TopologyAssignerTest, RejectsInconsistentSliceRequests) {
  TasFixture f(tas_testing::ThreeLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1, WithSlices(Required(kHost), kBlock, 1))),
            "error: podset slice topology cloud.com/topology-block is above the podset "
            "topology kubernetes.io/hostname");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1, WithSlices(Required(kBlock), kHost, {}))),
            "error: slice topology requested, but slice size not provided");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 1, WithSlices(Required(kBlock), "nope", 1))),
            "error: no requested topology level for slices: nope");
  EXPECT_EQ(Place(s, f.Request({{"cpu", 1000}}, 3, WithSlices(Required(kBlock), kHost, 2))),
            "error: pod count 3 is not a multiple of slice size 2");
}

TEST(TopologyAssignerTest, ZeroPodsGetAnEmptyAssignment) {
  TasFixture f(tas_testing::ThreeLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  core::Result<model::TopologyAssignment> a =
      FindTopologyAssignment(s, f.Request({{"cpu", 1000}}, 0, Required(kRack)));
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->domains.empty());
  EXPECT_EQ(a->levels, std::vector<std::string>{kHost});
}

TEST(TopologyAssignerTest, SameAnswerWhateverTheNodeOrder) {
  TasFixture forward(tas_testing::ThreeLevels());
  AddScatteredNodes(forward);
  TasFixture backward(tas_testing::ThreeLevels());
  backward.Add(TasNode("b2-r1-x2", "b2", "r1", "x2", 1000));
  backward.Add(TasNode("b2-r1-x6", "b2", "r1", "x6", 2000));
  backward.Add(TasNode("b1-r1-x1", "b1", "r1", "x1", 1000));
  backward.Add(TasNode("b1-r1-x5", "b1", "r1", "x5", 1000));
  backward.Add(TasNode("b1-r1-x3", "b1", "r1", "x3", 4000));
  TopologySnapshot a = forward.Snapshot();
  TopologySnapshot b = backward.Snapshot();
  for (int32_t count = 1; count <= 9; ++count) {
    for (const model::TopologyRequest& tr :
         {Required(kBlock), Preferred(kRack), Unconstrained(), model::TopologyRequest{}}) {
      EXPECT_EQ(Place(a, forward.Request({{"cpu", 1000}}, count, tr)),
                Place(b, backward.Request({{"cpu", 1000}}, count, tr)))
          << "count " << count;
    }
  }
}

TEST(TopologyAssignerTest, PodSetsOfOneWorkloadSeeEachOther) {
  TasFixture f(tas_testing::TwoLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  std::vector<TopologyPodSetRequest> pod_sets = {f.Request({{"cpu", 1000}}, 3, Required(kRack)),
                                                 f.Request({{"cpu", 1000}}, 2, Required(kRack))};
  core::Result<std::vector<model::TopologyAssignment>> both = FindTopologyAssignments(s, pod_sets);
  ASSERT_TRUE(both.has_value());
  ASSERT_EQ(both->size(), 2u);
  EXPECT_EQ(tas_testing::Render((*both)[0]), "b1/r2:3");
  EXPECT_EQ(tas_testing::Render((*both)[1]), "b2/r2:2");
  // The snapshot is as it was: the same first pod set lands in the same rack again.
  EXPECT_EQ(Place(s, pod_sets[0]), "b1/r2:3");

  pod_sets.push_back(f.Request({{"cpu", 1000}}, 2, Required(kRack)));
  core::Result<std::vector<model::TopologyAssignment>> three = FindTopologyAssignments(s, pod_sets);
  ASSERT_FALSE(three.has_value());
  // Racks the earlier pod sets filled count as excluded by cpu.
  EXPECT_EQ(three.error().message(),
            "topology \"default\" allows to fit only 1 out of 2 pod(s). Total nodes: 4; "
            "excluded: resource \"cpu\": 2");
  EXPECT_EQ(Place(s, pod_sets[1]), "b2/r2:2");
}

TEST(TopologyAssignerTest, SupportsRequestChecksEveryNamedLevel) {
  TasFixture f(tas_testing::TwoLevels());
  AddDefaultNodes(f);
  TopologySnapshot s = f.Snapshot();
  EXPECT_TRUE(TopologySupportsRequest(s, Required(kRack)));
  EXPECT_TRUE(TopologySupportsRequest(s, model::TopologyRequest{}));
  EXPECT_FALSE(TopologySupportsRequest(s, Required(kHost)));
  EXPECT_FALSE(TopologySupportsRequest(s, WithSlices(Preferred(kBlock), kHost, 2)));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
