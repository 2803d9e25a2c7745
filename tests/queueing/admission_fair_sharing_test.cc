// Admission Fair Sharing (admission_fair_sharing_test.go, the AFS cases of
// cluster_queue_test.go and of preemption_test.go's TestCandidatesOrdering, reduced to their
// semantics): decay, weights, entry penalties, the ClusterQueue order by LocalQueue usage and
// the preemption candidate order.
#include "queueing/admission_fair_sharing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "queueing/admission_test_util.h"
#include "queueing/kueue_builders.h"
#include "queueing/queue_setup.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using model::PreemptionPolicy;
using testing::CqBuilder;
using testing::DecisionOf;
using testing::KueueSnapshot;
using testing::RunAll;
using testing::WlBuilder;

constexpr int64_t kNow = 1000;  // RunAll's options.now

void EnableAfs(KueueSnapshot& k, int64_t half_life_s, int64_t sampling_s,
               std::map<std::string, int64_t> weights_milli = {}) {
  model::KueueConfig config;
  model::AdmissionFairSharingConfig afs;
  afs.usage_half_life_time_s = half_life_s;
  afs.usage_sampling_interval_s = sampling_s;
  afs.resource_weights_milli = std::move(weights_milli);
  config.admission_fair_sharing = afs;
  k.snapshot.kueue_config = config;
}

model::LocalQueue& Lq(KueueSnapshot& k, const std::string& name) {
  for (auto& lq : k.snapshot.local_queues) {
    if (lq.meta.name == name) return lq;
  }
  ADD_FAILURE() << "no LocalQueue " << name;
  return k.snapshot.local_queues.front();
}

// One ClusterQueue "cq" with `cpu_milli` of cpu and LocalQueues lq-a, lq-b (and lq-p).
KueueSnapshot OneQueue(int64_t cpu_milli, bool afs_mode = true) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", cpu_milli).Quota("default", "memory", 1 << 30));
  k.snapshot.cluster_queues[0].usage_based_admission_fair_sharing = afs_mode;
  k.LocalQueue("lq-a", "cq");
  k.LocalQueue("lq-b", "cq");
  k.LocalQueue("lq-p", "cq");
  return k;
}

struct Built {
  QueueSetup setup;
  std::unique_ptr<AdmissionFairSharing> afs;
};

Built Build(const KueueSnapshot& k) {
  core::Diagnostics diags;
  Built b{BuildQueueSetup(k.snapshot, "default", diags), nullptr};
  core::Timestamp now;
  now.unix_s = kNow;
  b.afs = std::make_unique<AdmissionFairSharing>(
      k.snapshot, b.setup, *k.snapshot.kueue_config->admission_fair_sharing, "default", now);
  return b;
}

int32_t LqIndex(const KueueSnapshot& k, const std::string& name) {
  for (size_t i = 0; i < k.snapshot.local_queues.size(); ++i) {
    if (k.snapshot.local_queues[i].meta.name == name) return static_cast<int32_t>(i);
  }
  return -1;
}

TEST(AfsAlphaTest, HalfLifeHalvesAndZeroHalfLifeMeansNoDecay) {
  EXPECT_DOUBLE_EQ(AfsAlpha(600, 600), 0.5);
  EXPECT_DOUBLE_EQ(AfsAlpha(1200, 600), 0.75);
  EXPECT_DOUBLE_EQ(AfsAlpha(300, 600), 1 - std::sqrt(0.5));
  EXPECT_DOUBLE_EQ(AfsAlpha(0, 600), 0);
  EXPECT_DOUBLE_EQ(AfsAlpha(600, 0), 0);
  EXPECT_DOUBLE_EQ(AfsAlpha(-60, 600), 0);
}

TEST(AfsDecayedTest, BlendsOldUsageTowardsCurrent) {
  EXPECT_DOUBLE_EQ(AfsDecayed(8, 0, 600, 600), 4);
  EXPECT_DOUBLE_EQ(AfsDecayed(8, 4, 600, 600), 6);
  EXPECT_DOUBLE_EQ(AfsDecayed(8, 0, 1200, 600), 2);
  EXPECT_DOUBLE_EQ(AfsDecayed(8, 100, 600, 0), 8);  // half-life 0: unchanged
}

TEST(AfsAmountTest, CpuInCoresOthersAsStored) {
  EXPECT_DOUBLE_EQ(AfsAmount("cpu", 1500), 1.5);
  EXPECT_DOUBLE_EQ(AfsAmount("memory", 1 << 20), 1 << 20);
  EXPECT_DOUBLE_EQ(AfsAmount("nvidia.com/gpu", 2), 2);
}

TEST(AdmissionFairSharingTest, ConsumedDecaysFromLastUpdateToNow) {
  KueueSnapshot k = OneQueue(8000);
  EnableAfs(k, /*half_life_s=*/600, /*sampling_s=*/300);
  Lq(k, "lq-a").consumed_resources_milli = {{"cpu", 8000}, {"nvidia.com/gpu", 4000}};
  Lq(k, "lq-a").consumed_last_update = core::Timestamp{kNow - 600};
  // lq-b: one admitted workload of 2 cpu pulls its consumed usage up towards 2.
  Lq(k, "lq-b").consumed_last_update = core::Timestamp{kNow - 600};
  k.Add(WlBuilder("b-run")
            .Queue("lq-b")
            .Requests({{"cpu", 2000}})
            .Admitted("cq", {{"cpu", "default", 2000}}));
  // lq-p: no lastUpdate, consumed stays as given.
  Lq(k, "lq-p").consumed_resources_milli = {{"cpu", 3000}};
  Built b = Build(k);
  EXPECT_DOUBLE_EQ(b.afs->ConsumedForTest(LqIndex(k, "lq-a"), "cpu"), 4);
  EXPECT_DOUBLE_EQ(b.afs->ConsumedForTest(LqIndex(k, "lq-a"), "nvidia.com/gpu"), 2);
  EXPECT_DOUBLE_EQ(b.afs->Usage(LqIndex(k, "lq-a")), 6);
  EXPECT_DOUBLE_EQ(b.afs->ConsumedForTest(LqIndex(k, "lq-b"), "cpu"), 1);
  EXPECT_DOUBLE_EQ(b.afs->Usage(LqIndex(k, "lq-p")), 3);
}

TEST(AdmissionFairSharingTest, ResourceWeightsAndLocalQueueWeight) {
  KueueSnapshot k = OneQueue(8000);
  EnableAfs(k, 600, 300, {{"cpu", 2000}, {"nvidia.com/gpu", 500}});
  Lq(k, "lq-a").consumed_resources_milli = {{"cpu", 3000}, {"nvidia.com/gpu", 4000}, {"pods", 1000}};
  Lq(k, "lq-b").consumed_resources_milli = {{"cpu", 3000}, {"nvidia.com/gpu", 4000}, {"pods", 1000}};
  Lq(k, "lq-b").fair_sharing_weight_milli = 2000;
  Lq(k, "lq-p").fair_sharing_weight_milli = 0;
  Built b = Build(k);
  // 2 × 3 + 0.5 × 4 + 1 (unlisted resources weigh 1).
  EXPECT_DOUBLE_EQ(b.afs->Usage(LqIndex(k, "lq-a")), 9);
  EXPECT_DOUBLE_EQ(b.afs->Usage(LqIndex(k, "lq-b")), 4.5);
  EXPECT_EQ(b.afs->Usage(LqIndex(k, "lq-p")), std::numeric_limits<double>::infinity());
}

TEST(AdmissionFairSharingTest, EntryPenaltyIsAlphaOfSamplingIntervalTimesRequests) {
  KueueSnapshot k = OneQueue(8000);
  EnableAfs(k, /*half_life_s=*/300, /*sampling_s=*/300);  // α = 0.5
  const int32_t wl = k.Add(WlBuilder("a").Queue("lq-a").Requests({{"cpu", 2000}}));
  Built b = Build(k);
  model::Admission admission;
  model::PodSetAssignment psa;
  psa.resource_usage = {{"cpu", 2000}, {"memory", 1024}};
  admission.pod_set_assignments = {psa, psa};
  const int32_t lq = b.afs->AddEntryPenalty(wl, admission);
  EXPECT_EQ(lq, LqIndex(k, "lq-a"));
  EXPECT_DOUBLE_EQ(b.afs->PenaltyForTest(lq, "cpu"), 2);
  EXPECT_DOUBLE_EQ(b.afs->PenaltyForTest(lq, "memory"), 1024);
  EXPECT_DOUBLE_EQ(b.afs->Usage(lq), 1026);
  EXPECT_DOUBLE_EQ(b.afs->WorkloadUsage(wl), 1026);
}

TEST(AdmissionFairSharingTest, OnlyQueuesWithUsageBasedModeUseIt) {
  KueueSnapshot k = OneQueue(8000, /*afs_mode=*/false);
  k.Add(CqBuilder("cq-afs").Quota("default", "cpu", 1000));
  k.snapshot.cluster_queues[1].usage_based_admission_fair_sharing = true;
  EnableAfs(k, 600, 300);
  Built b = Build(k);
  EXPECT_FALSE(b.afs->Enabled(0));
  EXPECT_TRUE(b.afs->Enabled(1));
}

TEST(AdmissionFairSharingTest, LowerLocalQueueUsageGoesFirstBeforePriority) {
  for (bool afs_mode : {true, false}) {
    KueueSnapshot k = OneQueue(1000, afs_mode);
    EnableAfs(k, 600, 300);
    Lq(k, "lq-a").consumed_resources_milli = {{"cpu", 5000}};
    const int32_t a =
        k.Add(WlBuilder("a").Queue("lq-a").Priority(100).Created(1).Requests({{"cpu", 1000}}));
    const int32_t b =
        k.Add(WlBuilder("b").Queue("lq-b").Priority(0).Created(2).Requests({{"cpu", 1000}}));
    const AdmissionResult r = RunAll(k);
    EXPECT_EQ(DecisionOf(r, b).outcome,
              afs_mode ? WorkloadOutcome::kAdmitted : WorkloadOutcome::kPending)
        << afs_mode;
    EXPECT_EQ(DecisionOf(r, a).outcome,
              afs_mode ? WorkloadOutcome::kPending : WorkloadOutcome::kAdmitted)
        << afs_mode;
  }
}

TEST(AdmissionFairSharingTest, EqualUsageFallsBackToPriorityThenAge) {
  KueueSnapshot k = OneQueue(1000);
  EnableAfs(k, 0, 300);  // no penalty
  const int32_t old_low =
      k.Add(WlBuilder("old-low").Queue("lq-a").Created(1).Requests({{"cpu", 1000}}));
  const int32_t new_high =
      k.Add(WlBuilder("new-high").Queue("lq-b").Priority(5).Created(2).Requests({{"cpu", 1000}}));
  const AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, new_high).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, old_low).outcome, WorkloadOutcome::kPending);
}

TEST(AdmissionFairSharingTest, EntryPenaltyReordersTheQueueWithinThePlan) {
  // lq-a starts lower (0 vs 0.25 cpu); a1's admission adds 0.5 × 1 cpu, so b1 overtakes a2.
  // With a zero half-life there is no penalty and lq-a keeps the lead.
  for (int64_t half_life : {300, 0}) {
    KueueSnapshot k = OneQueue(2000);
    EnableAfs(k, half_life, 300);
    Lq(k, "lq-b").consumed_resources_milli = {{"cpu", 250}};
    const int32_t a1 = k.Add(WlBuilder("a1").Queue("lq-a").Created(1).Requests({{"cpu", 1000}}));
    const int32_t a2 = k.Add(WlBuilder("a2").Queue("lq-a").Created(2).Requests({{"cpu", 1000}}));
    const int32_t b1 = k.Add(WlBuilder("b1").Queue("lq-b").Created(3).Requests({{"cpu", 1000}}));
    const AdmissionResult r = RunAll(k);
    EXPECT_EQ(DecisionOf(r, a1).outcome, WorkloadOutcome::kAdmitted) << half_life;
    EXPECT_EQ(DecisionOf(r, b1).outcome,
              half_life > 0 ? WorkloadOutcome::kAdmitted : WorkloadOutcome::kPending)
        << half_life;
    EXPECT_EQ(DecisionOf(r, a2).outcome,
              half_life > 0 ? WorkloadOutcome::kPending : WorkloadOutcome::kAdmitted)
        << half_life;
  }
}

TEST(AdmissionFairSharingTest, ZeroWeightLocalQueueGoesLast) {
  KueueSnapshot k = OneQueue(1000);
  EnableAfs(k, 600, 300);
  Lq(k, "lq-a").fair_sharing_weight_milli = 0;
  Lq(k, "lq-b").consumed_resources_milli = {{"cpu", 100000}};
  const int32_t a = k.Add(WlBuilder("a").Queue("lq-a").Created(1).Requests({{"cpu", 1000}}));
  const int32_t b = k.Add(WlBuilder("b").Queue("lq-b").Created(2).Requests({{"cpu", 1000}}));
  const AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, b).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, a).outcome, WorkloadOutcome::kPending);
}

TEST(AdmissionFairSharingTest, PreemptsFromTheHigherUsageLocalQueueFirst) {
  // Two holders of 1 cpu each: `low` (priority 0) in the lightly used lq-a and `busy`
  // (priority 5) in the heavily used lq-b. Upstream compares LocalQueue usage before
  // priority among own-queue candidates: `busy` goes. Without AFS the lower priority goes.
  for (bool afs_mode : {true, false}) {
    KueueSnapshot k = OneQueue(2000, afs_mode);
    k.snapshot.cluster_queues[0].preemption.within_cluster_queue = PreemptionPolicy::kLowerPriority;
    EnableAfs(k, 600, 300);
    Lq(k, "lq-a").consumed_resources_milli = {{"cpu", 1000}};
    Lq(k, "lq-b").consumed_resources_milli = {{"cpu", 9000}};
    const int32_t low = k.Add(WlBuilder("low")
                                  .Queue("lq-a")
                                  .Priority(0)
                                  .Requests({{"cpu", 1000}})
                                  .Admitted("cq", {{"cpu", "default", 1000}}));
    const int32_t busy = k.Add(WlBuilder("busy")
                                   .Queue("lq-b")
                                   .Priority(5)
                                   .Requests({{"cpu", 1000}})
                                   .Admitted("cq", {{"cpu", "default", 1000}}));
    const int32_t pre =
        k.Add(WlBuilder("pre").Queue("lq-p").Priority(10).Requests({{"cpu", 1000}}));
    const AdmissionResult r = RunAll(k);
    EXPECT_EQ(DecisionOf(r, pre).outcome, WorkloadOutcome::kAdmitted) << afs_mode;
    // (Afterwards `busy`, if evicted, comes back and preempts `low` by priority.)
    EXPECT_EQ(DecisionOf(r, pre).victims, std::vector<int32_t>{afs_mode ? busy : low}) << afs_mode;
    EXPECT_EQ(DecisionOf(r, afs_mode ? busy : low).preempted_by, pre) << afs_mode;
  }
}

TEST(AdmissionFairSharingTest, PreemptionKeepsPriorityOrderWithinOneLocalQueue) {
  KueueSnapshot k = OneQueue(2000);
  k.snapshot.cluster_queues[0].preemption.within_cluster_queue = PreemptionPolicy::kLowerPriority;
  EnableAfs(k, 600, 300);
  Lq(k, "lq-b").consumed_resources_milli = {{"cpu", 9000}};
  const int32_t mid = k.Add(WlBuilder("mid")
                                .Queue("lq-b")
                                .Priority(3)
                                .Requests({{"cpu", 1000}})
                                .Admitted("cq", {{"cpu", "default", 1000}}));
  const int32_t low = k.Add(WlBuilder("low")
                                .Queue("lq-b")
                                .Priority(1)
                                .Requests({{"cpu", 1000}})
                                .Admitted("cq", {{"cpu", "default", 1000}}));
  const int32_t pre = k.Add(WlBuilder("pre").Queue("lq-p").Priority(10).Requests({{"cpu", 1000}}));
  const AdmissionResult r = RunAll(k);
  EXPECT_EQ(DecisionOf(r, pre).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(DecisionOf(r, low).outcome, WorkloadOutcome::kPreempted);
  EXPECT_EQ(DecisionOf(r, mid).outcome, WorkloadOutcome::kAlreadyAdmitted);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
