// DefaultPreemption: upstream's tables (pkg/scheduler/framework/plugins/defaultpreemption
// default_preemption_test.go, each case named after its upstream test and case) run on
// Scheduler::Preempt and the pure rules of framework/preemption.h, plus the PostFilter's
// messages for the cases where preemption cannot help.
#include "binding/framework/preemption.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "binding/scheduler.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;

// upstream's priorities and requests (cpu milli, memory bytes).
constexpr int32_t kNeg = -100;
constexpr int32_t kLow = 0;
constexpr int32_t kMid = 100;
constexpr int32_t kHigh = 1000;
constexpr int32_t kVeryHigh = 10000;
constexpr int64_t kSmall = 100;
constexpr int64_t kMedium = 200;
constexpr int64_t kLarge = 300;
constexpr int64_t kVeryLarge = 500;

struct Running {
  // A constructor, not an aggregate: cases leave the start time and label out.
  Running(std::string name_value, std::string node_value, int32_t priority_value,
          int64_t size_value, int64_t start_value = 0, std::string app_value = "")
      : name(std::move(name_value)),
        node(std::move(node_value)),
        priority(priority_value),
        size(size_value),
        start_s(start_value),
        app(std::move(app_value)) {}

  std::string name;
  std::string node;
  int32_t priority;
  int64_t size;         // cpu milli and memory bytes alike, as upstream's *Res maps
  int64_t start_s = 0;  // status.startTime (upstream's epochTime<N> are nanoseconds apart)
  std::string app;      // label app=<app> when set
};

// Nodes of veryLargeRes (500m cpu, 500 bytes) named `nodes`, the running pods, and the
// preemptor "p" (pending) last.
model::Snapshot Cluster(const std::vector<std::string>& nodes, const std::vector<Running>& pods,
                        int32_t preemptor_priority, int64_t preemptor_size) {
  SnapshotBuilder s;
  for (const std::string& n : nodes) s.Add(NodeBuilder(n).Cpu(kVeryLarge).Memory(kVeryLarge));
  for (const Running& r : pods) {
    PodBuilder b(r.name);
    b.NodeName(r.node).Priority(r.priority).Container({{"cpu", r.size}, {"memory", r.size}});
    if (!r.app.empty()) b.Label("app", r.app);
    s.Add(b);
  }
  s.Add(PodBuilder("p")
            .Priority(preemptor_priority)
            .Created(1)
            .Container({{"cpu", preemptor_size}, {"memory", preemptor_size}}));
  model::Snapshot snap = s.Build();
  for (size_t i = 0; i < pods.size(); ++i) {
    snap.pods[i].start_time = core::Timestamp{pods[i].start_s};
    snap.pods[i].phase = model::PodPhase::kRunning;
  }
  return snap;
}

model::PodIndex Last(const model::Snapshot& s) {
  return model::PodIndex{static_cast<int32_t>(s.pods.size()) - 1};
}

std::string NodeOf(const model::Snapshot& s, const PreemptionOutcome& o) {
  return o.node ? s.node(*o.node).meta.name : "";
}

std::vector<std::string> VictimNames(const model::Snapshot& s, const PreemptionOutcome& o) {
  std::vector<std::string> out;
  for (model::PodIndex v : o.victims) out.push_back(s.pod(v).meta.name);
  return out;
}

PreemptionOutcome RunPreempt(const model::Snapshot& snap) {
  Scheduler scheduler(snap, model::SchedulerConfig{});
  const model::PodDecision d = scheduler.ScheduleOne(Last(snap));
  EXPECT_FALSE(d.node.has_value());
  return scheduler.Preempt(Last(snap));
}

// TestSelectBestCandidate "a pod that fits on both nodes when lower priority pods are
// preempted": upstream accepts either node; berth's first candidate is node1.
TEST(PreemptionTest, SelectBestCandidateFitsOnBothNodes) {
  model::Snapshot snap =
      Cluster({"node1", "node2"}, {{"p1", "node1", kMid, kLarge}, {"p2", "node2", kMid, kLarge}},
              kHigh, kLarge);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_EQ(NodeOf(snap, o), "node1");
  EXPECT_EQ(VictimNames(snap, o), std::vector<std::string>{"p1"});
  EXPECT_EQ(o.candidates, 2);
  EXPECT_EQ(o.criterion, "first candidate");
  EXPECT_EQ(o.message, "");
}

// TestSelectBestCandidate "node with min highest priority pod is picked".
TEST(PreemptionTest, SelectBestCandidateMinHighestPriority) {
  model::Snapshot snap = Cluster({"node1", "node2", "node3"},
                                 {{"p1.1", "node1", kMid, kMedium},
                                  {"p1.2", "node1", kMid, kLarge},
                                  {"p2.1", "node2", kMid, kMedium},
                                  {"p2.2", "node2", kLow, kMedium},
                                  {"p3.1", "node3", kLow, kMedium},
                                  {"p3.2", "node3", kLow, kMedium}},
                                 kHigh, kVeryLarge);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_EQ(NodeOf(snap, o), "node3");
  EXPECT_EQ(VictimNames(snap, o), (std::vector<std::string>{"p3.1", "p3.2"}));
  EXPECT_EQ(o.criterion, "lowest highest-victim priority");
}

// TestSelectBestCandidate "when highest priorities are the same, minimum sum of priorities is
// picked".
TEST(PreemptionTest, SelectBestCandidateMinSumOfPriorities) {
  model::Snapshot snap = Cluster({"node1", "node2", "node3"},
                                 {{"p1.1", "node1", kMid, kMedium},
                                  {"p1.2", "node1", kMid, kLarge},
                                  {"p2.1", "node2", kMid, kLarge},
                                  {"p2.2", "node2", kLow, kMedium},
                                  {"p3.1", "node3", kMid, kMedium},
                                  {"p3.2", "node3", kMid, kMedium}},
                                 kHigh, kVeryLarge);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_EQ(NodeOf(snap, o), "node2");
  EXPECT_EQ(o.criterion, "smallest sum of victim priorities");
}

// TestSelectBestCandidate "sum of adjusted priorities is considered".
TEST(PreemptionTest, SelectBestCandidateAdjustedPrioritySum) {
  model::Snapshot snap = Cluster({"node1", "node2", "node3"},
                                 {{"p1.1", "node1", kMid, kSmall},
                                  {"p1.2", "node1", kNeg, kSmall},
                                  {"p1.3", "node1", kNeg, kSmall},
                                  {"p2.1", "node2", kMid, kLarge},
                                  {"p2.2", "node2", kNeg, kMedium},
                                  {"p3.1", "node3", kMid, kMedium},
                                  {"p3.2", "node3", kNeg, kSmall},
                                  {"p3.3", "node3", kLow, kSmall}},
                                 kHigh, kVeryLarge);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_EQ(NodeOf(snap, o), "node2");
}

// TestSelectBestCandidate "non-overlapping lowest high priority, sum priorities, and number of
// pods".
TEST(PreemptionTest, SelectBestCandidateNonOverlapping) {
  model::Snapshot snap = Cluster({"node1", "node2", "node3", "node4"},
                                 {{"p1.1", "node1", kMid, kSmall},
                                  {"p1.2", "node1", kLow, kSmall},
                                  {"p1.3", "node1", kLow, kSmall},
                                  {"p2.1", "node2", kHigh, kLarge},
                                  {"p3.1", "node3", kMid, kMedium},
                                  {"p3.2", "node3", kLow, kSmall},
                                  {"p3.3", "node3", kLow, kSmall},
                                  {"p3.4", "node3", kLow, kMedium},
                                  {"p4.1", "node4", kMid, kMedium},
                                  {"p4.2", "node4", kMid, kSmall},
                                  {"p4.3", "node4", kMid, kSmall},
                                  {"p4.4", "node4", kNeg, kSmall}},
                                 kVeryHigh, kVeryLarge);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_EQ(NodeOf(snap, o), "node1");
}

// TestSelectBestCandidate "same priority, same number of victims, different start time for
// each node's pod".
TEST(PreemptionTest, SelectBestCandidateLatestStartPerNode) {
  model::Snapshot snap = Cluster({"node1", "node2", "node3"},
                                 {{"p1.1", "node1", kMid, kMedium, 2},
                                  {"p1.2", "node1", kMid, kMedium, 2},
                                  {"p2.1", "node2", kMid, kMedium, 3},
                                  {"p2.2", "node2", kMid, kMedium, 3},
                                  {"p3.1", "node3", kMid, kMedium, 1},
                                  {"p3.2", "node3", kMid, kMedium, 1}},
                                 kHigh, kVeryLarge);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_EQ(NodeOf(snap, o), "node2");
  EXPECT_EQ(o.criterion, "latest start of the highest-priority victims");
}

// TestSelectBestCandidate "same priority, same number of victims, different start time for
// all pods".
TEST(PreemptionTest, SelectBestCandidateLatestStartAllPods) {
  model::Snapshot snap = Cluster({"node1", "node2", "node3"},
                                 {{"p1.1", "node1", kMid, kMedium, 4},
                                  {"p1.2", "node1", kMid, kMedium, 2},
                                  {"p2.1", "node2", kMid, kMedium, 5},
                                  {"p2.2", "node2", kMid, kMedium, 1},
                                  {"p3.1", "node3", kMid, kMedium, 3},
                                  {"p3.2", "node3", kMid, kMedium, 6}},
                                 kHigh, kVeryLarge);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_EQ(NodeOf(snap, o), "node3");
}

// TestSelectBestCandidate "different priority, same number of victims, different start time
// for all pods".
TEST(PreemptionTest, SelectBestCandidateDifferentPriorityStart) {
  model::Snapshot snap = Cluster({"node1", "node2", "node3"},
                                 {{"p1.1", "node1", kLow, kMedium, 4},
                                  {"p1.2", "node1", kMid, kMedium, 2},
                                  {"p2.1", "node2", kMid, kMedium, 6},
                                  {"p2.2", "node2", kLow, kMedium, 1},
                                  {"p3.1", "node3", kLow, kMedium, 3},
                                  {"p3.2", "node3", kMid, kMedium, 5}},
                                 kHigh, kVeryLarge);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_EQ(NodeOf(snap, o), "node2");
}

// TestDryRunPreemption "preemption looks past numCandidates until a non-PDB violating node is
// found" (every node is tried here: upstream's default candidate count exceeds 5 nodes):
// node3 and node4 violate no budget; node3 comes first.
TEST(PreemptionTest, DryRunPrefersNodesWithoutPdbViolations) {
  model::Snapshot snap = Cluster({"node1", "node2", "node3", "node4", "node5"},
                                 {{"p1", "node1", kMid, kLarge, 0, "foo"},
                                  {"p2", "node2", kVeryHigh, kLarge, 0, "foo"},
                                  {"p3", "node3", kMid, kLarge},
                                  {"p4", "node4", kMid, kLarge},
                                  {"p5", "node5", kMid, kLarge, 0, "foo"}},
                                 kHigh, kLarge);
  model::PodDisruptionBudget pdb;
  pdb.meta.name = "foo";
  pdb.meta.namespace_ = "default";
  pdb.selector = core::LabelSelector{};
  pdb.selector->match_labels["app"] = "foo";
  pdb.disruptions_allowed = 0;
  snap.pod_disruption_budgets.push_back(pdb);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_EQ(NodeOf(snap, o), "node3");
  EXPECT_EQ(o.candidates, 4);  // node2's pod has a higher priority than the preemptor
  EXPECT_EQ(o.pdb_violations, 0);
  EXPECT_EQ(o.criterion, "first candidate");  // node3 and node4 tie on every rule
}

// TestSelectNodesForPreemption "a pod that would fit on the machines, but other pods running
// are higher priority, no preemption would happen": every node says so in the tail.
TEST(PreemptionTest, NoLowerPriorityPodsNoVictims) {
  model::Snapshot snap =
      Cluster({"node1", "node2"}, {{"p1", "node1", kHigh, kLarge}, {"p2", "node2", kHigh, kLarge}},
              kMid, kLarge);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_FALSE(o.node.has_value());
  EXPECT_EQ(o.message,
            "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming "
            "pod.");
}

// TestSelectNodesForPreemption "pod with preemptionPolicy Never": not eligible.
TEST(PreemptionTest, PreemptionPolicyNeverIsNotEligible) {
  model::Snapshot snap = Cluster({"node1"}, {{"p1", "node1", kLow, kLarge}}, kHigh, kLarge);
  snap.pods.back().preemption_policy = "Never";
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_FALSE(o.node.has_value());
  EXPECT_EQ(o.message, "preemption: not eligible due to preemptionPolicy=Never.");
}

// TestPostFilter "preemption should respect absent NodeToStatusMap entry meaning
// UnschedulableAndUnresolvable": a tainted node is not a candidate, and removing every
// lower-priority pod on the other still leaves too little.
TEST(PreemptionTest, UnresolvableNodesAreNotHelpful) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("node1")
            .Cpu(kVeryLarge)
            .Memory(kVeryLarge)
            .Taint("dedicated", "x", core::TaintEffect::kNoSchedule));
  s.Add(NodeBuilder("node2").Cpu(kVeryLarge).Memory(kVeryLarge));
  s.Add(PodBuilder("big").NodeName("node2").Priority(kHigh).Container(
      {{"cpu", kLarge}, {"memory", kLarge}}));
  s.Add(PodBuilder("small").NodeName("node2").Priority(kLow).Container(
      {{"cpu", kSmall}, {"memory", kSmall}}));
  s.Add(PodBuilder("p").Priority(kMid).Container({{"cpu", kLarge}, {"memory", kLarge}}));
  model::Snapshot snap = s.Build();
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_FALSE(o.node.has_value());
  EXPECT_EQ(o.message,
            "preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 "
            "Preemption is not helpful for scheduling.");
}

// SelectVictimsOnNode's reprieve (TestSelectNodesForPreemption "mixed priority pods are
// preempted, pick later StartTime one when priorities are equal"): pods of equal or higher
// priority are never victims, and the reprieve puts back the most important first.
TEST(PreemptionTest, ReprieveKeepsTheMostImportantPods) {
  model::Snapshot snap = Cluster({"node1"},
                                 {{"a", "node1", kLow, kSmall, 2},
                                  {"b", "node1", kLow, kSmall, 1},
                                  {"c", "node1", kMid, kMedium, 3},
                                  {"d", "node1", kHigh, kSmall, 4}},
                                 kHigh, kMedium);
  PreemptionOutcome o = RunPreempt(snap);
  EXPECT_EQ(NodeOf(snap, o), "node1");
  // d (priority 1000, not lower) stays; c (mid) is put back first and fits; then b (the
  // earlier start) would leave 100 < 200 free, so b and a are the victims, b first.
  EXPECT_EQ(VictimNames(snap, o), (std::vector<std::string>{"b", "a"}));
}

// filterPodsWithPDBViolation (TestFilterPodsWithPDBViolation's idea): budgets are used in
// order; a pod named in disruptedPods uses none.
TEST(PreemptionTest, SplitByPdbViolationUsesBudgetsInOrder) {
  std::vector<model::Pod> pods(3);
  for (size_t i = 0; i < pods.size(); ++i) {
    pods[i].meta.name = "p" + std::to_string(i);
    pods[i].meta.namespace_ = "ns";
    pods[i].meta.labels["app"] = "x";
  }
  core::LabelSelector selector;
  selector.match_labels["app"] = "x";
  const std::vector<std::string> disrupted{"p1"};
  PdbBudget budget;
  budget.namespace_ = "ns";
  budget.selector = &selector;
  budget.allowed = 1;
  budget.disrupted_pods = &disrupted;
  const PdbSplit split = SplitByPdbViolation({&pods[0], &pods[1], &pods[2]}, {budget});
  EXPECT_EQ(split.violating, std::vector<size_t>{2});
  EXPECT_EQ(split.non_violating, (std::vector<size_t>{0, 1}));
}

// The disruption controller's arithmetic when status.disruptionsAllowed is absent.
TEST(PreemptionTest, ComputesDisruptionsAllowedFromSelectedPods) {
  std::vector<model::Pod> pods(4);
  for (size_t i = 0; i < pods.size(); ++i) {
    pods[i].meta.name = "p" + std::to_string(i);
    pods[i].meta.namespace_ = "ns";
    pods[i].meta.labels["app"] = "x";
    pods[i].node_name = i < 3 ? "n" : "";  // three healthy, one pending
  }
  model::PodDisruptionBudget pdb;
  pdb.meta.namespace_ = "ns";
  pdb.selector = core::LabelSelector{};
  pdb.selector->match_labels["app"] = "x";
  pdb.min_available = model::CountOrPercent{2, false};
  EXPECT_EQ(ComputeDisruptionsAllowed(pdb, pods), 1);
  pdb.min_available = model::CountOrPercent{50, true};  // ceil(50% of 4) = 2
  EXPECT_EQ(ComputeDisruptionsAllowed(pdb, pods), 1);
  pdb.min_available.reset();
  pdb.max_unavailable = model::CountOrPercent{1, false};  // desired 3 of 4
  EXPECT_EQ(ComputeDisruptionsAllowed(pdb, pods), 0);
}

// pickOneNodeForPreemption on hand-made candidates: PDB violations decide first.
TEST(PreemptionTest, PickOneNodeFewestPdbViolationsFirst) {
  model::Pod low;
  low.priority = kLow;
  model::Pod mid;
  mid.priority = kMid;
  std::vector<PreemptionCandidate> candidates(2);
  candidates[0].node_name = "a";
  candidates[0].victims = {&low};
  candidates[0].pdb_violations = 1;
  candidates[1].node_name = "b";
  candidates[1].victims = {&mid};
  std::string criterion;
  EXPECT_EQ(PickOneNodeForPreemption(candidates, &criterion), 1u);
  EXPECT_EQ(criterion, "fewest PDB violations");
}

TEST(PreemptionTest, NumCandidatesFollowsUpstreamDefaults) {
  EXPECT_EQ(NumPreemptionCandidates(5), 5);
  EXPECT_EQ(NumPreemptionCandidates(500), 100);
  EXPECT_EQ(NumPreemptionCandidates(10000), 1000);
}

// In a settled plan the engine unbinds the victims and binds the preemptor on the
// nominated node: ScheduleOnNominated takes it there.
TEST(PreemptionTest, UnbindingVictimsLetsThePreemptorBindOnTheNominatedNode) {
  model::Snapshot snap =
      Cluster({"node1", "node2"}, {{"p1", "node1", kMid, kLarge}, {"p2", "node2", kLow, kLarge}},
              kHigh, kLarge);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  ASSERT_FALSE(scheduler.ScheduleOne(Last(snap)).node.has_value());
  PreemptionOutcome o = scheduler.Preempt(Last(snap));
  ASSERT_EQ(NodeOf(snap, o), "node2");
  for (model::PodIndex v : o.victims) scheduler.Unbind(v);
  const model::PodDecision d = scheduler.ScheduleOnNominated(Last(snap), *o.node);
  ASSERT_TRUE(d.node.has_value());
  EXPECT_EQ(snap.node(*d.node).meta.name, "node2");
}

// One cycle leaves the first preemptor nominated, its victims terminating: upstream's
// RunFilterPluginsWithNominatedPods counts it on its node for the pods after it, so a
// second preemptor of the same priority is nominated to another node (TestNominatedNodeCleanUp
// and the "preemption of a nominated node" scheduler_perf flow, in berth's terms).
TEST(PreemptionTest, NominatedPodHoldsItsNodeForLaterPreemptors) {
  model::Snapshot snap =
      Cluster({"node1", "node2"}, {{"p1", "node1", kLow, kLarge}, {"p2", "node2", kMid, kLarge}},
              kHigh, kLarge);
  snap.pods.push_back(snap.pods.back());
  snap.pods.back().meta.name = "q";
  const model::PodIndex first = model::PodIndex{static_cast<int32_t>(snap.pods.size()) - 2};
  const model::PodIndex second = Last(snap);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  ASSERT_FALSE(scheduler.ScheduleOne(first).node.has_value());
  PreemptionOutcome a = scheduler.Preempt(first);
  ASSERT_EQ(NodeOf(snap, a), "node1");  // the lower-priority victim
  scheduler.Nominate(first, *a.node);
  ASSERT_FALSE(scheduler.ScheduleOne(second).node.has_value());
  PreemptionOutcome b = scheduler.Preempt(second);
  EXPECT_EQ(NodeOf(snap, b), "node2");
  EXPECT_EQ(VictimNames(snap, b), std::vector<std::string>{"p2"});
  // Without the nomination node1 would have been chosen again.
  Scheduler fresh(snap, model::SchedulerConfig{});
  ASSERT_FALSE(fresh.ScheduleOne(second).node.has_value());
  EXPECT_EQ(NodeOf(snap, fresh.Preempt(second)), "node1");
}

// The reservation counts for pods that would otherwise fit in the room the nominated pod is
// promised, and gives way when the nominated pod itself is scheduled.
TEST(PreemptionTest, NominationReservesRoomAndIsReleasedByItsOwnDecision) {
  model::Snapshot snap = Cluster({"node1"}, {}, kHigh, kLarge);
  snap.pods.push_back(snap.pods.back());
  snap.pods.back().meta.name = "small";
  snap.pods.back().priority = kLow;
  const model::PodIndex nominated{0};
  const model::PodIndex small = Last(snap);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  scheduler.Nominate(nominated, model::NodeIndex{0});
  // 300 of 500 promised: a second 300 does not fit.
  EXPECT_FALSE(scheduler.ScheduleOne(small).node.has_value());
  const model::PodDecision d = scheduler.ScheduleOne(nominated);
  ASSERT_TRUE(d.node.has_value());
  EXPECT_EQ(snap.node(*d.node).meta.name, "node1");
  EXPECT_EQ(scheduler.NodeFree(model::NodeIndex{0}).Get(model::kCpu),
            kVeryLarge - kLarge);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
