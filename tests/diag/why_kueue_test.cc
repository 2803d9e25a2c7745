// berth why for Kueue Workloads: quota flavor by flavor, the nominal quota raised by exactly
// the shortfall, and lower-priority workloads named for preemption with that side effect.
#include <gtest/gtest.h>

#include "diag/why.h"
#include "diag/why_test_util.h"

namespace berth::diag {
namespace BERTH_UNITY_ID {

using testing::AnswerFor;
using testing::ReadWhyFixture;

TEST(WhyKueueTest, QuotaShortfallGivesAnIncreaseOfExactlyTheShortfall) {
  const model::Snapshot s = ReadWhyFixture("quota.yaml");
  const WhyAnswer a = AnswerFor(s, WhyTargetKind::kWorkload, "ml/big");
  EXPECT_EQ(a.target, "Workload ml/big");
  EXPECT_EQ(a.state, WhyState::kPending);
  ASSERT_EQ(a.chain.size(), 1u);
  EXPECT_EQ(a.chain[0].layer, WhyLayer::kQuota);
  EXPECT_EQ(
      a.chain[0].reason,
      "flavor h100 (NoFit, pod set main): nvidia.com/gpu requested 6, available 4 (nominal 4, used "
      "0) in ClusterQueue research");
  ASSERT_EQ(a.chain[0].objects.size(), 2u);
  EXPECT_EQ(a.chain[0].objects[0].kind, "ClusterQueue");
  EXPECT_EQ(a.chain[0].objects[1].name, "h100");
  ASSERT_EQ(a.fixes.size(), 1u);
  EXPECT_EQ(
      a.fixes[0].change,
      "raise ClusterQueue research's nominalQuota in flavor h100: nvidia.com/gpu by 2 (4 -> 6)");
  EXPECT_EQ(a.fixes[0].effect, "no other pod or workload changes");
  EXPECT_EQ(a.runbook, "docs/runbooks/kueue-workload-pending.md");
}

TEST(WhyKueueTest, OneLessThanTheShortfallDoesNotAdmit) {
  // The fix is the smallest: one GPU less leaves the workload pending.
  model::Snapshot s = ReadWhyFixture("quota.yaml");
  s.cluster_queues[0].resource_groups[0].flavors[0].resources[2].nominal += 1;
  const WhyAnswer a = AnswerFor(s, WhyTargetKind::kWorkload, "ml/big");
  EXPECT_EQ(a.state, WhyState::kPending);
  ASSERT_EQ(a.fixes.size(), 1u);
  EXPECT_EQ(
      a.fixes[0].change,
      "raise ClusterQueue research's nominalQuota in flavor h100: nvidia.com/gpu by 1 (5 -> 6)");
}

TEST(WhyKueueTest, LowerPriorityHolderIsNamedForPreemption) {
  const model::Snapshot s = ReadWhyFixture("preemption.yaml");
  const WhyAnswer a = AnswerFor(s, WhyTargetKind::kWorkload, "high");
  EXPECT_EQ(a.state, WhyState::kPending);
  ASSERT_FALSE(a.chain.empty());
  EXPECT_EQ(a.chain[0].layer, WhyLayer::kQuota);
  EXPECT_EQ(a.chain[0].reason,
            "flavor h100 (NoCandidates, pod set main): nvidia.com/gpu requested 4, available 2 "
            "(nominal 8, "
            "used 6) in ClusterQueue research");
  ASSERT_EQ(a.fixes.size(), 2u);
  EXPECT_EQ(
      a.fixes[0].change,
      "raise ClusterQueue research's nominalQuota in flavor h100: nvidia.com/gpu by 2 (8 -> 10)");
  EXPECT_EQ(a.fixes[0].effect, "no other pod or workload changes");
  EXPECT_EQ(a.fixes[1].change,
            "preempt ml/low (priority 10) to free flavor h100 for Workload ml/high");
  EXPECT_EQ(a.fixes[1].effect, "preempts workload ml/low");
}

TEST(WhyKueueTest, AdmittedWorkloadHasContextOnly) {
  const model::Snapshot s = ReadWhyFixture("preemption.yaml");
  const WhyAnswer a = AnswerFor(s, WhyTargetKind::kWorkload, "ml/low");
  EXPECT_EQ(a.state, WhyState::kAdmitted);
  EXPECT_TRUE(a.fixes.empty());
  ASSERT_EQ(a.chain.size(), 1u);
  EXPECT_EQ(a.chain[0].layer, WhyLayer::kQueue);
  EXPECT_FALSE(a.chain[0].blocking);
  EXPECT_EQ(a.chain[0].reason, "admitted by ClusterQueue research in flavor h100");
}

TEST(WhyKueueTest, MissingLocalQueueBlocksInTheQueueLayer) {
  model::Snapshot s = ReadWhyFixture("quota.yaml");
  s.kueue_workloads[0].queue_name = "nope";
  const WhyAnswer a = AnswerFor(s, WhyTargetKind::kWorkload, "ml/big");
  ASSERT_EQ(a.chain.size(), 1u);
  EXPECT_EQ(a.chain[0].layer, WhyLayer::kQueue);
  EXPECT_EQ(a.chain[0].reason, "Misconfigured: LocalQueue nope doesn't exist");
  // The existing LocalQueue is tried, but 6 GPUs do not fit its 4 either.
  EXPECT_TRUE(a.fixes.empty());
  ASSERT_EQ(a.rejected_fixes.size(), 1u);
  EXPECT_EQ(
      a.rejected_fixes[0],
      "submit Workload ml/big to LocalQueue ml/training (ClusterQueue research) instead of nope");
}

TEST(WhyKueueTest, StrictFifoHeadBlocksInTheQueueLayer) {
  const model::Snapshot s = ReadWhyFixture("strict-fifo.yaml");
  const WhyAnswer a = AnswerFor(s, WhyTargetKind::kWorkload, "ml/small");
  EXPECT_EQ(a.state, WhyState::kPending);
  ASSERT_EQ(a.chain.size(), 1u);
  EXPECT_EQ(a.chain[0].layer, WhyLayer::kQueue);
  EXPECT_EQ(
      a.chain[0].reason,
      "ClusterQueue research is StrictFIFO and its head ml/big (priority 100) cannot be admitted: "
      "nothing behind it is considered");
  ASSERT_EQ(a.chain[0].objects.size(), 2u);
  EXPECT_EQ(a.chain[0].objects[1].name, "big");
  ASSERT_EQ(a.fixes.size(), 1u);
  EXPECT_EQ(a.fixes[0].change, "set ClusterQueue research's queueingStrategy to BestEffortFIFO");
  EXPECT_EQ(a.fixes[0].effect, "no other pod or workload changes");
}

TEST(WhyKueueTest, NamesAndLayerNames) {
  const model::Snapshot s = ReadWhyFixture("preemption.yaml");
  EXPECT_EQ(WhyTargetNames(s, WhyTarget{WhyTargetKind::kWorkload, "", "x"}),
            (std::vector<std::string>{"ml/low", "ml/high"}));
  EXPECT_STREQ(WhyLayerName(WhyLayer::kPlacement), "placement");
  EXPECT_STREQ(WhyStateName(WhyState::kRunning), "running");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::diag
