// Operations rules: PDBs over GPU pods and priorities built in code; cordoned GPU nodes read
// from YAML (io reads Nodes, with the unschedulable taint's timeAdded). Last, the examples
// stay silent under every tenancy, operations and storage rule.
#include <cstdlib>

#include "diag/doctor_harness.h"
#include "diag/snapshot_builder.h"

namespace berth::diag {
namespace {

using testing::InCodeSnapshot;

// Two running pods of a 1-GPU server labelled app=llm on gpu-1, and a PDB over them.
InCodeSnapshot OperationsServing(std::optional<model::CountOrPercent> min_available,
                                 std::optional<model::CountOrPercent> max_unavailable) {
  InCodeSnapshot b;
  b.AddNode("gpu-1", 8);
  for (const char* name : {"llm-0", "llm-1"}) b.AddPod("serving", name, 1, "gpu-1").meta.labels = {{"app", "llm"}};
  b.AddPod("serving", "web", 0, "gpu-1").meta.labels = {{"app", "web"}};
  model::PodDisruptionBudget pdb;
  pdb.meta.name = "llm";
  pdb.meta.namespace_ = "serving";
  pdb.selector = core::LabelSelector{{{"app", "llm"}}, {}};
  pdb.min_available = std::move(min_available);
  pdb.max_unavailable = std::move(max_unavailable);
  b.snap.pod_disruption_budgets.push_back(pdb);
  return b;
}

model::CountOrPercent OperationsInt(int32_t v) { return model::CountOrPercent{v, false}; }
model::CountOrPercent OperationsPercent(int32_t v) { return model::CountOrPercent{v, true}; }

TEST(PdbBlocksGpuDrain, FiresOnMaxUnavailableZero) {
  const std::vector<Finding> f = OperationsServing(std::nullopt, OperationsInt(0)).Run("pdb-blocks-gpu-drain");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].object.kind, "PodDisruptionBudget");
  EXPECT_EQ(f[0].object.name, "llm");
  EXPECT_EQ(f[0].field, "spec.maxUnavailable");
  EXPECT_EQ(f[0].message,
            "maxUnavailable 0 over 2 GPU pod(s) (2 GPUs) allows no eviction: draining their nodes for a driver "
            "upgrade, MIG reconfiguration, repair or autoscaler scale-down waits forever");
}

TEST(PdbBlocksGpuDrain, FiresOnMinAvailableOfEveryPodAndPercentages) {
  const std::vector<Finding> f = OperationsServing(OperationsInt(2), std::nullopt).Run("pdb-blocks-gpu-drain");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].field, "spec.minAvailable");
  EXPECT_NE(f[0].message.find("minAvailable 2 of 2 selected pod(s)"), std::string::npos) << f[0].message;
  EXPECT_EQ(OperationsServing(OperationsPercent(100), std::nullopt).Run("pdb-blocks-gpu-drain").size(), 1u);
  // 60% of 2 pods rounds up to 2: still no eviction.
  EXPECT_EQ(OperationsServing(OperationsPercent(60), std::nullopt).Run("pdb-blocks-gpu-drain").size(), 1u);
}

TEST(PdbBlocksGpuDrain, SilentWhenOneEvictionIsAllowed) {
  EXPECT_TRUE(OperationsServing(OperationsInt(1), std::nullopt).Run("pdb-blocks-gpu-drain").empty());
  EXPECT_TRUE(OperationsServing(OperationsPercent(50), std::nullopt).Run("pdb-blocks-gpu-drain").empty());
  EXPECT_TRUE(OperationsServing(std::nullopt, OperationsInt(1)).Run("pdb-blocks-gpu-drain").empty());
}

TEST(PdbBlocksGpuDrain, AnErrorWhenTheGpuOperatorWaitsToDrainTheNode) {
  InCodeSnapshot b = OperationsServing(std::nullopt, OperationsInt(0));
  b.snap.nodes[0].meta.labels["nvidia.com/gpu-driver-upgrade-state"] = "upgrade-required";
  const std::vector<Finding> f = b.Run("pdb-blocks-gpu-drain");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_NE(f[0].message.find("node gpu-1 is already waiting for the GPU operator to drain it"), std::string::npos);
}

TEST(PdbBlocksGpuDrain, SilentOverCpuPods) {
  InCodeSnapshot b = OperationsServing(std::nullopt, OperationsInt(0));
  b.snap.pod_disruption_budgets[0].selector = core::LabelSelector{{{"app", "web"}}, {}};
  EXPECT_TRUE(b.Run("pdb-blocks-gpu-drain").empty());
}

std::string OperationsCordoned(const std::string& since) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: gpu-1\nspec:\n  unschedulable: true\n  taints:\n"
         "  - {key: node.kubernetes.io/unschedulable, effect: NoSchedule, timeAdded: \"" + since + "\"}\n"
         "status:\n  allocatable: {cpu: \"64\", memory: 512Gi, pods: \"110\", nvidia.com/gpu: \"8\"}\n";
}

TEST(GpuNodeCordoned, AWarningAfterADay) {
  // now is 2026-01-01T00:00:00Z.
  testing::RuleRun run = testing::RunRule("gpu-node-cordoned", OperationsCordoned("2025-12-29T22:00:00Z"));
  ASSERT_TRUE(run.read_errors.empty()) << run.read_errors[0];
  ASSERT_EQ(run.findings.size(), 1u);
  const Finding& f = run.findings[0];
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.object.kind, "Node");
  EXPECT_EQ(f.field, "spec.unschedulable");
  EXPECT_EQ(f.message,
            "GPU node gpu-1 (8 GPU(s)) has been cordoned since 2025-12-29T22:00:00Z (2d 2h): no new pod can use "
            "its GPUs");
}

TEST(GpuNodeCordoned, InfoWhenRecentOrUndated) {
  testing::RuleRun recent = testing::RunRule("gpu-node-cordoned", OperationsCordoned("2025-12-31T21:30:00Z"));
  ASSERT_EQ(recent.findings.size(), 1u);
  EXPECT_EQ(recent.findings[0].severity, Severity::kInfo);
  EXPECT_NE(recent.findings[0].message.find("(2h 30m)"), std::string::npos) << recent.findings[0].message;

  testing::RuleRun undated = testing::RunRule(
      "gpu-node-cordoned", testing::GpuNode("gpu-2", 8, "", "  - {key: x, effect: PreferNoSchedule}\n") +
                               "apiVersion: v1\nkind: Node\nmetadata: {name: gpu-3}\nspec: {unschedulable: true}\n"
                               "status: {allocatable: {nvidia.com/gpu: \"4\"}}\n");
  ASSERT_EQ(undated.findings.size(), 1u);
  EXPECT_EQ(undated.findings[0].object.name, "gpu-3");
  EXPECT_EQ(undated.findings[0].severity, Severity::kInfo);
  EXPECT_EQ(undated.findings[0].message, "GPU node gpu-3 (4 GPU(s)) is cordoned: no new pod can use its GPUs");
}

TEST(GpuNodeCordoned, ABadTimeAddedIsAReadError) {
  testing::RuleRun run = testing::RunRule("gpu-node-cordoned", OperationsCordoned("yesterday"));
  ASSERT_EQ(run.read_errors.size(), 1u);
  EXPECT_NE(run.read_errors[0].find("spec.taints[0].timeAdded"), std::string::npos) << run.read_errors[0];
}

model::PriorityClass OperationsClass(const std::string& name, int32_t value, bool global_default = false,
                                     const std::string& policy = "PreemptLowerPriority") {
  model::PriorityClass pc;
  pc.meta.name = name;
  pc.value = value;
  pc.global_default = global_default;
  pc.preemption_policy = policy;
  return pc;
}

TEST(PriorityClassGlobalDefaultHigh, FiresWhenTheDefaultOutranksNamedClasses) {
  InCodeSnapshot b;
  b.snap.priority_classes = {OperationsClass("system-node-critical", 2000001000),
                             OperationsClass("everyone", 100000, true), OperationsClass("batch", 100),
                             OperationsClass("training", 10000)};
  const std::vector<Finding> f = b.Run("priority-class-global-default-high");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].object.kind, "PriorityClass");
  EXPECT_EQ(f[0].object.name, "everyone");
  EXPECT_EQ(f[0].field, "globalDefault");
  EXPECT_EQ(f[0].message,
            "globalDefault PriorityClass everyone has value 100000 and preemptionPolicy PreemptLowerPriority: "
            "every pod that names no class queues ahead of and preempts pods of training (10000), batch (100)");

  b.snap.priority_classes[1].value = 0;
  EXPECT_TRUE(b.Run("priority-class-global-default-high").empty());
}

// Tenant namespace ml runs a GPU job; classes high (preempting) and low.
InCodeSnapshot OperationsTenants() {
  InCodeSnapshot b = {};
  b.AddNode("gpu-1", 8);
  b.AddJob("ml", "train", 1, 4);
  b.AddQuota("ml", "compute", {InCodeSnapshot::Entry("requests.nvidia.com/gpu", 8)});
  b.snap.priority_classes = {OperationsClass("high", 100000), OperationsClass("low", 0, false, "Never"),
                             OperationsClass("system-cluster-critical", 2000000000)};
  return b;
}

TEST(PriorityUnfenced, FiresOnPreemptingClassesTenantsMayUse) {
  const std::vector<Finding> f = OperationsTenants().Run("priority-unfenced");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].object.kind, "PriorityClass");
  EXPECT_EQ(f[0].object.name, "high");
  EXPECT_EQ(f[0].field, "preemptionPolicy");
  EXPECT_EQ(f[0].message,
            "PriorityClass high (value 100000, PreemptLowerPriority) can be named by any pod of tenant "
            "namespace(s) ml of cluster default, where no ResourceQuota is scoped to PriorityClass: a tenant can "
            "preempt other tenants' GPU workloads");
}

TEST(PriorityUnfenced, SilentWithAPriorityClassScopedQuota) {
  InCodeSnapshot b = OperationsTenants();
  b.snap.resource_quotas[0].scope_selector_scopes = {"PriorityClass"};
  EXPECT_TRUE(b.Run("priority-unfenced").empty());
}

}  // namespace
}  // namespace berth::diag

namespace berth::diag {
namespace {

// The healthy fleets of examples/ trip none of the tenancy, operations and storage rules at
// warning or above. (The demo fleet's gpu-a100-04 is cordoned on purpose: one info finding.)
TEST(TenancyOperationsStorageRules, SilentOnTheExamples) {
  const char* source = std::getenv("BERTH_SOURCE_DIR");
  if (source == nullptr) GTEST_SKIP() << "BERTH_SOURCE_DIR is not set";
  for (const char* dir : {"demo-fleet", "demo-hub", "fleet", "sim"}) {
    core::Diagnostics diags;
    io::Reader reader(diags);
    ASSERT_TRUE(reader.ReadPath(std::string(source) + "/examples/" + dir).ok()) << dir;
    io::Input input = reader.Finish();
    DoctorOptions options;
    options.now = core::Timestamp{1'767'225'600};
    for (const Rule& rule : AllRules()) {
      if (rule.area == "tenancy" || rule.area == "operations" || rule.area == "storage") {
        options.only.emplace_back(rule.id);
      }
    }
    ASSERT_EQ(options.only.size(), 18u);
    for (const Finding& f : RunDoctor(input.snapshot, diags, options).findings) {
      if (f.severity == Severity::kInfo && f.rule == "gpu-node-cordoned") continue;
      ADD_FAILURE() << dir << ": " << f.rule << " on " << f.object.kind << "/" << f.object.name << ": " << f.message;
    }
  }
}

}  // namespace
}  // namespace berth::diag
