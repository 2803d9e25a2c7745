// The fair-sharing preemptor's fast paths (issue #4): the allocation-free share and the
// searches that stop before simulating candidates must decide exactly as the full search.
#include "queueing/fair_sharing_preemptor.h"

#include <gtest/gtest.h>

#include <string>

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

void EnableFairSharing(KueueSnapshot& k) {
  model::KueueConfig config;
  config.fair_sharing = model::FairSharingConfig{};
  config.fair_sharing->preemption_strategies = {FairSharingStrategy::kLessThanOrEqualToFinalShare,
                                                FairSharingStrategy::kLessThanInitialShare};
  k.snapshot.kueue_config = config;
}

TEST(FairSharingPreemptorTest, ShareValueMatchesShare) {
  KueueSnapshot k;
  k.Flavor("on-demand");
  k.Flavor("spot");
  k.Add(CqBuilder("a").Cohort("all").Quota("on-demand", "cpu", 2000).Quota("on-demand", "memory", 4)
            .Quota("spot", "cpu", 1000).Quota("spot", "memory", 4));
  k.Add(CqBuilder("b").Cohort("all").Quota("on-demand", "cpu", 6000).Quota("on-demand", "memory", 4)
            .Quota("spot", "cpu", 3000).Quota("spot", "memory", 4));
  k.snapshot.cluster_queues[0].fair_sharing_weight_milli = 500;
  core::Diagnostics diags;
  QueueSetup setup = BuildQueueSetup(k.snapshot, "default", diags);
  FairSharing fs(k.snapshot, setup);
  model::ResourceId cpu, memory;
  ASSERT_TRUE(k.snapshot.resources.Find("cpu", &cpu));
  ASSERT_TRUE(k.snapshot.resources.Find("memory", &memory));
  const int32_t od = setup.FrId("on-demand", cpu), spot = setup.FrId("spot", cpu);
  const int32_t mem = setup.FrId("on-demand", memory);
  // a borrows on both cpu flavors and on memory; b stays within its quota.
  const int32_t a = setup.cq_by_name.at("a"), b = setup.cq_by_name.at("b");
  setup.tree.AddUsage(a, od, 3000);
  setup.tree.AddUsage(a, spot, 2500);
  setup.tree.AddUsage(a, mem, 6);
  setup.tree.AddUsage(b, od, 1000);
  for (int32_t node = 0; node < setup.tree.num_nodes(); ++node) {
    const Drs full = fs.Share(setup.tree, node);
    const Drs value = fs.ShareValue(setup.tree, node);
    EXPECT_EQ(CompareDrs(full, value), 0) << node;
    EXPECT_DOUBLE_EQ(full.ratio, value.ratio) << node;
    EXPECT_EQ(full.borrowing, value.borrowing) << node;
    EXPECT_EQ(full.dominant, value.dominant) << node;
    EXPECT_TRUE(value.borrowed_frs.empty());
  }
  EXPECT_GT(fs.ShareValue(setup.tree, a).ratio, 0);
  EXPECT_EQ(fs.ShareValue(setup.tree, b).ratio, 0);
}

// a: nominal 1, asks 3 (would borrow 2 of 9: 222); b: nominal 1, five 1-cpu workloads
// (borrows 4: 444); c: nominal 1, two (borrows 1: 111); lender: 6, uses 2. The cohort is
// full. Two of b's pass the final-share rule (333, 222 >= 222), the third would leave b at
// 111; c fails both rules without a simulation (222 > 111), and no queue's initial share
// is above 222 by then: nothing fits, so nothing is preempted.
TEST(FairSharingPreemptorTest, QueuesThatCannotPassAreSkippedWithoutChangingTheDecision) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("a").Cohort("all").Quota("default", "cpu", 1000).ReclaimWithinCohort(
      PreemptionPolicy::kAny));
  k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 1000));
  k.Add(CqBuilder("c").Cohort("all").Quota("default", "cpu", 1000));
  k.Add(CqBuilder("lender").Cohort("all").Quota("default", "cpu", 6000));
  k.LocalQueue("lq", "a");
  for (int i = 0; i < 5; ++i) {
    k.Add(WlBuilder("b" + std::to_string(i))
              .Requests({{"cpu", 1000}})
              .Admitted("b", {{"cpu", "default", 1000}}, i));
  }
  for (int i = 0; i < 2; ++i) {
    k.Add(WlBuilder("c" + std::to_string(i))
              .Requests({{"cpu", 1000}})
              .Admitted("c", {{"cpu", "default", 1000}}, i));
  }
  k.Add(WlBuilder("l0").Requests({{"cpu", 2000}}).Admitted("lender", {{"cpu", "default", 2000}}));
  const int32_t p = k.Add(WlBuilder("p").Requests({{"cpu", 3000}}));
  EnableFairSharing(k);
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, p).outcome, WorkloadOutcome::kPending);
  for (int32_t w = 0; w < p; ++w) {
    EXPECT_EQ(DecisionOf(r, w).outcome, WorkloadOutcome::kAlreadyAdmitted) << w;
  }
}

// The same cohort with c holding one 2-cpu workload and a asking 2 (would borrow 1: 111):
// b's first two workloads pass (333, 222 >= 111) and free what a needs; c (111) is never
// reached.
TEST(FairSharingPreemptorTest, HighestShareQueueStillPreemptedWhenOthersCannotPass) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("a").Cohort("all").Quota("default", "cpu", 1000).ReclaimWithinCohort(
      PreemptionPolicy::kAny));
  k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 1000));
  k.Add(CqBuilder("c").Cohort("all").Quota("default", "cpu", 1000));
  k.Add(CqBuilder("lender").Cohort("all").Quota("default", "cpu", 6000));
  k.LocalQueue("lq", "a");
  for (int i = 0; i < 5; ++i) {
    k.Add(WlBuilder("b" + std::to_string(i))
              .Requests({{"cpu", 1000}})
              .Admitted("b", {{"cpu", "default", 1000}}, i));
  }
  k.Add(WlBuilder("c0").Requests({{"cpu", 2000}}).Admitted("c", {{"cpu", "default", 2000}}));
  k.Add(WlBuilder("l0").Requests({{"cpu", 2000}}).Admitted("lender", {{"cpu", "default", 2000}}));
  const int32_t p = k.Add(WlBuilder("p").Requests({{"cpu", 2000}}));
  EnableFairSharing(k);
  AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, p).outcome, WorkloadOutcome::kAdmitted);
  int preempted_b = 0;
  for (int32_t w = 0; w < 5; ++w) {
    preempted_b += DecisionOf(r, w).outcome == WorkloadOutcome::kPreempted ? 1 : 0;
  }
  EXPECT_EQ(preempted_b, 2);
  EXPECT_EQ(DecisionOf(r, 5).outcome, WorkloadOutcome::kAlreadyAdmitted);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
