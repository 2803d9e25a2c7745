// Scheduling rules: each fires on a minimal broken case and stays silent once fixed.
#include "diag/doctor_harness.h"

namespace berth::diag {
namespace {

using testing::GpuNode;
using testing::RunRule;
using testing::RuleRun;

const std::string kTaintedGpu =
    GpuNode("gpu-1", 8, "", "  - {key: dedicated, value: ml, effect: NoSchedule}\n") +
    GpuNode("gpu-2", 8, "", "  - {key: dedicated, value: ml, effect: NoSchedule}\n");

std::string GpuJob(const std::string& extra_pod_spec, int parallelism = 1,
                   const std::string& labels = "") {
  return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n  namespace: ml\n" + labels +
         "spec:\n  parallelism: " + std::to_string(parallelism) + "\n  completions: " +
         std::to_string(parallelism) +
         "\n  template:\n    spec:\n      restartPolicy: Never\n" + extra_pod_spec +
         "      containers:\n      - name: c\n        image: trainer\n"
         "        resources: {limits: {nvidia.com/gpu: \"4\"}}\n---\n";
}

TEST(GpuTaintNotTolerated, FiresWhenNoGpuNodeAdmitsThePod) {
  RuleRun run = RunRule("gpu-taint-not-tolerated", kTaintedGpu + GpuJob(""));
  ASSERT_EQ(run.findings.size(), 1u);
  const Finding& f = run.findings[0];
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.object.kind, "Job");
  EXPECT_EQ(f.object.name, "train");
  EXPECT_EQ(f.field, "spec.template.spec.tolerations");
  EXPECT_NE(f.message.find("dedicated=ml:NoSchedule"), std::string::npos) << f.message;
}

TEST(GpuTaintNotTolerated, SilentWithTheToleration) {
  RuleRun run = RunRule("gpu-taint-not-tolerated",
                        kTaintedGpu + GpuJob("      tolerations: [{key: dedicated, operator: Exists}]\n"));
  EXPECT_TRUE(run.findings.empty());
}

TEST(GpuNodeTaintUntolerated, FiresOnTheNodesAndNotOnceFixed) {
  RuleRun broken = RunRule("gpu-node-taint-untolerated", kTaintedGpu + GpuJob(""));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].object.kind, "Node");
  EXPECT_NE(broken.findings[0].message.find("2 GPU node(s)"), std::string::npos);
  RuleRun fixed = RunRule("gpu-node-taint-untolerated",
                          kTaintedGpu + GpuJob("      tolerations: [{key: dedicated, operator: Exists}]\n"));
  EXPECT_TRUE(fixed.findings.empty());
}

TEST(NodeSelectorMatchesNothing, NamesTheMissingLabel) {
  const std::string nodes = GpuNode("gpu-1", 8, "    nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB\n");
  RuleRun broken = RunRule("node-selector-matches-nothing",
                           nodes + GpuJob("      nodeSelector: {nvidia.com/gpu.product: A100}\n"));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].field, "spec.template.spec.nodeSelector");
  EXPECT_NE(broken.findings[0].message.find("nvidia.com/gpu.product=A100"), std::string::npos);
  RuleRun fixed = RunRule(
      "node-selector-matches-nothing",
      nodes + GpuJob("      nodeSelector: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}\n"));
  EXPECT_TRUE(fixed.findings.empty());
}

TEST(NodeSelectorMatchesNothing, RequiredAffinityToo) {
  const std::string nodes = GpuNode("gpu-1", 8, "    zone: a\n");
  const std::string affinity =
      "      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n"
      "            nodeSelectorTerms:\n            - matchExpressions:\n"
      "              - {key: zone, operator: In, values: [";
  RuleRun broken = RunRule("node-selector-matches-nothing", nodes + GpuJob(affinity + "b]}\n"));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].field, "spec.template.spec.affinity.nodeAffinity");
  EXPECT_TRUE(RunRule("node-selector-matches-nothing", nodes + GpuJob(affinity + "a, b]}\n")).findings.empty());
}

TEST(RequestExceedsEveryNode, NamesTheResourceAndTheLargestNode) {
  RuleRun broken = RunRule("request-exceeds-every-node", GpuNode("gpu-1", 2) + GpuJob(""));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].message,
            "requests 4 nvidia.com/gpu but the largest node of cluster default has 2 allocatable: "
            "it fits no node");
  EXPECT_TRUE(RunRule("request-exceeds-every-node", GpuNode("gpu-1", 4) + GpuJob("")).findings.empty());
}

TEST(SpreadKeyMissing, HardIsAnErrorSoftAWarning) {
  auto spread = [](const std::string& key, const std::string& when) {
    return "      topologySpreadConstraints:\n      - {maxSkew: 1, topologyKey: " + key +
           ", whenUnsatisfiable: " + when + ", labelSelector: {matchLabels: {app: x}}}\n";
  };
  const std::string nodes = GpuNode("gpu-1", 8, "    topology.kubernetes.io/zone: a\n");
  RuleRun hard = RunRule("spread-key-missing", nodes + GpuJob(spread("rack", "DoNotSchedule")));
  ASSERT_EQ(hard.findings.size(), 1u);
  EXPECT_EQ(hard.findings[0].severity, Severity::kError);
  EXPECT_EQ(hard.findings[0].field, "spec.template.spec.topologySpreadConstraints[0].topologyKey");
  RuleRun soft = RunRule("spread-key-missing", nodes + GpuJob(spread("rack", "ScheduleAnyway")));
  ASSERT_EQ(soft.findings.size(), 1u);
  EXPECT_EQ(soft.findings[0].severity, Severity::kWarning);
  EXPECT_TRUE(RunRule("spread-key-missing",
                      nodes + GpuJob(spread("topology.kubernetes.io/zone", "DoNotSchedule")))
                  .findings.empty());
}

std::string PyTorchJob(const std::string& labels) {
  const std::string pod =
      "      template:\n        spec:\n          containers:\n          - name: pytorch\n            image: x\n"
      "            resources: {limits: {nvidia.com/gpu: \"8\"}}\n";
  return "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: ddp\n  namespace: ml\n" + labels +
         "spec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n" + pod +
         "    Worker:\n      replicas: 3\n" + pod + "---\n";
}

TEST(GangWithoutGangScheduling, FiresOnDistributedTrainingOutsideKueue) {
  const std::string nodes = GpuNode("gpu-1", 8) + GpuNode("gpu-2", 8);
  RuleRun broken = RunRule("gang-without-gang-scheduling", nodes + PyTorchJob(""));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].object.kind, "PyTorchJob");
  EXPECT_NE(broken.findings[0].message.find("4 GPU pods"), std::string::npos) << broken.findings[0].message;
  EXPECT_TRUE(RunRule("gang-without-gang-scheduling",
                      nodes + PyTorchJob("  labels: {kueue.x-k8s.io/queue-name: team}\n"))
                  .findings.empty());
  // A parallel Job's pods are independent: not a gang.
  EXPECT_TRUE(RunRule("gang-without-gang-scheduling", nodes + GpuJob("", 4)).findings.empty());
}

}  // namespace
}  // namespace berth::diag
