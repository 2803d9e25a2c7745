// Per-kind rules: resource identifiers, suspension and status feedback.
#include "dispatch/kind_rules.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <tuple>

#include "model/kind_info.h"

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

using model::FeedbackRuleType;

TEST(KindRulesTest, JobUsesWellKnownStatusPlusItsFailedConditionAndReadyPods) {
  KindRules r = RulesForKind("batch/v1", "Job");
  EXPECT_EQ(r.group, "batch");
  EXPECT_EQ(r.resource, "jobs");
  EXPECT_TRUE(r.suspendable);
  ASSERT_EQ(r.feedback_rules.size(), 2u);
  EXPECT_EQ(r.feedback_rules[0].type, FeedbackRuleType::kWellKnownStatus);
  EXPECT_TRUE(r.feedback_rules[0].json_paths.empty());
  EXPECT_EQ(r.feedback_rules[1].type, FeedbackRuleType::kJsonPaths);
  ASSERT_EQ(r.feedback_rules[1].json_paths.size(), 2u);
  EXPECT_EQ(r.feedback_rules[1].json_paths[0].name, "JobFailed");
  EXPECT_EQ(r.feedback_rules[1].json_paths[0].path,
            ".status.conditions[?(@.type==\"Failed\")].status");
  EXPECT_EQ(r.feedback_rules[1].json_paths[1].name, "JobReady");
  EXPECT_EQ(r.feedback_rules[1].json_paths[1].path, ".status.ready");
}

TEST(KindRulesTest, DeploymentAndPodUseWellKnownStatusAndAreNotSuspended) {
  for (auto [api, kind, group, resource] :
       {std::tuple{"apps/v1", "Deployment", "apps", "deployments"},
        std::tuple{"v1", "Pod", "", "pods"}}) {
    KindRules r = RulesForKind(api, kind);
    EXPECT_EQ(r.group, group);
    EXPECT_EQ(r.resource, resource);
    EXPECT_FALSE(r.suspendable) << kind;
    ASSERT_EQ(r.feedback_rules.size(), 1u) << kind;
    EXPECT_EQ(r.feedback_rules[0].type, FeedbackRuleType::kWellKnownStatus);
  }
}

TEST(KindRulesTest, JobSetReportsScalarStatusFieldsByJsonPath) {
  KindRules r = RulesForKind("jobset.x-k8s.io/v1alpha2", "JobSet");
  EXPECT_EQ(r.group, "jobset.x-k8s.io");
  EXPECT_EQ(r.resource, "jobsets");
  EXPECT_TRUE(r.suspendable);
  ASSERT_EQ(r.feedback_rules.size(), 1u);
  ASSERT_EQ(r.feedback_rules[0].type, FeedbackRuleType::kJsonPaths);
  const auto& paths = r.feedback_rules[0].json_paths;
  ASSERT_EQ(paths.size(), 4u);
  EXPECT_EQ(paths[0].name, "TerminalState");
  EXPECT_EQ(paths[0].path, ".status.terminalState");
  EXPECT_EQ(paths[1].name, "Restarts");
  EXPECT_EQ(paths[1].path, ".status.restarts");
  EXPECT_EQ(paths[2].path, ".status.conditions[?(@.type==\"Completed\")].status");
}

TEST(KindRulesTest, PyTorchJobLeaderWorkerSetAndStatefulSet) {
  KindRules pt = RulesForKind("kubeflow.org/v1", "PyTorchJob");
  EXPECT_EQ(pt.resource, "pytorchjobs");
  EXPECT_TRUE(pt.suspendable);
  ASSERT_EQ(pt.feedback_rules.size(), 1u);
  EXPECT_EQ(pt.feedback_rules[0].json_paths.size(), 3u);
  EXPECT_EQ(pt.feedback_rules[0].json_paths[0].path,
            ".status.conditions[?(@.type==\"Succeeded\")].status");

  KindRules lws = RulesForKind("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet");
  EXPECT_EQ(lws.resource, "leaderworkersets");
  EXPECT_FALSE(lws.suspendable);
  ASSERT_EQ(lws.feedback_rules.size(), 1u);
  EXPECT_EQ(lws.feedback_rules[0].json_paths[0].path, ".status.readyReplicas");

  KindRules sts = RulesForKind("apps/v1", "StatefulSet");
  EXPECT_EQ(sts.resource, "statefulsets");
  EXPECT_FALSE(sts.suspendable);
  ASSERT_EQ(sts.feedback_rules.size(), 1u);
  EXPECT_EQ(sts.feedback_rules[0].type, FeedbackRuleType::kJsonPaths);
}

TEST(KindRulesTest, UnknownKindGetsPluralResourceAndNoRules) {
  // RayService: berth reads RayJob and RayCluster, not it.
  KindRules r = RulesForKind("ray.io/v1", "RayService");
  EXPECT_EQ(r.group, "ray.io");
  EXPECT_EQ(r.resource, "rayservices");
  EXPECT_FALSE(r.suspendable);
  EXPECT_TRUE(r.feedback_rules.empty());
  // A Job of another group is not batch's Job.
  EXPECT_TRUE(RulesForKind("example.com/v1", "Job").feedback_rules.empty());
  EXPECT_EQ(GroupOf("v1"), "");
  EXPECT_EQ(GroupOf("batch/v1"), "batch");
}

// Kinds of the table without dispatch rules still get their plural as upstream names it
// (not the kind plus "s").
TEST(KindRulesTest, KnownKindsUseTheTablesPlural) {
  EXPECT_EQ(RulesForKind("kueue.x-k8s.io/v1beta2", "Topology").resource, "topologies");
  EXPECT_EQ(RulesForKind("scheduling.k8s.io/v1", "PriorityClass").resource, "priorityclasses");
  KindRules rct = RulesForKind("resource.k8s.io/v1", "ResourceClaimTemplate");
  EXPECT_EQ(rct.group, "resource.k8s.io");
  EXPECT_EQ(rct.resource, "resourceclaimtemplates");
  EXPECT_FALSE(rct.suspendable);
  EXPECT_TRUE(rct.feedback_rules.empty());
}

// Every row's dispatch data comes through RulesForKind unchanged, in every version it reads.
TEST(KindRulesTest, RulesAreTheTablesRows) {
  for (const model::KindInfo& k : model::AllKinds()) {
    if (!k.served()) continue;
    for (std::string_view version : k.versions) {
      std::string api_version = k.group.empty() ? std::string(version)
                                                : std::string(k.group) + "/" + std::string(version);
      SCOPED_TRACE(api_version + " " + std::string(k.kind));
      KindRules r = RulesForKind(api_version, std::string(k.kind));
      EXPECT_EQ(r.group, k.group);
      EXPECT_EQ(r.resource, k.resource);
      EXPECT_EQ(r.suspendable, k.dispatch.suspend != model::SuspendField::kNone);
      ASSERT_EQ(r.feedback_rules.size(), k.dispatch.feedback_rules.size());
      for (size_t i = 0; i < r.feedback_rules.size(); ++i) {
        const model::FeedbackRuleInfo& want = k.dispatch.feedback_rules[i];
        EXPECT_EQ(r.feedback_rules[i].type, want.type);
        ASSERT_EQ(r.feedback_rules[i].json_paths.size(), want.json_paths.size());
        for (size_t j = 0; j < want.json_paths.size(); ++j) {
          EXPECT_EQ(r.feedback_rules[i].json_paths[j].name, want.json_paths[j].name);
          EXPECT_EQ(r.feedback_rules[i].json_paths[j].path, want.json_paths[j].path);
        }
      }
    }
  }
  // Which kinds Kueue suspends by a field, and which report status back.
  std::set<std::string_view> suspendable;
  std::set<std::string_view> with_feedback;
  for (const model::KindInfo& k : model::AllKinds()) {
    if (k.dispatch.suspend != model::SuspendField::kNone) suspendable.insert(k.kind);
    if (!k.dispatch.feedback_rules.empty()) with_feedback.insert(k.kind);
  }
  EXPECT_EQ(suspendable, (std::set<std::string_view>{"Job", "JobSet", "PyTorchJob", "MPIJob",
                                                      "RayCluster", "RayJob", "TrainJob"}));
  EXPECT_EQ(with_feedback,
            (std::set<std::string_view>{"Pod", "Job", "Deployment", "StatefulSet", "JobSet",
                                        "PyTorchJob", "LeaderWorkerSet", "MPIJob", "RayCluster",
                                        "RayJob", "TrainJob", "InferenceService", "DataLoad"}));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
