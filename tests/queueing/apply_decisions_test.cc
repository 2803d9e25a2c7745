// ApplyDecisions: status.admission and conditions as Kueue's controllers write them.
#include <gtest/gtest.h>

#include "queueing/admission.h"
#include "queueing/admission_test_util.h"
#include "queueing/kueue_builders.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using testing::CqBuilder;
using testing::KueueSnapshot;
using testing::RunAll;
using testing::WlBuilder;

const model::WorkloadCondition* Cond(const model::Workload& wl, const char* type) {
  return wl.FindCondition(type);
}

TEST(ApplyDecisionsTest, WritesAdmissionAndConditions) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq")
            .Quota("default", "cpu", 2000)
            .WithinClusterQueue(model::PreemptionPolicy::kLowerPriority));
  k.LocalQueue("lq", "cq");
  k.Add(WlBuilder("victim")
            .Priority(1)
            .Requests({{"cpu", 2000}})
            .Admitted("cq", {{"cpu", "default", 2000}}, 5));
  k.Add(WlBuilder("pre").Priority(9).Requests({{"cpu", 2000}}));
  k.Add(WlBuilder("waiting").Priority(0).Requests({{"cpu", 500}}).Created(1));
  AdmissionResult r = RunAll(k);
  model::Snapshot planned = k.snapshot;
  ApplyDecisions(r, core::Timestamp{1000}, &planned);

  const model::Workload& victim = planned.kueue_workloads[0];
  EXPECT_FALSE(victim.admission.has_value());
  ASSERT_NE(Cond(victim, "Evicted"), nullptr);
  EXPECT_EQ(Cond(victim, "Evicted")->reason, "Preempted");
  EXPECT_EQ(Cond(victim, "Preempted")->reason, "InClusterQueue");
  EXPECT_EQ(Cond(victim, "QuotaReserved")->status, "False");
  EXPECT_EQ(Cond(victim, "QuotaReserved")->last_transition_time.unix_s, 1000);
  EXPECT_EQ(Cond(victim, "Admitted")->status, "False");

  const model::Workload& pre = planned.kueue_workloads[1];
  ASSERT_TRUE(pre.admission.has_value());
  EXPECT_EQ(Cond(pre, "QuotaReserved")->status, "True");
  EXPECT_EQ(Cond(pre, "QuotaReserved")->message, "Quota reserved in ClusterQueue cq");
  EXPECT_EQ(Cond(pre, "Admitted")->reason, "Admitted");

  const model::Workload& waiting = planned.kueue_workloads[2];
  EXPECT_EQ(Cond(waiting, "QuotaReserved")->status, "False");
  EXPECT_EQ(Cond(waiting, "QuotaReserved")->reason, "WaitingForQuota");
}

TEST(ApplyDecisionsTest, TransitionTimeMovesOnlyWhenStatusChanges) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 1000));
  k.LocalQueue("lq", "cq");
  k.Add(WlBuilder("held").Requests({{"cpu", 1000}}).Admitted("cq", {{"cpu", "default", 1000}}, 7));
  model::Workload blocked =
      WlBuilder("blocked").Requests({{"cpu", 1000}}).Build(k.snapshot.resources);
  blocked.conditions.push_back({"QuotaReserved", "False", "Pending", "old message", {3}});
  k.snapshot.kueue_workloads.push_back(blocked);
  AdmissionResult r = RunAll(k);
  model::Snapshot planned = k.snapshot;
  ApplyDecisions(r, core::Timestamp{1000}, &planned);
  const model::WorkloadCondition* c = Cond(planned.kueue_workloads[1], "QuotaReserved");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->last_transition_time.unix_s, 3);
  EXPECT_EQ(c->reason, "WaitingForQuota");
  EXPECT_NE(c->message, "old message");
  // The holder is untouched.
  const auto& before = k.snapshot.kueue_workloads[0].conditions;
  const auto& after = planned.kueue_workloads[0].conditions;
  ASSERT_EQ(after.size(), before.size());
  for (size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].status, before[i].status);
    EXPECT_EQ(after[i].reason, before[i].reason);
    EXPECT_EQ(after[i].last_transition_time, before[i].last_transition_time);
  }
}

TEST(ApplyDecisionsTest, RejectedCheckDeactivates) {
  KueueSnapshot k;
  k.Flavor("default");
  k.AdmissionCheck("prov");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 1000).Check("prov"));
  k.LocalQueue("lq", "cq");
  k.Add(WlBuilder("a")
            .Requests({{"cpu", 1000}})
            .Admitted("cq", {{"cpu", "default", 1000}}, 0, false)
            .CheckState("prov", model::CheckState::kRejected));
  AdmissionResult r = RunAll(k);
  model::Snapshot planned = k.snapshot;
  ApplyDecisions(r, core::Timestamp{1000}, &planned);
  EXPECT_FALSE(planned.kueue_workloads[0].active);
  EXPECT_FALSE(planned.kueue_workloads[0].admission.has_value());
  EXPECT_EQ(Cond(planned.kueue_workloads[0], "Evicted")->reason, "AdmissionCheck");
}

// A cohort where team-b borrows f1 from team-a; team-a reclaims it and the victim fits
// again on f2 (team-b's own), all in one plan.
KueueSnapshot ReclaimThenReadmit(int64_t b_f2_quota) {
  KueueSnapshot k;
  k.Flavor("f1");
  k.Flavor("f2");
  k.Add(CqBuilder("a")
            .Cohort("all")
            .Quota("f1", "cpu", 2000)
            .ReclaimWithinCohort(model::PreemptionPolicy::kAny));
  k.Add(CqBuilder("b").Cohort("all").Quota("f1", "cpu", 0).Quota("f2", "cpu", b_f2_quota));
  k.LocalQueue("lq-a", "a");
  k.LocalQueue("lq-b", "b");
  k.Add(WlBuilder("victim")
            .Queue("lq-b")
            .Requests({{"cpu", 2000}})
            .Admitted("b", {{"cpu", "f1", 2000}}, 5));
  k.Add(WlBuilder("pre").Queue("lq-a").Requests({{"cpu", 2000}}).Created(10));
  return k;
}

TEST(ApplyDecisionsTest, PreemptedThenAdmittedAgainEndsAsKueueLeavesIt) {
  KueueSnapshot k = ReclaimThenReadmit(2000);
  AdmissionResult r = RunAll(k);
  ASSERT_EQ(r.decisions[0].outcome, WorkloadOutcome::kAdmitted);
  model::Snapshot planned = k.snapshot;
  ApplyDecisions(r, core::Timestamp{1000}, &planned);
  const model::Workload& victim = planned.kueue_workloads[0];
  // The new admission, not the one read.
  ASSERT_TRUE(victim.admission.has_value());
  EXPECT_EQ(victim.admission->pod_set_assignments[0].flavors.at("cpu"), "f2");
  EXPECT_EQ(Cond(victim, "QuotaReserved")->status, "True");
  EXPECT_EQ(Cond(victim, "Admitted")->status, "True");
  const std::string& evicted_message = r.decisions[0].eviction.ValueOrEmpty().message;
  ASSERT_FALSE(evicted_message.empty());
  for (const char* type : {"Evicted", "Preempted"}) {
    const model::WorkloadCondition* c = Cond(victim, type);
    ASSERT_NE(c, nullptr) << type;
    EXPECT_EQ(c->status, "False") << type;
    EXPECT_EQ(c->reason, "QuotaReserved") << type;
    EXPECT_EQ(c->message, "Previously: " + evicted_message) << type;
  }
  const model::WorkloadCondition* requeued = Cond(victim, "Requeued");
  ASSERT_NE(requeued, nullptr);
  EXPECT_EQ(requeued->status, "True");
  EXPECT_EQ(requeued->reason, "Preempted");
  EXPECT_EQ(requeued->message, evicted_message);
}

TEST(ApplyDecisionsTest, PreemptedAndStillWaitingShowsTheEvictionAndTheRetry) {
  KueueSnapshot k = ReclaimThenReadmit(1000);  // too small for the victim
  AdmissionResult r = RunAll(k);
  ASSERT_EQ(r.decisions[0].outcome, WorkloadOutcome::kPreempted);
  model::Snapshot planned = k.snapshot;
  ApplyDecisions(r, core::Timestamp{1000}, &planned);
  const model::Workload& victim = planned.kueue_workloads[0];
  EXPECT_FALSE(victim.admission.has_value());
  const std::string& evicted_message = r.decisions[0].eviction.ValueOrEmpty().message;
  EXPECT_EQ(Cond(victim, "Evicted")->status, "True");
  EXPECT_EQ(Cond(victim, "Evicted")->reason, "Preempted");
  EXPECT_EQ(Cond(victim, "Evicted")->message, evicted_message);
  EXPECT_EQ(Cond(victim, "Preempted")->status, "True");
  EXPECT_EQ(Cond(victim, "Preempted")->reason, "InCohortReclamation");
  EXPECT_EQ(Cond(victim, "Requeued")->status, "True");
  EXPECT_EQ(Cond(victim, "Admitted")->status, "False");
  // It was tried again after the eviction: QuotaReserved=False says why that failed.
  const model::WorkloadCondition* reserved = Cond(victim, "QuotaReserved");
  EXPECT_EQ(reserved->status, "False");
  EXPECT_EQ(reserved->reason, r.decisions[0].eviction.ValueOrEmpty().retry_reason);
  EXPECT_EQ(reserved->message, r.decisions[0].eviction.ValueOrEmpty().retry_message);
  EXPECT_FALSE(r.decisions[0].eviction.ValueOrEmpty().retry_reason.empty());
}

TEST(ApplyDecisionsTest, ReadmissionInInputClosesTheEvictionOnly) {
  // Evicted in the input (Kueue already wrote Requeued), admitted by this plan.
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 1000));
  k.LocalQueue("lq", "cq");
  model::Workload wl = WlBuilder("back").Requests({{"cpu", 1000}}).Build(k.snapshot.resources);
  wl.conditions.push_back({"Evicted", "True", "Preempted", "old eviction", {3}});
  wl.conditions.push_back({"Requeued", "True", "Preempted", "old eviction", {3}});
  k.snapshot.kueue_workloads.push_back(wl);
  AdmissionResult r = RunAll(k);
  model::Snapshot planned = k.snapshot;
  ApplyDecisions(r, core::Timestamp{1000}, &planned);
  const model::Workload& back = planned.kueue_workloads[0];
  EXPECT_EQ(Cond(back, "Evicted")->status, "False");
  EXPECT_EQ(Cond(back, "Evicted")->message, "Previously: old eviction");
  EXPECT_EQ(Cond(back, "Preempted"), nullptr);
  EXPECT_EQ(Cond(back, "Requeued")->last_transition_time.unix_s, 3);
}

TEST(ApplyDecisionsTest, EvictionInInputIsFinishedByTheJob) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 1000).Stop(model::StopPolicy::kHoldAndDrain));
  k.LocalQueue("lq", "cq");
  k.Add(WlBuilder("a").Requests({{"cpu", 1000}}).Admitted("cq", {{"cpu", "default", 1000}}, 0));
  AdmissionResult r = RunAll(k);
  model::Snapshot planned = k.snapshot;
  ApplyDecisions(r, core::Timestamp{1000}, &planned);
  const model::Workload& a = planned.kueue_workloads[0];
  EXPECT_FALSE(a.admission.has_value());
  EXPECT_EQ(Cond(a, "Evicted")->reason, "ClusterQueueStopped");
  // Only a preemption (or node failure) requeues at once.
  EXPECT_EQ(Cond(a, "Requeued")->status, "False");
  EXPECT_EQ(Cond(a, "Requeued")->reason, "ClusterQueueStopped");
  EXPECT_EQ(Cond(a, "QuotaReserved")->reason, "PendingEvaluation");
  EXPECT_EQ(Cond(a, "QuotaReserved")->message, "The ClusterQueue is stopped");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
