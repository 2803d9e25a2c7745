// Decoding of the Kueue kinds (kueue.x-k8s.io v1beta2, v1beta1, v1alpha1), Kueue's
// Configuration and PodGroups, and the errors that name the field of a bad object.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "io/internal/decoders.h"
#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ReadString;

constexpr const char* kQueuesV1beta2 = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: h100}
spec:
  nodeLabels: {gpu: h100, pool: a}
  nodeTaints: [{key: gpu, value: "true", effect: NoSchedule}]
  tolerations: [{key: gpu, operator: Exists, effect: NoSchedule}]
  topologyName: dc
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  cohortName: org
  queueingStrategy: StrictFIFO
  namespaceSelector: {matchLabels: {team: a}}
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: "9.5", borrowingLimit: 2, lendingLimit: 500m}
      - {name: memory, nominalQuota: 36Gi}
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: h100
      resources: [{name: nvidia.com/gpu, nominalQuota: 8}]
    - name: a100
      resources: [{name: nvidia.com/gpu, nominalQuota: 4}]
  flavorFungibility: {whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor,
                      preference: PreemptionOverBorrowing}
  preemption:
    reclaimWithinCohort: Any
    withinClusterQueue: LowerOrNewerEqualPriority
    borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 100}
  admissionChecksStrategy:
    admissionChecks: [{name: placement, onFlavors: [h100]}]
  stopPolicy: Hold
  fairSharing: {weight: 1500m}
  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: org}
spec:
  parentName: root
  fairSharing: {weight: 2}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: default, resources: [{name: cpu, nominalQuota: 4, lendingLimit: 1}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: team-a}
spec:
  clusterQueue: team-a
  stopPolicy: HoldAndDrain
  fairSharing: {weight: 3}
status:
  fairSharing:
    admissionFairSharingStatus:
      consumedResources: {cpu: 1500m, memory: 1Gi, nvidia.com/gpu: 1500m}
      lastUpdate: "2026-01-02T03:04:05Z"
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Topology
metadata: {name: dc}
spec:
  levels: [{nodeLabel: block}, {nodeLabel: rack}, {nodeLabel: kubernetes.io/hostname}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: placement}
spec:
  controllerName: open-cluster-management.io/placement
  parameters: {apiGroup: cluster.open-cluster-management.io, kind: Placement, name: gpu}
)";

TEST(KueueReaderTest, DecodesEveryV1beta2Kind) {
  core::Diagnostics diags;
  Input in = ReadString(kQueuesV1beta2, diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  EXPECT_EQ(in.objects_read, 7u);
  const model::Snapshot& s = in.snapshot;

  ASSERT_EQ(s.resource_flavors.size(), 1u);
  const model::ResourceFlavor& rf = s.resource_flavors[0];
  EXPECT_EQ(rf.meta.name, "h100");
  EXPECT_EQ(rf.node_labels.at("gpu"), "h100");
  ASSERT_EQ(rf.node_taints.size(), 1u);
  EXPECT_EQ(rf.node_taints[0].key, "gpu");
  EXPECT_EQ(rf.node_taints[0].effect, core::TaintEffect::kNoSchedule);
  ASSERT_EQ(rf.tolerations.size(), 1u);
  EXPECT_EQ(rf.tolerations[0].op, core::TolerationOp::kExists);
  EXPECT_EQ(rf.topology_name, "dc");
  EXPECT_TRUE(rf.source.valid());
  EXPECT_EQ(rf.cluster, "default");

  ASSERT_EQ(s.cluster_queues.size(), 1u);
  const model::ClusterQueue& cq = s.cluster_queues[0];
  EXPECT_EQ(cq.cohort, "org");
  EXPECT_EQ(cq.queueing_strategy, model::QueueingStrategy::kStrictFifo);
  ASSERT_TRUE(cq.namespace_selector.has_value());
  EXPECT_EQ(cq.namespace_selector->match_labels.at("team"), "a");
  ASSERT_EQ(cq.resource_groups.size(), 2u);
  const model::ResourceGroup& g0 = cq.resource_groups[0];
  EXPECT_EQ(g0.covered_resources[0], model::kCpu);
  EXPECT_EQ(g0.covered_resources[1], model::kMemory);
  ASSERT_EQ(g0.flavors.size(), 1u);
  EXPECT_EQ(g0.flavors[0].flavor, "default");
  EXPECT_EQ(g0.flavors[0].resources[0].nominal, 9500);  // cpu in milli-cores
  EXPECT_EQ(g0.flavors[0].resources[0].borrowing_limit, 2000);
  EXPECT_EQ(g0.flavors[0].resources[0].lending_limit, 500);
  EXPECT_EQ(g0.flavors[0].resources[1].nominal, 36LL << 30);
  EXPECT_FALSE(g0.flavors[0].resources[1].borrowing_limit.has_value());
  const model::ResourceGroup& g1 = cq.resource_groups[1];
  model::ResourceId gpu;
  ASSERT_TRUE(s.resources.Find("nvidia.com/gpu", &gpu));
  EXPECT_EQ(g1.covered_resources[0], gpu);
  ASSERT_EQ(g1.flavors.size(), 2u);
  EXPECT_EQ(g1.flavors[1].flavor, "a100");
  EXPECT_EQ(g1.flavors[1].resources[0].nominal, 4);
  EXPECT_EQ(cq.flavor_fungibility.when_can_borrow, model::FungibilityPolicy::kTryNextFlavor);
  EXPECT_EQ(cq.flavor_fungibility.preference,
            model::FungibilityPreference::kPreemptionOverBorrowing);
  EXPECT_EQ(cq.preemption.reclaim_within_cohort, model::PreemptionPolicy::kAny);
  EXPECT_EQ(cq.preemption.within_cluster_queue,
            model::PreemptionPolicy::kLowerOrNewerEqualPriority);
  EXPECT_EQ(cq.preemption.borrow_within_cohort.policy, model::PreemptionPolicy::kLowerPriority);
  EXPECT_EQ(cq.preemption.borrow_within_cohort.max_priority_threshold, 100);
  ASSERT_EQ(cq.admission_checks.size(), 1u);
  EXPECT_EQ(cq.admission_checks[0].name, "placement");
  EXPECT_THAT(cq.admission_checks[0].on_flavors, ElementsAre("h100"));
  EXPECT_EQ(cq.stop_policy, model::StopPolicy::kHold);
  EXPECT_EQ(cq.fair_sharing_weight_milli, 1500);
  EXPECT_TRUE(cq.usage_based_admission_fair_sharing);

  ASSERT_EQ(s.cohorts.size(), 1u);
  EXPECT_EQ(s.cohorts[0].parent, "root");
  EXPECT_EQ(s.cohorts[0].fair_sharing_weight_milli, 2000);
  EXPECT_EQ(s.cohorts[0].resource_groups[0].flavors[0].resources[0].lending_limit, 1000);

  ASSERT_EQ(s.local_queues.size(), 1u);
  const model::LocalQueue& lq = s.local_queues[0];
  EXPECT_EQ(lq.meta.namespace_, "team-a");
  EXPECT_EQ(lq.cluster_queue, "team-a");
  EXPECT_EQ(lq.stop_policy, model::StopPolicy::kHoldAndDrain);
  EXPECT_EQ(lq.fair_sharing_weight_milli, 3000);
  EXPECT_EQ(lq.consumed_resources_milli.at("cpu"), 1500);
  EXPECT_EQ(lq.consumed_resources_milli.at("nvidia.com/gpu"), 1500);  // not rounded to 2
  EXPECT_EQ(lq.consumed_resources_milli.at("memory"), (1LL << 30) * 1000);
  ASSERT_TRUE(lq.consumed_last_update.has_value());
  EXPECT_EQ(lq.consumed_last_update->ToString(), "2026-01-02T03:04:05Z");

  ASSERT_EQ(s.workload_priority_classes.size(), 1u);
  EXPECT_EQ(s.workload_priority_classes[0].value, 1000);
  ASSERT_EQ(s.topologies.size(), 1u);
  EXPECT_THAT(s.topologies[0].levels, ElementsAre("block", "rack", "kubernetes.io/hostname"));
  ASSERT_EQ(s.admission_checks.size(), 1u);
  EXPECT_EQ(s.admission_checks[0].controller_name, "open-cluster-management.io/placement");
  EXPECT_EQ(s.admission_checks[0].parameters_kind, "Placement");
  EXPECT_EQ(s.admission_checks[0].parameters_name, "gpu");
}

TEST(KueueReaderTest, ClusterQueueDefaults) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: q}
spec: {}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  const model::ClusterQueue& cq = in.snapshot.cluster_queues.at(0);
  EXPECT_EQ(cq.queueing_strategy, model::QueueingStrategy::kBestEffortFifo);
  EXPECT_FALSE(cq.namespace_selector.has_value());  // nil: no namespace may use it
  EXPECT_EQ(cq.flavor_fungibility.when_can_borrow, model::FungibilityPolicy::kMayStopSearch);
  EXPECT_EQ(cq.flavor_fungibility.when_can_preempt, model::FungibilityPolicy::kTryNextFlavor);
  EXPECT_EQ(cq.preemption.reclaim_within_cohort, model::PreemptionPolicy::kNever);
  EXPECT_EQ(cq.stop_policy, model::StopPolicy::kNone);
  EXPECT_EQ(cq.fair_sharing_weight_milli, 1000);
}

TEST(KueueReaderTest, EmptyNamespaceSelectorMatchesAll) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: q}
spec: {namespaceSelector: {}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_TRUE(in.snapshot.cluster_queues.at(0).namespace_selector.has_value());
  EXPECT_TRUE(in.snapshot.cluster_queues.at(0).namespace_selector->Empty());
}

TEST(KueueReaderTest, ReadsV1beta1FieldNames) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: q}
spec:
  cohort: org
  admissionChecks: [prov, mk]
  flavorFungibility: {whenCanBorrow: Borrow, whenCanPreempt: Preempt}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: f, resources: [{name: cpu, nominalQuota: 1, borrowingLimit: 1}]}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Cohort
metadata: {name: org}
spec: {parentName: root}
---
apiVersion: kueue.x-k8s.io/v1alpha1
kind: Cohort
metadata: {name: old}
spec: {parent: root}
---
apiVersion: kueue.x-k8s.io/v1alpha1
kind: Topology
metadata: {name: t}
spec: {levels: [{nodeLabel: rack}]}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  const model::ClusterQueue& cq = in.snapshot.cluster_queues.at(0);
  EXPECT_EQ(cq.cohort, "org");
  ASSERT_EQ(cq.admission_checks.size(), 2u);
  EXPECT_EQ(cq.admission_checks[1].name, "mk");
  EXPECT_TRUE(cq.admission_checks[1].on_flavors.empty());
  EXPECT_EQ(cq.flavor_fungibility.when_can_borrow, model::FungibilityPolicy::kMayStopSearch);
  EXPECT_EQ(cq.flavor_fungibility.when_can_preempt, model::FungibilityPolicy::kMayStopSearch);
  ASSERT_EQ(in.snapshot.cohorts.size(), 2u);
  EXPECT_EQ(in.snapshot.cohorts[0].parent, "root");
  EXPECT_EQ(in.snapshot.cohorts[1].parent, "root");
  EXPECT_THAT(in.snapshot.topologies.at(0).levels, ElementsAre("rack"));
}

TEST(KueueReaderTest, V1beta2IgnoresV1beta1CohortField) {
  // v1beta2 renamed `cohort` to `cohortName`; the old name is an unknown field there.
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: q}
spec: {cohort: org}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  EXPECT_EQ(in.snapshot.cluster_queues.at(0).cohort, "");
}

struct BadCase {
  const char* name;
  const char* yaml;
  const char* field;
  const char* message;
};

class KueueBadInputTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(KueueBadInputTest, NamesTheFieldAndDropsTheObject) {
  const BadCase& c = GetParam();
  core::Diagnostics diags;
  std::string text = std::string(c.yaml) + R"(
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: still-read}
)";
  Input in = ReadString(text, diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  const core::Error& e = diags.entries().at(0).error;
  EXPECT_EQ(e.location().field, c.field) << Dump(diags);
  EXPECT_THAT(e.message(), HasSubstr(c.message));
  EXPECT_EQ(in.snapshot.cluster_queues.size(), 0u);
  EXPECT_EQ(in.snapshot.local_queues.size(), 0u);
  EXPECT_EQ(in.snapshot.kueue_workloads.size(), 0u);
  // The rest is read.
  bool found = false;
  for (const model::ResourceFlavor& rf : in.snapshot.resource_flavors) {
    found = found || rf.meta.name == "still-read";
  }
  EXPECT_TRUE(found);
}

constexpr const char* kCqHead = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: q}
spec:
)";

std::string Cq(const char* body) { return std::string(kCqHead) + body; }

const std::string kBadQuantity = Cq(R"(
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - {name: a, resources: [{name: cpu, nominalQuota: 1}]}
    - {name: b, resources: [{name: cpu, nominalQuota: 1.5.3}]}
)");
const std::string kBadStrategy = Cq("  queueingStrategy: Foo\n");
const std::string kMismatchedResource = Cq(R"(
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors: [{name: a, resources: [{name: cpu, nominalQuota: 1}, {name: gpu, nominalQuota: 1}]}]
)");
const std::string kMissingResource = Cq(R"(
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors: [{name: a, resources: [{name: cpu, nominalQuota: 1}]}]
)");
const std::string kNegativeQuota = Cq(R"(
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: a, resources: [{name: cpu, nominalQuota: "-1"}]}]
)");
const std::string kBorrowingWithoutCohort = Cq(R"(
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: a, resources: [{name: cpu, nominalQuota: 1, borrowingLimit: 1}]}]
)");
const std::string kLendingAboveNominal = Cq(R"(
  cohortName: c
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: a, resources: [{name: cpu, nominalQuota: 1, lendingLimit: 2}]}]
)");
const std::string kResourceInTwoGroups = Cq(R"(
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: a, resources: [{name: cpu, nominalQuota: 1}]}]
  - coveredResources: [cpu]
    flavors: [{name: b, resources: [{name: cpu, nominalQuota: 1}]}]
)");
const std::string kFlavorInTwoGroups = Cq(R"(
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: a, resources: [{name: cpu, nominalQuota: 1}]}]
  - coveredResources: [memory]
    flavors: [{name: a, resources: [{name: memory, nominalQuota: 1}]}]
)");
const std::string kBadPreemption = Cq("  preemption: {withinClusterQueue: Any}\n");
const std::string kBorrowWithinCohortNeedsReclaim =
    Cq("  preemption: {borrowWithinCohort: {policy: LowerPriority}}\n");
const std::string kPreferenceNeedsTryNext = Cq(
    "  flavorFungibility: {whenCanBorrow: MayStopSearch, preference: PreemptionOverBorrowing}\n");
const std::string kV1beta1SpellingInV1beta2 = Cq("  flavorFungibility: {whenCanBorrow: Borrow}\n");
const std::string kBadStopPolicy = Cq("  stopPolicy: Pause\n");
const std::string kBadAdmissionMode = Cq("  admissionScope: {admissionMode: Fast}\n");
const std::string kBadWeight = Cq("  fairSharing: {weight: abc}\n");
constexpr const char* kLqWithoutCq = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq}
spec: {}
)";
constexpr const char* kTopologyHostnameNotLast = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Topology
metadata: {name: t}
spec: {levels: [{nodeLabel: kubernetes.io/hostname}, {nodeLabel: rack}]}
)";
constexpr const char* kFlavorBadTaint = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: f}
spec: {nodeTaints: [{key: a, effect: Sometimes}]}
)";
constexpr const char* kTopologyFlavorWithoutLabels = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: f}
spec: {topologyName: dc}
)";
constexpr const char* kCheckWithoutController = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: c}
spec: {}
)";
constexpr const char* kBadWpcValue = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: w}
value: high
)";

// v1beta1's plain list of checks, gone from v1beta2: read leniently, the queue would admit
// without them.
const std::string kV1beta1ChecksInV1beta2 = Cq(R"(
  admissionChecks: [multikueue]
)");

INSTANTIATE_TEST_SUITE_P(
    Cases, KueueBadInputTest,
    ::testing::Values(
        BadCase{"V1beta1AdmissionChecksInV1beta2", kV1beta1ChecksInV1beta2.c_str(), "spec.admissionChecks",
                "admissionChecksStrategy.admissionChecks[].name"},
        BadCase{"BadQuantity", kBadQuantity.c_str(),
                "spec.resourceGroups[0].flavors[1].resources[0].nominalQuota", ""},
        BadCase{"UnknownQueueingStrategy", kBadStrategy.c_str(), "spec.queueingStrategy",
                "unsupported value \"Foo\""},
        BadCase{"ResourceNotCovered", kMismatchedResource.c_str(),
                "spec.resourceGroups[0].flavors[0].resources[1].name", "coveredResources[1]"},
        BadCase{"MissingCoveredResource", kMissingResource.c_str(),
                "spec.resourceGroups[0].flavors[0].resources", "same number"},
        BadCase{"NegativeQuota", kNegativeQuota.c_str(),
                "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota",
                "greater than or equal to 0"},
        BadCase{"BorrowingLimitWithoutCohort", kBorrowingWithoutCohort.c_str(),
                "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit", "cohortName"},
        BadCase{"LendingLimitAboveNominal", kLendingAboveNominal.c_str(),
                "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", "nominalQuota"},
        BadCase{"ResourceInTwoGroups", kResourceInTwoGroups.c_str(),
                "spec.resourceGroups[1].coveredResources[0]", "one resource group"},
        BadCase{"FlavorInTwoGroups", kFlavorInTwoGroups.c_str(),
                "spec.resourceGroups[1].flavors[0].name", "one resource group"},
        BadCase{"BadWithinClusterQueue", kBadPreemption.c_str(),
                "spec.preemption.withinClusterQueue", "unsupported value \"Any\""},
        BadCase{"BorrowWithinCohortNeedsReclaim", kBorrowWithinCohortNeedsReclaim.c_str(),
                "spec.preemption.borrowWithinCohort.policy", "reclaimWithinCohort=Never"},
        BadCase{"PreferenceNeedsTryNextFlavor", kPreferenceNeedsTryNext.c_str(),
                "spec.flavorFungibility.preference", "TryNextFlavor"},
        BadCase{"V1beta1SpellingInV1beta2", kV1beta1SpellingInV1beta2.c_str(),
                "spec.flavorFungibility.whenCanBorrow", "unsupported value \"Borrow\""},
        BadCase{"BadStopPolicy", kBadStopPolicy.c_str(), "spec.stopPolicy", "Pause"},
        BadCase{"BadAdmissionMode", kBadAdmissionMode.c_str(), "spec.admissionScope.admissionMode",
                "Fast"},
        BadCase{"BadFairSharingWeight", kBadWeight.c_str(), "spec.fairSharing.weight", ""},
        BadCase{"LocalQueueWithoutClusterQueue", kLqWithoutCq, "spec.clusterQueue",
                "required value"},
        BadCase{"HostnameNotLowestLevel", kTopologyHostnameNotLast, "spec.levels[0].nodeLabel",
                "lowest level"},
        BadCase{"FlavorBadTaintEffect", kFlavorBadTaint, "spec.nodeTaints[0].effect", ""},
        BadCase{"TopologyFlavorWithoutNodeLabels", kTopologyFlavorWithoutLabels, "spec.nodeLabels",
                "nodeLabel"},
        BadCase{"AdmissionCheckWithoutController", kCheckWithoutController, "spec.controllerName",
                "required value"},
        BadCase{"WorkloadPriorityClassValueNotInt", kBadWpcValue, "value", "integer"}),
    [](const ::testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

TEST(KueueReaderTest, UnknownKueueKindsStaySkippedWithAWarning) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ProvisioningRequestConfig
metadata: {name: p}
---
apiVersion: kueue.x-k8s.io/v1alpha1
kind: MultiKueueConfig
metadata: {name: m}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: DynamicResourceAllocationConfig
metadata: {name: d}
)",
                        diags);
  EXPECT_FALSE(diags.has_errors());
  ASSERT_EQ(diags.entries().size(), 3u) << Dump(diags);
  EXPECT_THAT(diags.entries()[0].error.message(),
              HasSubstr("unknown kind ProvisioningRequestConfig"));
  EXPECT_THAT(diags.entries()[1].error.message(), HasSubstr("unknown kind MultiKueueConfig"));
  EXPECT_EQ(in.objects_read, 0u);
}

TEST(KueueReaderTest, DecodesConfigurationV1beta2) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
fairSharing:
  preemptionStrategies: [LessThanInitialShare]
admissionFairSharing:
  usageHalfLifeTime: 168h
  usageSamplingInterval: 1m30s
  resourceWeights: {cpu: 2.5, nvidia.com/gpu: 10}
waitForPodsReady:
  timeout: 10m
  blockAdmission: true
  recoveryTimeout: 3m
  requeuingStrategy: {timestamp: Creation, backoffLimitCount: 5, backoffBaseSeconds: 10,
                      backoffMaxSeconds: 600}
multiKueue:
  dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-incremental
  workerLostTimeout: 5m
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_TRUE(in.snapshot.kueue_config.has_value());
  const model::KueueConfig& c = *in.snapshot.kueue_config;
  ASSERT_TRUE(c.fair_sharing.has_value());
  EXPECT_THAT(c.fair_sharing->preemption_strategies,
              ElementsAre(model::FairSharingStrategy::kLessThanInitialShare));
  ASSERT_TRUE(c.admission_fair_sharing.has_value());
  EXPECT_EQ(c.admission_fair_sharing->usage_half_life_time_s, 168 * 3600);
  EXPECT_EQ(c.admission_fair_sharing->usage_sampling_interval_s, 90);
  EXPECT_EQ(c.admission_fair_sharing->resource_weights_milli.at("cpu"), 2500);
  EXPECT_EQ(c.admission_fair_sharing->resource_weights_milli.at("nvidia.com/gpu"), 10000);
  ASSERT_TRUE(c.wait_for_pods_ready.has_value());
  EXPECT_EQ(c.wait_for_pods_ready->timeout_s, 600);
  EXPECT_TRUE(c.wait_for_pods_ready->block_admission);
  EXPECT_EQ(c.wait_for_pods_ready->recovery_timeout_s, 180);
  EXPECT_EQ(c.wait_for_pods_ready->requeuing_timestamp, "Creation");
  EXPECT_EQ(c.wait_for_pods_ready->backoff_limit_count, 5);
  EXPECT_EQ(c.wait_for_pods_ready->backoff_base_s, 10);
  EXPECT_EQ(c.wait_for_pods_ready->backoff_max_s, 600);
  EXPECT_EQ(c.multikueue_dispatcher, "kueue.x-k8s.io/multikueue-dispatcher-incremental");
  EXPECT_EQ(c.multikueue_worker_lost_timeout_s, 300);
  EXPECT_TRUE(c.source.valid());
}

TEST(KueueReaderTest, ConfigurationV1beta1NeedsEnable) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
fairSharing: {enable: true}
waitForPodsReady: {enable: false, timeout: 5m}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  const model::KueueConfig& c = *in.snapshot.kueue_config;
  ASSERT_TRUE(c.fair_sharing.has_value());
  // Default strategies.
  EXPECT_EQ(c.fair_sharing->preemption_strategies.size(), 2u);
  EXPECT_FALSE(c.wait_for_pods_ready.has_value());
  EXPECT_FALSE(c.admission_fair_sharing.has_value());
  EXPECT_EQ(c.multikueue_worker_lost_timeout_s, 900);
}

TEST(KueueReaderTest, ConfigurationErrorsNameTheField) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
waitForPodsReady: {timeout: 10 minutes}
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
fairSharing: {preemptionStrategies: [LessThanInitialShare, LessThanOrEqualToFinalShare]}
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
fairSharing: {preemptionStrategies: [Sometimes]}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 3u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().field, "waitForPodsReady.timeout");
  EXPECT_EQ(diags.entries()[1].error.location().field, "fairSharing.preemptionStrategies");
  EXPECT_EQ(diags.entries()[2].error.location().field, "fairSharing.preemptionStrategies[0]");
  EXPECT_FALSE(in.snapshot.kueue_config.has_value());
}

TEST(KueueReaderTest, SecondConfigurationIsRejected) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
fairSharing: {}
)",
                        diags);
  EXPECT_EQ(diags.error_count(), 1u);
  ASSERT_TRUE(in.snapshot.kueue_config.has_value());
  EXPECT_FALSE(in.snapshot.kueue_config->fair_sharing.has_value());
}

TEST(KueueReaderTest, ParsesGoDurations) {
  using internal::ParseDurationSeconds;
  EXPECT_EQ(*ParseDurationSeconds("0"), 0);
  EXPECT_EQ(*ParseDurationSeconds("300ms"), 0);
  EXPECT_EQ(*ParseDurationSeconds("1.5s"), 1);
  EXPECT_EQ(*ParseDurationSeconds("1h30m"), 5400);
  EXPECT_EQ(*ParseDurationSeconds("2h45m30s"), 9930);
  EXPECT_EQ(*ParseDurationSeconds("0.5h"), 1800);
  EXPECT_EQ(*ParseDurationSeconds("-1m"), -60);
  EXPECT_FALSE(ParseDurationSeconds("").has_value());
  EXPECT_FALSE(ParseDurationSeconds("5").has_value());
  EXPECT_FALSE(ParseDurationSeconds("5d").has_value());
  EXPECT_FALSE(ParseDurationSeconds("m").has_value());
  EXPECT_FALSE(ParseDurationSeconds("1..2s").has_value());
}

TEST(KueueReaderTest, DecodesPodGroups) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: PodGroup
metadata: {name: gang, namespace: ml}
spec: {minMember: 4}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: vc}
spec: {minMember: 2, queue: research}
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: PodGroup
metadata: {name: bad}
spec: {minMember: -1}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().field, "spec.minMember");
  EXPECT_EQ(diags.entries()[0].error.location().object, "PodGroup/default/bad");
  ASSERT_EQ(in.snapshot.pod_groups.size(), 2u);
  EXPECT_EQ(in.snapshot.pod_groups[0].api_version, "scheduling.x-k8s.io/v1alpha1");
  EXPECT_EQ(in.snapshot.pod_groups[0].meta.namespace_, "ml");
  EXPECT_EQ(in.snapshot.pod_groups[0].min_member, 4);
  EXPECT_EQ(in.snapshot.pod_groups[1].min_member, 2);
  EXPECT_EQ(in.snapshot.pod_groups[1].queue, "research");
  EXPECT_EQ(in.snapshot.pod_groups[1].meta.namespace_, "default");
}

TEST(KueueReaderTest, SetsClusterFromAnnotationAndOptions) {
  core::Diagnostics diags;
  Reader reader(diags);
  reader.ReadText(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: f, annotations: {berth.dev/cluster: east}}
)",
                  "a.yaml");
  ReadOptions west;
  west.cluster = "west";
  reader.ReadText(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq}
spec: {clusterQueue: q}
)",
                  "b.yaml", west);
  Input in = reader.Finish();
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  EXPECT_EQ(in.snapshot.resource_flavors.at(0).cluster, "east");
  EXPECT_EQ(in.snapshot.local_queues.at(0).cluster, "west");
}


// multiKueue's dispatcher settings (apis/config/v1beta2 MultiKueue, defaults.go,
// pkg/config/validation.go): the incremental dispatcher's step size, the rules on it, and
// featureGates' values.
TEST(KueueReaderTest, ConfigurationReadsTheIncrementalDispatcherAndFeatureGates) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
multiKueue:
  dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-incremental
  incrementalDispatcherConfig: {stepSize: 2}
featureGates: {MultiKueueIncrementalDispatcherRespectConfigOrder: false, TopologyAwareScheduling: true}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  const model::KueueConfig& c = *in.snapshot.kueue_config;
  EXPECT_TRUE(c.multikueue_dispatcher_given);
  EXPECT_EQ(c.multikueue_incremental_step_size, 2);
  EXPECT_EQ(c.feature_gates.at("MultiKueueIncrementalDispatcherRespectConfigOrder"), false);
  EXPECT_EQ(c.feature_gates.at("TopologyAwareScheduling"), true);
}

TEST(KueueReaderTest, ConfigurationWithoutDispatcherNameLeavesItUngiven) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
multiKueue: {workerLostTimeout: 1m}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  const model::KueueConfig& c = *in.snapshot.kueue_config;
  EXPECT_FALSE(c.multikueue_dispatcher_given);
  EXPECT_EQ(c.multikueue_dispatcher, "kueue.x-k8s.io/multikueue-dispatcher-all-at-once");
  EXPECT_FALSE(c.multikueue_incremental_step_size.has_value());
}

TEST(KueueReaderTest, ConfigurationRefusesBadIncrementalDispatcherSettings) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
multiKueue:
  dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-incremental
  incrementalDispatcherConfig: {stepSize: 0}
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
multiKueue:
  incrementalDispatcherConfig: {stepSize: 2}
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
multiKueue:
  dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-incremental
  incrementalDispatcherConfig: {steps: 2}
---
apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
multiKueue:
  incrementalDispatcherConfig: {stepSize: 2}
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
featureGates: {MultiKueueIncrementalDispatcherConfig: "no"}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 5u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().field,
            "multiKueue.incrementalDispatcherConfig.stepSize");
  EXPECT_EQ(diags.entries()[0].error.message(), "must be greater than or equal to 1");
  EXPECT_EQ(diags.entries()[1].error.location().field, "multiKueue.incrementalDispatcherConfig");
  EXPECT_NE(diags.entries()[2].error.message().find(
                "unknown field \"multiKueue.incrementalDispatcherConfig.steps\""),
            std::string::npos)
      << diags.entries()[2].error.message();
  // v1beta1's MultiKueue has no incremental dispatcher configuration.
  EXPECT_NE(diags.entries()[3].error.message().find(
                "unknown field \"multiKueue.incrementalDispatcherConfig\""),
            std::string::npos)
      << diags.entries()[3].error.message();
  EXPECT_EQ(diags.entries()[4].error.location().field,
            "featureGates.MultiKueueIncrementalDispatcherConfig");
  EXPECT_FALSE(in.snapshot.kueue_config.has_value());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
