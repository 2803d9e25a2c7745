// Fair sharing (fair_sharing_test.go, fair_sharing_iterator_test.go and the fair-sharing
// cases of preemption_test.go, reduced to their semantics).
#include "queueing/fair_sharing.h"

#include <gtest/gtest.h>

#include <limits>

#include "queueing/admission_test_util.h"
#include "queueing/kueue_builders.h"
#include "queueing/queue_setup.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using model::FairSharingStrategy;
using model::PreemptionPolicy;
using testing::CqBuilder;
using testing::DecisionOf;
using testing::KueueSnapshot;
using testing::RunAll;
using testing::WlBuilder;

void EnableFairSharing(KueueSnapshot& k, std::vector<FairSharingStrategy> strategies = {
                                             FairSharingStrategy::kLessThanOrEqualToFinalShare,
                                             FairSharingStrategy::kLessThanInitialShare}) {
  model::KueueConfig config;
  config.fair_sharing = model::FairSharingConfig{};
  config.fair_sharing->preemption_strategies = std::move(strategies);
  k.snapshot.kueue_config = config;
}

struct Fixture {
  QueueSetup setup;
  std::unique_ptr<FairSharing> fs;
};

Fixture Build(const KueueSnapshot& k) {
  core::Diagnostics diags;
  Fixture f{BuildQueueSetup(k.snapshot, "default", diags), nullptr};
  f.fs = std::make_unique<FairSharing>(k.snapshot, f.setup);
  return f;
}

int32_t Fr(const Fixture& f, const KueueSnapshot& k, const char* flavor, const char* res) {
  model::ResourceId r;
  EXPECT_TRUE(k.snapshot.resources.Find(res, &r));
  return f.setup.FrId(flavor, r);
}

// cq-a and cq-b share cohort "all": 2 + 8 cpu, so the cohort can lend 10 cpu.
KueueSnapshot TwoQueues(int64_t weight_a_milli = 1000) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq-a").Cohort("all").Quota("default", "cpu", 2000).Quota("default", "memory", 4));
  k.Add(CqBuilder("cq-b").Cohort("all").Quota("default", "cpu", 8000).Quota("default", "memory", 4));
  k.snapshot.cluster_queues[0].fair_sharing_weight_milli = weight_a_milli;
  return k;
}

TEST(FairSharingTest, ShareIsZeroWithinNominalAndWithoutCohort) {
  KueueSnapshot k = TwoQueues();
  k.Add(CqBuilder("alone").Quota("default", "cpu", 1000));
  Fixture f = Build(k);
  const int32_t cpu = Fr(f, k, "default", "cpu");
  f.setup.tree.AddUsage(0, cpu, 2000);
  EXPECT_EQ(f.fs->Share(f.setup.tree, 0).Rounded(), 0);
  EXPECT_FALSE(f.fs->Share(f.setup.tree, 0).borrowing);
  f.setup.tree.AddUsage(2, cpu, 5000);  // over its quota, but no cohort to borrow from
  EXPECT_EQ(f.fs->Share(f.setup.tree, 2).Rounded(), 0);
}

TEST(FairSharingTest, BorrowedOverLendableTimesThousand) {
  KueueSnapshot k = TwoQueues();
  Fixture f = Build(k);
  const int32_t cpu = Fr(f, k, "default", "cpu");
  f.setup.tree.AddUsage(0, cpu, 4000);  // 2 cpu borrowed of 10 lendable
  const Drs d = f.fs->Share(f.setup.tree, 0);
  EXPECT_TRUE(d.borrowing);
  EXPECT_DOUBLE_EQ(d.Weighted(), 200);
  EXPECT_EQ(f.fs->ResourceName(d.dominant), "cpu");
  // With a request of one more cpu (added to the queue's own usage).
  EXPECT_EQ(f.fs->Share(f.setup.tree, 0, {{cpu, 1000}}).Rounded(), 300);
}

TEST(FairSharingTest, WeightDividesTheShareAndZeroWeightIsInfinite) {
  for (const auto& [weight, want] : std::vector<std::pair<int64_t, int64_t>>{
           {2000, 100}, {500, 400}, {3000, 67}, {0, std::numeric_limits<int64_t>::max()}}) {
    KueueSnapshot k = TwoQueues(weight);
    Fixture f = Build(k);
    f.setup.tree.AddUsage(0, Fr(f, k, "default", "cpu"), 4000);
    EXPECT_EQ(f.fs->Share(f.setup.tree, 0).Rounded(), want) << "weight " << weight;
  }
  // A zero weight that does not borrow has share 0.
  KueueSnapshot k = TwoQueues(0);
  Fixture f = Build(k);
  EXPECT_EQ(f.fs->Share(f.setup.tree, 0).Rounded(), 0);
}

TEST(FairSharingTest, DominantResourceIsTheLargestRatio) {
  KueueSnapshot k = TwoQueues();
  Fixture f = Build(k);
  f.setup.tree.AddUsage(0, Fr(f, k, "default", "cpu"), 3000);   // 1/10 -> 100
  f.setup.tree.AddUsage(0, Fr(f, k, "default", "memory"), 7);   // 3/8 -> 375
  const Drs d = f.fs->Share(f.setup.tree, 0);
  EXPECT_EQ(d.Rounded(), 375);
  EXPECT_EQ(f.fs->ResourceName(d.dominant), "memory");
}

TEST(FairSharingTest, BorrowingSumsFlavorsOfOneResource) {
  KueueSnapshot k;
  k.Flavor("on-demand");
  k.Flavor("spot");
  k.Add(CqBuilder("a").Cohort("all").Quota("on-demand", "cpu", 1000).Quota("spot", "cpu", 1000));
  k.Add(CqBuilder("b").Cohort("all").Quota("on-demand", "cpu", 3000).Quota("spot", "cpu", 3000));
  Fixture f = Build(k);
  f.setup.tree.AddUsage(0, Fr(f, k, "on-demand", "cpu"), 2000);
  f.setup.tree.AddUsage(0, Fr(f, k, "spot", "cpu"), 3000);
  // (1 + 2) borrowed of (4 + 4) lendable.
  EXPECT_EQ(f.fs->Share(f.setup.tree, 0).Rounded(), 375);
}

TEST(FairSharingTest, HierarchicalCohortShareAgainstItsParent) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Cohort("root", "");
  k.Cohort("left", "root");
  k.Add(CqBuilder("a").Cohort("left").Quota("default", "cpu", 1000));
  k.Add(CqBuilder("b").Cohort("left").Quota("default", "cpu", 1000));
  k.Add(CqBuilder("c").Cohort("root").Quota("default", "cpu", 6000));
  k.snapshot.cohorts[1].fair_sharing_weight_milli = 2000;
  Fixture f = Build(k);
  const int32_t cpu = Fr(f, k, "default", "cpu");
  f.setup.tree.AddUsage(0, cpu, 4000);  // a borrows 3 of left's 8 potential; left borrows 2 of 8
  const int32_t left = f.setup.tree.parent(0);
  EXPECT_EQ(f.fs->Share(f.setup.tree, 0).Rounded(), 375);
  EXPECT_EQ(f.fs->Share(f.setup.tree, left).Rounded(), 125);  // 250 / weight 2
  EXPECT_EQ(f.fs->Share(f.setup.tree, f.setup.tree.Root(0)).Rounded(), 0);
}

// Three queues of 2 cpu in one cohort, a lender with 4 unused: both a and b would borrow.
KueueSnapshot Tournament() {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq-a").Cohort("all").Quota("default", "cpu", 2000));
  k.Add(CqBuilder("cq-b").Cohort("all").Quota("default", "cpu", 2000));
  k.Add(CqBuilder("lender").Cohort("all").Quota("default", "cpu", 4000));
  k.LocalQueue("lq-a", "cq-a");
  k.LocalQueue("lq-b", "cq-b");
  k.Add(WlBuilder("a-old").Queue("lq-a").Requests({{"cpu", 3000}}).Admitted("cq-a",
                                                                          {{"cpu", "default", 3000}}));
  k.Add(WlBuilder("b-old").Queue("lq-b").Requests({{"cpu", 2000}}).Admitted("cq-b",
                                                                          {{"cpu", "default", 2000}}));
  return k;
}

TEST(FairSharingTest, TournamentAdmitsTheLowerShareBeforeHigherPriority) {
  KueueSnapshot k = Tournament();
  const int32_t a = k.Add(WlBuilder("a").Queue("lq-a").Priority(10).Requests({{"cpu", 2000}}));
  const int32_t b = k.Add(WlBuilder("b").Queue("lq-b").Priority(0).Requests({{"cpu", 2000}}));
  // Classical order: both borrow, so priority wins and a takes the last 2 cpu... (3 free).
  AdmissionResult classical = RunAll(k);
  EXPECT_EQ(DecisionOf(classical, a).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(classical, b).outcome, WorkloadOutcome::kPending);
  // Fair sharing: after admission a would borrow 3 (375), b 2 (250): b first.
  EnableFairSharing(k);
  AdmissionResult fair = RunAll(k);
  EXPECT_EQ(DecisionOf(fair, b).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(fair, a).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(fair.cluster_queues[1].weighted_share, 250);
  EXPECT_EQ(fair.cluster_queues[0].weighted_share, 125);
  EXPECT_EQ(classical.cluster_queues[0].weighted_share, 0);  // not reported without fair sharing
}

TEST(FairSharingTest, TournamentUsesWeights) {
  KueueSnapshot k = Tournament();
  k.snapshot.cluster_queues[0].fair_sharing_weight_milli = 4000;  // a: 375 / 4 < b: 250
  const int32_t a = k.Add(WlBuilder("a").Queue("lq-a").Requests({{"cpu", 2000}}));
  const int32_t b = k.Add(WlBuilder("b").Queue("lq-b").Requests({{"cpu", 2000}}));
  EnableFairSharing(k);
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, a).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, b).outcome, WorkloadOutcome::kPending);
}

TEST(FairSharingTest, TournamentPrefersNonBorrowingEntry) {
  KueueSnapshot k = Tournament();
  // b's entry fits in its nominal quota after a-old is gone from the picture: give cq-b room.
  k.snapshot.kueue_workloads.pop_back();  // b-old
  const int32_t a = k.Add(WlBuilder("a").Queue("lq-a").Requests({{"cpu", 3000}}));
  const int32_t b = k.Add(WlBuilder("b").Queue("lq-b").Priority(-5).Requests({{"cpu", 2000}}));
  EnableFairSharing(k);
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, b).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, b).cycle, 1);
  EXPECT_EQ(DecisionOf(r, a).outcome, WorkloadOutcome::kAdmitted);  // 3 cpu still free
}

// a, b: nominal 1 cpu; c: 3 (2 used). b holds one 3-cpu workload (borrows 2: 400).
KueueSnapshot Strategies() {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("a").Cohort("all").Quota("default", "cpu", 1000).ReclaimWithinCohort(
      PreemptionPolicy::kAny));
  k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 1000));
  k.Add(CqBuilder("c").Cohort("all").Quota("default", "cpu", 3000));
  k.LocalQueue("lq", "a");
  k.Add(WlBuilder("b1").Requests({{"cpu", 3000}}).Admitted("b", {{"cpu", "default", 3000}}));
  k.Add(WlBuilder("c1").Requests({{"cpu", 2000}}).Admitted("c", {{"cpu", "default", 2000}}));
  return k;
}

TEST(FairSharingTest, LessThanInitialShareWhenFinalShareRuleFails) {
  KueueSnapshot k = Strategies();
  // a would borrow 1 (200); removing b1 leaves b at 0, so S2-a (200 <= 0) fails; S2-b
  // (200 < 400) preempts it.
  const int32_t p = k.Add(WlBuilder("p").Requests({{"cpu", 2000}}));
  EnableFairSharing(k);
  AdmissionResult r = RunAll(k);
  const WorkloadDecision& v = DecisionOf(r, 0);
  EXPECT_EQ(v.outcome, WorkloadOutcome::kPreempted);
  EXPECT_EQ(v.eviction.ValueOrEmpty().preemption_reason, "InCohortFairSharing");
  EXPECT_EQ(v.message,
            "Preempted to accommodate a workload (UID: uid-p, JobUID: UNKNOWN) due to Fair "
            "Sharing within the cohort; preemptor path: /all/a; preemptee path: /all/b");
  EXPECT_EQ(DecisionOf(r, p).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, 1).outcome, WorkloadOutcome::kAlreadyAdmitted);
}

TEST(FairSharingTest, FinalShareRuleAloneDoesNotPreempt) {
  KueueSnapshot k = Strategies();
  const int32_t p = k.Add(WlBuilder("p").Requests({{"cpu", 2000}}));
  EnableFairSharing(k, {FairSharingStrategy::kLessThanOrEqualToFinalShare});
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, 0).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(DecisionOf(r, p).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, p).reason, "WaitingForQuota");
}

TEST(FairSharingTest, FinalShareRulePreemptsTheHighestShareQueue) {
  // b holds four 1-cpu workloads (borrows 3 of 6: 500), d one (within nominal); a asks 2
  // (would borrow 1: 167). Removing one of b's leaves 333 >= 167.
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("a").Cohort("all").Quota("default", "cpu", 1000).ReclaimWithinCohort(
      PreemptionPolicy::kAny));
  k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 1000));
  k.Add(CqBuilder("d").Cohort("all").Quota("default", "cpu", 1000));
  k.Add(CqBuilder("lender").Cohort("all").Quota("default", "cpu", 3000));
  k.LocalQueue("lq", "a");
  for (int i = 0; i < 4; ++i) {
    k.Add(WlBuilder("b" + std::to_string(i))
              .Requests({{"cpu", 1000}})
              .Admitted("b", {{"cpu", "default", 1000}}, i));
  }
  k.Add(WlBuilder("d0").Requests({{"cpu", 1000}}).Admitted("d", {{"cpu", "default", 1000}}));
  const int32_t p = k.Add(WlBuilder("p").Requests({{"cpu", 2000}}));
  EnableFairSharing(k);
  AdmissionResult r = RunAll(k);
  int preempted_b = 0;
  for (int i = 0; i < 4; ++i) {
    if (DecisionOf(r, i).outcome == WorkloadOutcome::kPreempted) {
      ++preempted_b;
      EXPECT_EQ(DecisionOf(r, i).eviction.ValueOrEmpty().preemption_reason, "InCohortFairSharing");
    }
  }
  EXPECT_EQ(preempted_b, 1);
  EXPECT_EQ(DecisionOf(r, 3).outcome, WorkloadOutcome::kPreempted);  // most recently admitted
  EXPECT_EQ(DecisionOf(r, 4).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(DecisionOf(r, p).outcome, WorkloadOutcome::kAdmitted);
}

TEST(FairSharingTest, WithinNominalReclaimsWithoutStrategies) {
  // a (nominal 3) asks 3 while b borrows everything: a stays within nominal, so b's
  // workloads are reclaimed regardless of shares (InCohortReclamation), and fill back keeps
  // only what is needed.
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("a").Cohort("all").Quota("default", "cpu", 3000).ReclaimWithinCohort(
      PreemptionPolicy::kAny));
  k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 0));
  k.LocalQueue("lq", "a");
  k.LocalQueue("lb", "b");  // victims requeue through their own LocalQueue
  for (int i = 0; i < 3; ++i) {
    k.Add(WlBuilder("b" + std::to_string(i))
              .Queue("lb")
              .Requests({{"cpu", 1000}})
              .Admitted("b", {{"cpu", "default", 1000}}, i));
  }
  const int32_t p = k.Add(WlBuilder("p").Requests({{"cpu", 2000}}));
  EnableFairSharing(k, {FairSharingStrategy::kLessThanInitialShare});
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, 0).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(DecisionOf(r, 1).eviction.ValueOrEmpty().preemption_reason, "InCohortReclamation");
  EXPECT_EQ(DecisionOf(r, 2).eviction.ValueOrEmpty().preemption_reason, "InCohortReclamation");
  EXPECT_EQ(DecisionOf(r, p).outcome, WorkloadOutcome::kAdmitted);
}

TEST(FairSharingTest, OwnQueueCandidatesAreTakenInClusterQueue) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 2000).WithinClusterQueue(
      PreemptionPolicy::kLowerPriority));
  k.LocalQueue("lq", "cq");
  const int32_t low = k.Add(WlBuilder("low").Priority(1).Requests({{"cpu", 2000}}).Admitted(
      "cq", {{"cpu", "default", 2000}}));
  const int32_t high = k.Add(WlBuilder("high").Priority(5).Requests({{"cpu", 2000}}));
  EnableFairSharing(k);
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, low).eviction.ValueOrEmpty().preemption_reason, "InClusterQueue");
  EXPECT_EQ(DecisionOf(r, high).outcome, WorkloadOutcome::kAdmitted);
}

TEST(FairSharingTest, NonBorrowingCohortQueuesAreNotCandidates) {
  KueueSnapshot k = Strategies();
  // c is within nominal: its workload is never a victim even though a needs quota.
  k.snapshot.kueue_workloads.erase(k.snapshot.kueue_workloads.begin());  // drop b1
  const int32_t p = k.Add(WlBuilder("p").Requests({{"cpu", 4000}}));
  EnableFairSharing(k);
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, 0).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(DecisionOf(r, p).outcome, WorkloadOutcome::kPending);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
