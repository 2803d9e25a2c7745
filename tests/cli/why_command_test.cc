// berth why's target grammar: kubectl's kinds, plurals and short names in any case.
#include "cli/why_command.h"

#include <gtest/gtest.h>

namespace berth::cli {
namespace BERTH_UNITY_ID {

TEST(WhyCommandTest, ParsesPodsWorkloadsAndWorkloadKinds) {
  auto pod = ParseWhyTarget("po/ml/train-0");
  ASSERT_TRUE(pod.has_value());
  EXPECT_EQ(pod.value().kind, diag::WhyTargetKind::kPod);
  EXPECT_EQ(pod.value().name, "ml/train-0");

  auto wl = ParseWhyTarget("Workloads/job-train");
  ASSERT_TRUE(wl.has_value());
  EXPECT_EQ(wl.value().kind, diag::WhyTargetKind::kWorkload);
  EXPECT_EQ(wl.value().name, "job-train");

  for (const char* text : {"job/ml/x", "Jobs/ml/x", "JOB/ml/x"}) {
    auto job = ParseWhyTarget(text);
    ASSERT_TRUE(job.has_value()) << text;
    EXPECT_EQ(job.value().kind, diag::WhyTargetKind::kJob);
    EXPECT_EQ(job.value().job_kind, "Job");
  }
  auto deploy = ParseWhyTarget("deploy/web/api");
  ASSERT_TRUE(deploy.has_value());
  EXPECT_EQ(deploy.value().job_kind, "Deployment");
  auto pytorch = ParseWhyTarget("PyTorchJob/ml/bert");
  ASSERT_TRUE(pytorch.has_value());
  EXPECT_EQ(pytorch.value().job_kind, "PyTorchJob");
  EXPECT_EQ(pytorch.value().name, "ml/bert");
}

TEST(WhyCommandTest, RefusesOtherKindsAndShapes) {
  EXPECT_FALSE(ParseWhyTarget("node/n1").has_value());
  EXPECT_FALSE(ParseWhyTarget("train-0").has_value());
  EXPECT_FALSE(ParseWhyTarget("pod/").has_value());
  EXPECT_FALSE(ParseWhyTarget("pod/a/b/c").has_value());
  EXPECT_FALSE(ParseWhyTarget("/x").has_value());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
