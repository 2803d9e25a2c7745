// Kueue rules: each fires on a minimal broken case and stays silent once fixed; none fires on
// the healthy examples.
#include <cstdlib>
#include <filesystem>

#include "diag/doctor_harness.h"

namespace berth::diag {
namespace {

using testing::GpuNode;
using testing::RuleRun;
using testing::RunRule;

std::string Flavor(const std::string& name, const std::string& spec = "") {
  return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: " + name + "}\n" +
         (spec.empty() ? "" : "spec:\n" + spec) + "---\n";
}

// A ClusterQueue over cpu and nvidia.com/gpu in one flavor; `extra` adds spec lines.
std::string Cq(const std::string& name, const std::string& flavor, int gpus, const std::string& extra = "",
               const std::string& gpu_limits = "") {
  return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: " + name + "}\nspec:\n" +
         extra +
         "  resourceGroups:\n  - coveredResources: [cpu, nvidia.com/gpu]\n    flavors:\n    - name: " + flavor +
         "\n      resources:\n      - {name: cpu, nominalQuota: \"64\"}\n      - {name: nvidia.com/gpu, "
         "nominalQuota: \"" + std::to_string(gpus) + "\"" + gpu_limits + "}\n---\n";
}

std::string Lq(const std::string& name, const std::string& ns, const std::string& cq) {
  return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: " + name + ", namespace: " + ns +
         "}\nspec: {clusterQueue: " + cq + "}\n---\n";
}

std::string QueuedJob(const std::string& queue, int pods = 1, int gpus = 1, const std::string& pod_extra = "",
                      const std::string& extra_requests = "") {
  return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n  namespace: ml\n  labels: "
         "{kueue.x-k8s.io/queue-name: " + queue + "}\nspec:\n  suspend: true\n  parallelism: " +
         std::to_string(pods) + "\n  completions: " + std::to_string(pods) +
         "\n  template:\n    spec:\n      restartPolicy: Never\n" + pod_extra +
         "      containers:\n      - name: c\n        image: trainer\n        resources:\n          requests: "
         "{cpu: \"1\"" + extra_requests + "}\n          limits: {nvidia.com/gpu: \"" + std::to_string(gpus) +
         "\"}\n---\n";
}

const std::string kNs = "apiVersion: v1\nkind: Namespace\nmetadata: {name: ml, labels: {team: ml}}\n---\n";

TEST(LocalQueueClusterQueueMissing, NamesTheMissingQueue) {
  RuleRun broken = RunRule("localqueue-clusterqueue-missing", Cq("team-a", "f", 8) + Lq("q", "ml", "team-b"));
  ASSERT_TRUE(broken.read_errors.empty()) << broken.read_errors[0];
  ASSERT_EQ(broken.findings.size(), 1u);
  const Finding& f = broken.findings[0];
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.object.kind, "LocalQueue");
  EXPECT_EQ(f.object.namespace_, "ml");
  EXPECT_EQ(f.field, "spec.clusterQueue");
  EXPECT_NE(f.message.find("names ClusterQueue team-b, which does not exist"), std::string::npos) << f.message;
  EXPECT_NE(f.fix.find("(team-a)"), std::string::npos) << f.fix;
  EXPECT_TRUE(RunRule("localqueue-clusterqueue-missing", Cq("team-a", "f", 8) + Lq("q", "ml", "team-a"))
                  .findings.empty());
}

TEST(QueueNameDangling, FiresOnTheJobAndNamesOtherNamespaces) {
  const std::string base = Flavor("f") + Cq("team", "f", 8, "  namespaceSelector: {}\n") + Lq("train", "other", "team");
  RuleRun broken = RunRule("queue-name-dangling", base + QueuedJob("train"));
  ASSERT_EQ(broken.findings.size(), 1u);
  const Finding& f = broken.findings[0];
  EXPECT_EQ(f.object.kind, "Job");
  EXPECT_EQ(f.object.name, "train");
  EXPECT_EQ(f.field, "metadata.labels[\"kueue.x-k8s.io/queue-name\"]");
  EXPECT_NE(f.message.find("LocalQueue train, which does not exist in namespace ml"), std::string::npos);
  EXPECT_NE(f.message.find("exists in namespace(s) other"), std::string::npos) << f.message;
  EXPECT_TRUE(RunRule("queue-name-dangling", base + Lq("train", "ml", "team") + QueuedJob("train")).findings.empty());
}

TEST(NamespaceSelectorAdmitsNothing, NullSelectorAndUnmatchedNamespace) {
  RuleRun null_selector = RunRule("namespace-selector-admits-nothing", Cq("team", "f", 8) + Lq("q", "ml", "team"));
  ASSERT_EQ(null_selector.findings.size(), 1u);
  EXPECT_EQ(null_selector.findings[0].object.kind, "ClusterQueue");
  EXPECT_EQ(null_selector.findings[0].field, "spec.namespaceSelector");
  EXPECT_NE(null_selector.findings[0].message.find("admits no namespace"), std::string::npos);

  RuleRun unmatched = RunRule("namespace-selector-admits-nothing",
                              kNs + Cq("team", "f", 8, "  namespaceSelector: {matchLabels: {team: vision}}\n") +
                                  Lq("q", "ml", "team"));
  ASSERT_EQ(unmatched.findings.size(), 1u);
  EXPECT_NE(unmatched.findings[0].message.find("does not match namespace(s) ml"), std::string::npos)
      << unmatched.findings[0].message;
  EXPECT_TRUE(RunRule("namespace-selector-admits-nothing",
                      kNs + Cq("team", "f", 8, "  namespaceSelector: {matchLabels: {team: ml}}\n") +
                          Lq("q", "ml", "team"))
                  .findings.empty());
  // A namespace not in the input has unknown labels: no verdict.
  EXPECT_TRUE(RunRule("namespace-selector-admits-nothing",
                      Cq("team", "f", 8, "  namespaceSelector: {matchLabels: {team: vision}}\n") +
                          Lq("q", "ml", "team"))
                  .findings.empty());
}

TEST(FlavorMatchesNoNode, NamesTheLabel) {
  const std::string nodes = GpuNode("gpu-1", 8, "    nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB\n");
  RuleRun broken = RunRule("flavor-matches-no-node",
                           nodes + Flavor("a100", "  nodeLabels: {nvidia.com/gpu.product: A100}\n") +
                               Cq("team", "a100", 8, "  namespaceSelector: {}\n"));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].severity, Severity::kError);
  EXPECT_EQ(broken.findings[0].object.kind, "ResourceFlavor");
  EXPECT_EQ(broken.findings[0].field, "spec.nodeLabels");
  EXPECT_NE(broken.findings[0].message.find("no node is labelled nvidia.com/gpu.product=A100"), std::string::npos);
  // Unreferenced: a warning.
  RuleRun unused = RunRule("flavor-matches-no-node", nodes + Flavor("a100", "  nodeLabels: {nvidia.com/gpu.product: A100}\n"));
  ASSERT_EQ(unused.findings.size(), 1u);
  EXPECT_EQ(unused.findings[0].severity, Severity::kWarning);
  EXPECT_TRUE(RunRule("flavor-matches-no-node",
                      nodes + Flavor("a100", "  nodeLabels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}\n"))
                  .findings.empty());
}

TEST(TopologyLevelMissing, MissingTopologyAndLevel) {
  const std::string nodes = GpuNode("gpu-1", 8, "    pool: a\n    rack: r1\n") + GpuNode("gpu-2", 8, "    pool: a\n");
  const std::string flavor = Flavor("tas", "  nodeLabels: {pool: a}\n  topologyName: dc\n");
  auto topology = [](const std::string& levels) {
    return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Topology\nmetadata: {name: dc}\nspec:\n  levels:\n" + levels +
           "---\n";
  };
  RuleRun missing = RunRule("topology-level-missing", nodes + flavor);
  ASSERT_EQ(missing.findings.size(), 1u);
  EXPECT_NE(missing.findings[0].message.find("names Topology dc, which does not exist"), std::string::npos);
  RuleRun none = RunRule("topology-level-missing", nodes + flavor + topology("  - {nodeLabel: block}\n"));
  ASSERT_EQ(none.findings.size(), 1u);
  EXPECT_EQ(none.findings[0].severity, Severity::kError);
  EXPECT_NE(none.findings[0].message.find("level block is a label none of the 2 node(s)"), std::string::npos)
      << none.findings[0].message;
  RuleRun some = RunRule("topology-level-missing", nodes + flavor + topology("  - {nodeLabel: rack}\n"));
  ASSERT_EQ(some.findings.size(), 1u);
  EXPECT_EQ(some.findings[0].severity, Severity::kWarning);
  EXPECT_NE(some.findings[0].message.find("level rack is a label 1 of the 2 node(s)"), std::string::npos);
  EXPECT_TRUE(RunRule("topology-level-missing",
                      nodes + flavor + topology("  - {nodeLabel: pool}\n  - {nodeLabel: kubernetes.io/hostname}\n"))
                  .findings.empty());
}

const std::string kQueues = Flavor("f") + Lq("train", "ml", "team");

TEST(ResourceNotCovered, GpuRequestOutsideCoveredResources) {
  const std::string cpu_only_cq =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: team}\nspec:\n"
      "  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
      "    - name: f\n      resources: [{name: cpu, nominalQuota: \"64\"}]\n---\n";
  RuleRun broken = RunRule("resource-not-covered", kQueues + cpu_only_cq + QueuedJob("train"));
  ASSERT_EQ(broken.findings.size(), 1u);
  const Finding& f = broken.findings[0];
  EXPECT_EQ(f.object.kind, "Job");
  EXPECT_EQ(f.field, "spec.template.spec.containers");
  EXPECT_EQ(f.message,
            "pod set main requests nvidia.com/gpu, which ClusterQueue team covers (coveredResources: cpu): "
            "Kueue never admits it (resource nvidia.com/gpu unavailable in ClusterQueue)");
  EXPECT_TRUE(RunRule("resource-not-covered", kQueues + Cq("team", "f", 8, "  namespaceSelector: {}\n") +
                                                  QueuedJob("train"))
                  .findings.empty());
}

TEST(FlavorTaintUntolerated, EveryFlavorTaintedFires) {
  const std::string tainted = Flavor("f", "  nodeTaints: [{key: dedicated, value: ml, effect: NoSchedule}]\n");
  const std::string base = tainted + Lq("train", "ml", "team") + Cq("team", "f", 8, "  namespaceSelector: {}\n");
  RuleRun broken = RunRule("flavor-taint-untolerated", base + QueuedJob("train"));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].field, "spec.template.spec.tolerations");
  EXPECT_NE(broken.findings[0].message.find("(f: dedicated=ml:NoSchedule)"), std::string::npos)
      << broken.findings[0].message;
  EXPECT_TRUE(RunRule("flavor-taint-untolerated",
                      base + QueuedJob("train", 1, 1, "      tolerations: [{key: dedicated, operator: Exists}]\n"))
                  .findings.empty());
}

TEST(WorkloadLargerThanQuota, CountsBorrowingReachableInTheCohort) {
  const std::string base = kQueues + Lq("other", "ml", "lender");
  // team: 8 GPUs nominal, may borrow 4; the lender lends everything it has (8).
  const std::string cqs = Cq("team", "f", 8, "  namespaceSelector: {}\n  cohortName: pool\n", ", borrowingLimit: \"4\"") +
                          Cq("lender", "f", 8, "  namespaceSelector: {}\n  cohortName: pool\n");
  RuleRun broken = RunRule("workload-larger-than-quota", base + cqs + QueuedJob("train", 2, 8));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].message,
            "pod set main needs 16 nvidia.com/gpu (2 pods × 8) but ClusterQueue team can reach at most 12 in "
            "flavor f (nominal 8, 4 more by borrowing in cohort pool): Kueue can never admit it "
            "(ExceedsMaxQuota), whatever else finishes");
  EXPECT_TRUE(RunRule("workload-larger-than-quota", base + cqs + QueuedJob("train", 1, 12)).findings.empty());
  // Without a cohort only the nominal quota counts.
  RuleRun alone = RunRule("workload-larger-than-quota",
                          kQueues + Cq("team", "f", 8, "  namespaceSelector: {}\n") + QueuedJob("train", 1, 12));
  ASSERT_EQ(alone.findings.size(), 1u);
  EXPECT_NE(alone.findings[0].message.find("no cohort to borrow from"), std::string::npos);
}

TEST(CohortBorrowingImpossible, NoMemberLends) {
  const std::string lend0 = ", lendingLimit: \"0\"";
  const std::string cohort = "  namespaceSelector: {}\n  cohortName: pool\n";
  // GPU-only queues, so that lendingLimit 0 leaves nothing to lend.
  auto gpu_cq = [&](const std::string& name, const std::string& limits, const std::string& extra = "") {
    return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: " + name + "}\nspec:\n" + cohort +
           extra + "  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n    - name: f\n"
           "      resources: [{name: nvidia.com/gpu, nominalQuota: \"8\"" + limits + "}]\n---\n";
  };
  RuleRun none = RunRule("cohort-borrowing-impossible", Flavor("f") + gpu_cq("a", lend0) + gpu_cq("b", lend0));
  ASSERT_EQ(none.findings.size(), 2u);
  EXPECT_EQ(none.findings[0].object.name, "a");
  EXPECT_EQ(none.findings[0].field, "spec.cohortName");
  EXPECT_NE(none.findings[0].message.find("no member lends anything"), std::string::npos) << none.findings[0].message;
  EXPECT_TRUE(RunRule("cohort-borrowing-impossible", Flavor("f") + gpu_cq("a", lend0) + gpu_cq("b", ""))
                  .findings.empty());
  // borrowWithinCohort on a queue that can never borrow.
  const std::string bwc =
      "  preemption: {reclaimWithinCohort: Any, borrowWithinCohort: {policy: LowerPriority}}\n";
  RuleRun policy = RunRule("cohort-borrowing-impossible",
                           Flavor("f") + gpu_cq("a", ", borrowingLimit: \"0\"", bwc) + gpu_cq("b", ""));
  ASSERT_EQ(policy.findings.size(), 1u);
  EXPECT_EQ(policy.findings[0].field, "spec.preemption.borrowWithinCohort");
  EXPECT_EQ(policy.findings[0].object.name, "a");
}

TEST(PreemptionContradictory, PoliciesThatNeverFire) {
  RuleRun no_cohort = RunRule(
      "preemption-contradictory",
      Flavor("f") + Cq("a", "f", 8, "  namespaceSelector: {}\n  preemption: {reclaimWithinCohort: Any}\n"));
  ASSERT_EQ(no_cohort.findings.size(), 1u);
  EXPECT_EQ(no_cohort.findings[0].field, "spec.preemption.reclaimWithinCohort");
  EXPECT_NE(no_cohort.findings[0].message.find("has no cohortName"), std::string::npos);

  const std::string within = "  namespaceSelector: {}\n  preemption: {withinClusterQueue: LowerPriority}\n";
  RuleRun one_priority =
      RunRule("preemption-contradictory", kQueues + Cq("team", "f", 8, within) + QueuedJob("train"));
  ASSERT_EQ(one_priority.findings.size(), 1u);
  EXPECT_EQ(one_priority.findings[0].field, "spec.preemption.withinClusterQueue");
  EXPECT_NE(one_priority.findings[0].message.find("every workload queued here has priority 0"), std::string::npos);
  const std::string wpc =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\n";
  EXPECT_TRUE(RunRule("preemption-contradictory", kQueues + wpc + Cq("team", "f", 8, within) + QueuedJob("train"))
                  .findings.empty());
}

TEST(PhantomQuota, QuotaAboveTheFlavorsNodes) {
  const std::string nodes = GpuNode("gpu-1", 8, "    pool: a\n") + GpuNode("gpu-2", 8, "    pool: b\n");
  const std::string flavor = Flavor("fa", "  nodeLabels: {pool: a}\n");
  RuleRun broken = RunRule("phantom-quota", nodes + flavor + Cq("x", "fa", 8, "  namespaceSelector: {}\n") +
                                                Cq("y", "fa", 4, "  namespaceSelector: {}\n"));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].object.kind, "ResourceFlavor");
  EXPECT_EQ(broken.findings[0].message,
            "ClusterQueues grant 12 nvidia.com/gpu of flavor fa (x 8, y 4) but the 1 node(s) it selects have 8 "
            "allocatable: workloads admitted past that stay Pending while holding quota");
  EXPECT_TRUE(RunRule("phantom-quota", nodes + flavor + Cq("x", "fa", 8, "  namespaceSelector: {}\n")).findings.empty());
}

TEST(AdmissionCheckMissing, NamesTheCheck) {
  const std::string checks = "  admissionChecksStrategy:\n    admissionChecks: [{name: prov}]\n";
  RuleRun broken = RunRule("admission-check-missing", Flavor("f") + Cq("team", "f", 8, "  namespaceSelector: {}\n" + checks));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].field, "spec.admissionChecksStrategy.admissionChecks[0].name");
  EXPECT_NE(broken.findings[0].message.find("AdmissionCheck prov, which does not exist"), std::string::npos);
  const std::string check =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\nmetadata: {name: prov}\nspec:\n"
      "  controllerName: kueue.x-k8s.io/provisioning-request\n---\n";
  EXPECT_TRUE(RunRule("admission-check-missing",
                      Flavor("f") + check + Cq("team", "f", 8, "  namespaceSelector: {}\n" + checks))
                  .findings.empty());
  // A placement check naming no Placement.
  const std::string placement_check =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\nmetadata: {name: prov}\nspec:\n"
      "  controllerName: open-cluster-management.io/placement\n  parameters: {apiGroup: "
      "cluster.open-cluster-management.io, kind: Placement, name: gone}\n---\n";
  RuleRun params = RunRule("admission-check-missing",
                           Flavor("f") + placement_check + Cq("team", "f", 8, "  namespaceSelector: {}\n" + checks));
  ASSERT_EQ(params.findings.size(), 1u);
  EXPECT_EQ(params.findings[0].object.kind, "AdmissionCheck");
  EXPECT_EQ(params.findings[0].field, "spec.parameters");
  EXPECT_NE(params.findings[0].message.find("Placement gone not found"), std::string::npos);
}

// The areas this file's rules belong to, run over every example as the CLI reads it.
std::vector<Finding> AreaFindings(const std::vector<std::pair<std::string, std::string>>& paths) {
  core::Diagnostics diags;
  io::Reader reader(diags);
  for (const auto& [path, cluster] : paths) {
    io::ReadOptions options;
    options.cluster = cluster;
    EXPECT_TRUE(reader.ReadPath(path, options).ok()) << path;
  }
  io::Input input = reader.Finish();
  EXPECT_GT(input.objects_read, 0u) << paths.front().first;
  DoctorOptions options;
  options.now = core::Timestamp{1'767'225'600};
  for (const Rule& r : AllRules()) {
    if (r.area == "kueue" || r.area == "dra" || r.area == "ocm") options.only.emplace_back(r.id);
  }
  return RunDoctor(input.snapshot, diags, options).findings;
}

TEST(QueueRulesOnExamples, HealthyExamplesHaveNoFindings) {
  const char* source = std::getenv("BERTH_SOURCE_DIR");
  if (source == nullptr) GTEST_SKIP() << "BERTH_SOURCE_DIR not set";
  const std::string ex = std::string(source) + "/examples/";
  const std::vector<std::vector<std::pair<std::string, std::string>>> cases = {
      {{ex + "demo-fleet", ""}},
      {{ex + "demo-fleet", ""}, {ex + "demo-hub", ""}},
      {{ex + "fleet/hub", ""}},
      {{ex + "fleet/hub", ""}, {ex + "fleet/clusters/eu-1", "eu-1"}, {ex + "fleet/clusters/us-2", "us-2"},
       {ex + "fleet/clusters/ap-1", "ap-1"}},
      {{ex + "sim/two-pools/fleet.yaml", ""}},
      {{ex + "sim/philly/nodes.yaml", ""}, {ex + "sim/philly/queues.yaml", ""}},
  };
  for (const auto& c : cases) {
    for (const Finding& f : AreaFindings(c)) {
      ADD_FAILURE() << c.front().first << ": " << f.rule << " on " << f.object.kind << "/" << f.object.namespace_
                    << "/" << f.object.name << " " << f.field << ": " << f.message;
    }
  }
}

}  // namespace
}  // namespace berth::diag
