// AdmissionScheduler used incrementally, as berth simulate drives it: Start, then Submit /
// Finish / ReactivateAll / Schedule as virtual time passes. Checks that the cycles a change
// causes admit by quota in Kueue's order, that freed quota reaches parked workloads of the
// cohort, that preemption (within the ClusterQueue and by reclamation) is reported in order,
// that equal priorities are never preempted under LowerPriority, and that explain=false and
// the one-shot Run() reach the same decisions.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "queueing/admission.h"
#include "queueing/admission_scheduler.h"
#include "queueing/kueue_builders.h"
#include "queueing/placement_oracle.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using model::PreemptionPolicy;
using testing::CqBuilder;
using testing::KueueSnapshot;
using testing::WlBuilder;
using Change = AdmissionScheduler::Change;

core::Timestamp At(int64_t unix_s) {
  core::Timestamp t;
  t.unix_s = unix_s;
  return t;
}

// One incremental scheduler over a KueueSnapshot (which must outlive it).
struct Incremental {
  explicit Incremental(const KueueSnapshot& k, bool explain = true,
                       PlacementOracle* oracle = nullptr, int32_t max_cycles = 0)
      : scheduler(k.snapshot, Options(explain, max_cycles), oracle, diags) {
    scheduler.Start();
  }
  static AdmissionOptions Options(bool explain, int32_t max_cycles) {
    AdmissionOptions o;
    o.now = At(1000);
    o.explain = explain;
    o.max_cycles = max_cycles;
    return o;
  }
  // The changes of one Schedule call as text (see Seq).
  std::string Schedule(int64_t now_s);

  core::Diagnostics diags;  // before the scheduler, which keeps a reference
  AdmissionScheduler scheduler;
};

// Changes as "+3 -1": admitted (+) or preempted (-) workload indices, in order.
std::string Seq(const std::vector<Change>& changes) {
  std::string out;
  for (const Change& c : changes) {
    if (!out.empty()) out += ' ';
    out += c.admitted ? '+' : '-';
    out += std::to_string(c.workload);
  }
  return out;
}
std::string Seq(std::initializer_list<std::pair<int32_t, bool>> changes) {
  std::vector<Change> v;
  for (const auto& [w, admitted] : changes) v.push_back({w, admitted});
  return Seq(v);
}

std::string Incremental::Schedule(int64_t now_s) {
  return Seq(scheduler.Schedule(At(now_s)).changes);
}

// The admission as text, for comparisons.
std::string AdmissionText(const std::optional<model::Admission>& a) {
  if (!a) return "none";
  std::string out = a->cluster_queue;
  for (const model::PodSetAssignment& psa : a->pod_set_assignments) {
    out += " " + psa.name + "x" + std::to_string(psa.count);
    for (const auto& [r, f] : psa.flavors) out += " " + r + "=" + f;
    for (const auto& [r, v] : psa.resource_usage) out += " " + r + ":" + std::to_string(v);
  }
  return out;
}

KueueSnapshot OneQueue(int64_t cpu_milli, PreemptionPolicy within = PreemptionPolicy::kNever) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", cpu_milli).WithinClusterQueue(within));
  k.LocalQueue("lq", "cq");
  return k;
}

// Two ClusterQueues of cohort "all": "a" owns `a_cpu`, "b" owns nothing and borrows.
KueueSnapshot Cohort(int64_t a_cpu, PreemptionPolicy reclaim = PreemptionPolicy::kNever) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("a").Cohort("all").Quota("default", "cpu", a_cpu).ReclaimWithinCohort(reclaim));
  k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 0));
  k.LocalQueue("la", "a");
  k.LocalQueue("lb", "b");
  return k;
}

TEST(IncrementalAdmissionTest, NothingIsConsideredUntilSubmitted) {
  KueueSnapshot k = OneQueue(4000);
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 1000}}).Created(1));
  Incremental s(k);
  EXPECT_EQ(s.Schedule(1000), "");
  EXPECT_FALSE(s.scheduler.holds_quota(a));
  s.scheduler.Submit(a);
  EXPECT_EQ(s.scheduler.pending_in(0), 1u);
  EXPECT_EQ(s.Schedule(1001), Seq({{a, true}}));
  EXPECT_TRUE(s.scheduler.holds_quota(a));
  EXPECT_EQ(s.scheduler.pending_in(0), 0u);
  const WorkloadDecision& d = s.scheduler.decision(a);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kAdmitted);
  ASSERT_TRUE(d.admission.has_value());
  EXPECT_EQ(d.admission->cluster_queue, "cq");
  EXPECT_EQ(d.admission->pod_set_assignments.at(0).resource_usage.at("cpu"), 1000);
  // Nothing changed since: the next call does nothing.
  EXPECT_EQ(s.Schedule(1002), "");
}

TEST(IncrementalAdmissionTest, HoldersInTheInputKeepTheirQuotaAfterStart) {
  KueueSnapshot k = OneQueue(4000);
  const int32_t holder = k.Add(
      WlBuilder("holder").Requests({{"cpu", 3000}}).Admitted("cq", {{"cpu", "default", 3000}}));
  const int32_t pending = k.Add(WlBuilder("pending").Requests({{"cpu", 2000}}).Priority(9));
  Incremental s(k);
  EXPECT_TRUE(s.scheduler.holds_quota(holder));
  // A pending workload of the input takes part only once submitted, and finds 1000 free.
  EXPECT_EQ(s.Schedule(1000), "");
  s.scheduler.Submit(pending);
  EXPECT_EQ(s.Schedule(1001), "");
  EXPECT_FALSE(s.scheduler.holds_quota(pending));
  EXPECT_EQ(s.scheduler.decision(pending).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(s.scheduler.decision(pending).reason, "WaitingForQuota");
  s.scheduler.Finish(holder);
  EXPECT_FALSE(s.scheduler.holds_quota(holder));
  EXPECT_EQ(s.Schedule(1002), Seq({{pending, true}}));
}

TEST(IncrementalAdmissionTest, AdmitsByQuotaInKueueOrder) {
  // 4000 of quota, three workloads of 2000 each: priority first, then the older one.
  KueueSnapshot k = OneQueue(4000);
  const int32_t young = k.Add(WlBuilder("young").Requests({{"cpu", 2000}}).Created(30));
  const int32_t old = k.Add(WlBuilder("old").Requests({{"cpu", 2000}}).Created(10));
  const int32_t vip = k.Add(WlBuilder("vip").Requests({{"cpu", 2000}}).Priority(5).Created(50));
  const int32_t middle = k.Add(WlBuilder("middle").Requests({{"cpu", 2000}}).Created(20));
  Incremental s(k);
  for (int32_t w : {young, old, vip, middle}) s.scheduler.Submit(w);
  const AdmissionScheduler::Changes changes = s.scheduler.Schedule(At(100));
  EXPECT_EQ(Seq(changes.changes), Seq({{vip, true}, {old, true}}));
  EXPECT_GE(changes.cycles, 2);
  for (int32_t w : {young, middle}) {
    EXPECT_FALSE(s.scheduler.holds_quota(w));
    EXPECT_EQ(s.scheduler.decision(w).outcome, WorkloadOutcome::kPending);
  }
  // Quota freed: the next in order (middle, older than young) gets it.
  s.scheduler.Finish(vip);
  EXPECT_EQ(s.Schedule(200), Seq({{middle, true}}));
  s.scheduler.Finish(old);
  EXPECT_EQ(s.Schedule(300), Seq({{young, true}}));
}

TEST(IncrementalAdmissionTest, SubmitReplacesTheQueueOrderTimestamp) {
  // Kueue's requeue after an eviction: the returning workload queues at its eviction time,
  // behind one created earlier.
  KueueSnapshot k = OneQueue(2000);
  const int32_t first = k.Add(WlBuilder("first").Requests({{"cpu", 2000}}).Created(10));
  const int32_t second = k.Add(WlBuilder("second").Requests({{"cpu", 2000}}).Created(20));
  const int32_t blocker = k.Add(WlBuilder("blocker").Requests({{"cpu", 2000}}).Created(1));
  Incremental s(k);
  s.scheduler.Submit(blocker);
  EXPECT_EQ(s.Schedule(100), Seq({{blocker, true}}));
  s.scheduler.Submit(first, At(500));  // requeued: ordered as of t=500
  s.scheduler.Submit(second);          // ordered as of its creation (t=20)
  EXPECT_EQ(s.Schedule(600), "");
  s.scheduler.Finish(blocker);
  EXPECT_EQ(s.Schedule(700), Seq({{second, true}}));
}

TEST(IncrementalAdmissionTest, FinishFreesQuotaForAParkedWorkloadOfTheCohort) {
  KueueSnapshot k = Cohort(4000);
  const int32_t owner = k.Add(WlBuilder("owner").Queue("la").Requests({{"cpu", 4000}}));
  const int32_t borrower = k.Add(WlBuilder("borrower").Queue("lb").Requests({{"cpu", 2000}}));
  Incremental s(k);
  s.scheduler.Submit(owner);
  EXPECT_EQ(s.Schedule(100), Seq({{owner, true}}));
  s.scheduler.Submit(borrower);
  EXPECT_EQ(s.Schedule(200), "");
  EXPECT_EQ(s.scheduler.decision(borrower).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(s.scheduler.cluster_queue_of(borrower), 1);
  // Parked: calling again without a change does not retry it.
  EXPECT_EQ(s.Schedule(300), "");
  // The owner in the other ClusterQueue ends: b may borrow its quota now.
  s.scheduler.Finish(owner);
  EXPECT_EQ(s.Schedule(400), Seq({{borrower, true}}));
  EXPECT_TRUE(s.scheduler.holds_quota(borrower));
  // Finishing a workload that holds nothing is a no-op.
  s.scheduler.Finish(owner);
  EXPECT_TRUE(s.scheduler.holds_quota(borrower));
  EXPECT_EQ(s.Schedule(500), "");
}

TEST(IncrementalAdmissionTest, HigherPriorityArrivalPreemptsWithinClusterQueue) {
  KueueSnapshot k = OneQueue(4000, PreemptionPolicy::kLowerPriority);
  const int32_t low = k.Add(WlBuilder("low").Priority(1).Requests({{"cpu", 4000}}).Created(1));
  const int32_t high = k.Add(WlBuilder("high").Priority(5).Requests({{"cpu", 4000}}).Created(2));
  Incremental s(k);
  s.scheduler.Submit(low);
  EXPECT_EQ(s.Schedule(100), Seq({{low, true}}));
  s.scheduler.Submit(high);
  // The victim is evicted at the end of the cycle that chose it; the preemptor is admitted
  // in a later cycle of the same call.
  EXPECT_EQ(s.Schedule(200), Seq({{low, false}, {high, true}}));
  EXPECT_TRUE(s.scheduler.holds_quota(high));
  EXPECT_FALSE(s.scheduler.holds_quota(low));
  EXPECT_EQ(s.scheduler.decision(low).outcome, WorkloadOutcome::kPreempted);
  EXPECT_EQ(s.scheduler.decision(low).preempted_by, high);
  EXPECT_EQ(s.scheduler.decision(high).victims, std::vector<int32_t>{low});
  // The victim was requeued: it comes back when the preemptor ends.
  EXPECT_EQ(s.scheduler.pending_in(0), 1u);
  s.scheduler.Finish(high);
  EXPECT_EQ(s.Schedule(300), Seq({{low, true}}));
}

TEST(IncrementalAdmissionTest, EqualPriorityIsNeverPreemptedUnderLowerPriority) {
  KueueSnapshot k = OneQueue(4000, PreemptionPolicy::kLowerPriority);
  const int32_t holder =
      k.Add(WlBuilder("holder").Priority(5).Requests({{"cpu", 4000}}).Created(9));
  // Older than the holder: LowerOrNewerEqualPriority would preempt, LowerPriority must not.
  const int32_t peer = k.Add(WlBuilder("peer").Priority(5).Requests({{"cpu", 4000}}).Created(1));
  Incremental s(k);
  s.scheduler.Submit(holder);
  EXPECT_EQ(s.Schedule(100), Seq({{holder, true}}));
  s.scheduler.Submit(peer);
  EXPECT_EQ(s.Schedule(200), "");
  EXPECT_TRUE(s.scheduler.holds_quota(holder));
  EXPECT_FALSE(s.scheduler.holds_quota(peer));
  EXPECT_EQ(s.scheduler.decision(peer).outcome, WorkloadOutcome::kPending);
}

TEST(IncrementalAdmissionTest, OnlyTheLowerPriorityPartOfTheQueueCanBeFreed) {
  // 2000 held at priority 3 and 2000 at priority 5. A priority-5 preemptor needing all 4000
  // would have to evict its equal: it evicts nothing. One needing 2000 evicts the lower one.
  auto build = [](int64_t request, int32_t* low, int32_t* equal, int32_t* pre) {
    KueueSnapshot k = OneQueue(4000, PreemptionPolicy::kLowerPriority);
    *low = k.Add(WlBuilder("low").Priority(3).Requests({{"cpu", 2000}}).Created(1));
    *equal = k.Add(WlBuilder("equal").Priority(5).Requests({{"cpu", 2000}}).Created(2));
    *pre = k.Add(WlBuilder("pre").Priority(5).Requests({{"cpu", request}}).Created(3));
    return k;
  };
  int32_t low = 0, equal = 0, pre = 0;
  {
    KueueSnapshot k = build(4000, &low, &equal, &pre);
    Incremental s(k);
    s.scheduler.Submit(low);
    s.scheduler.Submit(equal);
    EXPECT_EQ(s.Schedule(100), Seq({{equal, true}, {low, true}}));
    s.scheduler.Submit(pre);
    EXPECT_EQ(s.Schedule(200), "");
    EXPECT_TRUE(s.scheduler.holds_quota(low));
    EXPECT_TRUE(s.scheduler.holds_quota(equal));
  }
  {
    KueueSnapshot k = build(2000, &low, &equal, &pre);
    Incremental s(k);
    s.scheduler.Submit(low);
    s.scheduler.Submit(equal);
    EXPECT_EQ(s.Schedule(100), Seq({{equal, true}, {low, true}}));
    s.scheduler.Submit(pre);
    EXPECT_EQ(s.Schedule(200), Seq({{low, false}, {pre, true}}));
    EXPECT_TRUE(s.scheduler.holds_quota(equal));
  }
}

TEST(IncrementalAdmissionTest, LowerOrNewerEqualPriorityStillPreemptsANewerPeer) {
  KueueSnapshot k = OneQueue(4000, PreemptionPolicy::kLowerOrNewerEqualPriority);
  const int32_t newer = k.Add(WlBuilder("newer").Priority(5).Requests({{"cpu", 4000}}).Created(50));
  const int32_t older = k.Add(WlBuilder("older").Priority(5).Requests({{"cpu", 4000}}).Created(10));
  Incremental s(k);
  s.scheduler.Submit(newer);
  EXPECT_EQ(s.Schedule(100), Seq({{newer, true}}));
  s.scheduler.Submit(older);
  EXPECT_EQ(s.Schedule(200), Seq({{newer, false}, {older, true}}));
}

TEST(IncrementalAdmissionTest, ReclaimAnyTakesQuotaBackFromABorrower) {
  KueueSnapshot k = Cohort(4000, PreemptionPolicy::kAny);
  const int32_t borrower =
      k.Add(WlBuilder("borrower").Queue("lb").Priority(100).Requests({{"cpu", 4000}}).Created(1));
  const int32_t owner = k.Add(WlBuilder("owner").Queue("la").Requests({{"cpu", 2000}}).Created(2));
  Incremental s(k);
  s.scheduler.Submit(borrower);
  EXPECT_EQ(s.Schedule(100), Seq({{borrower, true}}));
  s.scheduler.Submit(owner);
  EXPECT_EQ(s.Schedule(200), Seq({{borrower, false}, {owner, true}}));
  EXPECT_EQ(s.scheduler.decision(borrower).eviction.ValueOrEmpty().preemption_reason, "InCohortReclamation");
  // 2000 is left in the cohort; the borrower needs 4000 and waits.
  EXPECT_FALSE(s.scheduler.holds_quota(borrower));
  s.scheduler.Finish(owner);
  EXPECT_EQ(s.Schedule(300), Seq({{borrower, true}}));
}

TEST(IncrementalAdmissionTest, ReclaimLowerPrioritySparesAnEqualPriorityBorrower) {
  auto run = [](int32_t borrower_priority) {
    KueueSnapshot k = Cohort(4000, PreemptionPolicy::kLowerPriority);
    const int32_t borrower = k.Add(WlBuilder("borrower")
                                       .Queue("lb")
                                       .Priority(borrower_priority)
                                       .Requests({{"cpu", 4000}})
                                       .Created(1));
    const int32_t owner =
        k.Add(WlBuilder("owner").Queue("la").Priority(5).Requests({{"cpu", 2000}}).Created(2));
    Incremental s(k);
    s.scheduler.Submit(borrower);
    EXPECT_EQ(s.Schedule(100), Seq({{borrower, true}}));
    s.scheduler.Submit(owner);
    return s.Schedule(200);
  };
  EXPECT_EQ(run(5), "");
  EXPECT_EQ(run(4), Seq({{0, false}, {1, true}}));
}

TEST(IncrementalAdmissionTest, WorkloadFinishedWhilePendingIsNeverAdmitted) {
  KueueSnapshot k = OneQueue(2000);
  const int32_t holder = k.Add(WlBuilder("holder").Requests({{"cpu", 2000}}).Created(1));
  // `cancelled` is older than `waiting`, so it is the head when quota frees.
  const int32_t cancelled = k.Add(WlBuilder("cancelled").Requests({{"cpu", 2000}}).Created(2));
  const int32_t waiting = k.Add(WlBuilder("waiting").Requests({{"cpu", 2000}}).Created(3));
  Incremental s(k);
  s.scheduler.Submit(holder);
  EXPECT_EQ(s.Schedule(100), Seq({{holder, true}}));
  s.scheduler.Submit(cancelled);
  s.scheduler.Submit(waiting);
  EXPECT_EQ(s.Schedule(200), "");
  s.scheduler.Finish(cancelled);
  s.scheduler.Finish(holder);
  EXPECT_EQ(s.Schedule(300), Seq({{waiting, true}}));
  s.scheduler.Finish(waiting);
  EXPECT_EQ(s.Schedule(400), "");
  EXPECT_FALSE(s.scheduler.holds_quota(cancelled));
}

// Regression (found by this test, fixed): a workload Finished while still queued and Submitted again
// before its stale queue entry surfaced is in its queue twice; after the first copy is
// admitted, the second is nominated too and AdmissionState::Hold aborts ("workload already
// holds quota"). Expected: admitted once, the stale entry dropped. Run in a child process so
// the abort fails this test only.
TEST(IncrementalAdmissionTest, ResubmitAfterFinishWhileQueuedAdmitsOnce) {
  EXPECT_EXIT(
      {
        KueueSnapshot k = OneQueue(8000);
        const int32_t holder = k.Add(WlBuilder("holder").Requests({{"cpu", 8000}}).Created(1));
        const int32_t w = k.Add(WlBuilder("w").Requests({{"cpu", 1000}}).Created(2));
        Incremental s(k);
        s.scheduler.Submit(holder);
        s.Schedule(100);
        s.scheduler.Submit(w);
        s.Schedule(200);        // w waits (parked)
        s.scheduler.Finish(w);  // cancelled while queued
        s.scheduler.Submit(w);  // and submitted again
        s.scheduler.Finish(holder);
        const bool once = s.Schedule(300) == Seq({{w, true}});
        std::exit(once && s.scheduler.holds_quota(w) ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// A placement oracle that refuses until told otherwise and records releases.
class GateOracle : public PlacementOracle {
 public:
  bool TryPlace(int32_t workload, const model::Admission&, std::string* why) override {
    if (!open) {
      if (why != nullptr) *why = "closed";
      return false;
    }
    placed.insert(workload);
    return true;
  }
  void Release(int32_t workload) override {
    placed.erase(workload);
    released.push_back(workload);
  }
  bool open = false;
  std::set<int32_t> placed;
  std::vector<int32_t> released;
};

TEST(IncrementalAdmissionTest, ReactivateAllRetriesWorkloadsParkedByPlacement) {
  KueueSnapshot k = OneQueue(4000);
  const int32_t w = k.Add(WlBuilder("w").Requests({{"cpu", 1000}}));
  GateOracle oracle;
  Incremental s(k, true, &oracle);
  s.scheduler.Submit(w);
  EXPECT_EQ(s.Schedule(100), "");
  EXPECT_EQ(s.scheduler.decision(w).reason, "TopologyPlacementFailed");
  // Capacity outside Kueue came back, but the parked workload waits for ReactivateAll.
  oracle.open = true;
  EXPECT_EQ(s.Schedule(200), "");
  s.scheduler.ReactivateAll();
  EXPECT_EQ(s.Schedule(300), Seq({{w, true}}));
  EXPECT_EQ(oracle.placed, (std::set<int32_t>{w}));
  // Finish releases the placement through the oracle.
  s.scheduler.Finish(w);
  EXPECT_EQ(oracle.released, std::vector<int32_t>{w});
  EXPECT_TRUE(oracle.placed.empty());
}

TEST(IncrementalAdmissionTest, PreemptionReleasesTheVictimsPlacement) {
  KueueSnapshot k = OneQueue(4000, PreemptionPolicy::kLowerPriority);
  const int32_t low = k.Add(WlBuilder("low").Priority(1).Requests({{"cpu", 4000}}));
  const int32_t high = k.Add(WlBuilder("high").Priority(9).Requests({{"cpu", 4000}}));
  GateOracle oracle;
  oracle.open = true;
  Incremental s(k, true, &oracle);
  s.scheduler.Submit(low);
  s.Schedule(100);
  s.scheduler.Submit(high);
  EXPECT_EQ(s.Schedule(200), Seq({{low, false}, {high, true}}));
  EXPECT_EQ(oracle.released, std::vector<int32_t>{low});
  EXPECT_EQ(oracle.placed, (std::set<int32_t>{high}));
}

// Regression (found by this test, fixed): preemptions that undo each other make one Schedule call run to
// its bound of 4 x ClusterQueues + 4,000,000 cycles (about 18 s here, and millions of
// Changes for the caller), where RunAdmission stops after 4 x (workloads + ClusterQueues) +
// 64. Kueue-faithful steps, repeated forever: "late" (a, priority 2) preempts "low0" and
// "low1" of its own queue; the older "borrower" of c takes the freed quota first (both
// borrow, it is older); "late" no longer fits and parks; "low1" and then "low0" come back,
// "low0" reclaiming from the borrower (reclaimWithinCohort Any); that reactivates "late".
// Expected: the call returns after a bounded number of cycles. Run in a child process with
// an alarm so that the hang fails this test only, in 5 s.
TEST(IncrementalAdmissionTest, PreemptionCycleDoesNotRunMillionsOfCycles) {
  EXPECT_EXIT(
      {
        alarm(5);
        KueueSnapshot k;
        k.Flavor("default");
        k.Add(CqBuilder("a")
                  .Cohort("all")
                  .Quota("default", "cpu", 6000)
                  .WithinClusterQueue(PreemptionPolicy::kLowerPriority)
                  .ReclaimWithinCohort(PreemptionPolicy::kAny));
        k.Add(CqBuilder("b").Cohort("all").Quota("default", "cpu", 4000));
        k.Add(CqBuilder("c").Cohort("all").Quota("default", "cpu", 2000, 2000));
        k.LocalQueue("la", "a");
        k.LocalQueue("lb", "b");
        k.LocalQueue("lc", "c");
        auto held = [&](const char* name, const char* cq, int32_t prio, int64_t cpu, int64_t at) {
          return k.Add(WlBuilder(name)
                           .Queue(std::string("l") + cq)
                           .Priority(prio)
                           .Requests({{"cpu", cpu}})
                           .Created(at)
                           .Admitted(cq, {{"cpu", "default", cpu}}, at));
        };
        held("a2", "a", 2, 2000, 100);
        held("a2b", "a", 2, 1000, 101);
        held("a3", "a", 3, 1000, 102);
        held("low1", "a", 1, 1000, 103);
        held("b1", "b", 1, 3000, 104);
        held("c3", "c", 3, 2000, 105);
        const int32_t low0 =
            k.Add(WlBuilder("low0").Queue("la").Priority(0).Requests({{"cpu", 1000}}).Created(872));
        const int32_t borrower = k.Add(
            WlBuilder("borrower").Queue("lc").Priority(2).Requests({{"cpu", 2000}}).Created(0));
        const int32_t late =
            k.Add(WlBuilder("late").Queue("la").Priority(2).Requests({{"cpu", 3000}}).Created(738));
        Incremental s(k);
        for (int32_t w : {low0, borrower, late}) s.scheduler.Submit(w);
        const AdmissionScheduler::Changes changes = s.scheduler.Schedule(At(1260));
        std::exit(changes.cycles < 10'000 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// A small deterministic generator (the test must not depend on the standard library's
// distributions).
class Lcg {
 public:
  explicit Lcg(uint64_t seed) : s_(seed) {}
  uint32_t Next(uint32_t n) {
    s_ = s_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>((s_ >> 33) % n);
  }

 private:
  uint64_t s_;
};

// Three ClusterQueues of one cohort with different preemption policies, and `n` workloads
// of random queue, priority, size and creation time.
KueueSnapshot RandomCohort(uint64_t seed, int n) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("a")
            .Cohort("all")
            .Quota("default", "cpu", 6000)
            .WithinClusterQueue(PreemptionPolicy::kLowerPriority)
            .ReclaimWithinCohort(PreemptionPolicy::kAny));
  k.Add(CqBuilder("b")
            .Cohort("all")
            .Quota("default", "cpu", 4000)
            .WithinClusterQueue(PreemptionPolicy::kLowerOrNewerEqualPriority)
            .ReclaimWithinCohort(PreemptionPolicy::kLowerPriority)
            .BorrowWithinCohort(PreemptionPolicy::kLowerPriority));
  k.Add(CqBuilder("c").Cohort("all").Quota("default", "cpu", 2000, 2000));
  k.LocalQueue("la", "a");
  k.LocalQueue("lb", "b");
  k.LocalQueue("lc", "c");
  Lcg rng(seed);
  const char* queues[] = {"la", "lb", "lc"};
  for (int i = 0; i < n; ++i) {
    k.Add(WlBuilder("w" + std::to_string(i))
              .Queue(queues[rng.Next(3)])
              .Priority(static_cast<int32_t>(rng.Next(4)))
              .Requests({{"cpu", 1000 * static_cast<int64_t>(1 + rng.Next(3))}})
              .Created(static_cast<int64_t>(rng.Next(1000))));
  }
  return k;
}

TEST(IncrementalAdmissionTest, ExplainOffGivesTheSameDecisions) {
  for (uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const int n = 40;
    KueueSnapshot k = RandomCohort(seed, n);
    // Bounded cycles: these policies can make preemptions cycle (see
    // PreemptionCycleDoesNotRunMillionsOfCycles); both runs stop at the same bound.
    Incremental on(k, true, nullptr, 1000);
    Incremental off(k, false, nullptr, 1000);
    Lcg rng(seed * 7919);
    int next = 0;
    int64_t now = 1000;
    int64_t total_changes = 0;
    bool any_preemption = false;
    while (next < n || now < 1000 + 40 * 10) {
      now += 10;
      // A few arrivals, then one of the holders ends.
      for (uint32_t a = rng.Next(4); a > 0 && next < n; --a, ++next) {
        on.scheduler.Submit(next);
        off.scheduler.Submit(next);
      }
      std::vector<int32_t> holders;
      for (int32_t w = 0; w < next; ++w) {
        if (on.scheduler.holds_quota(w)) holders.push_back(w);
      }
      if (!holders.empty() && rng.Next(2) == 0) {
        const int32_t done = holders[rng.Next(static_cast<uint32_t>(holders.size()))];
        on.scheduler.Finish(done);
        off.scheduler.Finish(done);
      }
      const std::vector<Change> a = on.scheduler.Schedule(At(now)).changes;
      const std::vector<Change> b = off.scheduler.Schedule(At(now)).changes;
      ASSERT_EQ(Seq(a), Seq(b)) << "at " << now;
      total_changes += static_cast<int64_t>(a.size());
      for (const Change& c : a) any_preemption = any_preemption || !c.admitted;
      for (int32_t w = 0; w < n; ++w) {
        const WorkloadDecision& x = on.scheduler.decision(w);
        const WorkloadDecision& y = off.scheduler.decision(w);
        ASSERT_EQ(on.scheduler.holds_quota(w), off.scheduler.holds_quota(w)) << "workload " << w;
        EXPECT_EQ(x.outcome, y.outcome) << "workload " << w;
        EXPECT_EQ(AdmissionText(x.admission), AdmissionText(y.admission)) << "workload " << w;
        EXPECT_EQ(x.reason, y.reason) << "workload " << w;
        EXPECT_EQ(x.message, y.message) << "workload " << w;
        EXPECT_EQ(x.victims, y.victims) << "workload " << w;
        EXPECT_EQ(x.preempted_by, y.preempted_by) << "workload " << w;
        EXPECT_TRUE(y.attempts.empty()) << "workload " << w;
        EXPECT_TRUE(y.candidates.empty()) << "workload " << w;
      }
    }
    // The scenario is worth comparing: it admitted and preempted.
    EXPECT_GT(total_changes, n / 2);
    EXPECT_TRUE(any_preemption);
  }
}

TEST(IncrementalAdmissionTest, AllSubmittedAtOnceAdmitsWhatRunAdmits) {
  for (uint64_t seed : {11u, 12u, 13u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const int n = 30;
    KueueSnapshot k = RandomCohort(seed, n);
    Incremental s(k);
    for (int32_t w = 0; w < n; ++w) s.scheduler.Submit(w);
    s.Schedule(1000);
    core::Diagnostics diags;
    AdmissionOptions options;
    options.now = At(1000);
    const AdmissionResult run = RunAdmission(k.snapshot, options, nullptr, diags);
    ASSERT_EQ(run.decisions.size(), static_cast<size_t>(n));
    for (const WorkloadDecision& d : run.decisions) {
      const bool admitted = d.outcome == WorkloadOutcome::kAdmitted;
      EXPECT_EQ(s.scheduler.holds_quota(d.workload), admitted) << "workload " << d.workload;
      EXPECT_EQ(AdmissionText(s.scheduler.decision(d.workload).admission),
                AdmissionText(d.admission))
          << "workload " << d.workload;
    }
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
