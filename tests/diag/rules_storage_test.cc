// Storage rules over snapshots built in code (and, last, over YAML read by io): each fires
// on a minimal broken case and stays silent once fixed.
#include "diag/doctor_harness.h"
#include "diag/snapshot_builder.h"

namespace berth::diag {
namespace {

using testing::InCodeSnapshot;

// A 4-pod GPU Job in ml whose pods mount claim `data`.
InCodeSnapshot StorageTrainingJob(std::vector<std::string> modes, const std::string& phase = "Bound") {
  InCodeSnapshot b;
  b.AddNode("gpu-1", 8);
  b.AddNode("gpu-2", 8);
  b.AddStorageClass("standard", "WaitForFirstConsumer", true);
  b.AddClaim("ml", "data", std::move(modes), phase).volume_name = phase == "Bound" ? "pv-data" : "";
  b.AddJob("ml", "train", 4, 4).pod_sets[0].pod_template.volumes = {InCodeSnapshot::ClaimVolume("data")};
  return b;
}

TEST(RwoClaimMultiNode, WarnsOnReadWriteOnceSharedByAJob) {
  const std::vector<Finding> f = StorageTrainingJob({"ReadWriteOnce"}).Run("rwo-claim-multi-node");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].object.kind, "Job");
  EXPECT_EQ(f[0].object.name, "train");
  EXPECT_EQ(f[0].field, "spec.template.spec.volumes[0].persistentVolumeClaim.claimName");
  EXPECT_EQ(f[0].message,
            "claim data is ReadWriteOnce but 4 pods use it: pods on a second node fail to attach it (Multi-Attach "
            "error) and never start");
}

TEST(RwoClaimMultiNode, AnErrorForReadWriteOncePod) {
  const std::vector<Finding> f = StorageTrainingJob({"ReadWriteOncePod"}).Run("rwo-claim-multi-node");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_NE(f[0].message.find("only one of them can ever be scheduled"), std::string::npos);
}

TEST(RwoClaimMultiNode, SilentForReadWriteManyAndForPodsOnOneNode) {
  EXPECT_TRUE(StorageTrainingJob({"ReadWriteMany"}).Run("rwo-claim-multi-node").empty());
  InCodeSnapshot b;
  b.AddNode("gpu-1", 8);
  b.AddClaim("ml", "data", {"ReadWriteOnce"}, "Bound");
  b.AddPod("ml", "a", 1, "gpu-1").volumes = {InCodeSnapshot::ClaimVolume("data")};
  b.AddPod("ml", "b", 1, "gpu-1").volumes = {InCodeSnapshot::ClaimVolume("data")};
  EXPECT_TRUE(b.Run("rwo-claim-multi-node").empty());
  b.snap.pods[1].node_name = "";  // the second pod could land elsewhere
  EXPECT_EQ(b.Run("rwo-claim-multi-node").size(), 2u);
}

// A pending 4-GPU pod mounting claim `scratch`, pinned by the scheduler to `selected`.
InCodeSnapshot StoragePinned(const std::string& selected) {
  InCodeSnapshot b;
  b.AddNode("gpu-1", 8);
  b.AddNode("cpu-1", 0);
  b.AddStorageClass("local", "WaitForFirstConsumer", true);
  b.AddClaim("ml", "scratch", {"ReadWriteOnce"}, "Pending").selected_node = selected;
  b.AddPod("ml", "trainer", 4).volumes = {InCodeSnapshot::ClaimVolume("scratch")};
  return b;
}

TEST(WffcClaimPinnedElsewhere, FiresWhenTheSelectedNodeHasNoGpus) {
  const std::vector<Finding> f = StoragePinned("cpu-1").Run("wffc-claim-pinned-elsewhere");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].object.kind, "Pod");
  EXPECT_EQ(f[0].object.name, "trainer");
  EXPECT_EQ(f[0].field, "spec.volumes[0].persistentVolumeClaim.claimName");
  EXPECT_EQ(f[0].message,
            "claim scratch is pinned to node cpu-1 (volume.kubernetes.io/selected-node) but it has no GPUs and "
            "the pod requests 4: the pod cannot start");
  const std::vector<Finding> gone = StoragePinned("gpu-9").Run("wffc-claim-pinned-elsewhere");
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_NE(gone[0].message.find("but that node does not exist"), std::string::npos);
  EXPECT_TRUE(StoragePinned("gpu-1").Run("wffc-claim-pinned-elsewhere").empty());
  EXPECT_TRUE(StoragePinned("").Run("wffc-claim-pinned-elsewhere").empty());
}

TEST(WffcClaimPinnedElsewhere, FiresWhenTheBoundLocalPvIsOnAnotherNode) {
  InCodeSnapshot b = StoragePinned("");
  b.snap.persistent_volume_claims[0].phase = "Bound";
  b.snap.persistent_volume_claims[0].volume_name = "local-pv";
  b.AddLocalVolume("local-pv", "local", "cpu-1");
  const std::vector<Finding> f = b.Run("wffc-claim-pinned-elsewhere");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].message,
            "claim scratch is bound to PV local-pv, reachable only from node(s) cpu-1 (cpu-1: it has no GPUs and "
            "the pod requests 4): the pod can run on none of them");
  b.snap.persistent_volumes[0].node_affinity->terms[0].match_expressions[0].values = {"gpu-1"};
  EXPECT_TRUE(b.Run("wffc-claim-pinned-elsewhere").empty());
}

TEST(PvcStorageClassMissing, AnErrorForAnUnknownClass) {
  InCodeSnapshot b;
  b.AddStorageClass("standard", "WaitForFirstConsumer", true);
  b.AddClaim("ml", "data", {"ReadWriteOnce"}, "Pending").storage_class_name = "fast-ssd";
  const std::vector<Finding> f = b.Run("pvc-storage-class-missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].object.kind, "PersistentVolumeClaim");
  EXPECT_EQ(f[0].field, "spec.storageClassName");
  EXPECT_EQ(f[0].message,
            "names StorageClass fast-ssd, which cluster default does not have (it has standard): no volume is "
            "ever provisioned and its pods stay Pending");
  b.snap.persistent_volume_claims[0].storage_class_name = "standard";
  EXPECT_TRUE(b.Run("pvc-storage-class-missing").empty());
}

TEST(PvcStorageClassMissing, AWarningWithoutADefaultClass) {
  InCodeSnapshot b;
  b.AddStorageClass("standard", "WaitForFirstConsumer", false);
  b.AddClaim("ml", "data", {"ReadWriteOnce"}, "Pending");
  const std::vector<Finding> f = b.Run("pvc-storage-class-missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_NE(f[0].message.find("has no default class"), std::string::npos);
  b.snap.storage_classes[0].is_default = true;
  EXPECT_TRUE(b.Run("pvc-storage-class-missing").empty());
}

TEST(PvcUnboundForGpuPod, MissingLostAndImmediatePending) {
  InCodeSnapshot b;
  b.AddNode("gpu-1", 8);
  b.AddStorageClass("ebs", "Immediate", true);
  b.AddStorageClass("local", "WaitForFirstConsumer", false);
  b.AddClaim("ml", "lost", {"ReadWriteOnce"}, "Lost").volume_name = "pv-9";
  b.AddClaim("ml", "pending", {"ReadWriteOnce"}, "Pending");
  b.AddClaim("ml", "later", {"ReadWriteOnce"}, "Pending").storage_class_name = "local";
  b.AddPod("ml", "a", 2).volumes = {InCodeSnapshot::ClaimVolume("nope")};
  b.AddPod("ml", "b", 2).volumes = {InCodeSnapshot::ClaimVolume("lost")};
  b.AddPod("ml", "c", 2).volumes = {InCodeSnapshot::ClaimVolume("pending")};
  b.AddPod("ml", "d", 2).volumes = {InCodeSnapshot::ClaimVolume("later")};  // WaitForFirstConsumer: normal
  b.AddPod("ml", "e", 0).volumes = {InCodeSnapshot::ClaimVolume("nope")};   // not a GPU pod
  const std::vector<Finding> f = b.Run("pvc-unbound-for-gpu-pod");
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].object.name, "a");
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].message,
            "uses claim nope, which namespace ml does not have: the pod (2 GPU(s)) is unschedulable "
            "(persistentvolumeclaim \"nope\" not found)");
  EXPECT_EQ(f[1].object.name, "b");
  EXPECT_EQ(f[1].severity, Severity::kError);
  EXPECT_NE(f[1].message.find("which is Lost (its PersistentVolume pv-9 is gone)"), std::string::npos);
  EXPECT_EQ(f[2].object.name, "c");
  EXPECT_EQ(f[2].severity, Severity::kWarning);
  EXPECT_EQ(f[2].message,
            "uses claim pending, which is Pending (StorageClass ebs, Immediate binding): the scheduler refuses the "
            "pod (2 GPU(s)) until it binds (pod has unbound immediate PersistentVolumeClaims)");
}

TEST(LocalPvMissesGpuNodes, FiresWhenEveryLocalPvIsOnCpuNodes) {
  InCodeSnapshot b;
  b.AddNode("gpu-1", 8);
  b.AddNode("cpu-1", 0);
  b.AddNode("cpu-2", 0);
  b.AddStorageClass("local-nvme", "WaitForFirstConsumer", false, "kubernetes.io/no-provisioner");
  b.AddLocalVolume("pv-a", "local-nvme", "cpu-1");
  b.AddLocalVolume("pv-b", "local-nvme", "cpu-2");
  b.AddClaim("ml", "scratch", {"ReadWriteOnce"}, "Pending").storage_class_name = "local-nvme";
  b.AddJob("ml", "train", 1, 8).pod_sets[0].pod_template.volumes = {InCodeSnapshot::ClaimVolume("scratch")};
  const std::vector<Finding> f = b.Run("local-pv-misses-gpu-nodes");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].object.kind, "PersistentVolumeClaim");
  EXPECT_EQ(f[0].object.name, "scratch");
  EXPECT_EQ(f[0].message,
            "GPU workload Job/train needs this claim of local class local-nvme, but its 2 unclaimed PV(s) are on "
            "node(s) cpu-1, cpu-2 without GPUs: no node has both the volume and the GPUs (didn't find available "
            "persistent volumes to bind)");
  b.AddLocalVolume("pv-c", "local-nvme", "gpu-1");
  EXPECT_TRUE(b.Run("local-pv-misses-gpu-nodes").empty());
}

}  // namespace
}  // namespace berth::diag

namespace berth::diag {
namespace {

// Claims and classes read from YAML by io.
TEST(StorageRulesFromYaml, MissingClassAndUnboundClaim) {
  const std::string yaml = testing::GpuNode("gpu-1", 8) +
      "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: standard\n"
      "  annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}\n"
      "provisioner: ebs.csi.aws.com\nvolumeBindingMode: Immediate\n---\n"
      "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: ml}\n"
      "spec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: fast-ssd\n"
      "  resources: {requests: {storage: 10Gi}}\nstatus: {phase: Pending}\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata: {name: train, namespace: ml}\nspec:\n"
      "  containers: [{name: c, image: trainer, resources: {limits: {nvidia.com/gpu: \"1\"}}}]\n"
      "  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]\n";
  const testing::RuleRun missing = testing::RunRule("pvc-storage-class-missing", yaml);
  ASSERT_TRUE(missing.read_errors.empty()) << missing.read_errors[0];
  ASSERT_EQ(missing.findings.size(), 1u);
  EXPECT_EQ(missing.findings[0].severity, Severity::kError);
  EXPECT_EQ(missing.findings[0].object.name, "data");
  const testing::RuleRun unbound = testing::RunRule("pvc-unbound-for-gpu-pod", yaml);
  ASSERT_EQ(unbound.findings.size(), 1u);
  EXPECT_EQ(unbound.findings[0].object.name, "train");
  EXPECT_EQ(unbound.findings[0].field, "spec.volumes[0].persistentVolumeClaim.claimName");
}

}  // namespace
}  // namespace berth::diag
