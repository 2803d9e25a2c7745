// VolumeZone through the Scheduler: upstream's TestSingleZone, TestMultiZone and
// TestWithBinding tables (pkg/scheduler/framework/plugins/volumezone/volume_zone_test.go),
// each case named after it.
#include "binding/plugins/volume_zone.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

constexpr const char* kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr const char* kBetaRegion = "failure-domain.beta.kubernetes.io/region";
constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kRegion = "topology.kubernetes.io/region";

// Upstream's volumes and claims: PVC_<x> bound to Vol_<x>.
model::Snapshot ZoneCluster(const core::Labels& node_labels, const std::string& claim) {
  SnapshotBuilder s;
  NodeBuilder node("host1");
  node.NoLabel("kubernetes.io/hostname");
  for (const auto& [k, v] : node_labels) node.Label(k, v);
  s.Add(node.Cpu(4000).Memory(8LL << 30));
  s.Add(PodBuilder("pod_1").Created(1).Container({{"cpu", 100}}));
  model::Snapshot snap = s.Build();
  vt::UseClaims(snap.pods[0], {claim});
  auto add = [&](const std::string& vol, core::Labels labels) {
    vt::VolumeB v(vol, "");
    for (const auto& [k, val] : labels) v.Label(k, val);
    snap.persistent_volumes.push_back(v);
    snap.persistent_volume_claims.push_back(vt::ClaimB("PVC_" + vol.substr(4), "").BoundTo(vol));
  };
  add("Vol_1", {{kBetaZone, "us-west1-a"}});
  add("Vol_2", {{kBetaRegion, "us-west1"}, {"uselessLabel", "none"}});
  add("Vol_3", {{kBetaZone, "us-west1-c__us-west1-a"}});
  add("Vol_Stable_1", {{kZone, "us-west1-a"}});
  add("Vol_Stable_2", {{kRegion, "us-west1"}, {"uselessLabel", "none"}});
  add("Vol_Stable_3", {{kZone, "us-west1-a"}, {kRegion, "us-west1-a"}});
  add("Vol_Multi", {{kZone, "us-west1-c__us-west1-a"}});
  return snap;
}

std::string ZoneReason(const core::Labels& labels, const std::string& claim) {
  model::Snapshot snap = ZoneCluster(labels, claim);
  Scheduler s(snap, model::SchedulerConfig{});
  return FilterReason(s.Explain(model::PodIndex{0}), snap, "host1", kVolumeZone);
}

const std::string kConflict(kReasonVolumeZoneConflict);

// TestSingleZone.
TEST(VolumeZoneTest, SingleZone) {
  EXPECT_EQ(ZoneReason({}, "PVC_1"), "") << "node without labels";
  EXPECT_EQ(ZoneReason({{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}}, "PVC_1"), "")
      << "beta zone label matched";
  EXPECT_EQ(ZoneReason({{kBetaRegion, "us-west1"}}, "PVC_2"), "") << "beta region label matched";
  EXPECT_EQ(ZoneReason({{kBetaRegion, "no_us-west1"}}, "PVC_2"), kConflict)
      << "beta region label doesn't match";
  EXPECT_EQ(ZoneReason({{kBetaZone, "no_us-west1-a"}}, "PVC_1"), kConflict)
      << "beta zone label doesn't match";
  EXPECT_EQ(ZoneReason({{kZone, "us-west1-a"}}, "PVC_Stable_1"), "") << "zone label matched";
  EXPECT_EQ(ZoneReason({{kRegion, "us-west1"}}, "PVC_Stable_2"), "") << "region label matched";
  EXPECT_EQ(ZoneReason({{kRegion, "no_us-west1"}}, "PVC_Stable_2"), kConflict)
      << "region label doesn't match";
  EXPECT_EQ(ZoneReason({{kZone, "no_us-west1-a"}}, "PVC_Stable_1"), kConflict)
      << "zone label doesn't match";
  EXPECT_EQ(ZoneReason({{kZone, "us-west1-a"}}, "PVC_Stable_3"), kConflict)
      << "pv with zone and region, node with only zone";
  EXPECT_EQ(ZoneReason({{kBetaZone, "us-west1-a"}}, "PVC_Stable_1"), kConflict)
      << "pv with zone,node with beta zone";
  EXPECT_EQ(ZoneReason({{kZone, "us-west1-a"}}, "PVC_1"), "")
      << "pv with beta label,node with ga label, matched";
  EXPECT_EQ(ZoneReason({{kZone, "us-west1-b"}}, "PVC_1"), kConflict)
      << "pv with beta label,node with ga label, don't match";
}

// TestMultiZone: "__"-joined zone sets.
TEST(VolumeZoneTest, MultiZone) {
  EXPECT_EQ(ZoneReason({}, "PVC_3"), "") << "node without labels";
  EXPECT_EQ(ZoneReason({{kBetaZone, "us-west1-a"}}, "PVC_3"), "") << "beta zone label matched";
  EXPECT_EQ(ZoneReason({{kBetaZone, "us-west1-b"}}, "PVC_1"), kConflict)
      << "beta zone label doesn't match";
  EXPECT_EQ(ZoneReason({{kZone, "us-west1-a"}}, "PVC_Multi"), "") << "zone label matched";
  EXPECT_EQ(ZoneReason({{kZone, "us-west1-b"}}, "PVC_Stable_1"), kConflict)
      << "zone label doesn't match";
}

// TestWithBinding: unbound claims in PreFilter.
TEST(VolumeZoneTest, WithBinding) {
  auto message = [](model::PersistentVolumeClaim claim, std::vector<model::StorageClass> classes) {
    model::Snapshot snap = ZoneCluster({{kBetaZone, "us-west1-a"}}, claim.meta.name);
    snap.persistent_volume_claims.push_back(std::move(claim));
    snap.storage_classes = std::move(classes);
    Scheduler s(snap, model::SchedulerConfig{});
    PodExplanation e = s.Explain(model::PodIndex{0});
    return FilterReason(e, snap, "host1", kVolumeZone);
  };
  // "label zone failure domain matched"
  EXPECT_EQ(message(vt::ClaimB("PVC_X", "").BoundTo("Vol_1"), {}), "");
  // "unbound volume empty storage class"
  EXPECT_EQ(message(vt::ClaimB("PVC_EmptySC", ""), {}),
            "PersistentVolumeClaim had no pv name and storageClass name");
  // "unbound volume no storage class"
  EXPECT_EQ(message(vt::ClaimB("PVC_NoSC", "Class_0"), {}),
            R"(storageclasses.storage.k8s.io "Class_0" not found)");
  // "unbound volume immediate binding mode": the API server defaults the mode, so berth's
  // class always has one; an Immediate claim still has no volume.
  EXPECT_EQ(message(vt::ClaimB("PVC_ImmediateSC", "Class_Immediate"),
                    {vt::Class("Class_Immediate", "Immediate")}),
            "PersistentVolume had no name");
  // "unbound volume wait binding mode": skipped.
  EXPECT_EQ(message(vt::ClaimB("PVC_WaitSC", "Class_Wait"),
                    {vt::Class("Class_Wait", "WaitForFirstConsumer")}),
            "");
}

// berth: the filter steers a pod to the zone of its bound volume.
TEST(VolumeZoneTest, SteersToVolumeZone) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Label(kZone, "z1").Cpu(4000).Memory(8LL << 30));
  s.Add(NodeBuilder("b").Label(kZone, "z2").Cpu(4000).Memory(8LL << 30));
  s.Add(PodBuilder("p").Created(1).Container({{"cpu", 100}}));
  model::Snapshot snap = s.Build();
  vt::UseClaims(snap.pods[0], {"data"});
  snap.persistent_volume_claims = {vt::ClaimB("data", "").BoundTo("vol")};
  snap.persistent_volumes = {vt::VolumeB("vol", "").ClaimRef("data").Label(kZone, "z2")};
  for (bool use_index : {true, false}) {
    Scheduler sched(snap, model::SchedulerConfig{}, SchedulerOptions(use_index));
    EXPECT_EQ(BoundTo(snap, sched.ScheduleOne(model::PodIndex{0})), "b");
  }
  snap.persistent_volumes[0].meta.labels[kZone] = "z3";
  Scheduler sched(snap, model::SchedulerConfig{});
  EXPECT_EQ(sched.ScheduleOne(model::PodIndex{0}).message,
            "0/2 nodes are available: 2 node(s) had no available volume zone.");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
