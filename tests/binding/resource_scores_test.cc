// NodeResourcesFit's scoring strategies and NodeResourcesBalancedAllocation, with the
// expected values of upstream's own tests (least_allocated_test.go, most_allocated_test.go,
// requested_to_capacity_ratio_test.go, balanced_allocation_test.go). Upstream writes cpu as
// whole cores there ("4000"); here they are milli-cores times 1000, which leaves every
// ratio, and so every score, the same.
#include <gtest/gtest.h>

#include "binding/framework/plugin_names.h"
#include "binding/framework/resolved_profile.h"
#include "binding/framework/resource_table.h"
#include "binding/plugins/resource_scorer.h"
#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using testing::NodeBuilder;
using testing::PodBuilder;
using testing::SnapshotBuilder;

constexpr int64_t kCore = 1000;

struct Case {
  model::Snapshot snapshot;
  model::PodIndex pod;
};

// Two nodes (cpu cores, memory bytes), existing pods on them, and a pod asking
// (cpu1+cpu2, mem1+mem2) in two containers, as upstream's cases are written.
Case MakeCase(int64_t cpu1, int64_t mem1, int64_t cpu2, int64_t mem2,
              std::vector<PodBuilder> existing, std::vector<PodBuilder> incoming_containers = {}) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("node1").Cpu(cpu1 * kCore).Memory(mem1));
  s.Add(NodeBuilder("node2").Cpu(cpu2 * kCore).Memory(mem2));
  for (auto& p : existing) s.Add(p);
  model::PodIndex pod = s.NextPod();
  if (incoming_containers.empty()) {
    s.Add(PodBuilder("incoming"));
  } else {
    s.Add(incoming_containers.front());
  }
  return Case{s.Build(), pod};
}

PodBuilder Requesting(int64_t cpu, int64_t mem, std::string node = "") {
  static int n = 0;
  PodBuilder b(testing::Indexed("existing-", n++));
  b.Container({{"cpu", cpu * kCore}, {"memory", mem}});
  if (!node.empty()) b.NodeName(node);
  return b;
}

PodBuilder TwoContainers() {
  return PodBuilder("incoming")
      .Container({{"cpu", 1000 * kCore}, {"memory", 2000}})
      .Container({{"cpu", 2000 * kCore}, {"memory", 3000}});
}

std::pair<int64_t, int64_t> FitScores(const Case& c, model::SchedulerConfig config) {
  Scheduler scheduler(c.snapshot, config);
  PodExplanation e = scheduler.Explain(c.pod);
  return {RawScore(e, c.snapshot, "node1", kNodeResourcesFit),
          RawScore(e, c.snapshot, "node2", kNodeResourcesFit)};
}

model::SchedulerConfig FitConfig(model::ScoringStrategyType type) {
  model::SchedulerConfig config = OnlyScore(std::string(kNodeResourcesFit));
  config.profiles[0].fit_strategy.type = type;
  return config;
}

using Scores = std::pair<int64_t, int64_t>;

TEST(LeastAllocatedTest, UpstreamCases) {
  auto least = FitConfig(model::ScoringStrategyType::kLeastAllocated);
  EXPECT_EQ(FitScores(MakeCase(4000, 10000, 4000, 10000, {}), least), Scores(100, 100));
  EXPECT_EQ(FitScores(MakeCase(4000, 10000, 6000, 10000, {}, {TwoContainers()}), least),
            Scores(37, 50));
  EXPECT_EQ(FitScores(MakeCase(10000, 20000, 10000, 20000,
                               {Requesting(3000, 0, "node1"), Requesting(3000, 0, "node1"),
                                Requesting(3000, 0, "node2"), Requesting(3000, 5000, "node2")}),
                      least),
            Scores(70, 57));
  EXPECT_EQ(FitScores(MakeCase(10000, 20000, 10000, 20000,
                               {Requesting(3000, 0, "node1"), Requesting(3000, 5000, "node2")},
                               {TwoContainers()}),
                      least),
            Scores(57, 45));
  EXPECT_EQ(FitScores(MakeCase(10000, 20000, 10000, 50000,
                               {Requesting(3000, 0, "node1"), Requesting(3000, 5000, "node2")},
                               {TwoContainers()}),
                      least),
            Scores(57, 60));
}

TEST(LeastAllocatedTest, ResourceWeights) {
  auto config = FitConfig(model::ScoringStrategyType::kLeastAllocated);
  config.profiles[0].fit_strategy.resources = {{"memory", 2}, {"cpu", 1}};
  EXPECT_EQ(FitScores(MakeCase(4000, 10000, 6000, 10000, {}, {TwoContainers()}), config),
            Scores(41, 50));
}

TEST(LeastAllocatedTest, ExtendedResourceOnlyWhenRequested) {
  auto config = FitConfig(model::ScoringStrategyType::kLeastAllocated);
  config.profiles[0].fit_strategy.resources = {{"cpu", 1}, {"memory", 1}, {"example.com/foo", 1}};
  SnapshotBuilder s;
  s.Add(NodeBuilder("node1").Cpu(6000 * kCore).Memory(10000).Allocatable("example.com/foo", 4));
  s.Add(NodeBuilder("node2").Cpu(6000 * kCore).Memory(10000).Allocatable("example.com/foo", 10));
  model::PodIndex plain = s.NextPod();
  s.Add(TwoContainers());
  model::PodIndex wants = s.NextPod();
  s.Add(PodBuilder("wants-foo")
            .Container({{"cpu", 1000 * kCore}, {"memory", 2000}, {"example.com/foo", 2}})
            .Container({{"cpu", 2000 * kCore}, {"memory", 3000}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, config);
  PodExplanation e = scheduler.Explain(plain);
  EXPECT_EQ(RawScore(e, snap, "node1", kNodeResourcesFit), 50);
  EXPECT_EQ(RawScore(e, snap, "node2", kNodeResourcesFit), 50);
  e = scheduler.Explain(wants);
  // foo: (4-2)/4 = 50 and (10-2)/10 = 80; (50+50+50)/3 = 50, (50+50+80)/3 = 60.
  EXPECT_EQ(RawScore(e, snap, "node1", kNodeResourcesFit), 50);
  EXPECT_EQ(RawScore(e, snap, "node2", kNodeResourcesFit), 60);
}

TEST(MostAllocatedTest, UpstreamCases) {
  auto most = FitConfig(model::ScoringStrategyType::kMostAllocated);
  EXPECT_EQ(FitScores(MakeCase(4000, 10000, 4000, 10000, {}), most), Scores(0, 0));
  // cpu 3000/4000 = 75, memory 5000/10000 = 50 -> 62; 50 and 50 -> 50.
  EXPECT_EQ(FitScores(MakeCase(4000, 10000, 6000, 10000, {}, {TwoContainers()}), most),
            Scores(62, 50));
  // cpu 6000/10000 = 60, memory 5000/20000 = 25 -> 42; 60 and 50 -> 55.
  EXPECT_EQ(FitScores(MakeCase(10000, 20000, 10000, 20000,
                               {Requesting(3000, 0, "node1"), Requesting(3000, 5000, "node2")},
                               {TwoContainers()}),
                      most),
            Scores(42, 55));
}

// Upstream scores nodes the filter would reject in "requested resources exceed node
// capacity"; Explain scores feasible nodes only, so call the scorer directly.
Scores DirectScores(model::ScoringStrategyType type) {
  model::ResourceCatalog catalog;
  ResourceTable resources(catalog);
  model::SchedulerProfile profile;
  profile.fit_strategy.type = type;
  ResolvedProfile resolved(profile, 0, resources);
  ResourceScorer scorer(resolved, resources);
  PodResources pod;
  pod.requests.assign(resources.size(), 0);
  pod.requests[model::kCpu.v] = 3000 * kCore;
  pod.nonzero_cpu = 3000 * kCore;
  pod.nonzero_memory = 0;  // "memory": "0" is named, so no default
  std::vector<int64_t> alloc(resources.size(), 0);
  alloc[model::kCpu.v] = 4000 * kCore;
  alloc[model::kMemory.v] = 10000;
  std::vector<int64_t> requested(resources.size(), 0);
  NodeLoad node1{alloc.data(), requested.data(), 3000 * kCore, 0, 1};
  NodeLoad node2{alloc.data(), requested.data(), 3000 * kCore, 5000, 1};
  return {scorer.FitScore(node1, pod), scorer.FitScore(node2, pod)};
}

TEST(LeastAllocatedTest, RequestsBeyondCapacityScoreZeroForThatResource) {
  EXPECT_EQ(DirectScores(model::ScoringStrategyType::kLeastAllocated), Scores(50, 25));
}

TEST(MostAllocatedTest, RequestsBeyondCapacityAreCapped) {
  EXPECT_EQ(DirectScores(model::ScoringStrategyType::kMostAllocated), Scores(50, 75));
}

TEST(RequestedToCapacityRatioTest, UpstreamCases) {
  auto rtc = FitConfig(model::ScoringStrategyType::kRequestedToCapacityRatio);
  rtc.profiles[0].fit_strategy.shape = {{0, 10}, {100, 0}};
  EXPECT_EQ(
      FitScores(MakeCase(4000, 10000, 4000, 10000,
                         {PodBuilder("e1").NodeName("node1"), PodBuilder("e2").NodeName("node1")}),
                rtc),
      Scores(100, 100));
  EXPECT_EQ(
      FitScores(MakeCase(4000, 10000, 6000, 10000,
                         {PodBuilder("e1").NodeName("node1"), PodBuilder("e2").NodeName("node1")},
                         {TwoContainers()}),
                rtc),
      Scores(38, 50));
  EXPECT_EQ(FitScores(MakeCase(4000, 10000, 6000, 10000,
                               {Requesting(3000, 5000, "node1"), Requesting(3000, 5000, "node2")}),
                      rtc),
            Scores(38, 50));
}

TEST(RequestedToCapacityRatioTest, SingleExtendedResourceBinPacking) {
  auto config = FitConfig(model::ScoringStrategyType::kRequestedToCapacityRatio);
  config.profiles[0].fit_strategy.resources = {{"intel.com/foo", 1}};
  config.profiles[0].fit_strategy.shape = {{0, 0}, {100, 1}};
  SnapshotBuilder s;
  s.Add(NodeBuilder("node1")
            .Cpu(4000 * kCore)
            .Memory(10000 * testing::kMi)
            .Allocatable("intel.com/foo", 8));
  s.Add(NodeBuilder("node2")
            .Cpu(4000 * kCore)
            .Memory(10000 * testing::kMi)
            .Allocatable("intel.com/foo", 4));
  s.Add(PodBuilder("on-node2").NodeName("node2").Container({{"intel.com/foo", 2}}));
  model::PodIndex none = s.NextPod();
  s.Add(PodBuilder("none"));
  model::PodIndex two = s.NextPod();
  s.Add(PodBuilder("two").Container({{"intel.com/foo", 2}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, config);
  PodExplanation e = scheduler.Explain(none);
  EXPECT_EQ(RawScore(e, snap, "node1", kNodeResourcesFit), 0);
  EXPECT_EQ(RawScore(e, snap, "node2", kNodeResourcesFit), 0);
  e = scheduler.Explain(two);
  // 2/8 -> 25% -> 2; (2+2)/4 -> 100% -> 10.
  EXPECT_EQ(RawScore(e, snap, "node1", kNodeResourcesFit), 2);
  EXPECT_EQ(RawScore(e, snap, "node2", kNodeResourcesFit), 10);
}

TEST(RequestedToCapacityRatioTest, BrokenLinearFunction) {
  std::vector<ShapePoint> a = {{10, 1}, {90, 9}};
  EXPECT_EQ(BrokenLinear(a, -10), 1);
  EXPECT_EQ(BrokenLinear(a, 10), 1);
  EXPECT_EQ(BrokenLinear(a, 19), 1);
  EXPECT_EQ(BrokenLinear(a, 20), 2);
  EXPECT_EQ(BrokenLinear(a, 89), 8);
  EXPECT_EQ(BrokenLinear(a, 90), 9);
  EXPECT_EQ(BrokenLinear(a, 110), 9);
  std::vector<ShapePoint> b = {{0, 2}, {40, 10}, {100, 0}};
  EXPECT_EQ(BrokenLinear(b, 20), 6);
  EXPECT_EQ(BrokenLinear(b, 30), 8);
  EXPECT_EQ(BrokenLinear(b, 70), 5);
  EXPECT_EQ(BrokenLinear(b, 100), 0);
}

TEST(BalancedAllocationTest, UpstreamCases) {
  auto config = OnlyScore(std::string(kNodeResourcesBalancedAllocation));
  Case c = MakeCase(4000, 10000, 6000, 10000, {}, {TwoContainers()});
  Scheduler scheduler(c.snapshot, config);
  PodExplanation e = scheduler.Explain(c.pod);
  // fractions 0.75 and 0.5: std 0.125 -> 87; 0.5 and 0.5 -> 100.
  EXPECT_EQ(RawScore(e, c.snapshot, "node1", kNodeResourcesBalancedAllocation), 87);
  EXPECT_EQ(RawScore(e, c.snapshot, "node2", kNodeResourcesBalancedAllocation), 100);
}

TEST(BalancedAllocationTest, UsesActualRequestsOfPlacedPods) {
  auto config = OnlyScore(std::string(kNodeResourcesBalancedAllocation));
  // node1: 3000+3000 of 10000 cpu, 0+5000 of 20000 memory: 0.6 and 0.25 -> 82;
  // node2: 0.6 and 0.5 -> 95 (placed pods without memory count 0, not 200Mi).
  Case c =
      MakeCase(10000, 20000, 10000, 20000,
               {Requesting(3000, 0, "node1"), Requesting(3000, 5000, "node2")}, {TwoContainers()});
  Scheduler scheduler(c.snapshot, config);
  PodExplanation e = scheduler.Explain(c.pod);
  EXPECT_EQ(RawScore(e, c.snapshot, "node1", kNodeResourcesBalancedAllocation), 82);
  EXPECT_EQ(RawScore(e, c.snapshot, "node2", kNodeResourcesBalancedAllocation), 95);
}

TEST(BalancedAllocationTest, ThreeResourcesUseStandardDeviation) {
  auto config = OnlyScore(std::string(kNodeResourcesBalancedAllocation));
  config.profiles[0].balanced_resources = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}};
  SnapshotBuilder s;
  s.Add(NodeBuilder("node1").Cpu(4000).Memory(1000).Gpu(4));
  model::PodIndex pod = s.NextPod();
  s.Add(PodBuilder("p").Container({{"cpu", 1000}, {"memory", 500}, {"nvidia.com/gpu", 4}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, config);
  PodExplanation e = scheduler.Explain(pod);
  // fractions 0.25, 0.5, 1: mean 7/12, std sqrt(((1/3)^2 + (1/12)^2 + (5/12)^2) / 3) = 0.3118
  EXPECT_EQ(RawScore(e, snap, "node1", kNodeResourcesBalancedAllocation), 68);
}

TEST(BalancedAllocationTest, SkippedForPodsRequestingNothing) {
  auto config = OnlyScore(std::string(kNodeResourcesBalancedAllocation));
  Case c = MakeCase(4000, 10000, 6000, 10000, {});
  Scheduler scheduler(c.snapshot, config);
  PodExplanation e = scheduler.Explain(c.pod);
  EXPECT_EQ(RawScore(e, c.snapshot, "node1", kNodeResourcesBalancedAllocation), -1);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
