// Decoding of the fleet delivery kinds: Kueue's MultiKueueConfig and MultiKueueCluster
// (v1beta1, v1beta2) and OCM's ManifestWork, and the errors that name the field of a bad
// object as the CRDs and the work webhook would have refused it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ReadString;

TEST(MultiKueueReaderTest, DecodesV1beta2ConfigAndClusters) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: MultiKueueConfig
metadata: {name: gpu-fleet}
spec:
  clusters: [us-east, eu-west]
  quotaManagement: Automated
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: MultiKueueCluster
metadata: {name: us-east}
spec:
  clusterSource:
    kubeConfig: {location: us-east-secret}
status:
  conditions:
  - {type: Active, status: "True", reason: Active, message: Connected,
     lastTransitionTime: "2026-03-01T00:00:00Z"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: MultiKueueCluster
metadata: {name: eu-west, annotations: {berth.dev/cluster: hub}}
spec:
  clusterSource:
    clusterProfileRef: {name: eu-west-profile}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: MultiKueueCluster
metadata: {name: local}
spec:
  clusterSource:
    kubeConfig: {location: /etc/kueue/local.kubeconfig, locationType: Path}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  EXPECT_EQ(in.objects_read, 4u);
  const model::Snapshot& snap = in.snapshot;
  ASSERT_EQ(snap.multikueue_configs.size(), 1u);
  const model::MultiKueueConfig& config = snap.multikueue_configs[0];
  EXPECT_EQ(config.meta.name, "gpu-fleet");
  EXPECT_TRUE(config.meta.namespace_.empty());
  EXPECT_THAT(config.clusters, ElementsAre("us-east", "eu-west"));
  EXPECT_TRUE(config.source.valid());

  ASSERT_EQ(snap.multikueue_clusters.size(), 3u);
  const model::MultiKueueCluster& east = snap.multikueue_clusters[0];
  EXPECT_EQ(east.meta.name, "us-east");
  EXPECT_EQ(east.kubeconfig_location_type, "Secret");  // the CRD's default
  EXPECT_EQ(east.kubeconfig_location, "us-east-secret");
  EXPECT_TRUE(east.cluster_profile.empty());
  ASSERT_TRUE(east.active.has_value());
  EXPECT_EQ(east.active->status, model::ConditionStatus::kTrue);
  EXPECT_EQ(east.active->message, "Connected");
  ASSERT_TRUE(east.active->last_transition_time.has_value());
  EXPECT_EQ(east.active->last_transition_time->ToString(), "2026-03-01T00:00:00Z");

  const model::MultiKueueCluster& west = snap.multikueue_clusters[1];
  EXPECT_EQ(west.cluster_profile, "eu-west-profile");
  EXPECT_TRUE(west.kubeconfig_location.empty());
  EXPECT_FALSE(west.active.has_value());
  EXPECT_EQ(west.cluster, "hub");

  EXPECT_EQ(snap.multikueue_clusters[2].kubeconfig_location_type, "Path");
  EXPECT_EQ(snap.multikueue_clusters[2].kubeconfig_location, "/etc/kueue/local.kubeconfig");
}

TEST(MultiKueueReaderTest, DecodesV1beta1KubeConfigAndKeepsNoProfile) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta1
kind: MultiKueueConfig
metadata: {name: m}
spec: {clusters: [w1]}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: MultiKueueCluster
metadata: {name: w1}
spec:
  kubeConfig: {location: w1-secret, locationType: Secret}
  clusterProfileRef: {name: ignored-in-v1beta1}
status:
  conditions:
  - {type: Active, status: "False", reason: BadConfig, message: "no kubeconfig",
     lastTransitionTime: "2026-03-01T00:00:00Z"}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_EQ(in.snapshot.multikueue_configs.size(), 1u);
  EXPECT_THAT(in.snapshot.multikueue_configs[0].clusters, ElementsAre("w1"));
  ASSERT_EQ(in.snapshot.multikueue_clusters.size(), 1u);
  const model::MultiKueueCluster& w1 = in.snapshot.multikueue_clusters[0];
  EXPECT_EQ(w1.kubeconfig_location, "w1-secret");
  // clusterProfileRef has no effect in v1beta1 (it only survives conversion).
  EXPECT_TRUE(w1.cluster_profile.empty());
  ASSERT_TRUE(w1.active.has_value());
  EXPECT_EQ(w1.active->status, model::ConditionStatus::kFalse);
  EXPECT_EQ(w1.active->reason, "BadConfig");
}

TEST(MultiKueueReaderTest, V1alpha1StaysUnknown) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1alpha1
kind: MultiKueueCluster
metadata: {name: old}
spec: {kubeConfig: {location: s}}
)",
                        diags);
  EXPECT_FALSE(diags.has_errors());
  EXPECT_TRUE(in.snapshot.multikueue_clusters.empty());
  ASSERT_EQ(diags.entries().size(), 1u) << Dump(diags);
  EXPECT_THAT(diags.entries()[0].error.message(), HasSubstr("unknown kind MultiKueueCluster"));
}

struct BadCase {
  const char* name;
  const char* text;
  const char* field;
  const char* message;
};

class FleetBadInputTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(FleetBadInputTest, ReportsTheFieldAndDropsTheObject) {
  const BadCase& c = GetParam();
  core::Diagnostics diags;
  Input in = ReadString(c.text, diags);
  ASSERT_TRUE(diags.has_errors()) << c.name;
  ASSERT_EQ(diags.entries().size(), 1u) << Dump(diags);
  const core::Error& error = diags.entries()[0].error;
  EXPECT_EQ(error.location().field, c.field) << Dump(diags);
  EXPECT_THAT(error.message(), HasSubstr(c.message)) << Dump(diags);
  EXPECT_EQ(error.location().file, "test.yaml");
  EXPECT_FALSE(error.location().object.empty());
  EXPECT_EQ(in.objects_read, 0u);
  EXPECT_TRUE(in.snapshot.multikueue_configs.empty());
  EXPECT_TRUE(in.snapshot.multikueue_clusters.empty());
  EXPECT_TRUE(in.snapshot.manifest_works.empty());
}

constexpr const char* kMkConfig =
    "apiVersion: kueue.x-k8s.io/v1beta2\nkind: MultiKueueConfig\n"
    "metadata: {name: m}\n";
constexpr const char* kMkConfigV1beta1 =
    "apiVersion: kueue.x-k8s.io/v1beta1\nkind: MultiKueueConfig\nmetadata: {name: m}\n";
constexpr const char* kMkCluster =
    "apiVersion: kueue.x-k8s.io/v1beta2\nkind: MultiKueueCluster\n"
    "metadata: {name: c}\n";
constexpr const char* kMkClusterV1beta1 =
    "apiVersion: kueue.x-k8s.io/v1beta1\nkind: MultiKueueCluster\nmetadata: {name: c}\n";
constexpr const char* kWork =
    "apiVersion: work.open-cluster-management.io/v1\nkind: ManifestWork\n"
    "metadata: {name: w, namespace: us-east}\n";

std::string Cat(const char* head, const char* rest) { return std::string(head) + rest; }

const std::string kTwentyOne = [] {
  std::string list = "[";
  for (int i = 0; i < 21; ++i) list += (i ? ",c" : "c") + std::to_string(i);
  return list + "]";
}();
const std::string kLongName(257, 'x');
const std::string kConfigTooMany =
    Cat(kMkConfig, ("spec: {clusters: " + kTwentyOne + "}\n").c_str());
const std::string kConfigLongName =
    Cat(kMkConfig, ("spec: {clusters: [" + kLongName + "]}\n").c_str());
const std::string kClusterLongLocation = Cat(
    kMkCluster, ("spec: {clusterSource: {kubeConfig: {location: " + kLongName + "}}}\n").c_str());
const std::string kManifests =
    "spec:\n  workload:\n    manifests:\n"
    "    - {apiVersion: batch/v1, kind: Job, metadata: {name: a}}\n";
const std::string kWorkWithConfig = [] {
  return std::string(kWork) + kManifests + "  manifestConfigs:\n";
}();

const std::string kConfigNoClusters = Cat(kMkConfig, "spec: {}\n");
const std::string kConfigEmptyClusters = Cat(kMkConfig, "spec: {clusters: []}\n");
const std::string kConfigDuplicate = Cat(kMkConfig, "spec: {clusters: [a, b, a]}\n");
const std::string kConfigEmptyName = Cat(kMkConfig, "spec: {clusters: [a, \"\"]}\n");
const std::string kConfigNotString = Cat(kMkConfig, "spec: {clusters: [a, {name: b}]}\n");
const std::string kConfigBadQuota =
    Cat(kMkConfig, "spec: {clusters: [a], quotaManagement: Auto}\n");
const std::string kConfigV1beta1NoSpec = std::string(kMkConfigV1beta1);
const std::string kClusterNoSource = Cat(kMkCluster, "spec: {}\n");
const std::string kClusterBothSources =
    Cat(kMkCluster,
        "spec: {clusterSource: {kubeConfig: {location: s}, clusterProfileRef: {name: p}}}\n");
const std::string kClusterNeitherSource = Cat(kMkCluster, "spec: {clusterSource: {}}\n");
const std::string kClusterNoLocation =
    Cat(kMkCluster, "spec: {clusterSource: {kubeConfig: {locationType: Secret}}}\n");
const std::string kClusterEmptyLocation =
    Cat(kMkCluster, "spec: {clusterSource: {kubeConfig: {location: \"\"}}}\n");
const std::string kClusterBadLocationType =
    Cat(kMkCluster, "spec: {clusterSource: {kubeConfig: {location: s, locationType: File}}}\n");
const std::string kClusterEmptyProfile =
    Cat(kMkCluster, "spec: {clusterSource: {clusterProfileRef: {name: \"\"}}}\n");
const std::string kClusterV1beta1NoKubeConfig = Cat(kMkClusterV1beta1, "spec: {}\n");
const std::string kClusterV1beta1BadType =
    Cat(kMkClusterV1beta1, "spec: {kubeConfig: {location: s, locationType: secret}}\n");
const std::string kClusterTooManyConditions = [] {
  std::string text = Cat(kMkCluster,
                         "spec: {clusterSource: {kubeConfig: {location: s}}}\n"
                         "status:\n  conditions:\n");
  for (int i = 0; i < 17; ++i) text += "  - {type: T" + std::to_string(i) + ", status: \"True\"}\n";
  return text;
}();
const std::string kClusterBadCondition =
    Cat(kMkCluster,
        "spec: {clusterSource: {kubeConfig: {location: s}}}\n"
        "status: {conditions: [{type: Active, status: Maybe}]}\n");

const std::string kWorkNoManifests = Cat(kWork, "spec: {workload: {manifests: []}}\n");
const std::string kWorkNoSpec = std::string(kWork);
const std::string kWorkManifestWithoutKind =
    Cat(kWork,
        "spec:\n  workload:\n    manifests:\n"
        "    - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n"
        "    - {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n"
        "    - {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n"
        "    - {apiVersion: v1, metadata: {name: d}}\n");
const std::string kWorkManifestWithoutName =
    Cat(kWork,
        "spec:\n  workload:\n    manifests:\n"
        "    - {apiVersion: v1, kind: ConfigMap, metadata: {generateName: a-}}\n");
const std::string kWorkManifestNotObject =
    Cat(kWork, "spec:\n  workload:\n    manifests: [\"kind: Job\"]\n");
const std::string kWorkBadPropagation =
    std::string(kWork) + kManifests + "  deleteOption: {propagationPolicy: Background}\n";
const std::string kWorkConfigNoIdentifier = kWorkWithConfig + "  - {feedbackRules: []}\n";
const std::string kWorkConfigNoResource =
    kWorkWithConfig + "  - resourceIdentifier: {group: batch, name: a, namespace: ml}\n";
const std::string kWorkConfigNoName =
    kWorkWithConfig + "  - resourceIdentifier: {group: batch, resource: jobs}\n";
const std::string kWorkBadFeedbackType =
    kWorkWithConfig +
    "  - resourceIdentifier: {resource: jobs, name: a}\n    feedbackRules: [{type: Raw}]\n";
const std::string kWorkFeedbackNoType =
    kWorkWithConfig +
    "  - resourceIdentifier: {resource: jobs, name: a}\n    feedbackRules: [{}]\n";
const std::string kWorkJsonPathNoPath =
    kWorkWithConfig +
    "  - resourceIdentifier: {resource: jobs, name: a}\n"
    "    feedbackRules: [{type: JSONPaths, jsonPaths: [{name: ready}]}]\n";
const std::string kWorkJsonPathDuplicate = kWorkWithConfig +
                                           "  - resourceIdentifier: {resource: jobs, name: a}\n"
                                           "    feedbackRules: [{type: JSONPaths, jsonPaths: "
                                           "[{name: r, path: .a}, {name: r, path: .b}]}]\n";
const std::string kWorkBadUpdateStrategy =
    kWorkWithConfig +
    "  - resourceIdentifier: {resource: jobs, name: a}\n    updateStrategy: {type: Replace}\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, FleetBadInputTest,
    ::testing::Values(
        BadCase{"ConfigNoClusters", kConfigNoClusters.c_str(), "spec.clusters", "Required value"},
        BadCase{"ConfigV1beta1NoSpec", kConfigV1beta1NoSpec.c_str(), "spec.clusters",
                "Required value"},
        BadCase{"ConfigEmptyClusters", kConfigEmptyClusters.c_str(), "spec.clusters",
                "at least 1 items"},
        BadCase{"ConfigTooManyClusters", kConfigTooMany.c_str(), "spec.clusters",
                "at most 20 items"},
        BadCase{"ConfigDuplicate", kConfigDuplicate.c_str(), "spec.clusters[2]",
                "Duplicate value: \"a\""},
        BadCase{"ConfigEmptyName", kConfigEmptyName.c_str(), "spec.clusters[1]", "Required value"},
        BadCase{"ConfigNameNotString", kConfigNotString.c_str(), "spec.clusters[1]",
                "must be a string"},
        BadCase{"ConfigNameTooLong", kConfigLongName.c_str(), "spec.clusters[0]", "Too long"},
        BadCase{"ConfigBadQuotaManagement", kConfigBadQuota.c_str(), "spec.quotaManagement",
                "unsupported value \"Auto\""},
        BadCase{"ClusterNoSource", kClusterNoSource.c_str(), "spec.clusterSource",
                "Required value"},
        BadCase{"ClusterBothSources", kClusterBothSources.c_str(), "spec.clusterSource",
                "exactly one of the fields in [kubeConfig clusterProfileRef] must be set"},
        BadCase{"ClusterNeitherSource", kClusterNeitherSource.c_str(), "spec.clusterSource",
                "exactly one of"},
        BadCase{"ClusterNoLocation", kClusterNoLocation.c_str(),
                "spec.clusterSource.kubeConfig.location", "Required value"},
        BadCase{"ClusterEmptyLocation", kClusterEmptyLocation.c_str(),
                "spec.clusterSource.kubeConfig.location", "at least 1 chars"},
        BadCase{"ClusterLongLocation", kClusterLongLocation.c_str(),
                "spec.clusterSource.kubeConfig.location", "Too long"},
        BadCase{"ClusterBadLocationType", kClusterBadLocationType.c_str(),
                "spec.clusterSource.kubeConfig.locationType", "unsupported value \"File\""},
        BadCase{"ClusterEmptyProfile", kClusterEmptyProfile.c_str(),
                "spec.clusterSource.clusterProfileRef.name", "at least 1 chars"},
        BadCase{"ClusterV1beta1NoKubeConfig", kClusterV1beta1NoKubeConfig.c_str(),
                "spec.kubeConfig", "Required value"},
        BadCase{"ClusterV1beta1BadLocationType", kClusterV1beta1BadType.c_str(),
                "spec.kubeConfig.locationType", "unsupported value \"secret\""},
        BadCase{"ClusterTooManyConditions", kClusterTooManyConditions.c_str(), "status.conditions",
                "at most 16 items"},
        BadCase{"ClusterBadConditionStatus", kClusterBadCondition.c_str(),
                "status.conditions[0].status", "unsupported value \"Maybe\""},
        BadCase{"WorkNoManifests", kWorkNoManifests.c_str(), "spec.workload.manifests",
                "manifests should not be empty"},
        BadCase{"WorkNoSpec", kWorkNoSpec.c_str(), "spec.workload.manifests",
                "manifests should not be empty"},
        BadCase{"WorkManifestWithoutKind", kWorkManifestWithoutKind.c_str(),
                "spec.workload.manifests[3].kind", "Required value"},
        BadCase{"WorkManifestWithoutName", kWorkManifestWithoutName.c_str(),
                "spec.workload.manifests[0].metadata.name", "Required value"},
        BadCase{"WorkManifestNotObject", kWorkManifestNotObject.c_str(),
                "spec.workload.manifests[0]", "must be an object"},
        BadCase{"WorkBadPropagation", kWorkBadPropagation.c_str(),
                "spec.deleteOption.propagationPolicy", "unsupported value \"Background\""},
        BadCase{"WorkConfigNoIdentifier", kWorkConfigNoIdentifier.c_str(),
                "spec.manifestConfigs[0].resourceIdentifier", "Required value"},
        BadCase{"WorkConfigNoResource", kWorkConfigNoResource.c_str(),
                "spec.manifestConfigs[0].resourceIdentifier.resource", "Required value"},
        BadCase{"WorkConfigNoName", kWorkConfigNoName.c_str(),
                "spec.manifestConfigs[0].resourceIdentifier.name", "Required value"},
        BadCase{"WorkBadFeedbackType", kWorkBadFeedbackType.c_str(),
                "spec.manifestConfigs[0].feedbackRules[0].type", "unsupported value \"Raw\""},
        BadCase{"WorkFeedbackNoType", kWorkFeedbackNoType.c_str(),
                "spec.manifestConfigs[0].feedbackRules[0].type", "Required value"},
        BadCase{"WorkJsonPathNoPath", kWorkJsonPathNoPath.c_str(),
                "spec.manifestConfigs[0].feedbackRules[0].jsonPaths[0].path", "Required value"},
        BadCase{"WorkJsonPathDuplicate", kWorkJsonPathDuplicate.c_str(),
                "spec.manifestConfigs[0].feedbackRules[0].jsonPaths[1]", "Duplicate value"},
        BadCase{"WorkBadUpdateStrategy", kWorkBadUpdateStrategy.c_str(),
                "spec.manifestConfigs[0].updateStrategy.type", "unsupported value \"Replace\""}),
    [](const ::testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

TEST(MultiKueueReaderTest, OneBadObjectDoesNotHideTheOthers) {
  core::Diagnostics diags;
  Input in = ReadString(Cat(kMkConfig, "spec: {clusters: []}\n---\n") +
                            Cat(kMkCluster, "spec: {clusterSource: {kubeConfig: {location: s}}}\n"),
                        diags);
  EXPECT_EQ(diags.entries().size(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().object, "MultiKueueConfig/m");
  EXPECT_EQ(in.snapshot.multikueue_clusters.size(), 1u);
}

constexpr const char* kGivenWork = R"(
apiVersion: work.open-cluster-management.io/v1
kind: ManifestWork
metadata:
  name: job-train
  namespace: us-east
  labels: {berth.dev/workload: ml.train}
spec:
  workload:
    manifests:
    - apiVersion: batch/v1
      kind: Job
      metadata: {name: train, namespace: ml}
      spec: {template: {spec: {containers: [{name: c}]}}}
    - apiVersion: v1
      kind: Namespace
      metadata: {name: ml}
  deleteOption: {propagationPolicy: Orphan}
  manifestConfigs:
  - resourceIdentifier: {group: batch, resource: jobs, name: train, namespace: ml}
    feedbackRules:
    - {type: WellKnownStatus}
    - type: JSONPaths
      jsonPaths: [{name: active, path: .active}, {name: ready, path: .ready, version: v1}]
    updateStrategy: {type: ServerSideApply, serverSideApply: {force: true}}
  - resourceIdentifier: {resource: namespaces, name: ml}
status:
  conditions: [{type: Applied, status: "True", reason: AppliedManifestWorkComplete, message: ok,
                lastTransitionTime: "2026-03-01T00:00:00Z"}]
)";

TEST(ManifestWorkReaderTest, DecodesIdentityConfigsAndDeleteOption) {
  core::Diagnostics diags;
  Input in = ReadString(kGivenWork, diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  EXPECT_EQ(in.objects_read, 1u);
  // The manifests are not objects of the snapshot: a Job inside a work is not scheduled.
  EXPECT_TRUE(in.snapshot.workloads.empty());
  EXPECT_TRUE(in.snapshot.namespaces.empty());
  ASSERT_EQ(in.snapshot.manifest_works.size(), 1u);
  const model::ManifestWork& work = in.snapshot.manifest_works[0];
  EXPECT_EQ(work.meta.name, "job-train");
  EXPECT_EQ(work.meta.namespace_, "us-east");
  EXPECT_EQ(work.meta.labels.at(model::kWorkloadLabel), "ml.train");
  EXPECT_FALSE(work.created);
  EXPECT_TRUE(work.manifests.empty());
  EXPECT_TRUE(work.source.valid());
  ASSERT_EQ(work.read_manifests.size(), 2u);
  EXPECT_EQ(work.read_manifests[0].api_version, "batch/v1");
  EXPECT_EQ(work.read_manifests[0].kind, "Job");
  EXPECT_EQ(work.read_manifests[0].name, "train");
  EXPECT_EQ(work.read_manifests[0].namespace_, "ml");
  EXPECT_EQ(work.read_manifests[1].kind, "Namespace");
  EXPECT_TRUE(work.read_manifests[1].namespace_.empty());
  EXPECT_EQ(work.delete_propagation, "Orphan");

  ASSERT_EQ(work.manifest_configs.size(), 2u);
  const model::ManifestConfig& job = work.manifest_configs[0];
  EXPECT_EQ(job.resource.group, "batch");
  EXPECT_EQ(job.resource.resource, "jobs");
  EXPECT_EQ(job.resource.name, "train");
  EXPECT_EQ(job.resource.namespace_, "ml");
  ASSERT_EQ(job.feedback_rules.size(), 2u);
  EXPECT_EQ(job.feedback_rules[0].type, model::FeedbackRuleType::kWellKnownStatus);
  EXPECT_EQ(job.feedback_rules[1].type, model::FeedbackRuleType::kJsonPaths);
  ASSERT_EQ(job.feedback_rules[1].json_paths.size(), 2u);
  EXPECT_EQ(job.feedback_rules[1].json_paths[1].name, "ready");
  EXPECT_EQ(job.feedback_rules[1].json_paths[1].path, ".ready");
  EXPECT_EQ(job.update_strategy, "ServerSideApply");
  const model::ManifestConfig& ns = work.manifest_configs[1];
  EXPECT_TRUE(ns.resource.group.empty());
  EXPECT_TRUE(ns.resource.namespace_.empty());
  EXPECT_TRUE(ns.feedback_rules.empty());
  EXPECT_TRUE(ns.update_strategy.empty());
}

TEST(ManifestWorkReaderTest, DefaultsAreLeftEmpty) {
  core::Diagnostics diags;
  Input in = ReadString(std::string(kWork) + kManifests, diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_EQ(in.snapshot.manifest_works.size(), 1u);
  EXPECT_TRUE(in.snapshot.manifest_works[0].delete_propagation.empty());  // Foreground
  EXPECT_TRUE(in.snapshot.manifest_works[0].manifest_configs.empty());
  EXPECT_EQ(in.snapshot.manifest_works[0].cluster, "default");
}

TEST(ManifestWorkReaderTest, OtherWorkVersionsAndKindsStayUnknown) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: work.open-cluster-management.io/v1
kind: AppliedManifestWork
metadata: {name: r}
)",
                        diags);
  EXPECT_FALSE(diags.has_errors());
  EXPECT_TRUE(in.snapshot.manifest_works.empty());
  ASSERT_EQ(diags.entries().size(), 1u);
  EXPECT_THAT(diags.entries()[0].error.message(), HasSubstr("unknown kind AppliedManifestWork"));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
