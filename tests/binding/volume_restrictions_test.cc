// VolumeRestrictions and NodeVolumeLimits through the Scheduler: upstream's
// TestAccessModeConflicts (pkg/scheduler/framework/plugins/volumerestrictions/
// volume_restrictions_test.go) and TestCSILimits' CSI cases (nodevolumelimits/csi_test.go),
// each case named after its upstream one, plus berth's bind state: ReadWriteOncePod users
// and attached volumes are counted by binds and released by Unbind.
#include "binding/plugins/volume_restrictions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "binding/plugins/node_volume_limits.h"
#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "support/model_builders.h"
#include "volume_test_util.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;
namespace vt = volume_testing;

// Nodes n1, n2; pods p0.. each using the claims given.
model::Snapshot Pods(const std::vector<std::vector<std::string>>& claims_of) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n1").Cpu(4000).Memory(8LL << 30));
  s.Add(NodeBuilder("n2").Cpu(4000).Memory(8LL << 30));
  for (size_t i = 0; i < claims_of.size(); ++i) {
    s.Add(PodBuilder(berth::testing::Indexed("p", static_cast<int64_t>(i)))
              .Created(static_cast<int64_t>(i))
              .Container({{"cpu", 100}}));
  }
  model::Snapshot snap = s.Build();
  for (size_t i = 0; i < claims_of.size(); ++i) vt::UseClaims(snap.pods[i], claims_of[i]);
  return snap;
}

// upstream "nothing" / "failed to get PVC": a missing claim fails PreFilter.
TEST(VolumeRestrictionsTest, MissingClaimRejectsEveryNode) {
  model::Snapshot snap = Pods({{"claim-with-rwop-1"}});
  Scheduler s(snap, model::SchedulerConfig{});
  const PodExplanation e = s.Explain(model::PodIndex{0});
  EXPECT_EQ(FilterReason(e, snap, "n1", kVolumeRestrictions),
            R"(persistentvolumeclaim "claim-with-rwop-1" not found)");
}

// upstream "no access mode conflict" and "access mode conflict, unschedulable": a
// ReadWriteOncePod claim in use by a placed pod fails the pod on every node.
TEST(VolumeRestrictionsTest, ReadWriteOncePodConflict) {
  model::Snapshot snap = Pods({{"rwop"}, {"rwop"}, {"rwo"}, {"rwo"}});
  snap.persistent_volume_claims = {vt::ClaimB("rwop", "").BoundTo("v1").Modes({"ReadWriteOncePod"}),
                                   vt::ClaimB("rwo", "").BoundTo("v2")};
  snap.persistent_volumes = {vt::VolumeB("v1", "").ClaimRef("rwop"),
                             vt::VolumeB("v2", "").ClaimRef("rwo")};
  snap.persistent_volumes[0].access_modes = {"ReadWriteOncePod"};
  for (bool use_index : {true, false}) {
    Scheduler s(snap, model::SchedulerConfig{}, SchedulerOptions(use_index));
    EXPECT_EQ(FilterReason(s.Explain(model::PodIndex{0}), snap, "n1", kVolumeRestrictions), "");
    EXPECT_TRUE(s.ScheduleOne(model::PodIndex{0}).node.has_value());
    EXPECT_EQ(FilterReason(s.Explain(model::PodIndex{1}), snap, "n2", kVolumeRestrictions),
              kReasonReadWriteOncePodConflict);
    EXPECT_EQ(s.ScheduleOne(model::PodIndex{1}).message,
              "0/2 nodes are available: 2 node has pod using PersistentVolumeClaim with the same "
              "name and ReadWriteOncePod access mode.");
    // ReadWriteOnce across pods is not refused (upstream does not).
    EXPECT_TRUE(s.ScheduleOne(model::PodIndex{2}).node.has_value());
    EXPECT_TRUE(s.ScheduleOne(model::PodIndex{3}).node.has_value());
    // The first user leaves: the claim is free again.
    s.Unbind(model::PodIndex{0});
    EXPECT_TRUE(s.ScheduleOne(model::PodIndex{1}).node.has_value());
  }
}

// upstream "access mode conflict" with the user bound in the input.
TEST(VolumeRestrictionsTest, InputBoundUserConflicts) {
  model::Snapshot snap = Pods({{"rwop"}, {"rwop"}});
  snap.pods[0].node_name = "n1";
  snap.persistent_volume_claims = {
      vt::ClaimB("rwop", "").BoundTo("v1").Modes({"ReadWriteOncePod"})};
  snap.persistent_volumes = {vt::VolumeB("v1", "").ClaimRef("rwop")};
  Scheduler s(snap, model::SchedulerConfig{});
  EXPECT_FALSE(s.ScheduleOne(model::PodIndex{1}).node.has_value());
}

constexpr const char* kEbs = "ebs.csi.aws.com";

// TestCSILimits "fits when node volume limit >= new pods CSI volume" and "doesn't when node
// volume limit <= pods CSI volume": n1 allows 2 volumes of the driver, n2 none.
TEST(NodeVolumeLimitsTest, CsiLimits) {
  model::Snapshot snap = Pods({{"a"}, {"b"}, {"c"}, {"c"}});
  for (const char* c : {"a", "b", "c"}) {
    snap.persistent_volume_claims.push_back(vt::ClaimB(c, "").BoundTo(std::string("v-") + c));
    snap.persistent_volumes.push_back(
        vt::VolumeB(std::string("v-") + c, "").ClaimRef(c).Csi(kEbs, std::string("h-") + c));
  }
  snap.csi_nodes = {vt::CsiNode("n1", kEbs, 2), vt::CsiNode("n2", kEbs, 0)};
  for (bool use_index : {true, false}) {
    Scheduler s(snap, model::SchedulerConfig{}, SchedulerOptions(use_index));
    EXPECT_EQ(FilterReason(s.Explain(model::PodIndex{0}), snap, "n2", kNodeVolumeLimits),
              kReasonMaxVolumeCount);
    EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{0})), "n1");
    EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{1})), "n1");
    const model::PodDecision full = s.ScheduleOne(model::PodIndex{2});
    EXPECT_EQ(full.message, "0/2 nodes are available: 2 node(s) exceed max volume count.");
    // "new pod's volume already attached": a volume the node has counts nothing new.
    s.Unbind(model::PodIndex{1});
    EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{2})), "n1");
    EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{3})), "n1");
  }
}

// TestCSILimits "should count pending PVCs": an unbound claim counts against its class's
// provisioner; a node without a CSINode has no limit.
TEST(NodeVolumeLimitsTest, UnboundClaimCountsAgainstProvisioner) {
  model::Snapshot snap = Pods({{"pending"}});
  snap.storage_classes = {vt::Class("gp3", "WaitForFirstConsumer", kEbs)};
  snap.persistent_volume_claims = {vt::ClaimB("pending", "gp3")};
  snap.csi_nodes = {vt::CsiNode("n1", kEbs, 0)};
  Scheduler s(snap, model::SchedulerConfig{});
  const PodExplanation e = s.Explain(model::PodIndex{0});
  EXPECT_EQ(FilterReason(e, snap, "n1", kNodeVolumeLimits), kReasonMaxVolumeCount);
  EXPECT_EQ(FilterReason(e, snap, "n2", kNodeVolumeLimits), "");
  EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{0})), "n2");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
