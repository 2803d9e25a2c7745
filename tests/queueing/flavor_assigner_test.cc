// Flavor assignment (flavorassigner.go semantics), observed through RunAdmission.
#include "queueing/flavor_assigner.h"

#include <gtest/gtest.h>

#include "queueing/admission_test_util.h"
#include "queueing/kueue_builders.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using testing::CqBuilder;
using testing::DecisionOf;
using testing::KueueSnapshot;
using testing::RunAll;
using testing::WlBuilder;

std::string FlavorOf(const AdmissionResult& r, int32_t wl, const std::string& resource,
                     size_t pod_set = 0) {
  const WorkloadDecision& d = DecisionOf(r, wl);
  if (!d.admission || d.admission->pod_set_assignments.size() <= pod_set) return "";
  return d.admission->pod_set_assignments[pod_set].flavors.at(resource);
}

TEST(FlavorAssignerTest, TakesFirstFlavorThatFitsInListOrder) {
  KueueSnapshot k;
  k.Flavor("a100");
  k.Flavor("h100");
  k.Add(CqBuilder("cq").Quota("a100", "nvidia.com/gpu", 2).Quota("h100", "nvidia.com/gpu", 8));
  k.LocalQueue("lq", "cq");
  const int32_t small = k.Add(WlBuilder("s").Requests({{"nvidia.com/gpu", 2}}).Created(1));
  const int32_t big = k.Add(WlBuilder("b").Requests({{"nvidia.com/gpu", 4}}).Created(2));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(FlavorOf(r, small, "nvidia.com/gpu"), "a100");
  EXPECT_EQ(FlavorOf(r, big, "nvidia.com/gpu"), "h100");
}

TEST(FlavorAssignerTest, SkipsFlavorWithUntoleratedTaint) {
  KueueSnapshot k;
  k.Flavor("spot", {}, {core::Taint{"spot", "true", core::TaintEffect::kNoSchedule}});
  k.Flavor("on-demand");
  k.Add(CqBuilder("cq").Quota("spot", "cpu", 8000).Quota("on-demand", "cpu", 8000));
  k.LocalQueue("lq", "cq");
  const int32_t plain = k.Add(WlBuilder("plain").Requests({{"cpu", 1000}}).Created(1));
  core::Toleration tol;
  tol.key = "spot";
  tol.op = core::TolerationOp::kExists;
  const int32_t tolerant =
      k.Add(WlBuilder("tolerant").Requests({{"cpu", 1000}}).Toleration(tol).Created(2));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(FlavorOf(r, plain, "cpu"), "on-demand");
  EXPECT_EQ(FlavorOf(r, tolerant, "cpu"), "spot");
  ASSERT_FALSE(DecisionOf(r, plain).attempts.empty());
  EXPECT_EQ(DecisionOf(r, plain).attempts[0].mode, "Skipped");
  EXPECT_EQ(DecisionOf(r, plain).attempts[0].reason,
            "untolerated taint {spot true NoSchedule <nil>} in flavor spot");
}

TEST(FlavorAssignerTest, NodeSelectorComparesOnlyTheFlavorsOwnKeys) {
  KueueSnapshot k;
  k.Flavor("x86", {{"arch", "amd64"}});
  k.Flavor("arm", {{"arch", "arm64"}});
  k.Add(CqBuilder("cq").Quota("x86", "cpu", 8000).Quota("arm", "cpu", 8000));
  k.LocalQueue("lq", "cq");
  const int32_t arm = k.Add(WlBuilder("arm")
                                .Requests({{"cpu", 1000}})
                                .NodeSelector("arch", "arm64")
                                .NodeSelector("zone", "z1")
                                .Created(1));
  const int32_t none =
      k.Add(WlBuilder("none").Requests({{"cpu", 1000}}).NodeSelector("arch", "s390x").Created(2));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(FlavorOf(r, arm, "cpu"), "arm");  // zone is not a flavor key: ignored
  EXPECT_EQ(DecisionOf(r, none).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, none).reason, "NoMatchingFlavor");
  // Reasons sorted, as Kueue's Status.Message sorts them.
  EXPECT_EQ(DecisionOf(r, none).message,
            "couldn't assign flavors to pod set main: flavor arm doesn't match node affinity, "
            "flavor x86 doesn't match node affinity");  // sorted, as Kueue's Status.Message
}

KueueSnapshot BorrowingSetup(model::FungibilityPolicy when_can_borrow) {
  KueueSnapshot k;
  k.Flavor("first");
  k.Flavor("second");
  k.Add(CqBuilder("cq")
            .Cohort("all")
            .Quota("first", "cpu", 1000)
            .Quota("second", "cpu", 4000)
            .WhenCanBorrow(when_can_borrow));
  k.Add(CqBuilder("lender").Cohort("all").Quota("first", "cpu", 4000).Quota("second", "cpu", 0));
  k.LocalQueue("lq", "cq");
  return k;
}

TEST(FlavorAssignerTest, MayStopSearchBorrowsInFirstFlavor) {
  KueueSnapshot k = BorrowingSetup(model::FungibilityPolicy::kMayStopSearch);
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 2000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(FlavorOf(r, a, "cpu"), "first");
}

TEST(FlavorAssignerTest, TryNextFlavorPrefersNotBorrowing) {
  KueueSnapshot k = BorrowingSetup(model::FungibilityPolicy::kTryNextFlavor);
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 2000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(FlavorOf(r, a, "cpu"), "second");
  ASSERT_EQ(DecisionOf(r, a).attempts.size(), 2u);
  EXPECT_EQ(DecisionOf(r, a).attempts[0].mode, "Borrow");
  EXPECT_EQ(DecisionOf(r, a).attempts[1].mode, "Fit");
}

TEST(FlavorAssignerTest, ResourceNotCoveredIsNoFit) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 8000));
  k.LocalQueue("lq", "cq");
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 1000}, {"nvidia.com/gpu", 1}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, a).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, a).message,
            "couldn't assign flavors to pod set main: resource nvidia.com/gpu unavailable in "
            "ClusterQueue");
}

TEST(FlavorAssignerTest, GroupResourcesShareOneFlavor) {
  KueueSnapshot k;
  k.Flavor("small");
  k.Flavor("large");
  k.Add(CqBuilder("cq")
            .Quota("small", "cpu", 8000)
            .Quota("small", "memory", 1 * testing::kGi)
            .Quota("large", "cpu", 8000)
            .Quota("large", "memory", 64 * testing::kGi));
  k.LocalQueue("lq", "cq");
  // cpu would fit in "small" but memory does not: both move to "large".
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 1000}, {"memory", 4 * testing::kGi}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(FlavorOf(r, a, "cpu"), "large");
  EXPECT_EQ(FlavorOf(r, a, "memory"), "large");
}

TEST(FlavorAssignerTest, LaterPodSetsSeeEarlierPodSetsUsage) {
  KueueSnapshot k;
  k.Flavor("first");
  k.Flavor("second");
  k.Add(CqBuilder("cq").Quota("first", "cpu", 3000).Quota("second", "cpu", 3000));
  k.LocalQueue("lq", "cq");
  const int32_t a = k.Add(
      WlBuilder("a").PodSet("driver", 1, {{"cpu", 2000}}).PodSet("workers", 1, {{"cpu", 2000}}));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(FlavorOf(r, a, "cpu", 0), "first");
  EXPECT_EQ(FlavorOf(r, a, "cpu", 1), "second");
}

TEST(FlavorAssignerTest, PodsResourceCountsPodsWhenCovered) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 100000).Quota("default", "pods", 3));
  k.LocalQueue("lq", "cq");
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 100}}, 4));
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, a).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, a).reason, "ExceedsMaxQuota");
  const int32_t b = k.Add(WlBuilder("b").Requests({{"cpu", 100}}, 3));
  AdmissionResult r2 = RunAll(k);
  ASSERT_EQ(DecisionOf(r2, b).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r2, b).admission->pod_set_assignments[0].resource_usage.at("pods"), 3);
}

TEST(FlavorAssignerTest, PreemptionOverBorrowingPrefersPreemptingInFirstFlavor) {
  // first: full of a low-priority workload, preemption possible; second: fits only by borrowing.
  auto build = [](model::FungibilityPreference pref) {
    KueueSnapshot k;
    k.Flavor("first");
    k.Flavor("second");
    k.Add(CqBuilder("cq")
              .Cohort("all")
              .Quota("first", "cpu", 2000)
              .Quota("second", "cpu", 0)
              .WithinClusterQueue(model::PreemptionPolicy::kLowerPriority)
              .WhenCanBorrow(model::FungibilityPolicy::kTryNextFlavor)
              .Preference(pref));
    k.Add(CqBuilder("lender").Cohort("all").Quota("first", "cpu", 0).Quota("second", "cpu", 4000));
    k.LocalQueue("lq", "cq");
    k.Add(WlBuilder("low").Requests({{"cpu", 2000}}).Admitted("cq", {{"cpu", "first", 2000}}));
    return k;
  };
  KueueSnapshot borrow = build(model::FungibilityPreference::kBorrowingOverPreemption);
  const int32_t a = borrow.Add(WlBuilder("high").Requests({{"cpu", 2000}}).Priority(10));
  EXPECT_EQ(FlavorOf(RunAll(borrow), a, "cpu"), "second");

  KueueSnapshot preempt = build(model::FungibilityPreference::kPreemptionOverBorrowing);
  const int32_t b = preempt.Add(WlBuilder("high").Requests({{"cpu", 2000}}).Priority(10));
  AdmissionResult r = RunAll(preempt);
  EXPECT_EQ(FlavorOf(r, b, "cpu"), "first");
  EXPECT_EQ(DecisionOf(r, b).victims, std::vector<int32_t>{0});
  // The victim is requeued and comes back by borrowing the other flavor.
  EXPECT_EQ(FlavorOf(r, 0, "cpu"), "second");
}

// Kueue's grouped assignment (TestAssignFlavors "multiple flavors, leader worker set, leader
// and workers request the same resources fits"): the leader alone would fit flavor one, but
// it shares the workers' podSetGroupName, so both get the flavor their summed request fits.
TEST(FlavorAssignerTest, PodSetGroupSharesOneFlavor) {
  KueueSnapshot k;
  k.Flavor("one");
  k.Flavor("two");
  k.Add(CqBuilder("cq").Quota("one", "cpu", 4000).Quota("two", "cpu", 9000));
  k.LocalQueue("lq", "cq");
  const int32_t lws = k.Add(WlBuilder("lws")
                                .PodSet("worker", 4, {{"cpu", 2000}})
                                .PodSet("leader", 1, {{"cpu", 1000}})
                                .Created(1));
  for (auto& ps : k.snapshot.kueue_workloads[static_cast<size_t>(lws)].pod_sets) {
    ps.topology_request.pod_set_group_name = "group1";
  }
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(FlavorOf(r, lws, "cpu", 0), "two");
  EXPECT_EQ(FlavorOf(r, lws, "cpu", 1), "two");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
