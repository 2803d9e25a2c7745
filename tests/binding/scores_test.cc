// Score plugins other than the resource ones: TaintToleration, NodeAffinity,
// PodTopologySpread, InterPodAffinity, with their normalization, and the weighted total.
#include <gtest/gtest.h>

#include <cmath>

#include "binding/framework/plugin_names.h"
#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using core::SelectorOp;
using core::TaintEffect;
using core::TolerationOp;
using testing::AffinityTerm;
using testing::ExprTerm;
using testing::kGi;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::Req;
using testing::SnapshotBuilder;
using testing::Spread;

NodeBuilder Big(std::string name) {
  return NodeBuilder(std::move(name)).Cpu(8000).Memory(32 * kGi);
}

PodExplanation ExplainLast(const model::Snapshot& s, const model::SchedulerConfig& config) {
  Scheduler scheduler(s, config);
  return scheduler.Explain(model::PodIndex{static_cast<int32_t>(s.pods.size()) - 1});
}

TEST(TaintTolerationScoreTest, FewestIntolerablePreferNoScheduleWins) {
  SnapshotBuilder s;
  s.Add(Big("none"))
      .Add(Big("one").Taint("spot", "true", TaintEffect::kPreferNoSchedule))
      .Add(Big("two")
               .Taint("spot", "true", TaintEffect::kPreferNoSchedule)
               .Taint("old", "true", TaintEffect::kPreferNoSchedule))
      .Add(Big("tolerated").Taint("old", "true", TaintEffect::kPreferNoSchedule));
  s.Add(
      PodBuilder("p").Toleration("old", TolerationOp::kExists, "", TaintEffect::kPreferNoSchedule));
  model::Snapshot snap = s.Build();
  PodExplanation e = ExplainLast(snap, OnlyScore(std::string(kTaintToleration)));
  EXPECT_EQ(RawScore(e, snap, "two", kTaintToleration), 1);
  EXPECT_EQ(NormalizedScore(e, snap, "none", kTaintToleration), 100);
  EXPECT_EQ(NormalizedScore(e, snap, "one", kTaintToleration), 0);
  EXPECT_EQ(NormalizedScore(e, snap, "two", kTaintToleration), 0);
  EXPECT_EQ(NormalizedScore(e, snap, "tolerated", kTaintToleration), 100);
}

TEST(TaintTolerationScoreTest, AllZeroNormalizesToMax) {
  SnapshotBuilder s;
  s.Add(Big("a")).Add(Big("b"));
  s.Add(PodBuilder("p"));
  model::Snapshot snap = s.Build();
  PodExplanation e = ExplainLast(snap, model::SchedulerConfig{});
  EXPECT_EQ(NormalizedScore(e, snap, "a", kTaintToleration), 100);
  // Default weight 3.
  EXPECT_EQ(FindScore(*FindVerdict(e, snap, "a"), kTaintToleration)->weighted(), 300);
}

TEST(NodeAffinityScoreTest, SumOfMatchingWeightsNormalizedByTheBest) {
  SnapshotBuilder s;
  s.Add(Big("both").Label("gpu", "h100").Label("zone", "z1"))
      .Add(Big("gpu").Label("gpu", "h100"))
      .Add(Big("zone").Label("zone", "z1"))
      .Add(Big("none"));
  s.Add(PodBuilder("p")
            .PreferredNodeAffinity(30, ExprTerm({Req("gpu", SelectorOp::kIn, {"h100"})}))
            .PreferredNodeAffinity(10, ExprTerm({Req("zone", SelectorOp::kExists)})));
  model::Snapshot snap = s.Build();
  PodExplanation e = ExplainLast(snap, OnlyScore(std::string(kNodeAffinity)));
  EXPECT_EQ(RawScore(e, snap, "both", kNodeAffinity), 40);
  EXPECT_EQ(NormalizedScore(e, snap, "both", kNodeAffinity), 100);
  EXPECT_EQ(NormalizedScore(e, snap, "gpu", kNodeAffinity), 75);
  EXPECT_EQ(NormalizedScore(e, snap, "zone", kNodeAffinity), 25);
  EXPECT_EQ(NormalizedScore(e, snap, "none", kNodeAffinity), 0);
  EXPECT_EQ(BoundTo(snap, e.decision), "both");
}

TEST(NodeAffinityScoreTest, NormalizesOverFeasibleNodesOnly) {
  SnapshotBuilder s;
  s.Add(Big("best").Label("gpu", "h100").Label("zone", "z1").Taint("x", "y"))
      .Add(Big("gpu").Label("gpu", "h100"));
  s.Add(PodBuilder("p")
            .PreferredNodeAffinity(30, ExprTerm({Req("gpu", SelectorOp::kIn, {"h100"})}))
            .PreferredNodeAffinity(10, ExprTerm({Req("zone", SelectorOp::kExists)})));
  model::Snapshot snap = s.Build();
  PodExplanation e = ExplainLast(snap, OnlyScore(std::string(kNodeAffinity)));
  EXPECT_EQ(NormalizedScore(e, snap, "gpu", kNodeAffinity), 100);
}

TEST(PodTopologySpreadScoreTest, FewerMatchingPodsScoreHigher) {
  // Zones: z1 {a, b} with 3 matching pods, z2 {c} with 1. Soft constraint on zone, maxSkew 1.
  // Two domains: weight ln(4). Raw: z1 3*ln4 = 4.16 -> 4, z2 1*ln4 = 1.39 -> 1.
  // Normalized: 100 * (max + min - s) / max = 100*(4+1-4)/4 = 25 and 100*(4+1-1)/4 = 100.
  SnapshotBuilder s;
  s.Add(Big("a").Label("zone", "z1"))
      .Add(Big("b").Label("zone", "z1"))
      .Add(Big("c").Label("zone", "z2"));
  s.Add(Big("nozone").NoLabel("zone"));
  for (auto [name, node] : {std::pair{"x1", "a"}, {"x2", "a"}, {"x3", "b"}, {"x4", "c"}}) {
    s.Add(PodBuilder(name).Label("app", "web").NodeName(node));
  }
  s.Add(PodBuilder("p")
            .Label("app", "web")
            .SpreadConstraint(
                Spread("zone", 1, {{"app", "web"}}, model::UnsatisfiableAction::kScheduleAnyway)));
  model::Snapshot snap = s.Build();
  PodExplanation e = ExplainLast(snap, OnlyScore(std::string(kPodTopologySpread)));
  EXPECT_EQ(RawScore(e, snap, "a", kPodTopologySpread), 4);
  EXPECT_EQ(RawScore(e, snap, "c", kPodTopologySpread), 1);
  EXPECT_EQ(NormalizedScore(e, snap, "a", kPodTopologySpread), 25);
  EXPECT_EQ(NormalizedScore(e, snap, "b", kPodTopologySpread), 25);
  EXPECT_EQ(NormalizedScore(e, snap, "c", kPodTopologySpread), 100);
  // Nodes without the key are feasible but score 0.
  EXPECT_EQ(NormalizedScore(e, snap, "nozone", kPodTopologySpread), 0);
  EXPECT_EQ(BoundTo(snap, e.decision), "c");
}

TEST(PodTopologySpreadScoreTest, HostnameCountsPerNodeAndMaxSkewWatersDown) {
  // Hostname constraint, maxSkew 3: 4 scored nodes -> weight ln(6) = 1.79.
  // a: 2*1.79 + 2 = 5.58 -> 6; b: 1.79 + 2 = 3.79 -> 4; c, d: 2.
  // Normalized: max 6, min 2: a 100*(8-6)/6 = 33, b 100*(8-4)/6 = 66, c 100.
  SnapshotBuilder s;
  s.Add(Big("a")).Add(Big("b")).Add(Big("c")).Add(Big("d"));
  for (auto [name, node] : {std::pair{"x1", "a"}, {"x2", "a"}, {"x3", "b"}}) {
    s.Add(PodBuilder(name).Label("app", "web").NodeName(node));
  }
  s.Add(PodBuilder("p")
            .Label("app", "web")
            .SpreadConstraint(Spread("kubernetes.io/hostname", 3, {{"app", "web"}},
                                     model::UnsatisfiableAction::kScheduleAnyway)));
  model::Snapshot snap = s.Build();
  PodExplanation e = ExplainLast(snap, OnlyScore(std::string(kPodTopologySpread)));
  EXPECT_EQ(RawScore(e, snap, "a", kPodTopologySpread), 6);
  EXPECT_EQ(RawScore(e, snap, "b", kPodTopologySpread), 4);
  EXPECT_EQ(RawScore(e, snap, "c", kPodTopologySpread), 2);
  EXPECT_EQ(NormalizedScore(e, snap, "a", kPodTopologySpread), 33);
  EXPECT_EQ(NormalizedScore(e, snap, "b", kPodTopologySpread), 66);
  EXPECT_EQ(NormalizedScore(e, snap, "d", kPodTopologySpread), 100);
}

TEST(InterPodAffinityScoreTest, PreferredTermsBothWays) {
  // The pod prefers zones with "cache" (weight 10) and avoids zones with "batch" (weight 5);
  // an existing pod in z3 prefers pods like this one (weight 7).
  SnapshotBuilder s;
  s.Add(Big("a").Label("zone", "z1"))
      .Add(Big("b").Label("zone", "z2"))
      .Add(Big("c").Label("zone", "z3"));
  s.Add(PodBuilder("cache").Label("app", "cache").NodeName("a"));
  s.Add(PodBuilder("batch").Label("app", "batch").NodeName("a"));
  s.Add(PodBuilder("batch2").Label("app", "batch").NodeName("b"));
  s.Add(PodBuilder("fan")
            .Label("app", "fan")
            .NodeName("c")
            .PreferredPodAffinity(7, AffinityTerm({{"app", "web"}}, "zone")));
  s.Add(PodBuilder("p")
            .Label("app", "web")
            .PreferredPodAffinity(10, AffinityTerm({{"app", "cache"}}, "zone"))
            .PreferredPodAntiAffinity(5, AffinityTerm({{"app", "batch"}}, "zone")));
  model::Snapshot snap = s.Build();
  PodExplanation e = ExplainLast(snap, OnlyScore(std::string(kInterPodAffinity)));
  EXPECT_EQ(RawScore(e, snap, "a", kInterPodAffinity), 5);
  EXPECT_EQ(RawScore(e, snap, "b", kInterPodAffinity), -5);
  EXPECT_EQ(RawScore(e, snap, "c", kInterPodAffinity), 7);
  // Min-max: (s + 5) / 12 * 100.
  EXPECT_EQ(NormalizedScore(e, snap, "a", kInterPodAffinity), 83);
  EXPECT_EQ(NormalizedScore(e, snap, "b", kInterPodAffinity), 0);
  EXPECT_EQ(NormalizedScore(e, snap, "c", kInterPodAffinity), 100);
}

TEST(InterPodAffinityScoreTest, ExistingRequiredAffinityCountsWithHardWeight) {
  SnapshotBuilder s;
  s.Add(Big("a").Label("zone", "z1")).Add(Big("b").Label("zone", "z2"));
  s.Add(PodBuilder("follower").NodeName("a").PodAffinity(AffinityTerm({{"app", "web"}}, "zone")));
  s.Add(PodBuilder("p").Label("app", "web"));
  model::Snapshot snap = s.Build();
  PodExplanation e = ExplainLast(snap, OnlyScore(std::string(kInterPodAffinity)));
  EXPECT_EQ(RawScore(e, snap, "a", kInterPodAffinity), 1);
  EXPECT_EQ(NormalizedScore(e, snap, "a", kInterPodAffinity), 100);
  EXPECT_EQ(NormalizedScore(e, snap, "b", kInterPodAffinity), 0);
}

TEST(TotalScoreTest, WeightedSumOfNormalizedScores) {
  SnapshotBuilder s;
  s.Add(Big("a").Label("gpu", "h100")).Add(Big("b"));
  s.Add(PodBuilder("p")
            .Container({{"cpu", 1000}, {"memory", kGi}})
            .PreferredNodeAffinity(1, ExprTerm({Req("gpu", SelectorOp::kExists)})));
  model::Snapshot snap = s.Build();
  model::SchedulerConfig config;
  config.profiles[0].score_weights = {{"NodeAffinity", 5}, {"NodeResourcesFit", 2}};
  PodExplanation e = ExplainLast(snap, config);
  const NodeVerdict* a = FindVerdict(e, snap, "a");
  ASSERT_NE(a, nullptr);
  // Fit: cpu (8000-1000)*100/8000 = 87, memory (32-1)/32 = 96 -> 91.
  EXPECT_EQ(a->total_score, 5 * 100 + 2 * 91);
  EXPECT_EQ(FindVerdict(e, snap, "b")->total_score, 2 * 91);
  EXPECT_EQ(a->scores.size(), 2u);
}

TEST(TotalScoreTest, ZeroWeightMeansOne) {
  SnapshotBuilder s;
  s.Add(Big("a"));
  s.Add(PodBuilder("p"));
  model::Snapshot snap = s.Build();
  model::SchedulerConfig config;
  config.profiles[0].score_weights = {{"TaintToleration", 0}};
  PodExplanation e = ExplainLast(snap, config);
  EXPECT_EQ(FindVerdict(e, snap, "a")->total_score, 100);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
