// berth why for pods kube-scheduler leaves pending: the chain groups nodes by their first
// failing filter, and each fix is verified by planning the changed input.
#include <gtest/gtest.h>

#include "diag/why.h"
#include "diag/why_test_util.h"
#include "engine/plan.h"

namespace berth::diag {
namespace BERTH_UNITY_ID {

using testing::AnswerFor;
using testing::ReadWhyFixture;

TEST(WhyPodTest, UntoleratedTaintBlocksAndTheTolerationFixIsVerified) {
  const model::Snapshot s = ReadWhyFixture("taint.yaml");
  const WhyAnswer a = AnswerFor(s, WhyTargetKind::kPod, "ml/infer-0");
  EXPECT_EQ(a.target, "Pod ml/infer-0");
  EXPECT_EQ(a.state, WhyState::kPending);
  ASSERT_EQ(a.chain.size(), 2u);
  EXPECT_EQ(a.chain[0].layer, WhyLayer::kNode);
  EXPECT_TRUE(a.chain[0].blocking);
  EXPECT_EQ(
      a.chain[0].reason,
      "node(s) had untolerated taint {nvidia.com/gpu: present}: 2 nodes (2 NVIDIA-H100-80GB-HBM3)");
  ASSERT_EQ(a.chain[0].objects.size(), 2u);
  EXPECT_EQ(a.chain[0].objects[0].kind, "Node");
  EXPECT_EQ(a.chain[0].objects[0].name, "gpu-1");
  EXPECT_EQ(a.chain[1].layer, WhyLayer::kDevice);
  EXPECT_EQ(
      a.chain[1].reason,
      "Insufficient nvidia.com/gpu: 1 node (1 no GPU label); requests 1 nvidia.com/gpu, at most 0 "
      "free (cpu-1)");
  ASSERT_EQ(a.fixes.size(), 1u);
  EXPECT_EQ(
      a.fixes[0].change,
      "add the toleration nvidia.com/gpu=present:NoSchedule (operator Equal) to Pod ml/infer-0: 2 "
      "nodes carry that taint");
  EXPECT_EQ(a.fixes[0].effect, "no other pod or workload changes");
  EXPECT_EQ(a.fix_runs, 1);
  EXPECT_EQ(a.runbook, "docs/runbooks/pending-pods.md");
}

TEST(WhyPodTest, TheFixReallyBindsThePod) {
  // The verification, done by hand: the toleration the fix names makes the plan bind it.
  model::Snapshot s = ReadWhyFixture("taint.yaml");
  const engine::Plan before = engine::RunPlan(s, {});
  ASSERT_FALSE(before.planned.pods[0].IsBound());
  s.pods[0].tolerations.push_back({"nvidia.com/gpu", core::TolerationOp::kEqual, "present",
                                   core::TaintEffect::kNoSchedule, std::nullopt});
  const engine::Plan after = engine::RunPlan(s, {});
  EXPECT_TRUE(after.planned.pods[0].IsBound());
}

TEST(WhyPodTest, ABoundPodHasOnlyContext) {
  model::Snapshot s = ReadWhyFixture("taint.yaml");
  s.pods[0].tolerations.push_back(
      {"nvidia.com/gpu", core::TolerationOp::kExists, "", std::nullopt, std::nullopt});
  const WhyAnswer a = AnswerFor(s, WhyTargetKind::kPod, "infer-0");
  EXPECT_EQ(a.state, WhyState::kBound);
  EXPECT_TRUE(a.fixes.empty());
  EXPECT_EQ(a.fix_runs, 0);
  EXPECT_EQ(a.runbook, "");
  ASSERT_EQ(a.chain.size(), 1u);
  EXPECT_FALSE(a.chain[0].blocking);
  EXPECT_EQ(a.chain[0].reason.rfind("bound: infer-0 on gpu-", 0), 0u) << a.chain[0].reason;
}

TEST(WhyPodTest, UnknownPodIsNotFoundAndNamesAreListed) {
  const model::Snapshot s = ReadWhyFixture("taint.yaml");
  auto a = AnswerWhy(s, WhyTarget{WhyTargetKind::kPod, "", "ml/infer-9"}, WhyOptions{});
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(WhyTargetNames(s, WhyTarget{WhyTargetKind::kPod, "", "x"}),
            std::vector<std::string>{"ml/infer-0"});
}

TEST(WhyPodTest, FixBudgetBoundsThePlans) {
  const model::Snapshot s = ReadWhyFixture("taint.yaml");
  WhyOptions options;
  options.max_fix_runs = 0;
  auto a = AnswerWhy(s, WhyTarget{WhyTargetKind::kPod, "", "ml/infer-0"}, options);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a.value().fix_runs, 0);
  EXPECT_EQ(a.value().fix_candidates, 1);
  EXPECT_TRUE(a.value().fixes.empty());
}

TEST(WhyPodTest, LowerPriorityRunningPodIsNamedForPreemption) {
  const model::Snapshot s = ReadWhyFixture("pod-preemption.yaml");
  const WhyAnswer a = AnswerFor(s, WhyTargetKind::kPod, "ml/high-0");
  EXPECT_EQ(a.state, WhyState::kPending);
  ASSERT_EQ(a.chain.size(), 1u);
  EXPECT_EQ(a.chain[0].layer, WhyLayer::kDevice);
  EXPECT_EQ(a.chain[0].reason,
            "Insufficient nvidia.com/gpu: 1 node (1 NVIDIA-A100-SXM4-80GB); requests 4 "
            "nvidia.com/gpu, at "
            "most 2 free (n1)");
  ASSERT_EQ(a.fixes.size(), 2u);
  EXPECT_EQ(a.fixes[0].change,
            "request 2 nvidia.com/gpu instead of 4 in Pod ml/high-0: n1 has 2 free");
  EXPECT_EQ(a.fixes[0].effect, "no other pod or workload changes");
  EXPECT_EQ(a.fixes[1].change, "preempt ml/low-0 (priority 0) on node n1 for Pod ml/high-0");
  EXPECT_EQ(a.fixes[1].effect, "preempts pod ml/low-0");
}

TEST(WhyPodTest, SelectorNoNodeHasIsRemoved) {
  model::Snapshot s = ReadWhyFixture("taint.yaml");
  s.pods[0].tolerations.push_back(
      {"nvidia.com/gpu", core::TolerationOp::kExists, "", std::nullopt, std::nullopt});
  s.pods[0].node_selector["nvidia.com/gpu.product"] = "NVIDIA-GH200-480GB";
  const WhyAnswer a = AnswerFor(s, WhyTargetKind::kPod, "ml/infer-0");
  ASSERT_FALSE(a.chain.empty());
  EXPECT_EQ(a.chain[0].reason,
            "node(s) didn't match Pod's node affinity/selector: 3 nodes (2 NVIDIA-H100-80GB-HBM3, "
            "1 no GPU "
            "label); the pod's nodeSelector is nvidia.com/gpu.product=NVIDIA-GH200-480GB");
  ASSERT_EQ(a.fixes.size(), 1u);
  EXPECT_EQ(a.fixes[0].change,
            "remove nodeSelector nvidia.com/gpu.product=NVIDIA-GH200-480GB from Pod ml/infer-0: no "
            "node of "
            "cluster default has that label");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::diag
