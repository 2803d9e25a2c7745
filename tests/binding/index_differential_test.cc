// Differential test of the index: random small clusters and pods (seeded), each pod placed
// by a Scheduler with the index and by one without, and checked against Explain's
// node-by-node evaluation. Every decision (node, message, rejections) must be identical,
// and the chosen node must be a feasible node with the highest total and the first name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

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
using testing::Indexed;
using testing::kGi;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::Req;
using testing::SnapshotBuilder;
using testing::Spread;

// Deterministic on every standard library (unlike std::uniform_int_distribution).
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  int64_t Below(int64_t n) { return static_cast<int64_t>(gen_() % static_cast<uint64_t>(n)); }
  bool Chance(int percent) { return Below(100) < percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Below(static_cast<int64_t>(v.size())))];
  }

 private:
  std::mt19937_64 gen_;
};

const std::vector<std::string> kZones = {"z1", "z2", "z3"};
const std::vector<std::string> kTypes = {"cpu", "a100", "h100"};

NodeBuilder RandomNode(Rng& rng, const std::string& name) {
  NodeBuilder n(name);
  n.Cpu(rng.Pick(std::vector<int64_t>{2000, 4000, 8000}))
      .Memory(rng.Pick(std::vector<int64_t>{4 * kGi, 8 * kGi, 16 * kGi}))
      .Pods(rng.Pick(std::vector<int64_t>{3, 6, 110}));
  if (!rng.Chance(10)) n.Label("zone", rng.Pick(kZones));
  const std::string& type = rng.Pick(kTypes);
  n.Label("type", type);
  if (type != "cpu") {
    n.Gpu(rng.Pick(std::vector<int64_t>{4, 8}));
    if (rng.Chance(60)) n.Taint("nvidia.com/gpu", "present");
  }
  if (rng.Chance(20)) n.Allocatable("example.com/foo", rng.Below(3));
  if (rng.Chance(35)) n.Taint("spot", "true", TaintEffect::kPreferNoSchedule);
  if (rng.Chance(25)) n.Taint("old", "true", TaintEffect::kPreferNoSchedule);
  if (rng.Chance(5)) n.Taint("maintenance", "", TaintEffect::kNoExecute);
  if (rng.Chance(8)) n.Unschedulable();
  return n;
}

PodBuilder RandomPod(Rng& rng, const std::string& name, int shape) {
  PodBuilder p(name, rng.Chance(80) ? "default" : "team");
  p.Label("app", Indexed("app-", shape % 4))
      .Priority(static_cast<int32_t>(rng.Below(3)))
      .Created(rng.Below(50));
  // A handful of shapes so request signatures repeat, as pods of a template do.
  switch (shape % 6) {
    case 0:
      p.Container({{"cpu", 500}, {"memory", kGi}});
      break;
    case 1:
      p.Container({{"cpu", 1500}}).Container({{"memory", 2 * kGi}});
      break;
    case 2:
      p.Container({{"cpu", 1000}, {"memory", 4 * kGi}, {"nvidia.com/gpu", 1}});
      break;
    case 3:
      p.Container({{"cpu", 2000}, {"nvidia.com/gpu", 4}}).InitContainer({{"cpu", 3000}});
      break;
    case 4:
      p.Container({});
      break;
    case 5:
      p.Sidecar({{"cpu", 100}, {"memory", kGi / 4}})
          .Container({{"cpu", 250}, {"example.com/foo", 1}});
      break;
  }
  if (rng.Chance(40)) p.Toleration("nvidia.com/gpu", TolerationOp::kExists);
  if (rng.Chance(10))
    p.Toleration("spot", TolerationOp::kEqual, "true", TaintEffect::kPreferNoSchedule);
  if (rng.Chance(5)) p.Toleration("", TolerationOp::kExists);
  if (rng.Chance(20)) p.NodeSelector("zone", rng.Pick(kZones));
  if (rng.Chance(15)) p.RequiredNodeAffinity(ExprTerm({Req("type", SelectorOp::kNotIn, {"cpu"})}));
  if (rng.Chance(20))
    p.PreferredNodeAffinity(static_cast<int32_t>(1 + rng.Below(50)),
                            ExprTerm({Req("type", SelectorOp::kIn, {rng.Pick(kTypes)})}));
  if (rng.Chance(10)) p.PreferredNodeAffinity(10, ExprTerm({Req("zone", SelectorOp::kExists)}));
  if (rng.Chance(20)) {
    p.PreferredNodeAffinity(static_cast<int32_t>(1 + rng.Below(100)),
                            ExprTerm({Req("zone", SelectorOp::kIn, {rng.Pick(kZones)})}));
  }
  // Constraints the index does not cover, so the two paths interleave.
  if (rng.Chance(5)) p.NodeSelector("kubernetes.io/hostname", Indexed("node-", rng.Below(8)));
  if (rng.Chance(5)) p.RequiredNodeAffinity(testing::NameTerm({Indexed("node-", rng.Below(8))}));
  if (rng.Chance(8)) p.SpreadConstraint(Spread("zone", 1, {{"app", Indexed("app-", shape % 4)}}));
  if (rng.Chance(5)) {
    p.SpreadConstraint(Spread("kubernetes.io/hostname", 2, {{"app", Indexed("app-", shape % 4)}},
                              model::UnsatisfiableAction::kScheduleAnyway));
  }
  if (rng.Chance(5))
    p.PodAntiAffinity(
        AffinityTerm({{"app", Indexed("app-", shape % 4)}}, "kubernetes.io/hostname"));
  if (rng.Chance(3)) p.PodAffinity(AffinityTerm({{"app", "app-1"}}, "zone"));
  if (rng.Chance(3)) p.PreferredPodAffinity(20, AffinityTerm({{"app", "app-2"}}, "zone"));
  return p;
}

model::SchedulerConfig RandomConfig(Rng& rng) {
  model::SchedulerConfig config;
  model::SchedulerProfile& p = config.profiles[0];
  switch (rng.Below(3)) {
    case 0:
      p.fit_strategy.type = model::ScoringStrategyType::kLeastAllocated;
      break;
    case 1:
      p.fit_strategy.type = model::ScoringStrategyType::kMostAllocated;
      break;
    default:
      p.fit_strategy.type = model::ScoringStrategyType::kRequestedToCapacityRatio;
      p.fit_strategy.shape = {{0, 0}, {50, 7}, {100, 10}};
  }
  if (rng.Chance(40)) p.fit_strategy.resources = {{"cpu", 1}, {"memory", 2}, {"nvidia.com/gpu", 3}};
  if (rng.Chance(30)) p.balanced_resources = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}};
  for (auto& [plugin, weight] : p.score_weights) {
    if (rng.Chance(30)) weight = static_cast<int32_t>(1 + rng.Below(5));
  }
  if (rng.Chance(10)) p.score_weights.erase("NodeResourcesBalancedAllocation");
  if (rng.Chance(5)) p.disabled_filters.insert("NodeResourcesFit");
  if (rng.Chance(5)) p.disabled_filters.insert("TaintToleration");
  return config;
}

model::Snapshot RandomCluster(uint64_t seed) {
  Rng rng(seed);
  SnapshotBuilder s;
  s.Namespace("default").Namespace("team", {{"tier", "gold"}});
  int nodes = static_cast<int>(3 + rng.Below(14));
  std::vector<int> order(static_cast<size_t>(nodes));
  for (int i = 0; i < nodes; ++i) order[static_cast<size_t>(i)] = i;
  // Snapshot order differs from name order, so ties by name are really tested.
  std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
  for (int i : order) s.Add(RandomNode(rng, Indexed("node-", i)));
  int bound = static_cast<int>(rng.Below(6));
  for (int i = 0; i < bound; ++i) {
    PodBuilder p = RandomPod(rng, Indexed("running-", i), static_cast<int>(rng.Below(6)));
    p.NodeName(Indexed("node-", rng.Below(nodes)));
    s.Add(p);
  }
  int pending = static_cast<int>(5 + rng.Below(60));
  for (int i = 0; i < pending; ++i)
    s.Add(RandomPod(rng, Indexed("pod-", i), static_cast<int>(rng.Below(6))));
  return s.Build();
}

// The chosen node of an explanation must be feasible with the highest total, first by name.
void CheckExplanationConsistent(const model::Snapshot& snap, const PodExplanation& e) {
  const NodeVerdict* best = nullptr;
  for (const NodeVerdict& v : e.nodes) {
    if (!v.feasible) continue;
    if (best == nullptr || v.total_score > best->total_score) best = &v;  // name order: first wins
  }
  if (best == nullptr) {
    EXPECT_FALSE(e.decision.node.has_value());
    EXPECT_FALSE(e.decision.message.empty());
    return;
  }
  ASSERT_TRUE(e.decision.node.has_value());
  EXPECT_EQ(snap.node(*e.decision.node).meta.name, snap.node(best->node).meta.name);
}

TEST(IndexDifferentialTest, IndexDecidesLikeTheReferencePath) {
  int64_t indexed = 0;
  int64_t total = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    model::Snapshot snap = RandomCluster(seed);
    Rng rng(seed * 7919);
    model::SchedulerConfig config = RandomConfig(rng);
    Scheduler with_index(snap, config, SchedulerOptions{true});
    Scheduler reference(snap, config, SchedulerOptions{false});
    std::vector<model::PodIndex> queue = with_index.QueueOrder();
    ASSERT_EQ(queue, reference.QueueOrder());
    for (model::PodIndex pod : queue) {
      SCOPED_TRACE(testing::Indexed("seed ", static_cast<int64_t>(seed)) + " pod " +
                   snap.pod(pod).meta.name);
      PodExplanation e = with_index.Explain(pod);
      CheckExplanationConsistent(snap, e);
      model::PodDecision a = with_index.ScheduleOne(pod);
      model::PodDecision b = reference.ScheduleOne(pod);
      EXPECT_EQ(BoundTo(snap, a), BoundTo(snap, e.decision));
      EXPECT_EQ(a.message, e.decision.message);
      EXPECT_EQ(a.rejections, e.decision.rejections);
      EXPECT_EQ(BoundTo(snap, a), BoundTo(snap, b));
      EXPECT_EQ(a.message, b.message);
      if (::testing::Test::HasFailure()) return;
    }
    indexed += with_index.stats().indexed;
    total += with_index.stats().indexed + with_index.stats().reference;
    EXPECT_EQ(reference.stats().indexed, 0);
  }
  // Most pods must actually go through the index, or this test proves little.
  EXPECT_GT(indexed * 2, total);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
