// OCM rules: each fires on a minimal broken case and stays silent once fixed.
#include "diag/doctor_harness.h"

namespace berth::diag {
namespace {

using testing::GpuNode;
using testing::RuleRun;
using testing::RunRule;

std::string Cluster(const std::string& name, const std::string& labels = "",
                    const std::string& available = "\"True\"", const std::string& status_extra = "") {
  return "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: " + name +
         "\n  labels:\n    cluster.open-cluster-management.io/clusterset: fleet\n" + labels +
         "spec: {hubAcceptsClient: true}\nstatus:\n" + status_extra +
         "  conditions:\n  - {type: ManagedClusterConditionAvailable, status: " + available +
         ", reason: R, message: m, lastTransitionTime: \"2025-12-01T00:00:00Z\"}\n---\n";
}

const std::string kSet =
    "apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\nmetadata: {name: fleet}\n---\n";

std::string Binding(const std::string& set, const std::string& ns = "kueue-system") {
  return "apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSetBinding\nmetadata: {name: " +
         set + ", namespace: " + ns + "}\nspec: {clusterSet: " + set + "}\n---\n";
}

std::string Placement(const std::string& spec, const std::string& name = "training") {
  return "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata: {name: " + name +
         ", namespace: kueue-system}\nspec:\n  clusterSets: [fleet]\n" + spec + "---\n";
}

const std::string kRegionEu =
    "  predicates:\n  - requiredClusterSelector:\n      labelSelector: {matchLabels: {region: eu}}\n";

TEST(PlacementSelectsNothing, PredicatesAndBindings) {
  const std::string clusters = kSet + Cluster("us-1", "    region: us\n");
  RuleRun broken = RunRule("placement-selects-nothing", clusters + Binding("fleet") + Placement(kRegionEu));
  ASSERT_TRUE(broken.read_errors.empty()) << broken.read_errors[0];
  ASSERT_EQ(broken.findings.size(), 1u);
  const Finding& f = broken.findings[0];
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.object.kind, "Placement");
  EXPECT_EQ(f.field, "spec.predicates");
  EXPECT_NE(f.message.find("selects no cluster (PlacementSatisfied=False, NoManagedClusterMatched"),
            std::string::npos)
      << f.message;
  RuleRun unbound = RunRule("placement-selects-nothing", clusters + Placement(""));
  ASSERT_EQ(unbound.findings.size(), 1u);
  EXPECT_EQ(unbound.findings[0].field, "metadata.namespace");
  EXPECT_NE(unbound.findings[0].message.find("NoManagedClusterSetBindings"), std::string::npos);
  EXPECT_TRUE(RunRule("placement-selects-nothing", kSet + Cluster("eu-1", "    region: eu\n") + Binding("fleet") +
                                                       Placement(kRegionEu))
                  .findings.empty());
}

TEST(PlacementMisconfigured, UnknownPrioritizer) {
  const std::string base = kSet + Cluster("eu-1") + Binding("fleet");
  RuleRun broken = RunRule(
      "placement-misconfigured",
      base + Placement("  prioritizerPolicy:\n    mode: Exact\n    configurations:\n"
                       "    - {scoreCoordinate: {type: BuiltIn, builtIn: Nonsense}, weight: 1}\n"));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_NE(broken.findings[0].message.find("PlacementMisconfigured=True"), std::string::npos);
  EXPECT_TRUE(RunRule("placement-misconfigured", base + Placement("")).findings.empty());
}

TEST(ClusterSetBindingUnbound, SetDoesNotExist) {
  RuleRun broken = RunRule("clusterset-binding-unbound", kSet + Binding("gpu-fleet"));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].object.kind, "ManagedClusterSetBinding");
  EXPECT_EQ(broken.findings[0].field, "spec.clusterSet");
  EXPECT_NE(broken.findings[0].message.find("binds ManagedClusterSet gpu-fleet, which does not exist"),
            std::string::npos);
  EXPECT_NE(broken.findings[0].fix.find("(fleet)"), std::string::npos);
  EXPECT_TRUE(RunRule("clusterset-binding-unbound", kSet + Binding("fleet")).findings.empty());
  EXPECT_TRUE(RunRule("clusterset-binding-unbound", Binding("global")).findings.empty());
}

std::string Score(const std::string& valid_until) {
  return "apiVersion: cluster.open-cluster-management.io/v1alpha1\nkind: AddOnPlacementScore\nmetadata: {name: "
         "gpu-free, namespace: eu-1}\nstatus:\n  scores: [{name: free, value: 50}]\n  validUntil: \"" +
         valid_until + "\"\n---\n";
}

TEST(AddonPlacementScoreStale, ExpiredAndRead) {
  const std::string reader = Placement(
      "  prioritizerPolicy:\n    configurations:\n"
      "    - {scoreCoordinate: {type: AddOn, addOn: {resourceName: gpu-free, scoreName: free}}, weight: 2}\n");
  RuleRun broken = RunRule("addon-placement-score-stale", kSet + Cluster("eu-1") + Binding("fleet") + reader +
                                                              Score("2025-12-31T00:00:00Z"));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].severity, Severity::kWarning);
  EXPECT_EQ(broken.findings[0].field, "status.validUntil");
  EXPECT_NE(broken.findings[0].message.find("expired at 2025-12-31T00:00:00Z (cluster eu-1): Placement(s) "
                                            "kueue-system/training"),
            std::string::npos)
      << broken.findings[0].message;
  // A CEL predicate reading the score counts as a reader too.
  const std::string cel_reader = Placement(
      "  predicates:\n  - requiredClusterSelector:\n      celSelector:\n        celExpressions:\n"
      "        - 'managedCluster.scores(\"gpu-free\").all(s, s.value > 10)'\n", "cel");
  RuleRun cel = RunRule("addon-placement-score-stale", cel_reader + Score("2025-12-31T00:00:00Z"));
  ASSERT_EQ(cel.findings.size(), 1u);
  EXPECT_EQ(cel.findings[0].severity, Severity::kWarning);
  EXPECT_NE(cel.findings[0].message.find("Placement(s) kueue-system/cel"), std::string::npos);
  RuleRun unread = RunRule("addon-placement-score-stale", Score("2025-12-31T00:00:00Z"));
  ASSERT_EQ(unread.findings.size(), 1u);
  EXPECT_EQ(unread.findings[0].severity, Severity::kInfo);
  EXPECT_TRUE(RunRule("addon-placement-score-stale", reader + Score("2026-02-01T00:00:00Z")).findings.empty());
}

TEST(PlacementWithoutGpuPredicate, CpuOnlyClusterCanWin) {
  const std::string hub =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: fleet}\n---\n"
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\nmetadata: {name: place}\nspec:\n"
      "  controllerName: open-cluster-management.io/placement\n  parameters: {apiGroup: "
      "cluster.open-cluster-management.io, kind: Placement, name: training}\n---\n"
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: training}\nspec:\n"
      "  namespaceSelector: {}\n  admissionChecksStrategy: {admissionChecks: [{name: place}]}\n"
      "  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n    - name: fleet\n"
      "      resources: [{name: nvidia.com/gpu, nominalQuota: \"64\"}]\n---\n";
  const std::string gpu = Cluster("gpu-1", "", "\"True\"", "  allocatable: {cpu: \"64\", nvidia.com/gpu: \"8\"}\n");
  const std::string cpu = Cluster("cpu-1", "", "\"True\"", "  allocatable: {cpu: \"64\"}\n");
  RuleRun broken = RunRule("placement-without-gpu-predicate", hub + kSet + Binding("fleet") + gpu + cpu + Placement(""));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].field, "spec.predicates");
  EXPECT_EQ(broken.findings[0].message,
            "places GPU work of ClusterQueue(s) training but CPU-only cluster(s) cpu-1 pass its predicates: work "
            "sent there never starts");
  const std::string needs_gpu =
      "  predicates:\n  - requiredClusterSelector:\n      celSelector:\n        celExpressions:\n"
      "        - '\"nvidia.com/gpu\" in managedCluster.status.allocatable'\n";
  RuleRun fixed = RunRule("placement-without-gpu-predicate", hub + kSet + Binding("fleet") + gpu + cpu + Placement(needs_gpu));
  EXPECT_TRUE(fixed.read_errors.empty()) << fixed.read_errors[0];
  EXPECT_TRUE(fixed.findings.empty()) << fixed.findings[0].message;
}

TEST(ManagedClusterUnavailable, CandidateOfAPlacement) {
  const std::string base = kSet + Binding("fleet") + Placement("");
  RuleRun broken = RunRule("managed-cluster-unavailable", base + Cluster("eu-1") + Cluster("us-1", "", "\"False\""));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].object.kind, "ManagedCluster");
  EXPECT_EQ(broken.findings[0].object.name, "us-1");
  EXPECT_NE(broken.findings[0].message.find("ManagedClusterConditionAvailable is False (R): the hub taints it "
                                            "cluster.open-cluster-management.io/unavailable"),
            std::string::npos)
      << broken.findings[0].message;
  // Not a candidate of any Placement: silent.
  EXPECT_TRUE(RunRule("managed-cluster-unavailable", kSet + Cluster("us-1", "", "\"False\"")).findings.empty());
}

}  // namespace
}  // namespace berth::diag
