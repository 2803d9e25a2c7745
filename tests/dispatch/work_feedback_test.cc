// FeedbackRulesRead: which feedback values a ManifestWork's manifestConfigs ask the agent
// for, per manifest, as OCM's agent picks the rules.
#include "dispatch/work_feedback.h"

#include <gtest/gtest.h>

#include <string>

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

model::ManifestStatus DeploymentStatus(const std::string& name = "web") {
  model::ManifestStatus s;
  s.group = "apps";
  s.version = "v1";
  s.kind = "Deployment";
  s.resource = "deployments";
  s.name = name;
  s.namespace_ = "serving";
  return s;
}

model::ManifestConfig Config(const std::string& name, model::FeedbackRule rule) {
  model::ManifestConfig c;
  c.resource = {"apps", "deployments", name, "serving"};
  c.feedback_rules.push_back(std::move(rule));
  return c;
}

model::FeedbackRule WellKnown() { return {model::FeedbackRuleType::kWellKnownStatus, {}}; }

model::FeedbackRule JsonPaths(const std::string& name) {
  return {model::FeedbackRuleType::kJsonPaths, {{name, ".status.x"}}};
}

TEST(WorkFeedbackTest, WellKnownStatusReadsTheKindsWellKnownValues) {
  model::ManifestWork work;
  work.manifest_configs.push_back(Config("web", WellKnown()));
  EXPECT_TRUE(FeedbackRulesRead(work, DeploymentStatus(), "AvailableReplicas"));
  EXPECT_TRUE(FeedbackRulesRead(work, DeploymentStatus(), "ReadyReplicas"));
  EXPECT_FALSE(FeedbackRulesRead(work, DeploymentStatus(), "JobSucceeded")) << "a Job's";
  model::ManifestStatus v1beta1 = DeploymentStatus();
  v1beta1.version = "v1beta1";
  EXPECT_FALSE(FeedbackRulesRead(work, v1beta1, "AvailableReplicas")) << "upstream's v1 only";
}

TEST(WorkFeedbackTest, JsonPathsReadTheirNames) {
  model::ManifestWork work;
  work.manifest_configs.push_back(Config("web", JsonPaths("Ready")));
  EXPECT_TRUE(FeedbackRulesRead(work, DeploymentStatus(), "Ready"));
  EXPECT_FALSE(FeedbackRulesRead(work, DeploymentStatus(), "AvailableReplicas"));
}

TEST(WorkFeedbackTest, TheFirstMatchingConfigWithRulesIsTheOneRead) {
  model::ManifestWork work;
  model::ManifestConfig strategy_only = Config("web", WellKnown());
  strategy_only.feedback_rules.clear();
  strategy_only.update_strategy = "ServerSideApply";
  work.manifest_configs.push_back(strategy_only);             // matches, no rules: skipped
  work.manifest_configs.push_back(Config("other", WellKnown()));  // another name
  work.manifest_configs.push_back(Config("w*", JsonPaths("Ready")));  // the one
  work.manifest_configs.push_back(Config("web", WellKnown()));  // never read upstream
  EXPECT_TRUE(FeedbackRulesRead(work, DeploymentStatus(), "Ready"));
  EXPECT_FALSE(FeedbackRulesRead(work, DeploymentStatus(), "AvailableReplicas"));
  EXPECT_FALSE(FeedbackRulesRead(work, DeploymentStatus("api"), "Ready")) << "no config matches";
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
