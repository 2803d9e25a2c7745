// ApplyDecisions: status.admission and conditions as Kueue's controllers write them.
#include <gtest/gtest.h>

#include "queueing/admission.h"
#include "queueing/admission_test_util.h"
#include "queueing/kueue_builders.h"

namespace berth::queueing {
namespace {

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

}  // namespace
}  // namespace berth::queueing
