// QuotaProbe: a hub workload against a worker cluster's Kueue quota after the worker's own
// admission (LocalQueue routing, inactive queues, fit / borrow within cohort limits, flavor
// order and fungibility, pod sets, partial admission, holders, Commit and Release).
#include "queueing/quota_probe.h"

#include <gtest/gtest.h>

#include <string>

#include "core/taint.h"
#include "queueing/admission_test_util.h"
#include "queueing/kueue_builders.h"
#include "queueing/topology_fixtures.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using testing::CqBuilder;
using testing::DecisionOf;
using testing::KueueSnapshot;
using testing::WlBuilder;

constexpr const char* kGpu = "nvidia.com/gpu";

// Puts every Kueue object still in the implicit cluster "default" into `cluster`: build a
// worker's queues, call this, then add the next cluster's.
void MoveToCluster(KueueSnapshot& k, const std::string& cluster) {
  auto move = [&](auto& objects) {
    for (auto& o : objects) {
      if (o.cluster == "default") o.cluster = cluster;
    }
  };
  move(k.snapshot.resource_flavors);
  move(k.snapshot.cluster_queues);
  move(k.snapshot.cohorts);
  move(k.snapshot.local_queues);
  move(k.snapshot.admission_checks);
  move(k.snapshot.kueue_workloads);
}

// A hub workload in namespace team-a asking LocalQueue q for `gpus` GPUs per pod.
WlBuilder HubWl(const std::string& name, int64_t gpus, int32_t count = 1) {
  return WlBuilder(name).Cluster("hub").Namespace("team-a").Queue("q").Requests({{kGpu, gpus}},
                                                                                count);
}

// A worker workload (cluster set by MoveToCluster) in the same LocalQueue.
WlBuilder WorkerWl(const std::string& name, int64_t gpus) {
  return WlBuilder(name).Namespace("team-a").Queue("q").Requests({{kGpu, gpus}});
}

AdmissionResult RunCluster(const KueueSnapshot& k, const std::string& cluster) {
  core::Diagnostics diags;
  AdmissionOptions options;
  options.now.unix_s = 1000;
  options.cluster = cluster;
  return RunAdmission(k.snapshot, options, nullptr, diags);
}

QuotaProbe ProbeOf(const KueueSnapshot& k, const std::string& cluster) {
  return QuotaProbe::Build(k.snapshot, cluster, RunCluster(k, cluster), {1000});
}

// Worker w1: ClusterQueue cq with `gpus` GPUs in flavor a100, fed by LocalQueue team-a/q.
KueueSnapshot OneWorker(int64_t gpus) {
  KueueSnapshot k;
  k.Flavor("a100");
  k.Add(CqBuilder("cq").Quota("a100", kGpu, gpus));
  k.LocalQueue("q", "cq", "team-a");
  return k;
}

std::string FlavorOf(const ProbeResult& r, const std::string& pod_set, const std::string& res) {
  for (const auto& psa : r.admission.pod_set_assignments) {
    if (psa.name != pod_set) continue;
    auto it = psa.flavors.find(res);
    return it == psa.flavors.end() ? "" : it->second;
  }
  return "";
}

TEST(QuotaProbeTest, FitsNominalQuotaWithTheWorkersAdmission) {
  KueueSnapshot k = OneWorker(8);
  MoveToCluster(k, "w1");
  const int32_t wl = k.Add(HubWl("train", 2, 3));
  QuotaProbe probe = ProbeOf(k, "w1");
  EXPECT_EQ(probe.cluster(), "w1");
  ProbeResult r = probe.Try(wl);
  ASSERT_TRUE(r.fits) << r.message;
  EXPECT_EQ(r.admission.cluster_queue, "cq");
  ASSERT_EQ(r.admission.pod_set_assignments.size(), 1u);
  const model::PodSetAssignment& psa = r.admission.pod_set_assignments[0];
  EXPECT_EQ(psa.name, "main");
  EXPECT_EQ(psa.count, 3);
  EXPECT_EQ(psa.flavors.at(kGpu), "a100");
  EXPECT_EQ(psa.resource_usage.at(kGpu), 6);
  EXPECT_TRUE(r.reason.empty());
  ASSERT_EQ(r.attempts.size(), 1u);
  EXPECT_EQ(r.attempts[0].mode, "Fit");
}

TEST(QuotaProbeTest, MoreThanNominalWithoutCohortExceedsMaxQuota) {
  KueueSnapshot k = OneWorker(8);
  MoveToCluster(k, "w1");
  const int32_t wl = k.Add(HubWl("big", 10));
  ProbeResult r = ProbeOf(k, "w1").Try(wl);
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.reason, "ExceedsMaxQuota");
  EXPECT_EQ(r.message,
            "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in "
            "flavor a100, previously considered podsets requests (0) + current podset request "
            "(10) > maximum capacity (8)");
  EXPECT_TRUE(r.admission.pod_set_assignments.empty());
}

TEST(QuotaProbeTest, HoldersFromTheInputCount) {
  KueueSnapshot k = OneWorker(8);
  const int32_t holder = k.Add(WorkerWl("running", 6).Admitted("cq", {{kGpu, "a100", 6}}));
  MoveToCluster(k, "w1");
  const int32_t wl = k.Add(HubWl("next", 4));
  const AdmissionResult result = RunCluster(k, "w1");
  ASSERT_EQ(DecisionOf(result, holder).outcome, WorkloadOutcome::kAlreadyAdmitted);
  QuotaProbe probe = QuotaProbe::Build(k.snapshot, "w1", result, {1000});
  ProbeResult r = probe.Try(wl);
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.reason, "WaitingForQuota");
  EXPECT_EQ(r.message,
            "couldn't assign flavors to pod set main: insufficient unused quota for "
            "nvidia.com/gpu in flavor a100, 2 more needed");
  ASSERT_EQ(r.attempts.size(), 1u);
  ASSERT_EQ(r.attempts[0].resources.size(), 1u);
  EXPECT_EQ(r.attempts[0].resources[0].used, 6);
  EXPECT_EQ(r.attempts[0].resources[0].available, 2);
}

TEST(QuotaProbeTest, WorkloadsAdmittedByTheResultCount) {
  KueueSnapshot k = OneWorker(8);
  const int32_t local = k.Add(WorkerWl("local", 5));
  MoveToCluster(k, "w1");
  const int32_t wl = k.Add(HubWl("next", 4));
  const AdmissionResult result = RunCluster(k, "w1");
  ASSERT_EQ(DecisionOf(result, local).outcome, WorkloadOutcome::kAdmitted);
  QuotaProbe probe = QuotaProbe::Build(k.snapshot, "w1", result, {1000});
  ProbeResult r = probe.Try(wl);
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.message,
            "couldn't assign flavors to pod set main: insufficient unused quota for "
            "nvidia.com/gpu in flavor a100, 1 more needed");
  EXPECT_TRUE(probe.Try(k.Add(HubWl("small", 3))).fits);
}

TEST(QuotaProbeTest, EvictedAndPendingWorkersDoNotCount) {
  KueueSnapshot k = OneWorker(8);
  // Deactivated while holding quota: the worker's admission evicts it.
  const int32_t evicted = k.Add(WorkerWl("off", 6).Admitted("cq", {{kGpu, "a100", 6}}).Inactive());
  // Never fits: stays pending and holds nothing.
  k.Add(WorkerWl("huge", 20));
  MoveToCluster(k, "w1");
  const int32_t wl = k.Add(HubWl("next", 8));
  const AdmissionResult result = RunCluster(k, "w1");
  ASSERT_EQ(DecisionOf(result, evicted).outcome, WorkloadOutcome::kInactive);
  EXPECT_TRUE(QuotaProbe::Build(k.snapshot, "w1", result, {1000}).Try(wl).fits);
}

TEST(QuotaProbeTest, HolderOfAGoneClusterQueueChargesNothing) {
  KueueSnapshot k = OneWorker(8);
  k.Add(WorkerWl("orphan", 8).Admitted("deleted-cq", {{kGpu, "a100", 8}}));
  MoveToCluster(k, "w1");
  const int32_t wl = k.Add(HubWl("next", 8));
  EXPECT_TRUE(ProbeOf(k, "w1").Try(wl).fits);
}

// Worker w1: cq and other (4 GPUs each in a100) share cohort "all"; q feeds cq.
KueueSnapshot Cohort(std::optional<int64_t> borrowing_limit,
                     std::optional<int64_t> lending_limit = std::nullopt) {
  KueueSnapshot k;
  k.Flavor("a100");
  k.Add(CqBuilder("cq").Cohort("all").Quota("a100", kGpu, 4, borrowing_limit));
  k.Add(CqBuilder("other").Cohort("all").Quota("a100", kGpu, 4, std::nullopt, lending_limit));
  k.LocalQueue("q", "cq", "team-a");
  k.LocalQueue("other-q", "other", "team-a");
  return k;
}

TEST(QuotaProbeTest, BorrowsUnusedQuotaOfTheCohort) {
  KueueSnapshot k = Cohort(std::nullopt);
  MoveToCluster(k, "w1");
  const int32_t wl = k.Add(HubWl("wide", 6));
  ProbeResult r = ProbeOf(k, "w1").Try(wl);
  ASSERT_TRUE(r.fits) << r.message;
  EXPECT_EQ(r.admission.pod_set_assignments[0].resource_usage.at(kGpu), 6);
  ASSERT_EQ(r.attempts.size(), 1u);
  EXPECT_EQ(r.attempts[0].mode, "Borrow");
}

TEST(QuotaProbeTest, BorrowingLimitCapsWhatTheCohortLends) {
  KueueSnapshot k = Cohort(/*borrowing_limit=*/1);
  MoveToCluster(k, "w1");
  const int32_t five = k.Add(HubWl("five", 5));
  const int32_t six = k.Add(HubWl("six", 6));
  QuotaProbe probe = ProbeOf(k, "w1");
  EXPECT_TRUE(probe.Try(five).fits);
  ProbeResult r = probe.Try(six);
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.reason, "ExceedsMaxQuota");
  EXPECT_EQ(r.message,
            "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in "
            "flavor a100, previously considered podsets requests (0) + current podset request "
            "(6) > maximum capacity (5)");
}

TEST(QuotaProbeTest, LendingLimitAndTheCohortsUsageBoundBorrowing) {
  // other lends at most 2 of its 4.
  KueueSnapshot lending = Cohort(std::nullopt, /*lending_limit=*/2);
  MoveToCluster(lending, "w1");
  EXPECT_TRUE(ProbeOf(lending, "w1").Try(lending.Add(HubWl("six", 6))).fits);
  EXPECT_FALSE(ProbeOf(lending, "w1").Try(lending.Add(HubWl("seven", 7))).fits);

  // other uses 3 of its own: cq can borrow only 1.
  KueueSnapshot used = Cohort(std::nullopt);
  used.Add(WlBuilder("busy").Namespace("team-a").Queue("other-q").Requests({{kGpu, 3}}));
  MoveToCluster(used, "w1");
  const int32_t wl = used.Add(HubWl("six", 6));
  ProbeResult r = ProbeOf(used, "w1").Try(wl);
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.reason, "WaitingForQuota");
  EXPECT_EQ(r.message,
            "couldn't assign flavors to pod set main: insufficient unused quota for "
            "nvidia.com/gpu in flavor a100, 1 more needed");
}

TEST(QuotaProbeTest, FlavorsAreTriedInOrder) {
  KueueSnapshot k;
  k.Flavor("a100");
  k.Flavor("h100");
  k.Add(CqBuilder("cq").Quota("a100", kGpu, 2).Quota("h100", kGpu, 8));
  k.LocalQueue("q", "cq", "team-a");
  MoveToCluster(k, "w1");
  const int32_t small = k.Add(HubWl("small", 2));
  const int32_t big = k.Add(HubWl("big", 4));
  QuotaProbe probe = ProbeOf(k, "w1");
  EXPECT_EQ(FlavorOf(probe.Try(small), "main", kGpu), "a100");
  ProbeResult r = probe.Try(big);
  ASSERT_TRUE(r.fits);
  EXPECT_EQ(FlavorOf(r, "main", kGpu), "h100");
  ASSERT_EQ(r.attempts.size(), 2u);
  EXPECT_EQ(r.attempts[0].flavor, "a100");
  EXPECT_EQ(r.attempts[0].mode, "NoFit");
  EXPECT_EQ(r.attempts[1].flavor, "h100");
  EXPECT_EQ(r.attempts[1].mode, "Fit");
}

// cq: a100 (2, may borrow in cohort "all" from lender's 4), then h100 (8).
KueueSnapshot Fungibility(model::FungibilityPolicy when_can_borrow) {
  KueueSnapshot k;
  k.Flavor("a100");
  k.Flavor("h100");
  k.Add(CqBuilder("cq")
            .Cohort("all")
            .Quota("a100", kGpu, 2)
            .Quota("h100", kGpu, 8)
            .WhenCanBorrow(when_can_borrow));
  k.Add(CqBuilder("lender").Cohort("all").Quota("a100", kGpu, 4).Quota("h100", kGpu, 0));
  k.LocalQueue("q", "cq", "team-a");
  return k;
}

TEST(QuotaProbeTest, FlavorFungibilityDecidesBetweenBorrowingAndTheNextFlavor) {
  KueueSnapshot stop = Fungibility(model::FungibilityPolicy::kMayStopSearch);
  MoveToCluster(stop, "w1");
  ProbeResult borrowed = ProbeOf(stop, "w1").Try(stop.Add(HubWl("w", 4)));
  ASSERT_TRUE(borrowed.fits);
  EXPECT_EQ(FlavorOf(borrowed, "main", kGpu), "a100");

  KueueSnapshot next = Fungibility(model::FungibilityPolicy::kTryNextFlavor);
  MoveToCluster(next, "w1");
  ProbeResult moved = ProbeOf(next, "w1").Try(next.Add(HubWl("w", 4)));
  ASSERT_TRUE(moved.fits);
  EXPECT_EQ(FlavorOf(moved, "main", kGpu), "h100");
  ASSERT_EQ(moved.attempts.size(), 2u);
  EXPECT_EQ(moved.attempts[0].mode, "Borrow");
  EXPECT_EQ(moved.attempts[1].mode, "Fit");
}

TEST(QuotaProbeTest, NeverPreemptsOnTheWorker) {
  KueueSnapshot k;
  k.Flavor("a100");
  k.Flavor("h100");
  k.Add(CqBuilder("cq")
            .Quota("a100", kGpu, 4)
            .Quota("h100", kGpu, 2)
            .WithinClusterQueue(model::PreemptionPolicy::kLowerPriority)
            .WhenCanPreempt(model::FungibilityPolicy::kMayStopSearch));
  k.LocalQueue("q", "cq", "team-a");
  const int32_t low = k.Add(WorkerWl("low", 4).Priority(0).Admitted("cq", {{kGpu, "a100", 4}}));
  MoveToCluster(k, "w1");
  QuotaProbe probe = ProbeOf(k, "w1");
  // RunAdmission would preempt `low` in a100 and stop there; the probe skips to h100.
  ProbeResult two = probe.Try(k.Add(HubWl("two", 2).Priority(100)));
  ASSERT_TRUE(two.fits) << two.message;
  EXPECT_EQ(FlavorOf(two, "main", kGpu), "h100");
  EXPECT_EQ(two.attempts[0].mode, "NoCandidates");
  // Nothing fits without evicting `low`: no fit, and `low` still holds its quota.
  ProbeResult four = probe.Try(k.Add(HubWl("four", 4).Priority(100)));
  EXPECT_FALSE(four.fits);
  EXPECT_EQ(four.reason, "WaitingForQuota");
  probe.Release(low);
  EXPECT_TRUE(probe.Try(k.Add(HubWl("after", 4).Priority(100))).fits);
}

TEST(QuotaProbeTest, PodSetsAreAssignedInOrderAndSeeEachOthersUsage) {
  KueueSnapshot k;
  k.Flavor("cpu-pool");
  k.Flavor("a100");
  k.Add(CqBuilder("cq").Quota("cpu-pool", "cpu", 4000).Quota("a100", kGpu, 4, {}, {}, 1));
  k.LocalQueue("q", "cq", "team-a");
  MoveToCluster(k, "w1");
  const int32_t fits = k.Add(WlBuilder("job")
                                 .Cluster("hub")
                                 .Namespace("team-a")
                                 .Queue("q")
                                 .PodSet("launcher", 1, {{"cpu", 1000}})
                                 .PodSet("workers", 2, {{kGpu, 2}}));
  const int32_t too_big = k.Add(WlBuilder("job2")
                                    .Cluster("hub")
                                    .Namespace("team-a")
                                    .Queue("q")
                                    .PodSet("first", 1, {{kGpu, 3}})
                                    .PodSet("second", 1, {{kGpu, 3}}));
  QuotaProbe probe = ProbeOf(k, "w1");
  ProbeResult r = probe.Try(fits);
  ASSERT_TRUE(r.fits) << r.message;
  ASSERT_EQ(r.admission.pod_set_assignments.size(), 2u);
  EXPECT_EQ(FlavorOf(r, "launcher", "cpu"), "cpu-pool");
  EXPECT_EQ(FlavorOf(r, "workers", kGpu), "a100");
  EXPECT_EQ(r.admission.pod_set_assignments[1].resource_usage.at(kGpu), 4);
  ProbeResult no = probe.Try(too_big);
  EXPECT_FALSE(no.fits);
  EXPECT_EQ(no.message,
            "couldn't assign flavors to pod set second: insufficient quota for nvidia.com/gpu in "
            "flavor a100, previously considered podsets requests (3) + current podset request "
            "(3) > maximum capacity (4)");
}

TEST(QuotaProbeTest, PartialAdmissionShrinksToWhatFits) {
  KueueSnapshot k = OneWorker(8);
  k.Add(WorkerWl("running", 5).Admitted("cq", {{kGpu, "a100", 5}}));
  MoveToCluster(k, "w1");
  const int32_t elastic =
      k.Add(WlBuilder("elastic").Cluster("hub").Namespace("team-a").Queue("q").PodSet(
          "main", 6, {{kGpu, 1}}, /*min_count=*/2));
  ProbeResult r = ProbeOf(k, "w1").Try(elastic);
  ASSERT_TRUE(r.fits) << r.message;
  EXPECT_EQ(r.admission.pod_set_assignments[0].count, 3);
  EXPECT_EQ(r.admission.pod_set_assignments[0].resource_usage.at(kGpu), 3);
}

TEST(QuotaProbeTest, CommitTakesQuotaAndReleaseGivesItBack) {
  KueueSnapshot k = OneWorker(8);
  MoveToCluster(k, "w1");
  const int32_t a = k.Add(HubWl("a", 6));
  const int32_t b = k.Add(HubWl("b", 4));
  const int32_t c = k.Add(HubWl("c", 2));
  QuotaProbe probe = ProbeOf(k, "w1");
  const ProbeResult ra = probe.Try(a);
  ASSERT_TRUE(ra.fits);
  EXPECT_TRUE(probe.Try(b).fits);  // Try alone takes nothing
  probe.Commit(a, ra);
  ProbeResult rb = probe.Try(b);
  EXPECT_FALSE(rb.fits);
  EXPECT_EQ(rb.message,
            "couldn't assign flavors to pod set main: insufficient unused quota for "
            "nvidia.com/gpu in flavor a100, 2 more needed");
  const ProbeResult rc = probe.Try(c);
  ASSERT_TRUE(rc.fits);
  probe.Commit(c, rc);
  EXPECT_FALSE(probe.Try(k.Add(HubWl("one", 1))).fits);
  probe.Release(a);
  EXPECT_TRUE(probe.Try(b).fits);
  probe.Release(a);  // holds nothing any more: no-op
  EXPECT_TRUE(probe.Try(b).fits);
  EXPECT_FALSE(probe.Try(k.Add(HubWl("seven", 7))).fits);  // c still holds 2
}

TEST(QuotaProbeTest, CommitInOneProbeLeavesOtherWorkersAlone) {
  KueueSnapshot k = OneWorker(4);
  MoveToCluster(k, "w1");
  // Same names in w2: only the cluster tells them apart.
  k.Flavor("a100");
  k.Add(CqBuilder("cq").Quota("a100", kGpu, 4));
  k.LocalQueue("q", "cq", "team-a");
  MoveToCluster(k, "w2");
  const int32_t a = k.Add(HubWl("a", 4));
  QuotaProbe p1 = ProbeOf(k, "w1");
  QuotaProbe p2 = ProbeOf(k, "w2");
  p1.Commit(a, p1.Try(a));
  const int32_t b = k.Add(HubWl("b", 4));
  EXPECT_FALSE(p1.Try(b).fits);
  EXPECT_TRUE(p2.Try(b).fits);
}

TEST(QuotaProbeTest, WorkloadFromAnotherClusterIsRoutedByTheWorkersQueues) {
  KueueSnapshot k = OneWorker(8);
  MoveToCluster(k, "w1");
  // The hub has its own cq/q of the same names, full: it must not count on w1.
  k.Flavor("a100");
  k.Add(CqBuilder("cq").Quota("a100", kGpu, 8));
  k.LocalQueue("q", "cq", "team-a");
  k.Add(WorkerWl("hub-holder", 8).Admitted("cq", {{kGpu, "a100", 8}}));
  MoveToCluster(k, "hub");
  // Queue "other" exists on the hub only.
  k.LocalQueue("other", "cq", "team-a");
  MoveToCluster(k, "hub");
  const int32_t wl = k.Add(HubWl("train", 8));
  const int32_t elsewhere = k.Add(HubWl("x", 1).Queue("other"));
  QuotaProbe probe = ProbeOf(k, "w1");
  EXPECT_EQ(k.snapshot.kueue_workloads[static_cast<size_t>(wl)].cluster, "hub");
  EXPECT_TRUE(probe.Try(wl).fits);
  EXPECT_FALSE(probe.HasLocalQueue("team-a", "other"));
  EXPECT_EQ(probe.Try(elsewhere).message, "LocalQueue other doesn't exist");
}

TEST(QuotaProbeTest, MissingLocalQueueIsMisconfigured) {
  KueueSnapshot k = OneWorker(8);
  MoveToCluster(k, "w1");
  const int32_t wrong_ns = k.Add(HubWl("a", 1).Namespace("team-b"));
  QuotaProbe probe = ProbeOf(k, "w1");
  EXPECT_TRUE(probe.HasLocalQueue("team-a", "q"));
  EXPECT_FALSE(probe.HasLocalQueue("team-b", "q"));
  EXPECT_FALSE(probe.HasLocalQueue("team-a", "cq"));
  ProbeResult r = probe.Try(wrong_ns);
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.reason, "Misconfigured");
  EXPECT_EQ(r.message, "LocalQueue q doesn't exist");
  EXPECT_TRUE(r.attempts.empty());
}

TEST(QuotaProbeTest, ClusterWithoutKueueObjectsHasNoQueues) {
  KueueSnapshot k = OneWorker(8);
  MoveToCluster(k, "w1");
  const int32_t wl = k.Add(HubWl("a", 1));
  // w9 has no Kueue object at all; its (empty) admission result is all Build gets.
  QuotaProbe probe = ProbeOf(k, "w9");
  EXPECT_FALSE(probe.HasLocalQueue("team-a", "q"));
  ProbeResult r = probe.Try(wl);
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.reason, "Misconfigured");
  EXPECT_EQ(r.message, "LocalQueue q doesn't exist");
  probe.Release(wl);  // nothing held: no-op
}

TEST(QuotaProbeTest, InactiveOrStoppedQueuesDoNotAdmit) {
  // A ClusterQueue naming a missing flavor is inactive (FlavorNotFound).
  KueueSnapshot missing;
  missing.Add(CqBuilder("cq").Quota("a100", kGpu, 8));
  missing.LocalQueue("q", "cq", "team-a");
  MoveToCluster(missing, "w1");
  ProbeResult r1 = ProbeOf(missing, "w1").Try(missing.Add(HubWl("a", 1)));
  EXPECT_FALSE(r1.fits);
  // Kueue's getQueueBlocker: Suspended for any inactive ClusterQueue.
  EXPECT_EQ(r1.reason, "Suspended");
  EXPECT_EQ(r1.message, "ClusterQueue cq is inactive");

  KueueSnapshot stopped = OneWorker(8);
  stopped.snapshot.cluster_queues[0].stop_policy = model::StopPolicy::kHold;
  MoveToCluster(stopped, "w1");
  ProbeResult r2 = ProbeOf(stopped, "w1").Try(stopped.Add(HubWl("a", 1)));
  EXPECT_FALSE(r2.fits);
  EXPECT_EQ(r2.reason, "Suspended");
  EXPECT_EQ(r2.message, "ClusterQueue cq is inactive");

  KueueSnapshot lq_stopped = OneWorker(8);
  lq_stopped.snapshot.local_queues[0].stop_policy = model::StopPolicy::kHold;
  MoveToCluster(lq_stopped, "w1");
  ProbeResult r3 = ProbeOf(lq_stopped, "w1").Try(lq_stopped.Add(HubWl("a", 1)));
  EXPECT_FALSE(r3.fits);
  EXPECT_EQ(r3.reason, "Suspended");
  EXPECT_EQ(r3.message, "LocalQueue q is inactive");

  KueueSnapshot no_cq;
  no_cq.LocalQueue("q", "gone", "team-a");
  MoveToCluster(no_cq, "w1");
  ProbeResult r4 = ProbeOf(no_cq, "w1").Try(no_cq.Add(HubWl("a", 1)));
  EXPECT_FALSE(r4.fits);
  EXPECT_EQ(r4.message, "ClusterQueue gone doesn't exist");
}

TEST(QuotaProbeTest, NamespaceSelectorOfTheWorkersClusterQueueApplies) {
  KueueSnapshot k;
  k.Flavor("a100");
  k.Add(CqBuilder("cq").Quota("a100", kGpu, 8).NoNamespaces());
  k.LocalQueue("q", "cq", "team-a");
  MoveToCluster(k, "w1");
  ProbeResult r = ProbeOf(k, "w1").Try(k.Add(HubWl("a", 1)));
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.reason, "Misconfigured");
  EXPECT_EQ(r.message, "workload namespace doesn't match ClusterQueue selector");
}

TEST(QuotaProbeTest, FlavorTaintsAndLabelsAreCheckedAsKueueDoes) {
  KueueSnapshot k;
  k.Flavor("spot", {}, {core::Taint{"spot", "true", core::TaintEffect::kNoSchedule}});
  k.Flavor("a100", {{"gpu", "a100"}});
  k.Add(CqBuilder("cq").Quota("spot", kGpu, 8).Quota("a100", kGpu, 8));
  k.LocalQueue("q", "cq", "team-a");
  MoveToCluster(k, "w1");
  const int32_t plain = k.Add(HubWl("plain", 1));
  const int32_t wants_h100 = k.Add(HubWl("h", 1).NodeSelector("gpu", "h100"));
  QuotaProbe probe = ProbeOf(k, "w1");
  ProbeResult r = probe.Try(plain);
  ASSERT_TRUE(r.fits);
  EXPECT_EQ(FlavorOf(r, "main", kGpu), "a100");
  EXPECT_EQ(r.attempts[0].mode, "Skipped");
  ProbeResult no = probe.Try(wants_h100);
  EXPECT_FALSE(no.fits);
  EXPECT_EQ(no.reason, "NoMatchingFlavor");
}

TEST(QuotaProbeTest, TasFlavorsPlaceThePodsAndCommitHoldsTheirDomains) {
  // Worker "default": one block, racks r1 (h1, h2) and r2 (h3, h4), 4 cpu per host.
  KueueSnapshot k;
  testing::SnapshotBuilder b;
  b.Add(tas_testing::TasNode("h1", "b1", "r1", "h1", 4000));
  b.Add(tas_testing::TasNode("h2", "b1", "r1", "h2", 4000));
  b.Add(tas_testing::TasNode("h3", "b1", "r2", "h3", 4000));
  b.Add(tas_testing::TasNode("h4", "b1", "r2", "h4", 4000));
  k.snapshot = b.Build();
  model::Topology t;
  t.meta.name = "default";
  t.levels = tas_testing::ThreeLevels();
  k.snapshot.topologies.push_back(t);
  k.Flavor("tas").topology_name = "default";
  k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  k.LocalQueue("q", "cq", "team-a");
  auto rack_wl = [&](const std::string& name, int32_t count, int64_t cpu_milli) {
    const int32_t i = k.Add(WlBuilder(name).Cluster("hub").Namespace("team-a").Queue("q").PodSet(
        "main", count, {{"cpu", cpu_milli}}));
    k.snapshot.kueue_workloads[static_cast<size_t>(i)].pod_sets[0].topology_request =
        tas_testing::Required(tas_testing::kRack);
    return i;
  };
  const int32_t a = rack_wl("a", 4, 2000);
  const int32_t c = rack_wl("c", 1, 1000);
  QuotaProbe probe = ProbeOf(k, "default");
  const ProbeResult ra = probe.Try(a);
  ASSERT_TRUE(ra.fits) << ra.message;
  ASSERT_TRUE(ra.admission.pod_set_assignments[0].topology_assignment.has_value());
  EXPECT_EQ(tas_testing::Render(*ra.admission.pod_set_assignments[0].topology_assignment),
            "h1:2,h2:2");
  probe.Commit(a, ra);
  // The second rack-sized workload goes to the other rack.
  const int32_t b2 = rack_wl("b", 4, 2000);
  const ProbeResult rb = probe.Try(b2);
  ASSERT_TRUE(rb.fits) << rb.message;
  EXPECT_EQ(tas_testing::Render(*rb.admission.pod_set_assignments[0].topology_assignment),
            "h3:2,h4:2");
  probe.Commit(b2, rb);
  // Quota is plentiful but no rack has a free cpu.
  const ProbeResult rc = probe.Try(c);
  EXPECT_FALSE(rc.fits);
  EXPECT_EQ(rc.reason, "WaitingForQuota");
  EXPECT_NE(rc.message.find("couldn't assign flavors to pod set main: "), std::string::npos)
      << rc.message;
  probe.Release(a);
  EXPECT_TRUE(probe.Try(c).fits);
}

TEST(QuotaProbeTest, TryLeavesTheProbeUnchanged) {
  KueueSnapshot k = Cohort(std::nullopt);
  MoveToCluster(k, "w1");
  const int32_t wl = k.Add(HubWl("a", 8));
  QuotaProbe probe = ProbeOf(k, "w1");
  const ProbeResult first = probe.Try(wl);
  const ProbeResult second = probe.Try(wl);
  ASSERT_TRUE(first.fits);
  ASSERT_TRUE(second.fits);
  EXPECT_EQ(first.admission.pod_set_assignments[0].resource_usage,
            second.admission.pod_set_assignments[0].resource_usage);
  EXPECT_EQ(first.attempts.size(), second.attempts.size());
  // Moved probes keep their state.
  QuotaProbe moved = std::move(probe);
  moved.Commit(wl, first);
  EXPECT_FALSE(moved.Try(k.Add(HubWl("b", 1))).fits);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
