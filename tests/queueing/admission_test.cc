// RunAdmission end to end: classification, queues, cycles, cohorts, checks, the oracle.
#include "queueing/admission.h"

#include <gtest/gtest.h>

#include <string>

#include "queueing/admission_test_util.h"
#include "queueing/kueue_builders.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using testing::CqBuilder;
using testing::DecisionOf;
using testing::KueueSnapshot;
using testing::RunAll;
using testing::WlBuilder;

KueueSnapshot OneQueue(int64_t cpu_milli, bool strict = false) {
  KueueSnapshot k;
  k.Flavor("default");
  CqBuilder cq("cq");
  cq.Quota("default", "cpu", cpu_milli);
  if (strict) cq.Strict();
  k.Add(cq);
  k.LocalQueue("lq", "cq");
  return k;
}

TEST(AdmissionTest, AdmitsWhatFitsWithFlavorAndUsage) {
  KueueSnapshot k = OneQueue(4000);
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 1000}}, 3));
  AdmissionResult r = RunAll(k);
  const WorkloadDecision& d = DecisionOf(r, a);
  ASSERT_EQ(d.outcome, WorkloadOutcome::kAdmitted);
  ASSERT_TRUE(d.admission.has_value());
  EXPECT_EQ(d.admission->cluster_queue, "cq");
  ASSERT_EQ(d.admission->pod_set_assignments.size(), 1u);
  EXPECT_EQ(d.admission->pod_set_assignments[0].flavors.at("cpu"), "default");
  EXPECT_EQ(d.admission->pod_set_assignments[0].resource_usage.at("cpu"), 3000);
  EXPECT_EQ(d.admission->pod_set_assignments[0].count, 3);
  ASSERT_EQ(r.cluster_queues.size(), 1u);
  EXPECT_EQ(r.cluster_queues[0].admitted, 1);
  EXPECT_EQ(r.cluster_queues[0].usage[0].total, 3000);
}

TEST(AdmissionTest, HoldersChargeQuotaBeforePendingWorkloads) {
  KueueSnapshot k = OneQueue(4000);
  // The pending one is older and higher priority, but the holder keeps its quota.
  const int32_t holder = k.Add(WlBuilder("old")
                                   .Requests({{"cpu", 3000}})
                                   .Created(50)
                                   .Admitted("cq", {{"cpu", "default", 3000}}));
  const int32_t pending = k.Add(WlBuilder("new").Requests({{"cpu", 2000}}).Priority(10).Created(1));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, holder).outcome, WorkloadOutcome::kAlreadyAdmitted);
  const WorkloadDecision& d = DecisionOf(r, pending);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(d.reason, "WaitingForQuota");
  EXPECT_EQ(d.message,
            "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
            "default, 1 more needed");
}

TEST(AdmissionTest, HigherPriorityThenOlderFirstWithinQueue) {
  KueueSnapshot k = OneQueue(2000);
  const int32_t low_old = k.Add(WlBuilder("low-old").Requests({{"cpu", 2000}}).Created(1));
  const int32_t high = k.Add(WlBuilder("high").Requests({{"cpu", 2000}}).Priority(5).Created(9));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, high).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, low_old).outcome, WorkloadOutcome::kPending);

  KueueSnapshot k2 = OneQueue(2000);
  const int32_t newer = k2.Add(WlBuilder("newer").Requests({{"cpu", 2000}}).Created(9));
  const int32_t older = k2.Add(WlBuilder("older").Requests({{"cpu", 2000}}).Created(1));
  AdmissionResult r2 = RunAll(k2);
  EXPECT_EQ(DecisionOf(r2, older).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r2, newer).outcome, WorkloadOutcome::kPending);
}

TEST(AdmissionTest, BestEffortFifoLetsSmallerWorkloadPassBlockedHead) {
  KueueSnapshot k = OneQueue(2000);
  const int32_t big = k.Add(WlBuilder("big").Requests({{"cpu", 3000}}).Created(1));
  const int32_t small = k.Add(WlBuilder("small").Requests({{"cpu", 1000}}).Created(2));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, big).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, big).reason, "ExceedsMaxQuota");
  EXPECT_EQ(
      DecisionOf(r, big).message,
      "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, "
      "previously considered podsets requests (0) + current podset request (3) > maximum "
      "capacity (2)");
  EXPECT_EQ(DecisionOf(r, small).outcome, WorkloadOutcome::kAdmitted);
}

TEST(AdmissionTest, StrictFifoHeadBlocksTheQueue) {
  KueueSnapshot k = OneQueue(2000, /*strict=*/true);
  const int32_t big = k.Add(WlBuilder("big").Requests({{"cpu", 3000}}).Created(1));
  const int32_t small = k.Add(WlBuilder("small").Requests({{"cpu", 1000}}).Created(2));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, big).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, small).outcome, WorkloadOutcome::kPending);
  EXPECT_GE(r.cycles, 1);
}

TEST(AdmissionTest, OneAdmissionPerQueuePerCycle) {
  KueueSnapshot k = OneQueue(8000);
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 1000}}).Created(1));
  const int32_t b = k.Add(WlBuilder("b").Requests({{"cpu", 1000}}).Created(2));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, a).cycle, 1);
  EXPECT_EQ(DecisionOf(r, b).cycle, 2);
  EXPECT_EQ(DecisionOf(r, b).outcome, WorkloadOutcome::kAdmitted);
}

TEST(AdmissionTest, BorrowsFromCohortAndRechecksWithinCycle) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("a").Cohort("all").Quota("default", "cpu", 2000));
  k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 2000));
  k.Add(CqBuilder("c").Cohort("all").Quota("default", "cpu", 0));
  k.LocalQueue("la", "a");
  k.LocalQueue("lb", "b");
  k.LocalQueue("lc", "c");
  // Both borrowers see 4 free at the start of the cycle; only one may take it.
  const int32_t x = k.Add(WlBuilder("x").Queue("la").Requests({{"cpu", 3000}}).Created(1));
  const int32_t y = k.Add(WlBuilder("y").Queue("lc").Requests({{"cpu", 3000}}).Created(2));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, x).outcome, WorkloadOutcome::kAdmitted);
  const WorkloadDecision& dy = DecisionOf(r, y);
  EXPECT_EQ(dy.outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(r.cluster_queues[0].usage[0].borrowed, 1000);
}

TEST(AdmissionTest, NonBorrowingEntriesGoFirstInACycle) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("a").Cohort("all").Quota("default", "cpu", 0));
  k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 2000));
  k.LocalQueue("la", "a");
  k.LocalQueue("lb", "b");
  // The borrower is older and higher priority, but within-nominal work is processed first.
  const int32_t borrower =
      k.Add(WlBuilder("borrower").Queue("la").Requests({{"cpu", 2000}}).Priority(9).Created(1));
  const int32_t owner = k.Add(WlBuilder("owner").Queue("lb").Requests({{"cpu", 2000}}).Created(5));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, owner).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, owner).cycle, 1);
  EXPECT_EQ(DecisionOf(r, borrower).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, borrower).cycle, 2);
}

TEST(AdmissionTest, MisconfiguredQueuesAreInadmissible) {
  KueueSnapshot k = OneQueue(4000);
  k.LocalQueue("dangling", "nope");
  const int32_t no_lq = k.Add(WlBuilder("a").Queue("missing").Requests({{"cpu", 1}}));
  const int32_t no_cq = k.Add(WlBuilder("b").Queue("dangling").Requests({{"cpu", 1}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, no_lq).outcome, WorkloadOutcome::kInadmissible);
  EXPECT_EQ(DecisionOf(r, no_lq).message, "LocalQueue missing doesn't exist");
  EXPECT_EQ(DecisionOf(r, no_cq).outcome, WorkloadOutcome::kInadmissible);
  EXPECT_EQ(DecisionOf(r, no_cq).message, "ClusterQueue nope doesn't exist");
  EXPECT_EQ(DecisionOf(r, no_cq).reason, "Misconfigured");
}

TEST(AdmissionTest, NamespaceSelectorNilAdmitsNoNamespace) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 4000).NoNamespaces());
  k.LocalQueue("lq", "cq");
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 1}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, a).outcome, WorkloadOutcome::kInadmissible);
  EXPECT_EQ(DecisionOf(r, a).message, "workload namespace doesn't match ClusterQueue selector");

  KueueSnapshot k2;
  k2.Flavor("default");
  core::LabelSelector team;
  team.match_labels["team"] = "ml";
  k2.Add(CqBuilder("cq").Quota("default", "cpu", 4000).NamespaceSelector(team));
  k2.LocalQueue("lq", "cq", "ml");
  model::Namespace ns;
  ns.meta.name = "ml";
  ns.meta.labels["team"] = "ml";
  k2.snapshot.namespaces.push_back(ns);
  const int32_t b = k2.Add(WlBuilder("b").Namespace("ml").Requests({{"cpu", 1}}));
  EXPECT_EQ(DecisionOf(RunAll(k2), b).outcome, WorkloadOutcome::kAdmitted);
}

TEST(AdmissionTest, InactiveAndFinishedWorkloadsAreNeverAdmitted) {
  KueueSnapshot k = OneQueue(4000);
  const int32_t inactive = k.Add(WlBuilder("a").Requests({{"cpu", 1}}).Inactive());
  const int32_t finished =
      k.Add(WlBuilder("b").Requests({{"cpu", 1}}).Condition("Finished", "True"));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, inactive).outcome, WorkloadOutcome::kInactive);
  EXPECT_EQ(DecisionOf(r, finished).outcome, WorkloadOutcome::kFinished);
  EXPECT_EQ(r.cluster_queues[0].usage[0].total, 0);
}

TEST(AdmissionTest, OtherClustersAreIgnored) {
  KueueSnapshot k = OneQueue(4000);
  k.Add(WlBuilder("elsewhere").Requests({{"cpu", 1}}).Cluster("east"));
  const int32_t here = k.Add(WlBuilder("here").Requests({{"cpu", 1}}));
  AdmissionResult r = RunAll(k);
  ASSERT_EQ(r.decisions.size(), 1u);
  EXPECT_EQ(r.decisions[0].workload, here);
}

TEST(AdmissionTest, StoppedQueueSuspendsItsWorkloads) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 4000).Stop(model::StopPolicy::kHoldAndDrain));
  k.LocalQueue("lq", "cq");
  const int32_t running =
      k.Add(WlBuilder("r").Requests({{"cpu", 1000}}).Admitted("cq", {{"cpu", "default", 1000}}));
  const int32_t waiting = k.Add(WlBuilder("w").Requests({{"cpu", 1000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, waiting).outcome, WorkloadOutcome::kInadmissible);
  EXPECT_EQ(DecisionOf(r, waiting).reason, "Suspended");
  EXPECT_EQ(DecisionOf(r, running).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, running).eviction.ValueOrEmpty().reason, "ClusterQueueStopped");
  EXPECT_FALSE(r.cluster_queues[0].active);
  EXPECT_EQ(r.cluster_queues[0].reason, "Stopped");
}

TEST(AdmissionTest, AdmissionChecksGateAdmitted) {
  KueueSnapshot k;
  k.Flavor("default");
  k.AdmissionCheck("prov");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 8000).Check("prov"));
  k.LocalQueue("lq", "cq");
  const int32_t pending_check = k.Add(WlBuilder("a").Requests({{"cpu", 1000}}).Created(1));
  const int32_t ready = k.Add(WlBuilder("b")
                                  .Requests({{"cpu", 1000}})
                                  .Created(2)
                                  .CheckState("prov", model::CheckState::kReady));
  const int32_t retry = k.Add(WlBuilder("c")
                                  .Requests({{"cpu", 1000}})
                                  .Admitted("cq", {{"cpu", "default", 1000}}, 0, false)
                                  .CheckState("prov", model::CheckState::kRetry));
  const int32_t rejected = k.Add(WlBuilder("d")
                                     .Requests({{"cpu", 1000}})
                                     .Admitted("cq", {{"cpu", "default", 1000}}, 0, false)
                                     .CheckState("prov", model::CheckState::kRejected));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, pending_check).outcome, WorkloadOutcome::kQuotaReserved);
  EXPECT_EQ(DecisionOf(r, ready).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, retry).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, retry).eviction.ValueOrEmpty().reason, "AdmissionCheck");
  EXPECT_EQ(DecisionOf(r, rejected).outcome, WorkloadOutcome::kInactive);
  EXPECT_TRUE(DecisionOf(r, rejected).deactivate);
  EXPECT_EQ(r.cluster_queues[0].usage[0].total, 2000);  // retry and rejected released theirs
}

TEST(AdmissionTest, CheckOnOtherFlavorDoesNotApply) {
  KueueSnapshot k;
  k.Flavor("default");
  k.AdmissionCheck("prov");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 8000).Check("prov", {"spot"}));
  k.LocalQueue("lq", "cq");
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 1000}}));
  EXPECT_EQ(DecisionOf(RunAll(k), a).outcome, WorkloadOutcome::kAdmitted);
}

TEST(AdmissionTest, PartialAdmissionFindsLargestCountThatFits) {
  KueueSnapshot k = OneQueue(5000);
  const int32_t a = k.Add(WlBuilder("a").PodSet("workers", 10, {{"cpu", 1000}}, 2));
  AdmissionResult r = RunAll(k);
  const WorkloadDecision& d = DecisionOf(r, a);
  ASSERT_EQ(d.outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(d.admission->pod_set_assignments[0].count, 5);
  EXPECT_EQ(d.admission->pod_set_assignments[0].resource_usage.at("cpu"), 5000);

  KueueSnapshot k2 = OneQueue(1000);
  const int32_t b = k2.Add(WlBuilder("b").PodSet("workers", 10, {{"cpu", 1000}}, 2));
  EXPECT_EQ(DecisionOf(RunAll(k2), b).outcome, WorkloadOutcome::kPending);
}

class FakeOracle : public PlacementOracle {
 public:
  bool TryPlace(int32_t workload, const model::Admission&, std::string* why) override {
    ++tries;
    if (workload == refuse) {
      *why = "only 2 of 4 pods fit: 2 Insufficient nvidia.com/gpu";
      return false;
    }
    placed.push_back(workload);
    return true;
  }
  void Release(int32_t workload) override { released.push_back(workload); }
  int32_t refuse = -1;
  int tries = 0;
  std::vector<int32_t> placed, released;
};

TEST(AdmissionTest, PlacementFailureKeepsWorkloadPendingWithoutBlockingOthers) {
  KueueSnapshot k = OneQueue(8000);
  const int32_t refused = k.Add(WlBuilder("gang").Requests({{"cpu", 1000}}, 4).Created(1));
  const int32_t other = k.Add(WlBuilder("other").Requests({{"cpu", 1000}}).Created(2));
  FakeOracle oracle;
  oracle.refuse = refused;
  core::Diagnostics diags;
  AdmissionResult r = RunAll(k, &diags, &oracle);
  const WorkloadDecision& d = DecisionOf(r, refused);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(d.reason, "TopologyPlacementFailed");
  EXPECT_EQ(
      d.message,
      "couldn't place the workload's pods: only 2 of 4 pods fit: 2 Insufficient nvidia.com/gpu");
  EXPECT_EQ(DecisionOf(r, other).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(oracle.placed, std::vector<int32_t>{other});
  EXPECT_EQ(r.cluster_queues[0].usage[0].total, 1000);
  EXPECT_LE(oracle.tries, 3);
}

TEST(AdmissionTest, DeterministicAcrossRuns) {
  KueueSnapshot k;
  k.Flavor("default");
  for (int q = 0; q < 4; ++q) {
    k.Add(CqBuilder(testing::Indexed("cq", q))
              .Cohort("all")
              .Quota("default", "cpu", 3000)
              .ReclaimWithinCohort(model::PreemptionPolicy::kAny)
              .WithinClusterQueue(model::PreemptionPolicy::kLowerPriority));
    k.LocalQueue(testing::Indexed("lq", q), testing::Indexed("cq", q));
  }
  for (int i = 0; i < 40; ++i) {
    k.Add(WlBuilder(testing::Indexed("w", i))
              .Queue(testing::Indexed("lq", i % 4))
              .Requests({{"cpu", 500 * (1 + i % 5)}})
              .Priority(i % 3)
              .Created(i % 7));
  }
  AdmissionResult a = RunAll(k);
  AdmissionResult b = RunAll(k);
  ASSERT_EQ(a.decisions.size(), b.decisions.size());
  for (size_t i = 0; i < a.decisions.size(); ++i) {
    EXPECT_EQ(a.decisions[i].outcome, b.decisions[i].outcome);
    EXPECT_EQ(a.decisions[i].cycle, b.decisions[i].cycle);
    EXPECT_EQ(a.decisions[i].message, b.decisions[i].message);
  }
  EXPECT_EQ(a.cycles, b.cycles);
  int64_t used = 0;
  for (const auto& cq : a.cluster_queues) used += cq.usage[0].total;
  EXPECT_LE(used, 12000);  // never more than the cohort holds
}


TEST(AdmissionTest, EquivalentWorkloadsAreParkedTogetherAndShareTheMessage) {
  KueueSnapshot k = OneQueue(2000);
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 3000}}).Created(1));
  const int32_t b = k.Add(WlBuilder("b").Requests({{"cpu", 3000}}).Created(2));
  const int32_t small = k.Add(WlBuilder("small").Requests({{"cpu", 1000}}).Created(3));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, a).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, b).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, b).message, DecisionOf(r, a).message);
  EXPECT_EQ(DecisionOf(r, small).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, small).cycle, 2);  // b was parked with a, not tried on its own
}

TEST(AdmissionTest, OverlappingPreemptorsSearchAgainWithinTheCycle) {
  // Two queues of one cohort reclaim from the same borrower in the same cycle: the second
  // one's first choice of victim is already gone, so it picks another.
  KueueSnapshot k;
  k.Flavor("default");
  for (const char* name : {"a", "b"}) {
    k.Add(CqBuilder(name)
              .Cohort("all")
              .Quota("default", "cpu", 2000)
              .ReclaimWithinCohort(model::PreemptionPolicy::kAny));
  }
  k.Add(CqBuilder("borrower").Cohort("all").Quota("default", "cpu", 0));
  k.LocalQueue("la", "a");
  k.LocalQueue("lb", "b");
  k.LocalQueue("lborrower", "borrower");
  for (int i = 0; i < 4; ++i) {
    k.Add(WlBuilder(testing::Indexed("v", i))
              .Queue("lborrower")
              .Requests({{"cpu", 1000}})
              .Admitted("borrower", {{"cpu", "default", 1000}}, 10 + i));
  }
  const int32_t pa = k.Add(WlBuilder("pa").Queue("la").Requests({{"cpu", 2000}}).Created(1));
  const int32_t pb = k.Add(WlBuilder("pb").Queue("lb").Requests({{"cpu", 2000}}).Created(2));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, pa).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, pb).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, pa).victims.size(), 2u);
  EXPECT_EQ(DecisionOf(r, pb).victims.size(), 2u);
  EXPECT_EQ(DecisionOf(r, pa).cycle, 2);
  EXPECT_EQ(DecisionOf(r, pb).cycle, 2);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(DecisionOf(r, i).outcome, WorkloadOutcome::kPreempted);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
