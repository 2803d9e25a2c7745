// Classical preemption (preemption_test.go's scenarios, reduced to their semantics).
#include <gtest/gtest.h>

#include "queueing/admission_test_util.h"
#include "queueing/kueue_builders.h"
#include "queueing/preemptor.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using model::PreemptionPolicy;
using testing::CqBuilder;
using testing::DecisionOf;
using testing::KueueSnapshot;
using testing::RunAll;
using testing::WlBuilder;

KueueSnapshot Single(PreemptionPolicy within, int64_t cpu = 4000) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", cpu).WithinClusterQueue(within));
  k.LocalQueue("lq", "cq");
  return k;
}

TEST(PreemptorTest, WithinClusterQueuePreemptsLowerPriorityThenAdmits) {
  KueueSnapshot k = Single(PreemptionPolicy::kLowerPriority);
  const int32_t low = k.Add(WlBuilder("low")
                                .Priority(1)
                                .Requests({{"cpu", 4000}})
                                .Admitted("cq", {{"cpu", "default", 4000}}));
  const int32_t high = k.Add(WlBuilder("high").Priority(5).Requests({{"cpu", 4000}}));
  AdmissionResult r = RunAll(k);
  const WorkloadDecision& v = DecisionOf(r, low);
  EXPECT_EQ(v.outcome, WorkloadOutcome::kPreempted);
  EXPECT_EQ(v.eviction.ValueOrEmpty().preemption_reason, "InClusterQueue");
  EXPECT_EQ(v.preempted_by, high);
  EXPECT_EQ(v.message,
            "Preempted to accommodate a workload (UID: uid-high, JobUID: UNKNOWN) due to "
            "prioritization in the ClusterQueue; preemptor path: /cq; preemptee path: /cq");
  const WorkloadDecision& p = DecisionOf(r, high);
  EXPECT_EQ(p.outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(p.victims, std::vector<int32_t>{low});
  EXPECT_EQ(v.cycle, 1);
  EXPECT_EQ(p.cycle, 2);  // admitted once the victim's quota is released
}

TEST(PreemptorTest, EqualPriorityIsNotPreemptedUnderLowerPriority) {
  KueueSnapshot k = Single(PreemptionPolicy::kLowerPriority);
  const int32_t same = k.Add(WlBuilder("same")
                                 .Priority(5)
                                 .Requests({{"cpu", 4000}})
                                 .Admitted("cq", {{"cpu", "default", 4000}}));
  const int32_t p = k.Add(WlBuilder("p").Priority(5).Requests({{"cpu", 4000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, same).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(DecisionOf(r, p).outcome, WorkloadOutcome::kPending);
}

TEST(PreemptorTest, LowerOrNewerEqualPriorityPreemptsNewerPeer) {
  KueueSnapshot k = Single(PreemptionPolicy::kLowerOrNewerEqualPriority);
  const int32_t newer = k.Add(WlBuilder("newer")
                                  .Priority(5)
                                  .Created(50)
                                  .Requests({{"cpu", 4000}})
                                  .Admitted("cq", {{"cpu", "default", 4000}}));
  const int32_t older = k.Add(WlBuilder("older").Priority(5).Created(10).Requests({{"cpu", 4000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, newer).outcome, WorkloadOutcome::kPreempted);
  EXPECT_EQ(DecisionOf(r, older).outcome, WorkloadOutcome::kAdmitted);
}

TEST(PreemptorTest, MinimalSetPrefersLowestPriority) {
  KueueSnapshot k = Single(PreemptionPolicy::kLowerPriority);
  const int32_t p1 = k.Add(WlBuilder("p1")
                               .Priority(1)
                               .Requests({{"cpu", 2000}})
                               .Admitted("cq", {{"cpu", "default", 2000}}));
  const int32_t p2 = k.Add(WlBuilder("p2")
                               .Priority(2)
                               .Requests({{"cpu", 2000}})
                               .Admitted("cq", {{"cpu", "default", 2000}}));
  const int32_t pre = k.Add(WlBuilder("pre").Priority(9).Requests({{"cpu", 2000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, p1).outcome, WorkloadOutcome::kPreempted);
  EXPECT_EQ(DecisionOf(r, p2).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(DecisionOf(r, pre).outcome, WorkloadOutcome::kAdmitted);
}

TEST(PreemptorTest, FillBackReturnsVictimsNotNeeded) {
  KueueSnapshot k = Single(PreemptionPolicy::kLowerPriority);
  // Candidate order is small (prio 1) then big (prio 2); removing both fits, but the small
  // one can be put back.
  const int32_t small = k.Add(WlBuilder("small")
                                  .Priority(1)
                                  .Requests({{"cpu", 1000}})
                                  .Admitted("cq", {{"cpu", "default", 1000}}));
  const int32_t big = k.Add(WlBuilder("big")
                                .Priority(2)
                                .Requests({{"cpu", 3000}})
                                .Admitted("cq", {{"cpu", "default", 3000}}));
  const int32_t pre = k.Add(WlBuilder("pre").Priority(9).Requests({{"cpu", 3000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, small).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(DecisionOf(r, big).outcome, WorkloadOutcome::kPreempted);
  EXPECT_EQ(DecisionOf(r, pre).outcome, WorkloadOutcome::kAdmitted);
}

TEST(PreemptorTest, MostRecentlyAdmittedGoesFirstAmongEqualPriority) {
  KueueSnapshot k = Single(PreemptionPolicy::kLowerPriority);
  const int32_t early = k.Add(WlBuilder("early")
                                  .Priority(1)
                                  .Requests({{"cpu", 2000}})
                                  .Admitted("cq", {{"cpu", "default", 2000}}, 100));
  const int32_t late = k.Add(WlBuilder("late")
                                 .Priority(1)
                                 .Requests({{"cpu", 2000}})
                                 .Admitted("cq", {{"cpu", "default", 2000}}, 200));
  k.Add(WlBuilder("pre").Priority(9).Requests({{"cpu", 2000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, late).outcome, WorkloadOutcome::kPreempted);
  EXPECT_EQ(DecisionOf(r, early).outcome, WorkloadOutcome::kAlreadyAdmitted);
}

KueueSnapshot Cohort(PreemptionPolicy reclaim, PreemptionPolicy borrow = PreemptionPolicy::kNever,
                     std::optional<int32_t> threshold = std::nullopt) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("a")
            .Cohort("all")
            .Quota("default", "cpu", 4000)
            .ReclaimWithinCohort(reclaim)
            .BorrowWithinCohort(borrow, threshold));
  k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 0));
  k.LocalQueue("la", "a");
  k.LocalQueue("lb", "b");
  return k;
}

TEST(PreemptorTest, ReclaimWithinCohortTakesBackLentQuota) {
  KueueSnapshot k = Cohort(PreemptionPolicy::kAny);
  const int32_t borrower = k.Add(WlBuilder("borrower")
                                     .Queue("lb")
                                     .Priority(100)
                                     .Requests({{"cpu", 4000}})
                                     .Admitted("b", {{"cpu", "default", 4000}}));
  const int32_t owner = k.Add(WlBuilder("owner").Queue("la").Requests({{"cpu", 2000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, borrower).outcome, WorkloadOutcome::kPreempted);
  EXPECT_EQ(DecisionOf(r, borrower).eviction.ValueOrEmpty().preemption_reason, "InCohortReclamation");
  EXPECT_EQ(DecisionOf(r, owner).outcome, WorkloadOutcome::kAdmitted);
}

TEST(PreemptorTest, ReclaimNeverLeavesBorrowerAlone) {
  KueueSnapshot k = Cohort(PreemptionPolicy::kNever);
  const int32_t borrower = k.Add(WlBuilder("borrower")
                                     .Queue("lb")
                                     .Requests({{"cpu", 4000}})
                                     .Admitted("b", {{"cpu", "default", 4000}}));
  const int32_t owner = k.Add(WlBuilder("owner").Queue("la").Requests({{"cpu", 2000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, borrower).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(DecisionOf(r, owner).outcome, WorkloadOutcome::kPending);
}

TEST(PreemptorTest, BorrowWithinCohortRespectsMaxPriorityThreshold) {
  // "a" is over its nominal after the request, so it may only preempt while borrowing.
  auto run = [](int32_t victim_priority) {
    KueueSnapshot k;
    k.Flavor("default");
    k.Add(CqBuilder("a")
              .Cohort("all")
              .Quota("default", "cpu", 1000)
              .ReclaimWithinCohort(PreemptionPolicy::kLowerPriority)
              .BorrowWithinCohort(PreemptionPolicy::kLowerPriority, 3));
    k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 1000));
    k.LocalQueue("la", "a");
    k.LocalQueue("lb", "b");
    k.Add(WlBuilder("victim")
              .Queue("lb")
              .Priority(victim_priority)
              .Requests({{"cpu", 2000}})
              .Admitted("b", {{"cpu", "default", 2000}}));
    k.Add(WlBuilder("pre").Queue("la").Priority(10).Requests({{"cpu", 2000}}));
    return RunAll(k);
  };
  AdmissionResult under = run(2);
  EXPECT_EQ(DecisionOf(under, 0).outcome, WorkloadOutcome::kPreempted);
  EXPECT_EQ(DecisionOf(under, 0).eviction.ValueOrEmpty().preemption_reason, "InCohortReclaimWhileBorrowing");
  EXPECT_EQ(DecisionOf(under, 1).outcome, WorkloadOutcome::kAdmitted);
  AdmissionResult over = run(5);
  EXPECT_EQ(DecisionOf(over, 0).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(DecisionOf(over, 1).outcome, WorkloadOutcome::kPending);
}

TEST(PreemptorTest, NoCandidatesLeavesPreemptorWaitingForQuota) {
  KueueSnapshot k = Single(PreemptionPolicy::kLowerPriority);
  k.Add(WlBuilder("vip")
            .Priority(100)
            .Requests({{"cpu", 4000}})
            .Admitted("cq", {{"cpu", "default", 4000}}));
  const int32_t pre = k.Add(WlBuilder("pre").Priority(5).Requests({{"cpu", 1000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, pre).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, pre).reason, "WaitingForQuota");
  EXPECT_EQ(DecisionOf(r, pre).message,
            "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
            "default, 1 more needed");
}

// Upstream preemption_test.go "preemptions from cq when target queue is exhausted for the
// single requested resource": "a" is over its nominal and may not borrow while preempting,
// so only the borrowing attempt runs: two own-queue victims, not the three a "without
// borrowing" attempt would need.
TEST(PreemptorTest, OverNominalWithoutBorrowWithinCohortTriesOnlyBorrowing) {
  KueueSnapshot k;
  k.Flavor("default");
  for (const char* name : {"a", "b", "c"}) {
    CqBuilder cq(name);
    cq.Cohort("cohort-three").Quota("default", "cpu", 2000).Quota("default", "memory", 2);
    if (std::string(name) == "a") {
      cq.WithinClusterQueue(PreemptionPolicy::kLowerPriority)
          .ReclaimWithinCohort(PreemptionPolicy::kAny);
    }
    k.Add(cq);
    k.LocalQueue(std::string("l") + name, name);
  }
  auto admitted = [&](const char* name, const char* cq, int32_t priority) {
    return k.Add(WlBuilder(name)
                     .Queue(std::string("l") + cq)
                     .Priority(priority)
                     .Requests({{"cpu", 1000}})
                     .Admitted(cq, {{"cpu", "default", 1000}}));
  };
  const int32_t a1 = admitted("a1", "a", -2);
  const int32_t a2 = admitted("a2", "a", -2);
  const int32_t a3 = admitted("a3", "a", -1);
  const int32_t b1 = admitted("b1", "b", 0);
  admitted("b2", "b", 0);
  admitted("b3", "b", 0);
  const int32_t in = k.Add(WlBuilder("in").Queue("la").Priority(0).Requests({{"cpu", 2000}}));
  AdmissionResult r = RunAll(k);
  const WorkloadDecision& p = DecisionOf(r, in);
  EXPECT_EQ(p.outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(p.victims, (std::vector<int32_t>{a1, a2}));
  EXPECT_EQ(DecisionOf(r, a1).message,
            "Preempted to accommodate a workload (UID: uid-in, JobUID: UNKNOWN) due to "
            "prioritization in the ClusterQueue; preemptor path: /cohort-three/a; preemptee "
            "path: /cohort-three/a");
  EXPECT_EQ(DecisionOf(r, a3).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(DecisionOf(r, b1).outcome, WorkloadOutcome::kAlreadyAdmitted);
}

// Kueue's scheduler.go reserveCapacityForUnreclaimablePreempt: a head whose flavor needs
// preemption but has no candidates holds its nominal headroom for the rest of the cycle,
// so a borrower later in the same cycle no longer fits. Under BestEffortFIFO the head is
// then parked and the borrower gets in on the next cycle; under StrictFIFO the head stays
// and holds the quota every cycle.
KueueSnapshot UnreclaimableHead(bool strict) {
  KueueSnapshot k;
  k.Flavor("default");
  CqBuilder a("a");
  a.Cohort("all")
      .Quota("default", "cpu", 4000)
      .WithinClusterQueue(PreemptionPolicy::kLowerPriority);
  if (strict) a.Strict();
  k.Add(a);
  k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 0));
  k.LocalQueue("la", "a");
  k.LocalQueue("lb", "b");
  k.Add(WlBuilder("vip")
            .Queue("la")
            .Priority(100)
            .Requests({{"cpu", 2000}})
            .Admitted("a", {{"cpu", "default", 2000}}));
  k.Add(WlBuilder("pre").Queue("la").Priority(5).Created(10).Requests({{"cpu", 4000}}));
  k.Add(WlBuilder("borrower").Queue("lb").Created(20).Requests({{"cpu", 2000}}));
  return k;
}

TEST(PreemptorTest, NoCandidatesHoldsNominalHeadroomForTheCycle) {
  AdmissionResult r = RunAll(UnreclaimableHead(false));
  const WorkloadDecision& pre = DecisionOf(r, 1);
  EXPECT_EQ(pre.outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(pre.reason, "WaitingForQuota");
  EXPECT_EQ(pre.message,
            "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
            "default, 2 more needed");
  const WorkloadDecision& borrower = DecisionOf(r, 2);
  EXPECT_EQ(borrower.outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(borrower.cycle, 2);  // cycle 1: "no longer fits" behind the held quota
}

TEST(PreemptorTest, StrictFifoHeadWithoutCandidatesBlocksCohortBorrowers) {
  AdmissionResult r = RunAll(UnreclaimableHead(true));
  EXPECT_EQ(DecisionOf(r, 1).outcome, WorkloadOutcome::kPending);
  const WorkloadDecision& borrower = DecisionOf(r, 2);
  EXPECT_EQ(borrower.outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(borrower.reason, "WaitingForQuota");
  EXPECT_EQ(borrower.message, "Workload no longer fits after processing another workload");
}

// An evicted workload is requeued through its LocalQueue, not into the ClusterQueue that
// admitted it: here "la" now points at "spare", where the victim is admitted again.
TEST(PreemptorTest, VictimIsRequeuedThroughItsLocalQueue) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("busy").Quota("default", "cpu", 4000).WithinClusterQueue(
      PreemptionPolicy::kLowerPriority));
  k.Add(CqBuilder("spare").Quota("default", "cpu", 4000));
  k.LocalQueue("la", "spare");
  k.LocalQueue("lb", "busy");
  const int32_t victim = k.Add(WlBuilder("victim")
                                   .Queue("la")
                                   .Priority(1)
                                   .Requests({{"cpu", 4000}})
                                   .Admitted("busy", {{"cpu", "default", 4000}}));
  const int32_t pre = k.Add(WlBuilder("pre").Queue("lb").Priority(5).Requests({{"cpu", 4000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, pre).outcome, WorkloadOutcome::kAdmitted);
  const WorkloadDecision& v = DecisionOf(r, victim);
  EXPECT_EQ(v.outcome, WorkloadOutcome::kAdmitted);
  ASSERT_TRUE(v.admission.has_value());
  EXPECT_EQ(v.admission->cluster_queue, "spare");
}

TEST(PreemptorTest, PolicyAllowsMatchesUpstreamTable) {
  WorkloadInfo pre, cand;
  pre.priority = 5;
  pre.queue_timestamp.unix_s = 10;
  cand.priority = 5;
  cand.queue_timestamp.unix_s = 20;
  EXPECT_FALSE(PolicyAllows(PreemptionPolicy::kNever, pre, cand));
  EXPECT_TRUE(PolicyAllows(PreemptionPolicy::kAny, pre, cand));
  EXPECT_FALSE(PolicyAllows(PreemptionPolicy::kLowerPriority, pre, cand));
  EXPECT_TRUE(PolicyAllows(PreemptionPolicy::kLowerOrNewerEqualPriority, pre, cand));
  cand.queue_timestamp.unix_s = 10;  // same age: not newer
  EXPECT_FALSE(PolicyAllows(PreemptionPolicy::kLowerOrNewerEqualPriority, pre, cand));
  cand.priority = 4;
  EXPECT_TRUE(PolicyAllows(PreemptionPolicy::kLowerPriority, pre, cand));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
