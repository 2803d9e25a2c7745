// RunCycles (plan --cycles N) on one fixture, the kueue-two-teams e2e input: team-a's
// train-a reclaims the H100 quota team-b's b-running borrows. After one cycle the victim is
// evicted with its pods still bound and terminating, and the preemptor waits; after two the
// preemptor is admitted and the victim's pods are gone, while eval-a, behind train-a in
// team-a's queue, is nominated only in cycle 3 (one head per ClusterQueue per cycle); after
// four every decision is the settled one.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "core/diagnostics.h"
#include "engine/plan.h"
#include "engine/plan_cycles.h"
#include "io/reader.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

model::Snapshot ReadTwoTeams() {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  core::Diagnostics diags;
  io::Reader reader(diags);
  const core::Status status =
      reader.ReadPath(std::string(root != nullptr ? root : ".") + "/tests/e2e/kueue-two-teams/input");
  EXPECT_TRUE(status.ok()) << status.error().message();
  io::Input input = reader.Finish();
  for (const auto& d : diags.entries()) ADD_FAILURE() << d.error.ToString();
  return std::move(input.snapshot);
}

const queueing::WorkloadDecision* Decision(const Plan& plan, const std::string& name) {
  for (const auto& admission : plan.admissions) {
    for (const auto& d : admission.result.decisions) {
      if (plan.planned.kueue_workloads[static_cast<size_t>(d.workload)].meta.name == name) return &d;
    }
  }
  return nullptr;
}

const model::WorkloadCondition* Condition(const Plan& plan, const std::string& workload,
                                          const std::string& type) {
  for (const model::Workload& w : plan.planned.kueue_workloads) {
    if (w.meta.name == workload) return w.FindCondition(type);
  }
  return nullptr;
}

int Terminating(const Plan& plan) {
  int n = 0;
  for (const model::PodDecision& d : plan.pod_decisions) {
    if (plan.planned.pod(d.pod).deletion_timestamp) ++n;
  }
  return n;
}

TEST(PlanCyclesTest, OneCycleEvictsAndLeavesThePreemptorWaiting) {
  const model::Snapshot input = ReadTwoTeams();
  ASSERT_FALSE(input.kueue_workloads.empty());
  const Plan plan = RunCycles(input, PlanOptions{}, 1);
  EXPECT_EQ(plan.cycles, 1);
  const queueing::WorkloadDecision* victim = Decision(plan, "job-b-running");
  const queueing::WorkloadDecision* preemptor = Decision(plan, "job-train-a");
  ASSERT_NE(victim, nullptr);
  ASSERT_NE(preemptor, nullptr);
  EXPECT_EQ(victim->outcome, queueing::WorkloadOutcome::kPreempted);
  EXPECT_EQ(victim->cycle, 1);
  EXPECT_EQ(preemptor->outcome, queueing::WorkloadOutcome::kPending);
  EXPECT_EQ(preemptor->reason, "WaitingForPreemptedWorkloads");
  EXPECT_NE(preemptor->message.find(". Pending the preemption of 1 workload(s)"), std::string::npos)
      << preemptor->message;
  const model::WorkloadCondition* evicted = Condition(plan, "job-b-running", "Evicted");
  ASSERT_NE(evicted, nullptr);
  EXPECT_EQ(evicted->status, "True");
  EXPECT_EQ(evicted->reason, "Preempted");
  const model::WorkloadCondition* preempted = Condition(plan, "job-b-running", "Preempted");
  ASSERT_NE(preempted, nullptr);
  EXPECT_EQ(preempted->reason, "InCohortReclamation");
  // The victim's three running pods are still there, terminating, not deleted.
  EXPECT_EQ(Terminating(plan), 3);
  EXPECT_TRUE(plan.deleted_pods.empty());
}

TEST(PlanCyclesTest, KueueManagedPodsGetTerminationTarget) {
  model::Snapshot input = ReadTwoTeams();
  // As if Kueue's pod integration managed b-running-0 (its webhook's label); the others stay
  // Job pods, which carry no condition (the Job controller deletes them).
  for (model::Pod& pod : input.pods) {
    if (pod.meta.name == "b-running-0") pod.meta.labels["kueue.x-k8s.io/managed"] = "true";
  }
  const Plan plan = RunCycles(input, PlanOptions{}, 1);
  int with_condition = 0;
  for (const model::PodDecision& d : plan.pod_decisions) {
    const model::Pod& pod = plan.planned.pod(d.pod);
    if (!pod.deletion_timestamp) continue;
    for (const model::PodCondition& c : pod.conditions) {
      if (c.type != "TerminationTarget") continue;
      ++with_condition;
      EXPECT_EQ(pod.meta.name, "b-running-0");
      EXPECT_EQ(c.status, "True");
      EXPECT_EQ(c.reason, "WorkloadEvicted");
      EXPECT_NE(c.message.find("Preempted to accommodate a workload"), std::string::npos);
    }
  }
  EXPECT_EQ(with_condition, 1);
}

TEST(PlanCyclesTest, TwoCyclesAdmitThePreemptorFourMatchTheSettledPlan) {
  const model::Snapshot input = ReadTwoTeams();
  const Plan two = RunCycles(input, PlanOptions{}, 2);
  const Plan four = RunCycles(input, PlanOptions{}, 4);
  const Plan settled = RunPlan(input, PlanOptions{});
  EXPECT_EQ(settled.cycles, 0);
  const queueing::WorkloadDecision* preemptor = Decision(two, "job-train-a");
  ASSERT_NE(preemptor, nullptr);
  EXPECT_EQ(preemptor->outcome, queueing::WorkloadOutcome::kAdmitted);
  EXPECT_EQ(preemptor->cycle, 2);
  // Evicted in cycle 1: by cycle 2 its pods are gone (deleted), none terminating.
  EXPECT_EQ(Terminating(two), 0);
  EXPECT_EQ(two.deleted_pods.size(), settled.deleted_pods.size());
  EXPECT_EQ(Terminating(settled), 0);
  const queueing::WorkloadDecision* eval = Decision(two, "job-eval-a");
  ASSERT_NE(eval, nullptr);
  EXPECT_EQ(eval->outcome, queueing::WorkloadOutcome::kPending);
  EXPECT_EQ(eval->cycle, 0);  // not nominated yet
  // After four cycles every workload's outcome, reason and cycle is the settled one.
  for (const auto& admission : settled.admissions) {
    for (const auto& d : admission.result.decisions) {
      const std::string& name = settled.planned.kueue_workloads[static_cast<size_t>(d.workload)].meta.name;
      const queueing::WorkloadDecision* after_four = Decision(four, name);
      ASSERT_NE(after_four, nullptr) << name;
      EXPECT_EQ(after_four->outcome, d.outcome) << name;
      EXPECT_EQ(after_four->message, d.message) << name;
      EXPECT_EQ(after_four->cycle, d.cycle) << name;
    }
  }
  EXPECT_EQ(four.pod_decisions.size(), settled.pod_decisions.size());
  EXPECT_LT(two.pod_decisions.size(), settled.pod_decisions.size());
}

TEST(PlanCyclesTest, WithoutCyclesThePlanIsTheSettledOne) {
  const model::Snapshot input = ReadTwoTeams();
  PlanOptions options;
  const Plan settled = RunPlan(input, options);
  options.cycles = 1000;  // far more than it takes to settle
  const Plan many = RunPlan(input, options);
  ASSERT_EQ(many.pod_decisions.size(), settled.pod_decisions.size());
  for (size_t i = 0; i < many.pod_decisions.size(); ++i) {
    EXPECT_EQ(many.pod_decisions[i].pod, settled.pod_decisions[i].pod);
    EXPECT_EQ(many.pod_decisions[i].node, settled.pod_decisions[i].node);
  }
  EXPECT_EQ(many.deleted_pods.size(), settled.deleted_pods.size());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
