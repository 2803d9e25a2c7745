// gpu-stack rules: each fires on a minimal broken case (exact count, severity, object, field
// and the values the message names) and stays silent once fixed. Kinds io does not read yet
// (ConfigMap, RuntimeClass) and pod fields it does not keep yet (image, runtimeClassName) are
// set on the snapshot after reading.
#include <cstdlib>
#include <functional>

#include "diag/doctor_harness.h"
#include "model/cluster_config.h"

namespace berth::diag {
namespace {

using testing::GpuNode;
using testing::RuleRun;
using testing::RunRule;

using GpuStackMutation = std::function<void(model::Snapshot&)>;

RuleRun GpuStackRun(const std::string& rule, const std::string& yaml, const GpuStackMutation& mutate) {
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(yaml, "test.yaml");
  io::Input input = reader.Finish();
  RuleRun run;
  for (const core::Diagnostic& d : diags.entries()) {
    if (d.severity == core::Severity::kError) run.read_errors.push_back(d.error.ToString());
  }
  mutate(input.snapshot);
  DoctorOptions options;
  options.only = {rule};
  options.now = core::Timestamp{1'767'225'600};
  DoctorReport report = RunDoctor(input.snapshot, diags, options);
  run.findings = std::move(report.findings);
  return run;
}

// A node with free-form labels and status lines (allocatable / capacity maps).
std::string GpuStackNode(const std::string& name, const std::string& labels, const std::string& allocatable,
                         const std::string& capacity = "") {
  std::string y = "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels:\n    kubernetes.io/hostname: " +
                  name + "\n" + labels + "status:\n  allocatable: {cpu: \"64\", memory: 512Gi, pods: \"110\"" +
                  (allocatable.empty() ? "" : ", " + allocatable) + "}\n";
  if (!capacity.empty()) y += "  capacity: {cpu: \"64\", memory: 512Gi, pods: \"110\", " + capacity + "}\n";
  return y + "---\n";
}

// A Pod in `ns` asking for `resources` (a YAML flow map of limits) with extra spec lines.
std::string GpuStackPod(const std::string& name, const std::string& ns, const std::string& limits,
                        const std::string& extra = "", const std::string& requests = "{cpu: \"4\", memory: 32Gi}") {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: " + ns + "\nspec:\n" + extra +
         "  containers:\n  - name: main\n    image: trainer\n    resources:\n      limits: " + limits +
         "\n      requests: " + requests + "\n---\n";
}

void GpuStackSetImage(model::Snapshot& s, const std::string& image) {
  for (model::Pod& pod : s.pods) {
    for (model::Container& c : pod.containers) c.image = image;
  }
}

model::ConfigMap GpuStackConfigMap(const std::string& name, std::vector<std::pair<std::string, std::string>> data) {
  model::ConfigMap cm;
  cm.meta.name = name;
  cm.meta.namespace_ = "gpu-operator";
  cm.data = std::move(data);
  return cm;
}

const std::string kTimeSliced4 =
    "version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 4\n";

TEST(GpuNodeWithoutAllocatable, FiresOnLabelledNodeWithoutGpus) {
  const std::string broken = GpuStackNode("gpu-1", "    nvidia.com/gpu.count: \"8\"\n", "");
  RuleRun run = RunRule("gpu-node-without-allocatable", broken);
  ASSERT_EQ(run.findings.size(), 1u);
  const Finding& f = run.findings[0];
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.object.kind, "Node");
  EXPECT_EQ(f.object.name, "gpu-1");
  EXPECT_EQ(f.field, "status.allocatable");
  EXPECT_NE(f.message.find("nvidia.com/gpu.count=8"), std::string::npos) << f.message;
  EXPECT_TRUE(RunRule("gpu-node-without-allocatable", GpuNode("gpu-1", 8, "    nvidia.com/gpu.count: \"8\"\n"))
                  .findings.empty());
  EXPECT_TRUE(RunRule("gpu-node-without-allocatable",
                      GpuStackNode("gpu-1", "    nvidia.com/gpu.count: \"8\"\n    nvidia.com/mig.config.state: pending\n", ""))
                  .findings.empty());
}

TEST(GpuAllocatableBelowCapacity, NamesTheLostDevices) {
  RuleRun run = RunRule("gpu-allocatable-below-capacity",
                        GpuStackNode("gpu-1", "", "nvidia.com/gpu: \"7\"", "nvidia.com/gpu: \"8\""));
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].severity, Severity::kWarning);
  EXPECT_EQ(run.findings[0].field, "status.allocatable.nvidia.com/gpu");
  EXPECT_EQ(run.findings[0].message,
            "allocatable nvidia.com/gpu is 7 but capacity is 8: the device plugin marked 1 device(s) unhealthy "
            "and kube-scheduler no longer counts them");
  EXPECT_TRUE(RunRule("gpu-allocatable-below-capacity",
                      GpuStackNode("gpu-1", "", "nvidia.com/gpu: \"8\"", "nvidia.com/gpu: \"8\""))
                  .findings.empty());
}

TEST(GfdCountDisagrees, WholeGpusAndMixedMig) {
  RuleRun run = RunRule("gfd-count-disagrees",
                        GpuStackNode("gpu-1", "    nvidia.com/gpu.count: \"8\"\n", "nvidia.com/gpu: \"6\"",
                                     "nvidia.com/gpu: \"6\""));
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].field, "metadata.labels.nvidia.com/gpu.count");
  EXPECT_NE(run.findings[0].message.find("nvidia.com/gpu.count=8 but the device plugin advertises 6 GPU(s)"),
            std::string::npos)
      << run.findings[0].message;
  // Mixed MIG: 2 whole GPUs plus MIG devices need at least 3 GPUs; 8 is fine, 2 is not.
  const std::string mixed = "    nvidia.com/mig.strategy: mixed\n    nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB\n";
  const std::string alloc = "nvidia.com/gpu: \"2\", nvidia.com/mig-1g.10gb: \"7\"";
  EXPECT_TRUE(RunRule("gfd-count-disagrees", GpuStackNode("gpu-1", mixed + "    nvidia.com/gpu.count: \"8\"\n", alloc))
                  .findings.empty());
  RuleRun low = RunRule("gfd-count-disagrees", GpuStackNode("gpu-1", mixed + "    nvidia.com/gpu.count: \"2\"\n", alloc));
  ASSERT_EQ(low.findings.size(), 1u);
  EXPECT_NE(low.findings[0].message.find("at least 3 GPU(s)"), std::string::npos) << low.findings[0].message;
}

TEST(MigConfigFailed, FailedIsAnErrorPendingAWarning) {
  const std::string labels = "    nvidia.com/mig.config: all-1g.10gb\n    nvidia.com/mig.config.state: ";
  RuleRun failed = RunRule("mig-config-failed", GpuStackNode("gpu-1", labels + "failed\n", ""));
  ASSERT_EQ(failed.findings.size(), 1u);
  EXPECT_EQ(failed.findings[0].severity, Severity::kError);
  EXPECT_EQ(failed.findings[0].field, "metadata.labels.nvidia.com/mig.config.state");
  EXPECT_NE(failed.findings[0].message.find("nvidia.com/mig.config=all-1g.10gb"), std::string::npos);
  RuleRun pending = RunRule("mig-config-failed", GpuStackNode("gpu-1", labels + "pending\n", ""));
  ASSERT_EQ(pending.findings.size(), 1u);
  EXPECT_EQ(pending.findings[0].severity, Severity::kWarning);
  EXPECT_TRUE(RunRule("mig-config-failed", GpuStackNode("gpu-1", labels + "success\n", "nvidia.com/gpu: \"7\""))
                  .findings.empty());
}

TEST(MigSingleStrategyMixedProfiles, FiresOnBalancedConfig) {
  const std::string single = "    nvidia.com/mig.strategy: single\n    nvidia.com/mig.config: ";
  RuleRun run = RunRule("mig-single-strategy-mixed-profiles", GpuStackNode("gpu-1", single + "all-balanced\n", ""));
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].field, "metadata.labels.nvidia.com/mig.config");
  EXPECT_NE(run.findings[0].message.find("more than one MIG device type"), std::string::npos);
  EXPECT_TRUE(RunRule("mig-single-strategy-mixed-profiles",
                      GpuStackNode("gpu-1", single + "all-1g.10gb\n", "nvidia.com/gpu: \"56\""))
                  .findings.empty());
}

TEST(MigResourceNotAdvertised, ProfileMissingAndWholeGpuOnMixedNodes) {
  const std::string mixed = GpuStackNode("gpu-1", "    nvidia.com/mig.strategy: mixed\n", "nvidia.com/mig-1g.10gb: \"7\"");
  RuleRun profile = RunRule("mig-resource-not-advertised", mixed + GpuStackPod("p", "ml", "{nvidia.com/mig-3g.40gb: \"1\"}"));
  ASSERT_EQ(profile.findings.size(), 1u);
  EXPECT_EQ(profile.findings[0].object.kind, "Pod");
  EXPECT_EQ(profile.findings[0].field, "spec.containers");
  EXPECT_NE(profile.findings[0].message.find("no node of cluster default advertises nvidia.com/mig-3g.40gb"),
            std::string::npos)
      << profile.findings[0].message;
  EXPECT_NE(profile.findings[0].message.find("advertised: nvidia.com/mig-1g.10gb"), std::string::npos);
  RuleRun whole = RunRule("mig-resource-not-advertised", mixed + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"1\"}"));
  ASSERT_EQ(whole.findings.size(), 1u);
  EXPECT_NE(whole.findings[0].message.find("mixed MIG strategy"), std::string::npos);
  EXPECT_TRUE(RunRule("mig-resource-not-advertised", mixed + GpuStackPod("p", "ml", "{nvidia.com/mig-1g.10gb: \"1\"}"))
                  .findings.empty());
  // A whole-GPU node that the pod's selector excludes does not help it; a selector matching no
  // node at all is node-selector-matches-nothing's finding, not this one.
  const std::string both =
      GpuStackNode("gpu-1", "    nvidia.com/mig.strategy: mixed\n    pool: b\n", "nvidia.com/mig-1g.10gb: \"7\"") +
      GpuStackNode("gpu-2", "    pool: a\n", "nvidia.com/gpu: \"8\"");
  EXPECT_TRUE(RunRule("mig-resource-not-advertised", both + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"1\"}")).findings.empty());
  EXPECT_EQ(RunRule("mig-resource-not-advertised",
                    both + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"1\"}", "  nodeSelector: {pool: b}\n"))
                .findings.size(),
            1u);
  EXPECT_TRUE(RunRule("mig-resource-not-advertised",
                      both + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"1\"}", "  nodeSelector: {pool: c}\n"))
                  .findings.empty());
}

TEST(GpuRequestWithoutLimit, FiresOnRequestOnly) {
  const std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec:\n  containers:\n  - name: main\n"
      "    image: trainer\n    resources:\n      requests: {cpu: \"1\", memory: 1Gi, nvidia.com/gpu: \"2\"}\n";
  RuleRun run = RunRule("gpu-request-without-limit", GpuNode("gpu-1", 8) + pod);
  ASSERT_TRUE(run.read_errors.empty()) << run.read_errors[0];
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].severity, Severity::kError);
  EXPECT_EQ(run.findings[0].field, "spec.containers[0].resources.limits");
  EXPECT_NE(run.findings[0].message.find("requests 2 nvidia.com/gpu without a limit"), std::string::npos);
  EXPECT_TRUE(RunRule("gpu-request-without-limit", GpuNode("gpu-1", 8) + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"2\"}"))
                  .findings.empty());
}

TEST(GpuPodWithoutCpuMemory, FiresWithoutCpuAndMemory) {
  RuleRun run = RunRule("gpu-pod-without-cpu-memory",
                        GpuNode("gpu-1", 8) + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"2\"}", "", "{}"));
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].severity, Severity::kWarning);
  EXPECT_EQ(run.findings[0].field, "spec.containers[0].resources.requests");
  EXPECT_NE(run.findings[0].message.find("requests 2 nvidia.com/gpu but no cpu or memory"), std::string::npos);
  EXPECT_TRUE(RunRule("gpu-pod-without-cpu-memory", GpuNode("gpu-1", 8) + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"2\"}"))
                  .findings.empty());
}

TEST(SharedGpuCountAboveOne, WarningAndErrorWithFailRequests) {
  const std::string sliced = "    nvidia.com/gpu.sharing-strategy: time-slicing\n    nvidia.com/gpu.replicas: \"4\"\n"
                             "    nvidia.com/gpu.count: \"2\"\n";
  const std::string node = GpuStackNode("gpu-1", sliced, "nvidia.com/gpu: \"8\"");
  RuleRun warn = RunRule("shared-gpu-count-above-one", node + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"2\"}"));
  ASSERT_EQ(warn.findings.size(), 1u);
  EXPECT_EQ(warn.findings[0].severity, Severity::kWarning);
  EXPECT_NE(warn.findings[0].message.find("requests 2 nvidia.com/gpu"), std::string::npos);
  EXPECT_NE(warn.findings[0].message.find("time-slicing, 4 replicas per device"), std::string::npos)
      << warn.findings[0].message;
  const std::string failing = GpuStackNode(
      "gpu-1", sliced + "    berth.dev/gpu-sharing.fail-requests-greater-than-one: \"true\"\n", "nvidia.com/gpu: \"8\"");
  RuleRun error = RunRule("shared-gpu-count-above-one", failing + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"2\"}"));
  ASSERT_EQ(error.findings.size(), 1u);
  EXPECT_EQ(error.findings[0].severity, Severity::kError);
  EXPECT_NE(error.findings[0].message.find("UnexpectedAdmissionError"), std::string::npos);
  EXPECT_TRUE(RunRule("shared-gpu-count-above-one", node + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"1\"}")).findings.empty());
  EXPECT_TRUE(RunRule("shared-gpu-count-above-one", GpuNode("gpu-1", 8) + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"2\"}"))
                  .findings.empty());
}

TEST(SharingResourceNameMismatch, BothDirections) {
  const std::string plain = GpuNode("gpu-1", 8);
  RuleRun shared = RunRule("sharing-resource-name-mismatch", plain + GpuStackPod("p", "ml", "{nvidia.com/gpu.shared: \"1\"}"));
  ASSERT_EQ(shared.findings.size(), 1u);
  EXPECT_EQ(shared.findings[0].severity, Severity::kError);
  EXPECT_NE(shared.findings[0].message.find("renameByDefault is false"), std::string::npos);
  const std::string renamed = GpuStackNode("gpu-1", "", "nvidia.com/gpu.shared: \"16\"");
  RuleRun whole = RunRule("sharing-resource-name-mismatch", renamed + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"1\"}"));
  ASSERT_EQ(whole.findings.size(), 1u);
  EXPECT_NE(whole.findings[0].message.find("advertise their shared GPUs as nvidia.com/gpu.shared"), std::string::npos);
  EXPECT_TRUE(RunRule("sharing-resource-name-mismatch", renamed + GpuStackPod("p", "ml", "{nvidia.com/gpu.shared: \"1\"}"))
                  .findings.empty());
}

TEST(DevicePluginConfigUnknown, NamesTheKeysOffered) {
  const std::string node = GpuStackNode("gpu-1", "    nvidia.com/device-plugin.config: a100-sliced\n", "nvidia.com/gpu: \"8\"");
  auto add_config = [](model::Snapshot& s) {
    s.config_maps.push_back(GpuStackConfigMap("plugin-config", {{"default", "version: v1\nflags:\n  migStrategy: none\n"},
                                                                {"sliced", kTimeSliced4}}));
    s.config_maps.push_back(GpuStackConfigMap("other", {{"app.yaml", "key: value\n"}}));  // not the plugin's
  };
  RuleRun run = GpuStackRun("device-plugin-config-unknown", node, add_config);
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].object.kind, "Node");
  EXPECT_EQ(run.findings[0].field, "metadata.labels.nvidia.com/device-plugin.config");
  EXPECT_NE(run.findings[0].message.find("(gpu-operator/plugin-config) has only default, sliced"), std::string::npos)
      << run.findings[0].message;
  const std::string fixed = GpuStackNode("gpu-1", "    nvidia.com/device-plugin.config: sliced\n", "nvidia.com/gpu: \"8\"");
  EXPECT_TRUE(GpuStackRun("device-plugin-config-unknown", fixed, add_config).findings.empty());
  EXPECT_TRUE(GpuStackRun("device-plugin-config-unknown", node, [](model::Snapshot&) {}).findings.empty());
}

TEST(TimeSlicingWithoutIsolation, FiresWhenSeveralNamespacesShare) {
  const std::string node = GpuStackNode("gpu-1", "    nvidia.com/device-plugin.config: sliced\n", "nvidia.com/gpu: \"32\"");
  const std::string pods = GpuStackPod("a", "team-a", "{nvidia.com/gpu: \"1\"}", "  nodeName: gpu-1\n") +
                           GpuStackPod("b", "team-b", "{nvidia.com/gpu: \"1\"}", "  nodeName: gpu-1\n");
  auto sliced = [](bool rename) {
    return [rename](model::Snapshot& s) {
      std::string text = kTimeSliced4;
      if (rename) text.insert(text.find("    resources"), "    renameByDefault: true\n");
      s.config_maps.push_back(GpuStackConfigMap("plugin-config", {{"sliced", text}}));
    };
  };
  RuleRun run = GpuStackRun("time-slicing-without-isolation", node + pods, sliced(false));
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].object.kind, "ConfigMap");
  EXPECT_EQ(run.findings[0].object.name, "plugin-config");
  EXPECT_EQ(run.findings[0].field, "data.sliced");
  EXPECT_NE(run.findings[0].message.find("4 ways with renameByDefault false on 1 node(s) used by namespaces team-a, team-b"),
            std::string::npos)
      << run.findings[0].message;
  EXPECT_TRUE(GpuStackRun("time-slicing-without-isolation", node + pods, sliced(true)).findings.empty());
  EXPECT_TRUE(GpuStackRun("time-slicing-without-isolation",
                          node + GpuStackPod("a", "team-a", "{nvidia.com/gpu: \"1\"}", "  nodeName: gpu-1\n"), sliced(false))
                  .findings.empty());
}

const std::string kGpuStackDriverLabels =
    "    nvidia.com/cuda.driver-version.major: \"470\"\n    nvidia.com/cuda.driver-version.minor: \"82\"\n"
    "    nvidia.com/cuda.driver-version.revision: \"01\"\n    nvidia.com/cuda.runtime-version.major: \"11\"\n"
    "    nvidia.com/cuda.runtime-version.minor: \"4\"\n";
const std::string kGpuStackNewDriverLabels =
    "    nvidia.com/cuda.driver-version.major: \"550\"\n    nvidia.com/cuda.driver-version.minor: \"54\"\n"
    "    nvidia.com/cuda.driver-version.revision: \"15\"\n    nvidia.com/cuda.runtime-version.major: \"12\"\n"
    "    nvidia.com/cuda.runtime-version.minor: \"4\"\n";

TEST(GpuDriverIncompatible, ErrorOnEveryNodeWarningOnSome) {
  const std::string old_node = GpuNode("gpu-1", 8, kGpuStackDriverLabels);
  const std::string pod = GpuStackPod("p", "ml", "{nvidia.com/gpu: \"1\"}");
  auto cuda124 = [](model::Snapshot& s) { GpuStackSetImage(s, "nvidia/cuda:12.4.1-runtime-ubuntu22.04"); };
  RuleRun run = GpuStackRun("gpu-driver-incompatible", old_node + pod, cuda124);
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].severity, Severity::kError);
  EXPECT_EQ(run.findings[0].field, "spec.containers[0].image");
  EXPECT_NE(run.findings[0].message.find("runs driver 470.82.01 (CUDA 11.4 at most)"), std::string::npos)
      << run.findings[0].message;
  EXPECT_NE(run.findings[0].fix.find("driver 550.54.14 or newer"), std::string::npos) << run.findings[0].fix;
  RuleRun some = GpuStackRun("gpu-driver-incompatible", old_node + GpuNode("gpu-2", 8, kGpuStackNewDriverLabels) + pod, cuda124);
  ASSERT_EQ(some.findings.size(), 1u);
  EXPECT_EQ(some.findings[0].severity, Severity::kWarning);
  EXPECT_NE(some.findings[0].message.find("1 of the 2 labelled"), std::string::npos) << some.findings[0].message;
  EXPECT_TRUE(GpuStackRun("gpu-driver-incompatible", GpuNode("gpu-2", 8, kGpuStackNewDriverLabels) + pod, cuda124)
                  .findings.empty());
  EXPECT_TRUE(GpuStackRun("gpu-driver-incompatible", old_node + pod,
                          [](model::Snapshot& s) { GpuStackSetImage(s, "nvidia/cuda:11.4.3-base-ubuntu20.04"); })
                  .findings.empty());
}

TEST(CudaImageOlderThanGpu, FiresOnBlackwellWithCuda124) {
  const std::string node = GpuNode("gpu-1", 8, "    nvidia.com/gpu.family: blackwell\n");
  const std::string pod = GpuStackPod("p", "ml", "{nvidia.com/gpu: \"1\"}");
  RuleRun run = GpuStackRun("cuda-image-older-than-gpu", node + pod,
                            [](model::Snapshot& s) { GpuStackSetImage(s, "nvidia/cuda:12.4.1-runtime-ubuntu22.04"); });
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_NE(run.findings[0].message.find("is blackwell, which CUDA supports from 12.8"), std::string::npos)
      << run.findings[0].message;
  EXPECT_TRUE(GpuStackRun("cuda-image-older-than-gpu", node + pod,
                          [](model::Snapshot& s) { GpuStackSetImage(s, "nvidia/cuda:12.8.0-runtime-ubuntu22.04"); })
                  .findings.empty());
}

TEST(GpuDriverBelowArchitectureMinimum, HopperOnAnOldDriver) {
  const std::string labels = "    nvidia.com/gpu.family: hopper\n    nvidia.com/cuda.driver.major: \"515\"\n"
                             "    nvidia.com/cuda.driver.minor: \"65\"\n    nvidia.com/cuda.driver.rev: \"01\"\n";
  RuleRun run = RunRule("gpu-driver-below-architecture-minimum", GpuNode("gpu-1", 8, labels));
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].message,
            "the node's hopper GPUs need driver 520.61.05 or newer (CUDA 11.8 is the first to support them) but it "
            "runs 515.65.01");
  EXPECT_TRUE(RunRule("gpu-driver-below-architecture-minimum",
                      GpuNode("gpu-1", 8, "    nvidia.com/gpu.family: hopper\n" + kGpuStackNewDriverLabels))
                  .findings.empty());
}

TEST(GpuOperatorKubernetesUnsupported, OldOperatorOnNewKubernetes) {
  const std::string hub =
      "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata: {name: east}\n"
      "spec: {hubAcceptsClient: true}\nstatus:\n  version: {kubernetes: v1.31.2}\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu-operator\n  namespace: gpu-operator\n"
      "  annotations: {berth.dev/cluster: east}\nspec:\n  containers:\n  - name: operator\n    image: x\n---\n";
  auto operator_image = [](const std::string& tag) {
    return [tag](model::Snapshot& s) { GpuStackSetImage(s, "nvcr.io/nvidia/gpu-operator:" + tag); };
  };
  RuleRun run = GpuStackRun("gpu-operator-kubernetes-unsupported", hub, operator_image("v23.9.1"));
  ASSERT_TRUE(run.read_errors.empty()) << run.read_errors[0];
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].object.name, "gpu-operator");
  EXPECT_EQ(run.findings[0].message,
            "GPU Operator v23.9.1 was validated with Kubernetes 1.22 to 1.29 but cluster east runs v1.31.2");
  EXPECT_TRUE(GpuStackRun("gpu-operator-kubernetes-unsupported", hub, operator_image("v24.9.2")).findings.empty());
}

TEST(NvidiaRuntimeClassMissing, UnknownNameAndWrongHandler) {
  const std::string pod = GpuNode("gpu-1", 8) + GpuStackPod("p", "ml", "{nvidia.com/gpu: \"1\"}");
  auto runtime = [](const std::string& pod_class, const std::string& handler) {
    return [pod_class, handler](model::Snapshot& s) {
      model::RuntimeClass rc;
      rc.meta.name = "nvidia";
      rc.handler = handler;
      s.runtime_classes.push_back(rc);
      for (model::Pod& p : s.pods) p.runtime_class_name = pod_class;
    };
  };
  RuleRun missing = GpuStackRun("nvidia-runtimeclass-missing", pod, runtime("nvidia-cdi", "nvidia"));
  ASSERT_EQ(missing.findings.size(), 1u);
  EXPECT_EQ(missing.findings[0].severity, Severity::kError);
  EXPECT_EQ(missing.findings[0].field, "spec.runtimeClassName");
  EXPECT_NE(missing.findings[0].message.find("RuntimeClass \"nvidia-cdi\" not found"), std::string::npos);
  RuleRun handler = GpuStackRun("nvidia-runtimeclass-missing", pod, runtime("nvidia", "runc"));
  ASSERT_EQ(handler.findings.size(), 1u);
  EXPECT_EQ(handler.findings[0].severity, Severity::kWarning);
  EXPECT_EQ(handler.findings[0].object.kind, "RuntimeClass");
  EXPECT_EQ(handler.findings[0].field, "handler");
  EXPECT_TRUE(GpuStackRun("nvidia-runtimeclass-missing", pod, runtime("nvidia", "nvidia")).findings.empty());
}

}  // namespace
}  // namespace berth::diag

namespace berth::diag {
namespace {

// The healthy example fleets raise no gpu-stack finding (berth doctor's own examples test runs
// every rule once the command exists; this keeps the area honest meanwhile).
TEST(GpuStackRules, SilentOnTheExampleFleets) {
  const char* source = std::getenv("BERTH_SOURCE_DIR");
  ASSERT_NE(source, nullptr) << "BERTH_SOURCE_DIR is not set";
  std::vector<std::string> gpu_rules;
  for (const Rule& r : AllRules()) {
    if (r.area == "gpu") gpu_rules.emplace_back(r.id);
  }
  ASSERT_EQ(gpu_rules.size(), 17u);
  for (const char* dir : {"examples/demo-fleet", "examples/demo-hub", "examples/fleet/hub", "examples/fleet/clusters/ap-1",
                          "examples/fleet/clusters/eu-1", "examples/fleet/clusters/us-2"}) {
    core::Diagnostics diags;
    io::Reader reader(diags);
    ASSERT_TRUE(reader.ReadPath(std::string(source) + "/" + dir).ok()) << dir;
    io::Input input = reader.Finish();
    DoctorOptions options;
    options.only = gpu_rules;
    options.now = core::Timestamp{1'767'225'600};
    DoctorReport report = RunDoctor(input.snapshot, diags, options);
    for (const Finding& f : report.findings) {
      ADD_FAILURE() << dir << ": " << f.rule << " on " << f.object.kind << "/" << f.object.name << ": " << f.message;
    }
  }
}

}  // namespace
}  // namespace berth::diag
