// The footer of `berth plan -o table` (plan_summary.h) on the Kueue two-teams case: the
// counts agree with the rows of the tables above it, the queues' numbers with Kueue's.
#include "cli/plan_summary.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "cli/input_loader.h"

namespace berth::cli {
namespace BERTH_UNITY_ID {

std::optional<engine::Plan> PlanOfCase(const std::string& case_input) {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  if (root == nullptr) return std::nullopt;
  LoadFlags flags;
  flags.files = {std::string(root) + "/tests/e2e/" + case_input};
  std::ostringstream err;
  std::optional<LoadedInput> loaded = LoadInput(flags, err);
  if (!loaded) return std::nullopt;
  return engine::RunPlan(std::move(loaded->input.snapshot), loaded->options);
}

TEST(PlanSummaryTest, CountsPodsAndWorkloadsOfTheTables) {
  std::optional<engine::Plan> plan = PlanOfCase("kueue-two-teams-table/input");
  if (!plan) GTEST_SKIP() << "BERTH_SOURCE_DIR not set";
  const PlanCounts counts = CountPlan(*plan);
  EXPECT_EQ(counts.bound, 5);
  EXPECT_EQ(counts.pending, 0);
  EXPECT_EQ(counts.preempted, 3);  // job-b-running's three pods
  EXPECT_EQ(counts.workloads_admitted, 3);
  EXPECT_EQ(counts.workloads_pending, 3);  // the preempted one, job-huge-b, job-orphan
  EXPECT_EQ(PlanSummaryLine(*plan),
            "Summary: 5 pods bound, 0 pending, 3 preempted; 3 workloads admitted, 3 pending");
}

TEST(PlanSummaryTest, ClusterQueueTableShowsNominalUsedBorrowedPending) {
  std::optional<engine::Plan> plan = PlanOfCase("kueue-two-teams-table/input");
  if (!plan) GTEST_SKIP() << "BERTH_SOURCE_DIR not set";
  std::ostringstream out;
  PrintClusterQueueTable(*plan, out);
  EXPECT_EQ(out.str(),
            "\n"
            "CLUSTERQUEUES\n"
            "NAME     COHORT   FLAVOR/RESOURCE       NOMINAL    USED   BORROWED   PENDING\n"
            "team-a   gpus     h100/cpu                   96      18          0         0\n"
            "                  h100/memory               1Ti   144Gi          0\n"
            "                  h100/nvidia.com/gpu         8      10          2\n"
            "                  a100/cpu                   96       0          0\n"
            "                  a100/memory               1Ti       0          0\n"
            "                  a100/nvidia.com/gpu         8       0          0\n"
            "team-b   gpus     h100/cpu                   96       0          0         2\n"
            "                  h100/memory               1Ti       0          0\n"
            "                  h100/nvidia.com/gpu         8       0          0\n"
            "                  a100/cpu                   96       8          0\n"
            "                  a100/memory               1Ti    64Gi          0\n"
            "                  a100/nvidia.com/gpu         8       8          0\n");
}

TEST(PlanSummaryTest, NoClusterQueuesNoTable) {
  engine::Plan plan;
  std::ostringstream out;
  PrintClusterQueueTable(plan, out);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(PlanSummaryLine(plan), "Summary: 0 pods bound, 0 pending, 0 preempted");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
