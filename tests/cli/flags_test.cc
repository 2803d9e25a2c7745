#include "cli/flags.h"

#include <gtest/gtest.h>

#include "cli/explain_command.h"

namespace berth::cli {
namespace BERTH_UNITY_ID {

TEST(FlagsTest, OutputFormats) {
  EXPECT_EQ(ParseOutputFormat("yaml").value(), io::OutputFormat::kYaml);
  EXPECT_EQ(ParseOutputFormat("json").value(), io::OutputFormat::kJson);
  EXPECT_EQ(ParseOutputFormat("table").value(), io::OutputFormat::kTable);
  auto bad = ParseOutputFormat("xml");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_NE(bad.error().message().find("\"xml\""), std::string::npos);
}

TEST(FlagsTest, ScoringStrategiesUseKubeSchedulerSpelling) {
  EXPECT_EQ(ParseScoringStrategy("MostAllocated").value(),
            model::ScoringStrategyType::kMostAllocated);
  EXPECT_EQ(ParseScoringStrategy("LeastAllocated").value(),
            model::ScoringStrategyType::kLeastAllocated);
  EXPECT_EQ(ParseScoringStrategy("RequestedToCapacityRatio").value(),
            model::ScoringStrategyType::kRequestedToCapacityRatio);
  EXPECT_FALSE(ParseScoringStrategy("mostallocated").has_value());
}

TEST(FlagsTest, PlanOptionsLeaveEmptyFlagsUnset) {
  auto none = ParsePlanOptions("", "");
  ASSERT_TRUE(none.has_value());
  EXPECT_FALSE(none->scoring.has_value());
  EXPECT_FALSE(none->now.has_value());

  auto both = ParsePlanOptions("MostAllocated", "2026-01-02T03:04:05Z");
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ(both->scoring, model::ScoringStrategyType::kMostAllocated);
  ASSERT_TRUE(both->now.has_value());
  EXPECT_EQ(both->now->ToString(), "2026-01-02T03:04:05Z");

  auto bad_now = ParsePlanOptions("", "yesterday");
  ASSERT_FALSE(bad_now.has_value());
  EXPECT_NE(bad_now.error().message().find("--now"), std::string::npos);
}

TEST(FlagsTest, CyclesAreWholeNumbersInRange) {
  auto none = ParsePlanOptions("", "");
  ASSERT_TRUE(none.has_value());
  EXPECT_FALSE(none->cycles.has_value());  // the settled plan
  auto one = ParsePlanOptions("", "", std::string("1"));
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->cycles, 1);
  EXPECT_EQ(ParseCycles("1000000").value(), 1000000);
  for (const char* bad : {"", "0", "-1", "+2", " 2", "2.0", "1e3", "0x3", "two", "1000001",
                          "99999999999", "0000000000001"}) {
    auto parsed = ParseCycles(bad);
    ASSERT_FALSE(parsed.has_value()) << bad;
    EXPECT_NE(parsed.error().message().find("--cycles"), std::string::npos) << bad;
  }
}

// Issue 14: `--now ""`, `--seeds ""` and friends read as "not given" and passed without a
// word; every flag that takes a value now refuses an empty one (main.cc runs this check).
TEST(FlagsTest, EmptyValuesAreRefused) {
  EXPECT_FALSE(EmptyFlagValueProblem("").empty());
  EXPECT_TRUE(EmptyFlagValueProblem("2026-01-02T03:04:05Z").empty());
  EXPECT_TRUE(EmptyFlagValueProblem(" ").empty());  // not empty: the flag's own parser decides
}

// Issue 14: `--threads 0` ran with one thread without a word.
TEST(FlagsTest, CountsAreWholeNumbersInRange) {
  EXPECT_TRUE(CountFlagProblem("1", 1, kMaxSimulateThreads).empty());
  EXPECT_TRUE(CountFlagProblem("256", 1, kMaxSimulateThreads).empty());
  for (const char* bad : {"", "0", "-1", "+2", " 2", "2.0", "1e3", "0x3", "two", "257",
                          "9223372036854775807", "99999999999999999999999"}) {
    const std::string problem = CountFlagProblem(bad, 1, kMaxSimulateThreads);
    EXPECT_NE(problem.find("is not a whole number from 1 to 256"), std::string::npos) << bad;
  }
  // A long value is quoted in part only.
  EXPECT_LT(CountFlagProblem(std::string(10000, '9'), 1, 2).size(), 200u);
}

TEST(ParsePodTargetTest, KubectlStyleNames) {
  EXPECT_EQ(ParsePodTarget("pod/train-0").value(), "train-0");
  EXPECT_EQ(ParsePodTarget("pods/ml/train-0").value(), "ml/train-0");
  EXPECT_EQ(ParsePodTarget("po/train-0").value(), "train-0");
  EXPECT_FALSE(ParsePodTarget("train-0").has_value());
  EXPECT_FALSE(ParsePodTarget("job/train").has_value());
  EXPECT_FALSE(ParsePodTarget("pod/").has_value());
  EXPECT_FALSE(ParsePodTarget("pod/a/b/c").has_value());
  EXPECT_FALSE(ParsePodTarget("pod/ml/").has_value());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
