// VolumeBinding through the Scheduler: upstream's TestVolumeBinding table
// (pkg/scheduler/framework/plugins/volumebinding/volume_binding_test.go), each case named
// after it, then berth's binding state: a WaitForFirstConsumer claim takes the smallest
// fitting volume on the chosen node, later pods see that binding, two claims never take one
// volume, provisioning follows allowedTopologies, and Unbind gives the volume back.
#include "binding/plugins/volume_binding.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "random_cluster.h"
#include "support/model_builders.h"
#include "volume_test_util.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;
namespace vt = volume_testing;

constexpr const char* kWait = "wait-sc";
constexpr const char* kWaitHdd = "wait-hdd-sc";
constexpr const char* kImmediate = "immediate-sc";

// Nodes `nodes` (each labelled with its hostname), one pending pod "pod-a" using `claims`.
model::Snapshot Cluster(const std::vector<std::string>& nodes,
                        const std::vector<std::string>& claims) {
  SnapshotBuilder s;
  for (const std::string& n : nodes) s.Add(NodeBuilder(n).Cpu(4000).Memory(8LL << 30));
  s.Add(PodBuilder("pod-a").Created(1).Container({{"cpu", 100}}));
  model::Snapshot snap = s.Build();
  vt::UseClaims(snap.pods[0], claims);
  snap.storage_classes = {vt::Class(kWait, "WaitForFirstConsumer"),
                          vt::Class(kWaitHdd, "WaitForFirstConsumer"),
                          vt::Class(kImmediate, "Immediate")};
  return snap;
}

std::string Reason(const model::Snapshot& snap, const std::string& node) {
  Scheduler s(snap, model::SchedulerConfig{});
  return FilterReason(s.Explain(model::PodIndex{0}), snap, node, kVolumeBinding);
}

std::string Message(const model::Snapshot& snap) {
  Scheduler s(snap, model::SchedulerConfig{});
  return s.ScheduleOne(model::PodIndex{0}).message;
}

// upstream "pod has not pvcs": the plugin does not run for the pod.
TEST(VolumeBindingTest, PodHasNoPvcs) {
  model::Snapshot snap = Cluster({"node-a"}, {});
  EXPECT_EQ(Reason(snap, "node-a"), "<no filter>");
}

// upstream "all bound".
TEST(VolumeBindingTest, AllBound) {
  model::Snapshot snap = Cluster({"node-a"}, {"pvc-a"});
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait).BoundTo("pv-a")};
  snap.persistent_volumes = {vt::VolumeB("pv-a", kWait).ClaimRef("pvc-a")};
  EXPECT_EQ(Reason(snap, "node-a"), "");
  Scheduler s(snap, model::SchedulerConfig{});
  EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{0})), "node-a");
  EXPECT_TRUE(s.VolumeBindings().empty());
}

// upstream "PVC does not exist" and "pvc not found".
TEST(VolumeBindingTest, PvcDoesNotExist) {
  model::Snapshot snap = Cluster({"node-a"}, {"pvc-a"});
  EXPECT_EQ(Message(snap), R"(0/1 nodes are available: persistentvolumeclaim "pvc-a" not found.)");
}

// upstream "Part of PVCs do not exist".
TEST(VolumeBindingTest, PartOfPvcsDoNotExist) {
  model::Snapshot snap = Cluster({"node-a"}, {"pvc-a", "pvc-b"});
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait).BoundTo("pv-a")};
  EXPECT_EQ(Message(snap), R"(0/1 nodes are available: persistentvolumeclaim "pvc-b" not found.)");
}

// The snapshot's pods have their claims found when the scheduler is built; a pod
// replaced since (OverridePod) is looked up anew, so its own claim names count.
TEST(VolumeBindingTest, ReplacedPodIsResolvedByItsOwnClaims) {
  model::Snapshot snap = Cluster({"node-a"}, {"pvc-a"});
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait)};
  Scheduler s(snap, model::SchedulerConfig{});
  model::Pod replacement = snap.pods[0];
  replacement.volumes.clear();
  vt::UseClaims(replacement, {"pvc-a", "pvc-c"});
  s.OverridePod(model::PodIndex{0}, replacement);
  EXPECT_EQ(s.ScheduleOne(model::PodIndex{0}).message,
            R"(0/1 nodes are available: persistentvolumeclaim "pvc-c" not found.)");
}

// upstream "immediate claims not bound".
TEST(VolumeBindingTest, ImmediateClaimsNotBound) {
  model::Snapshot snap = Cluster({"node-a", "node-b"}, {"pvc-a"});
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kImmediate)};
  EXPECT_EQ(Message(snap),
            "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims.");
}

// upstream "unbound claims no matches": no volume of the class and a class that cannot
// provision (upstream's test class has no provisioner; berth's uses no-provisioner).
TEST(VolumeBindingTest, UnboundClaimsNoMatches) {
  model::Snapshot snap = Cluster({"node-a"}, {"pvc-a"});
  snap.storage_classes[0].provisioner = "kubernetes.io/no-provisioner";
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait)};
  EXPECT_EQ(Reason(snap, "node-a"), kReasonVolumeBindConflict);
  EXPECT_EQ(Message(snap),
            "0/1 nodes are available: 1 node(s) didn't find available persistent volumes to "
            "bind.");
}

// upstream "bound and unbound unsatisfied": both reasons, in upstream's order.
TEST(VolumeBindingTest, BoundAndUnboundUnsatisfied) {
  model::Snapshot snap = Cluster({"node-a"}, {"pvc-a", "pvc-b"});
  snap.nodes[0].meta.labels["foo"] = "barbar";
  snap.storage_classes[0].provisioner = "kubernetes.io/no-provisioner";
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait).BoundTo("pv-a"),
                                   vt::ClaimB("pvc-b", kWait)};
  snap.persistent_volumes = {
      vt::VolumeB("pv-a", kWait).ClaimRef("pvc-a").NodeAffinity({{"foo", {"bar"}}})};
  EXPECT_EQ(Reason(snap, "node-a"),
            std::string(kReasonVolumeNodeConflict) + ", " + std::string(kReasonVolumeBindConflict));
}

// upstream "pv not found".
TEST(VolumeBindingTest, PvNotFound) {
  model::Snapshot snap = Cluster({"node-a"}, {"pvc-a"});
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait).BoundTo("pv-a")};
  EXPECT_EQ(Reason(snap, "node-a"), kReasonVolumePVNotExist);
}

// upstream "pv not found claim lost".
TEST(VolumeBindingTest, PvNotFoundClaimLost) {
  model::Snapshot snap = Cluster({"node-a"}, {"pvc-a"});
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait).BoundTo("pv-a").Phase("Lost")};
  EXPECT_EQ(Message(snap),
            R"(0/1 nodes are available: persistentvolumeclaim "pvc-a" bound to non-existent )"
            R"(persistentvolume "pv-a".)");
}

// upstream "local volumes with close capacity are preferred" (the filter part; the
// capacity score is behind a feature gate upstream and not modelled): node-a and node-b
// have a fitting local volume, node-c none.
TEST(VolumeBindingTest, LocalVolumesWithCloseCapacity) {
  model::Snapshot snap = Cluster({"node-a", "node-b", "node-c"}, {"pvc-a"});
  snap.storage_classes[0].provisioner = "kubernetes.io/no-provisioner";
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait).Request(vt::Gi(50))};
  for (const char* n : {"pv-a-0", "pv-a-1"}) {
    snap.persistent_volumes.push_back(vt::VolumeB(n, kWait)
                                          .Capacity(vt::Gi(200))
                                          .NodeAffinity({{"kubernetes.io/hostname", {"node-a"}}}));
  }
  for (const char* n : {"pv-b-0", "pv-b-1"}) {
    snap.persistent_volumes.push_back(vt::VolumeB(n, kWait)
                                          .Capacity(vt::Gi(100))
                                          .NodeAffinity({{"kubernetes.io/hostname", {"node-b"}}}));
  }
  EXPECT_EQ(Reason(snap, "node-a"), "");
  EXPECT_EQ(Reason(snap, "node-b"), "");
  EXPECT_EQ(Reason(snap, "node-c"), kReasonVolumeBindConflict);
  Scheduler s(snap, model::SchedulerConfig{});
  const std::string node = BoundTo(snap, s.ScheduleOne(model::PodIndex{0}));
  ASSERT_EQ(s.VolumeBindings().size(), 1u);
  const PlannedVolumeBinding& b = s.VolumeBindings()[0];
  EXPECT_EQ(b.node, node);
  // The smallest volume on the chosen node, ties to the first name.
  EXPECT_EQ(snap.persistent_volumes[static_cast<size_t>(b.volume)].meta.name,
            node == "node-a" ? "pv-a-0" : "pv-b-0");
}

// upstream "local volumes with close capacity are preferred (multiple pvcs)": two claims of
// two classes each find a volume on node-a and node-b.
TEST(VolumeBindingTest, LocalVolumesMultiplePvcs) {
  model::Snapshot snap = Cluster({"node-a", "node-b", "node-c"}, {"pvc-0", "pvc-1"});
  snap.storage_classes[0].provisioner = "kubernetes.io/no-provisioner";
  snap.storage_classes[1].provisioner = "kubernetes.io/no-provisioner";
  snap.persistent_volume_claims = {vt::ClaimB("pvc-0", kWait).Request(vt::Gi(50)),
                                   vt::ClaimB("pvc-1", kWaitHdd).Request(vt::Gi(100))};
  const std::vector<std::pair<std::string, std::string>> volumes = {
      {"pv-a-0", kWait}, {"pv-a-1", kWait}, {"pv-a-2", kWaitHdd}, {"pv-a-3", kWaitHdd}};
  for (const auto& [name, cls] : volumes) {
    snap.persistent_volumes.push_back(vt::VolumeB(name, cls)
                                          .Capacity(vt::Gi(200))
                                          .NodeAffinity({{"kubernetes.io/hostname", {"node-a"}}}));
    std::string b = name;
    b[3] = 'b';
    snap.persistent_volumes.push_back(vt::VolumeB(b, cls)
                                          .Capacity(vt::Gi(100))
                                          .NodeAffinity({{"kubernetes.io/hostname", {"node-b"}}}));
  }
  EXPECT_EQ(Reason(snap, "node-a"), "");
  EXPECT_EQ(Reason(snap, "node-b"), "");
  EXPECT_EQ(Reason(snap, "node-c"), kReasonVolumeBindConflict);
}

// berth: two pods with two claims and one local volume: the first takes it, the second
// finds none on that node; unbinding the first gives it back.
TEST(VolumeBindingTest, TwoClaimsNeverTakeOneVolume) {
  model::Snapshot snap = Cluster({"node-a"}, {"pvc-a"});
  model::Pod second = snap.pods[0];
  second.meta.name = "pod-b";
  second.volumes.clear();
  vt::UseClaims(second, {"pvc-b"});
  snap.pods.push_back(second);
  snap.storage_classes[0].provisioner = "kubernetes.io/no-provisioner";
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait), vt::ClaimB("pvc-b", kWait)};
  snap.persistent_volumes = {
      vt::VolumeB("local-a", kWait).NodeAffinity({{"kubernetes.io/hostname", {"node-a"}}})};
  for (bool use_index : {true, false}) {
    Scheduler s(snap, model::SchedulerConfig{}, SchedulerOptions(use_index));
    EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{0})), "node-a");
    const model::PodDecision d = s.ScheduleOne(model::PodIndex{1});
    EXPECT_FALSE(d.node.has_value());
    EXPECT_EQ(d.message,
              "0/1 nodes are available: 1 node(s) didn't find available persistent volumes to "
              "bind.");
    s.Unbind(model::PodIndex{0});
    EXPECT_TRUE(s.VolumeBindings().empty());
    EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{1})), "node-a");
    ASSERT_EQ(s.VolumeBindings().size(), 1u);
    EXPECT_EQ(s.VolumeBindings()[0].claim, 1);
    EXPECT_EQ(s.VolumeBindings()[0].volume, 0);
  }
}

// berth: a WaitForFirstConsumer claim bound by the first pod pins a second pod using the
// same claim to the nodes its volume reaches (the index and the reference path agree).
TEST(VolumeBindingTest, BoundClaimSteersLaterPods) {
  model::Snapshot snap = Cluster({"node-a", "node-b", "node-c"}, {"pvc-a"});
  model::Pod second = snap.pods[0];
  second.meta.name = "pod-b";
  snap.pods.push_back(second);
  snap.storage_classes[0].provisioner = "kubernetes.io/no-provisioner";
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait)};
  snap.persistent_volumes = {
      vt::VolumeB("local-b", kWait).NodeAffinity({{"kubernetes.io/hostname", {"node-b"}}})};
  for (bool use_index : {true, false}) {
    Scheduler s(snap, model::SchedulerConfig{}, SchedulerOptions(use_index));
    EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{0})), "node-b");
    EXPECT_EQ(FilterReason(s.Explain(model::PodIndex{1}), snap, "node-a", kVolumeBinding),
              kReasonVolumeNodeConflict);
    EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{1})), "node-b");
  }
}

// berth: provisioning follows the class's allowedTopologies, and the claim then carries the
// node (selected-node), which pins the next pod using it.
TEST(VolumeBindingTest, ProvisioningFollowsAllowedTopologies) {
  model::Snapshot snap = Cluster({"node-a", "node-b"}, {"pvc-a"});
  snap.nodes[1].meta.labels["topology.kubernetes.io/zone"] = "z2";
  core::NodeSelectorTerm term;
  core::SelectorRequirement r;
  r.key = "topology.kubernetes.io/zone";
  r.op = core::SelectorOp::kIn;
  r.values = {"z2"};
  term.match_expressions.push_back(r);
  snap.storage_classes[0].allowed_topologies = core::NodeSelector{};
  snap.storage_classes[0].allowed_topologies->terms.push_back(term);
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait)};
  model::Pod second = snap.pods[0];
  second.meta.name = "pod-b";
  snap.pods.push_back(second);
  Scheduler s(snap, model::SchedulerConfig{});
  EXPECT_EQ(FilterReason(s.Explain(model::PodIndex{0}), snap, "node-a", kVolumeBinding),
            kReasonVolumeBindConflict);
  EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{0})), "node-b");
  ASSERT_EQ(s.VolumeBindings().size(), 1u);
  EXPECT_EQ(s.VolumeBindings()[0].volume, -1);
  EXPECT_EQ(s.VolumeBindings()[0].node, "node-b");
  EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{1})), "node-b");
}

// berth: a volume pre-bound to the claim (claimRef) is the claim's, on its nodes only.
TEST(VolumeBindingTest, PreboundVolumeIsTheClaims) {
  model::Snapshot snap = Cluster({"node-a", "node-b"}, {"pvc-a"});
  snap.storage_classes[0].provisioner = "kubernetes.io/no-provisioner";
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait)};
  snap.persistent_volumes = {
      vt::VolumeB("big", kWait)
          .Capacity(vt::Gi(10))
          .ClaimRef("pvc-a")
          .NodeAffinity({{"kubernetes.io/hostname", {"node-a"}}}),
      vt::VolumeB("small", kWait).NodeAffinity({{"kubernetes.io/hostname", {"node-b"}}})};
  Scheduler s(snap, model::SchedulerConfig{});
  EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{0})), "node-a");
  ASSERT_EQ(s.VolumeBindings().size(), 1u);
  EXPECT_EQ(s.VolumeBindings()[0].volume, 0);
}

// berth: capacity, access modes and selector decide which static volume matches.
TEST(VolumeBindingTest, StaticMatchChecksCapacityModesAndSelector) {
  model::Snapshot snap = Cluster({"node-a"}, {"pvc-a"});
  snap.storage_classes[0].provisioner = "kubernetes.io/no-provisioner";
  snap.persistent_volume_claims = {
      vt::ClaimB("pvc-a", kWait).Request(vt::Gi(5)).Modes({"ReadWriteMany"})};
  snap.persistent_volume_claims[0].selector = core::LabelSelector{};
  snap.persistent_volume_claims[0].selector->match_labels["tier"] = "fast";
  snap.persistent_volumes = {
      vt::VolumeB("too-small", kWait).Capacity(vt::Gi(4)).Label("tier", "fast"),
      vt::VolumeB("wrong-mode", kWait).Capacity(vt::Gi(8)).Label("tier", "fast"),
      vt::VolumeB("unlabelled", kWait).Capacity(vt::Gi(6)),
      vt::VolumeB("fits", kWait).Capacity(vt::Gi(9)).Label("tier", "fast")};
  snap.persistent_volumes[3].access_modes = {"ReadWriteOnce", "ReadWriteMany"};
  snap.persistent_volumes[2].access_modes = {"ReadWriteMany"};
  Scheduler s(snap, model::SchedulerConfig{});
  EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{0})), "node-a");
  ASSERT_EQ(s.VolumeBindings().size(), 1u);
  EXPECT_EQ(s.VolumeBindings()[0].volume, 3);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding

namespace berth::binding {
namespace BERTH_UNITY_ID {

// berth: the index decides pods with volumes exactly as the reference path, over random
// clusters (some PreferNoSchedule taints, so BestAccepting runs too) with local volumes on
// some nodes, a zone-limited provisioning class, claims bound to zoned volumes, ReadWriteOncePod
// claims shared by two pods and CSINode limits; the planned bindings agree too.
TEST(VolumeBindingTest, IndexMatchesReferenceOnRandomClusters) {
  namespace vt = volume_testing;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    model::Snapshot snap = berth::testing::RandomCluster(seed, berth::testing::ClusterFeatures{});
    berth::testing::Rng rng(seed * 7919);
    model::StorageClass local =
        vt::Class("local", "WaitForFirstConsumer", "kubernetes.io/no-provisioner");
    model::StorageClass zonal = vt::Class("zonal", "WaitForFirstConsumer", "ebs.csi.aws.com");
    zonal.allowed_topologies = core::NodeSelector{};
    core::NodeSelectorTerm term;
    core::SelectorRequirement r;
    r.key = "zone";
    r.op = core::SelectorOp::kIn;
    r.values = {"z0", "z1"};
    term.match_expressions.push_back(r);
    zonal.allowed_topologies->terms.push_back(term);
    snap.storage_classes = {local, zonal,
                            vt::Class("any", "WaitForFirstConsumer", "ebs.csi.aws.com")};
    for (const model::Node& n : snap.nodes) {
      for (int64_t d = rng.Below(3); d > 0; --d) {
        snap.persistent_volumes.push_back(
            vt::VolumeB(n.meta.name + "-disk" + std::to_string(d), "local")
                .Capacity(vt::Gi(10 * (1 + rng.Below(3))))
                .NodeAffinity({{"kubernetes.io/hostname", {n.meta.name}}}));
      }
      if (rng.Chance(70)) snap.csi_nodes.push_back(vt::CsiNode(n.meta.name, "ebs.csi.aws.com", 2));
    }
    snap.persistent_volumes.push_back(
        vt::VolumeB("zoned", "").ClaimRef("shared").Label("topology.kubernetes.io/zone", "z1"));
    snap.persistent_volume_claims.push_back(
        vt::ClaimB("shared", "").BoundTo("zoned").Modes({"ReadWriteOncePod"}));
    const char* classes[] = {"local", "zonal", "any"};
    int shared_users = 0;
    for (size_t p = 0; p < snap.pods.size(); ++p) {
      model::Pod& pod = snap.pods[p];
      if (pod.IsBound() || !pod.resource_claims.empty() || rng.Chance(30)) continue;
      const std::string claim = "data-" + pod.meta.name;
      snap.persistent_volume_claims.push_back(
          vt::ClaimB(claim, classes[rng.Below(3)]).Request(vt::Gi(5 + rng.Below(20))));
      snap.persistent_volume_claims.back().meta.namespace_ = pod.meta.namespace_;
      vt::UseClaims(pod, {claim});
      if (pod.meta.namespace_ == "default" && shared_users < 2 && rng.Chance(20)) {
        vt::UseClaims(pod, {"shared"});
        ++shared_users;
      }
    }
    Scheduler indexed(snap, model::SchedulerConfig{}, SchedulerOptions(true));
    Scheduler reference(snap, model::SchedulerConfig{}, SchedulerOptions(false));
    for (model::PodIndex pod : indexed.QueueOrder()) {
      ExpectSameDecision(indexed.ScheduleOne(pod), reference.ScheduleOne(pod),
                         "seed " + std::to_string(seed) + " pod " + std::to_string(pod.v));
    }
    const auto& a = indexed.VolumeBindings();
    const auto& b = reference.VolumeBindings();
    ASSERT_EQ(a.size(), b.size()) << "seed " << seed;
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].claim, b[i].claim) << "seed " << seed;
      EXPECT_EQ(a[i].volume, b[i].volume) << "seed " << seed;
      EXPECT_EQ(a[i].node, b[i].node) << "seed " << seed;
    }
  }
}

// berth: a claim's planned binding belongs to the pod whose bind made it and is released by
// that pod's Unbind once no placed pod uses the claim: unbinding the other user first keeps
// it; unbinding the maker while another pod still uses the claim keeps it too.
TEST(VolumeBindingTest, PlannedBindingOutlivesItsMakerWhileAnotherPodUsesTheClaim) {
  model::Snapshot snap = Cluster({"node-a", "node-b"}, {"pvc-a"});
  snap.persistent_volume_claims = {vt::ClaimB("pvc-a", kWait)};
  model::Pod second = snap.pods[0];
  second.meta.name = "pod-b";
  snap.pods.push_back(second);
  for (bool maker_first : {true, false}) {
    Scheduler s(snap, model::SchedulerConfig{});
    const std::string node = BoundTo(snap, s.ScheduleOne(model::PodIndex{0}));
    ASSERT_FALSE(node.empty());
    EXPECT_EQ(BoundTo(snap, s.ScheduleOne(model::PodIndex{1})), node);
    ASSERT_EQ(s.VolumeBindings().size(), 1u);
    EXPECT_EQ(s.VolumeBindings()[0].node, node);
    if (maker_first) {
      s.Unbind(model::PodIndex{0});
      ASSERT_EQ(s.VolumeBindings().size(), 1u);  // pod-b still uses the claim
      s.Unbind(model::PodIndex{1});
      EXPECT_EQ(s.VolumeBindings().size(), 1u);  // pod-b did not make it
    } else {
      s.Unbind(model::PodIndex{1});
      ASSERT_EQ(s.VolumeBindings().size(), 1u);
      s.Unbind(model::PodIndex{0});
      EXPECT_TRUE(s.VolumeBindings().empty());
      // Bound again, the claim is planned anew, once.
      EXPECT_FALSE(BoundTo(snap, s.ScheduleOne(model::PodIndex{0})).empty());
      EXPECT_EQ(s.VolumeBindings().size(), 1u);
    }
  }
}

// berth: a claim without storageClassName takes the default class; of several defaults the
// newest by creationTimestamp, ties to the first name (GetDefaultClass in
// pkg/volume/util/storageclass.go, which the DefaultStorageClass admission calls).
TEST(VolumeBindingTest, NewestDefaultStorageClassWins) {
  for (const bool same_time : {false, true}) {
    model::Snapshot snap = Cluster({"node-a"}, {"pvc-a"});
    model::StorageClass older = vt::Class("alpha", "Immediate");
    model::StorageClass newer = vt::Class("beta", "WaitForFirstConsumer");
    older.is_default = newer.is_default = true;
    older.meta.creation_timestamp = core::Timestamp{100};
    newer.meta.creation_timestamp = core::Timestamp{same_time ? 100 : 200};
    snap.storage_classes = {newer, older};
    snap.persistent_volume_claims = {vt::ClaimB("pvc-a", std::nullopt)};
    // "beta" provisions on the chosen node; "alpha" leaves an unbound immediate claim.
    if (same_time) {
      EXPECT_EQ(Message(snap),
                "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.");
    } else {
      EXPECT_EQ(Message(snap), "");
    }
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
