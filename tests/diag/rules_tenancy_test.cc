// Tenancy rules over snapshots built in code (and, last, over YAML read by io): each fires on
// a minimal broken case with the exact object, field and values, and stays silent once fixed.
#include "diag/doctor_harness.h"
#include "diag/snapshot_builder.h"

namespace berth::diag {
namespace {

using testing::InCodeSnapshot;

// Namespace ml runs a 2-pod Job of 4 GPUs each; the cluster's dump has ServiceAccounts.
InCodeSnapshot TenancyGpuTeam() {
  InCodeSnapshot b;
  b.AddNode("gpu-1", 8);
  b.AddNamespace("ml");
  b.AddServiceAccount("ml", "default");
  b.AddJob("ml", "train", 2, 4);
  return b;
}

TEST(GpuNamespaceWithoutQuota, FiresOnTheNamespaceWithTheDemand) {
  InCodeSnapshot b = TenancyGpuTeam();
  b.AddQuota("ml", "compute", {InCodeSnapshot::Entry("requests.cpu", 64)});
  const std::vector<Finding> f = b.Run("gpu-namespace-without-quota");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].object.kind, "Namespace");
  EXPECT_EQ(f[0].object.name, "ml");
  EXPECT_TRUE(f[0].object.source.valid());
  EXPECT_EQ(f[0].message,
            "namespace ml runs 1 GPU workload(s) asking for 8 nvidia.com/gpu with no ResourceQuota on "
            "requests.<gpu> and no Kueue LocalQueue: one tenant can take every GPU of cluster default");
  EXPECT_NE(f[0].fix.find("requests.nvidia.com/gpu"), std::string::npos) << f[0].fix;
}

TEST(GpuNamespaceWithoutQuota, SilentWithAGpuQuotaOrALocalQueueOrNoTenancyDump) {
  InCodeSnapshot quota = TenancyGpuTeam();
  quota.AddQuota("ml", "gpus", {InCodeSnapshot::Entry("requests.nvidia.com/gpu", 8)});
  EXPECT_TRUE(quota.Run("gpu-namespace-without-quota").empty());

  InCodeSnapshot queued = TenancyGpuTeam();
  model::LocalQueue lq;
  lq.meta.name = "team";
  lq.meta.namespace_ = "ml";
  lq.cluster_queue = "cq";
  queued.snap.local_queues.push_back(lq);
  EXPECT_TRUE(queued.Run("gpu-namespace-without-quota").empty());

  InCodeSnapshot manifests;  // only a Job: the input says nothing about the cluster's quotas
  manifests.AddJob("ml", "train", 2, 4);
  EXPECT_TRUE(manifests.Run("gpu-namespace-without-quota").empty());

  InCodeSnapshot system = TenancyGpuTeam();
  system.AddJob("gpu-operator", "validator", 1, 1);
  system.AddQuota("ml", "gpus", {InCodeSnapshot::Entry("requests.nvidia.com/gpu", 8)});
  EXPECT_TRUE(system.Run("gpu-namespace-without-quota").empty());
}

TEST(QuotaGpuLimitsPrefix, FiresOnLimitsAndBareNames) {
  InCodeSnapshot b = TenancyGpuTeam();
  b.AddQuota("ml", "gpus",
             {InCodeSnapshot::Entry("limits.nvidia.com/gpu", 8), InCodeSnapshot::Entry("nvidia.com/gpu", 8),
              InCodeSnapshot::Entry("limits.cpu", 8), InCodeSnapshot::Entry("requests.nvidia.com/gpu", 8)});
  const std::vector<Finding> f = b.Run("quota-gpu-limits-prefix");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].object.kind, "ResourceQuota");
  EXPECT_EQ(f[0].object.name, "gpus");
  EXPECT_EQ(f[0].field, "spec.hard[limits.nvidia.com/gpu]");
  EXPECT_EQ(f[1].field, "spec.hard[nvidia.com/gpu]");
  EXPECT_EQ(f[0].message,
            "quota entry limits.nvidia.com/gpu: 8 is never enforced: for extended resources the quota counts "
            "only requests.nvidia.com/gpu, so namespace ml can use any number of nvidia.com/gpu");
  EXPECT_EQ(f[0].fix, "rename the entry to requests.nvidia.com/gpu: \"8\" (GPU requests always equal limits)");

  InCodeSnapshot fixed = TenancyGpuTeam();
  fixed.AddQuota("ml", "gpus", {InCodeSnapshot::Entry("requests.nvidia.com/gpu", 8)});
  EXPECT_TRUE(fixed.Run("quota-gpu-limits-prefix").empty());
}

// A Kueue Workload for Job ml/train (2 pods x 4 GPUs) through LocalQueue team → ClusterQueue
// cq with `nominal` GPUs, and a namespace quota of `quota` GPUs.
InCodeSnapshot TenancyKueueTeam(int64_t nominal, int64_t quota) {
  InCodeSnapshot b = TenancyGpuTeam();
  b.AddQuota("ml", "gpus", {InCodeSnapshot::Entry("requests.nvidia.com/gpu", quota)});
  model::LocalQueue lq;
  lq.meta.name = "team";
  lq.meta.namespace_ = "ml";
  lq.cluster_queue = "cq";
  b.snap.local_queues.push_back(lq);
  model::ClusterQueue cq;
  cq.meta.name = "cq";
  model::ResourceGroup group;
  group.covered_resources = {b.Gpu()};
  group.flavors.push_back(model::FlavorQuotas{"a100", {model::ResourceQuota{b.Gpu(), nominal, {}, {}}}});
  cq.resource_groups.push_back(group);
  b.snap.cluster_queues.push_back(cq);
  model::Workload w;
  w.meta.name = "job-train";
  w.meta.namespace_ = "ml";
  w.queue_name = "team";
  w.owner_workload = 0;
  model::KueuePodSet ps;
  ps.count = 2;
  ps.pod_template = b.snap.workloads[0].pod_sets[0].pod_template;
  w.pod_sets.push_back(ps);
  b.snap.kueue_workloads.push_back(w);
  return b;
}

TEST(QuotaBelowKueueAdmission, FiresWhenKueueAdmitsMoreThanTheQuota) {
  const std::vector<Finding> f = TenancyKueueTeam(16, 4).Run("quota-below-kueue-admission");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].object.kind, "ResourceQuota");
  EXPECT_EQ(f[0].field, "spec.hard[requests.nvidia.com/gpu]");
  EXPECT_EQ(f[0].message,
            "allows 4 nvidia.com/gpu in namespace ml, but Kueue can admit Job/train with 8 nvidia.com/gpu "
            "through LocalQueue team (ClusterQueue cq, nominal 16): its pods are refused (exceeded quota) after "
            "admission and waitForPodsReady evicts and requeues it");
  EXPECT_NE(f[0].fix.find("at least 8"), std::string::npos);
}

TEST(QuotaBelowKueueAdmission, SilentWhenTheQuotaHoldsTheWorkloadOrKueueCannotAdmitIt) {
  EXPECT_TRUE(TenancyKueueTeam(16, 8).Run("quota-below-kueue-admission").empty());
  // The ClusterQueue (no cohort) cannot admit 8 either: Kueue's own rules report that.
  EXPECT_TRUE(TenancyKueueTeam(6, 4).Run("quota-below-kueue-admission").empty());
}

TEST(LimitRangeGpuDefault, FiresOnDefaultsAndOnAMaxBelowARequest) {
  InCodeSnapshot b = TenancyGpuTeam();
  model::LimitRange lr;
  lr.meta.name = "limits";
  lr.meta.namespace_ = "ml";
  model::LimitRangeItem item;
  item.type = "Container";
  item.default_limits = {InCodeSnapshot::Entry("nvidia.com/gpu", 1), InCodeSnapshot::Entry("cpu", 1)};
  item.max = {InCodeSnapshot::Entry("nvidia.com/gpu", 2)};
  lr.limits.push_back(item);
  b.snap.limit_ranges.push_back(lr);
  const std::vector<Finding> f = b.Run("limitrange-gpu-default");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].object.kind, "LimitRange");
  EXPECT_EQ(f[0].field, "spec.limits[0].default[nvidia.com/gpu]");
  EXPECT_EQ(f[0].message,
            "gives every container of namespace ml that names no nvidia.com/gpu 1 nvidia.com/gpu by default: "
            "sidecars, init containers and CPU pods each take (or wait for) GPUs");
  EXPECT_EQ(f[1].field, "spec.limits[0].max[nvidia.com/gpu]");
  EXPECT_EQ(f[1].message,
            "max nvidia.com/gpu per Container is 2 but Job/train asks for 4: the API server refuses its pods "
            "(LimitRanger: maximum nvidia.com/gpu usage per Container is 2)");

  InCodeSnapshot fixed = TenancyGpuTeam();
  lr.limits[0].default_limits = {InCodeSnapshot::Entry("cpu", 1)};
  lr.limits[0].max = {InCodeSnapshot::Entry("nvidia.com/gpu", 4)};
  fixed.snap.limit_ranges.push_back(lr);
  EXPECT_TRUE(fixed.Run("limitrange-gpu-default").empty());
}

TEST(NamespaceWithoutDefaultDeny, FiresUntilAPolicyDeniesAllIngress) {
  InCodeSnapshot b = TenancyGpuTeam();
  model::NetworkPolicy allow_some;  // selects only the web pods: not a default deny
  allow_some.meta.name = "web";
  allow_some.meta.namespace_ = "ml";
  allow_some.pod_selector.match_labels = {{"app", "web"}};
  allow_some.ingress_type = true;
  b.snap.network_policies.push_back(allow_some);
  const std::vector<Finding> f = b.Run("namespace-without-default-deny");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].object.kind, "Namespace");
  EXPECT_EQ(f[0].object.name, "ml");
  EXPECT_EQ(f[0].message,
            "tenant namespace ml runs 1 GPU workload(s) but has no default-deny NetworkPolicy (podSelector {} "
            "with policyTypes [Ingress] and no ingress rules): every pod of cluster default can reach its pods");

  model::NetworkPolicy deny;
  deny.meta.name = "default-deny";
  deny.meta.namespace_ = "ml";
  deny.ingress_type = true;
  b.snap.network_policies.push_back(deny);
  EXPECT_TRUE(b.Run("namespace-without-default-deny").empty());
}

model::RbacBinding TenancyBinding(const std::string& kind, const std::string& ns, const std::string& role) {
  model::RbacBinding b;
  b.meta.name = "runner-admin";
  b.meta.namespace_ = ns;
  b.cluster_scoped = kind == "ClusterRoleBinding";
  b.role_kind = "ClusterRole";
  b.role_name = role;
  b.subjects = {{"User", "alice", ""}, {"ServiceAccount", "runner", "ml"}};
  return b;
}

TEST(ServiceAccountClusterAdmin, FiresOnClusterAdminAndStarRoles) {
  InCodeSnapshot b = TenancyGpuTeam();
  b.snap.rbac_bindings.push_back(TenancyBinding("ClusterRoleBinding", "", "cluster-admin"));
  const std::vector<Finding> f = b.Run("serviceaccount-cluster-admin");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].object.kind, "ClusterRoleBinding");
  EXPECT_EQ(f[0].object.name, "runner-admin");
  EXPECT_EQ(f[0].field, "subjects[1]");
  EXPECT_EQ(f[0].message,
            "ServiceAccount ml/runner is bound to ClusterRole cluster-admin, which grants every verb on every "
            "resource in every namespace: any pod running as it can raise its own ResourceQuota, delete "
            "NetworkPolicies and evict other tenants' GPU workloads");

  // A RoleBinding to a ClusterRole granting * on *: admin of its own namespace (and quota).
  InCodeSnapshot star = TenancyGpuTeam();
  model::RbacRole all;
  all.meta.name = "everything";
  all.cluster_scoped = true;
  all.grants_all = true;
  star.snap.rbac_roles.push_back(all);
  star.snap.rbac_bindings.push_back(TenancyBinding("RoleBinding", "ml", "everything"));
  const std::vector<Finding> g = star.Run("serviceaccount-cluster-admin");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].object.kind, "RoleBinding");
  EXPECT_NE(g[0].message.find("in namespace ml"), std::string::npos) << g[0].message;
}

TEST(ServiceAccountClusterAdmin, SilentForEditRolesAndSystemAccounts) {
  InCodeSnapshot b = TenancyGpuTeam();
  b.snap.rbac_bindings.push_back(TenancyBinding("ClusterRoleBinding", "", "edit"));
  model::RbacBinding system = TenancyBinding("ClusterRoleBinding", "", "cluster-admin");
  system.subjects = {{"ServiceAccount", "gpu-operator", "gpu-operator"}};
  b.snap.rbac_bindings.push_back(system);
  EXPECT_TRUE(b.Run("serviceaccount-cluster-admin").empty());
}

TEST(PrivilegedGpuPod, FiresInATenantNamespaceRunningGpus) {
  InCodeSnapshot b = TenancyGpuTeam();
  model::Pod& debug = b.AddPod("ml", "debug", 0);
  debug.containers[0].privileged = true;
  const std::vector<Finding> f = b.Run("privileged-gpu-pod");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].object.kind, "Pod");
  EXPECT_EQ(f[0].object.name, "debug");
  EXPECT_EQ(f[0].field, "spec.containers[0].securityContext.privileged");
  EXPECT_NE(f[0].message.find("(namespace ml runs GPU workloads)"), std::string::npos) << f[0].message;

  InCodeSnapshot fixed = TenancyGpuTeam();
  fixed.AddPod("ml", "debug", 0);
  model::Pod& plugin = fixed.AddPod("gpu-operator", "device-plugin", 0, "gpu-1");
  plugin.containers[0].privileged = true;
  EXPECT_TRUE(fixed.Run("privileged-gpu-pod").empty());
}

TEST(PrivilegedGpuPod, FiresOnAPodBoundToAGpuNode) {
  InCodeSnapshot b;
  b.AddNode("gpu-1", 8);
  model::Pod& pod = b.AddPod("web", "sidecar-injector", 0, "gpu-1");
  pod.containers[0].privileged = true;
  const std::vector<Finding> f = b.Run("privileged-gpu-pod");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("(it runs on GPU node gpu-1)"), std::string::npos) << f[0].message;
}

TEST(HostPathDevNvidia, FiresOnDevMountsInTenantPods) {
  InCodeSnapshot b = TenancyGpuTeam();
  model::Pod& pod = b.AddPod("ml", "sneaky", 0);
  pod.volumes = {{"cache", "/var/cache", ""}, {"gpus", "/dev/nvidia0", ""}};
  const std::vector<Finding> f = b.Run("hostpath-dev-nvidia");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].field, "spec.volumes[1].hostPath.path");
  EXPECT_EQ(f[0].message,
            "mounts host path /dev/nvidia0 (volume gpus) in tenant namespace ml: its containers can open GPU "
            "device nodes the device plugin never allocated to them");

  InCodeSnapshot fixed = TenancyGpuTeam();
  fixed.AddPod("ml", "sneaky", 0).volumes = {{"cache", "/var/cache", ""}};
  fixed.AddPod("gpu-operator", "driver", 0).volumes = {{"dev", "/dev", ""}};
  EXPECT_TRUE(fixed.Run("hostpath-dev-nvidia").empty());
}

TEST(NvidiaVisibleDevicesWithoutRequest, FiresOnAContainerWithoutGpus) {
  InCodeSnapshot b = TenancyGpuTeam();
  model::Pod& pod = b.AddPod("ml", "notebook", 0);
  pod.containers[0].nvidia_visible_devices = "all";
  model::Pod& trainer = b.AddPod("ml", "trainer", 1);  // asks for its GPU: the env is the plugin's business
  trainer.containers[0].nvidia_visible_devices = "all";
  const std::vector<Finding> f = b.Run("nvidia-visible-devices-without-request");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].object.name, "notebook");
  EXPECT_EQ(f[0].field, "spec.containers[0].env[NVIDIA_VISIBLE_DEVICES]");
  EXPECT_EQ(f[0].message,
            "container main sets NVIDIA_VISIBLE_DEVICES=all but requests no GPU: on a GPU node the NVIDIA "
            "runtime exposes those GPUs to it while the kubelet counts them free for other tenants");

  InCodeSnapshot fixed = TenancyGpuTeam();
  fixed.AddPod("ml", "notebook", 0).containers[0].nvidia_visible_devices = "void";
  EXPECT_TRUE(fixed.Run("nvidia-visible-devices-without-request").empty());
}

}  // namespace
}  // namespace berth::diag

namespace berth::diag {
namespace {

// The same rules over YAML read by io, as berth doctor reads a dump.
TEST(TenancyRulesFromYaml, QuotaPrefixPrivilegedPodAndDefaultDeny) {
  const std::string yaml = testing::GpuNode("gpu-1", 8) +
      "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpus, namespace: ml}\n"
      "spec:\n  hard: {limits.nvidia.com/gpu: \"8\"}\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata: {name: debug, namespace: ml}\nspec:\n  nodeName: gpu-1\n"
      "  containers:\n  - name: c\n    image: busybox\n    securityContext: {privileged: true}\n"
      "    env: [{name: NVIDIA_VISIBLE_DEVICES, value: all}]\n"
      "  volumes: [{name: dev, hostPath: {path: /dev}}]\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata: {name: train, namespace: ml}\nspec:\n"
      "  containers: [{name: c, image: trainer, resources: {limits: {nvidia.com/gpu: \"1\"}}}]\n";
  const testing::RuleRun quota = testing::RunRule("quota-gpu-limits-prefix", yaml);
  ASSERT_TRUE(quota.read_errors.empty()) << quota.read_errors[0];
  ASSERT_EQ(quota.findings.size(), 1u);
  EXPECT_EQ(quota.findings[0].field, "spec.hard[limits.nvidia.com/gpu]");
  const testing::RuleRun privileged = testing::RunRule("privileged-gpu-pod", yaml);
  ASSERT_EQ(privileged.findings.size(), 1u);
  EXPECT_EQ(privileged.findings[0].object.name, "debug");
  EXPECT_EQ(testing::RunRule("hostpath-dev-nvidia", yaml).findings.size(), 1u);
  EXPECT_EQ(testing::RunRule("nvidia-visible-devices-without-request", yaml).findings.size(), 1u);
  EXPECT_EQ(testing::RunRule("namespace-without-default-deny", yaml).findings.size(), 1u);
  const std::string deny =
      "---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: deny, namespace: ml}\n"
      "spec:\n  podSelector: {}\n  policyTypes: [Ingress]\n";
  EXPECT_TRUE(testing::RunRule("namespace-without-default-deny", yaml + deny).findings.empty());
}

}  // namespace
}  // namespace berth::diag
