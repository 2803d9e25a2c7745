// upstream's prioritizers: the cases of ocm pkg/placement/plugins/{balance,steady,resource,
// addon}/*_test.go, by semantics.
#include "placement/builtin_scorers.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "placement/fleet_builder.h"

namespace berth::placement {
namespace BERTH_UNITY_ID {

using testing::Cluster;
using testing::Decision;
using testing::MakePlacement;
using testing::SetResource;
using testing::T;

std::vector<std::optional<int64_t>> ScoreAll(const ClusterScorer& scorer,
                                             const model::Snapshot& snap,
                                             const model::Placement& placement,
                                             const std::vector<std::string>& existing = {},
                                             std::vector<std::string>* warnings = nullptr,
                                             core::Timestamp now = T(1000)) {
  std::vector<const model::ManagedCluster*> clusters;
  for (const model::ManagedCluster& c : snap.managed_clusters) clusters.push_back(&c);
  ScoreContext context{snap, placement, now, existing};
  ScoreOutput out = scorer.Score(context, clusters);
  if (warnings != nullptr) *warnings = out.warnings;
  return out.scores;
}

TEST(BalanceScorerTest, ScoresByShareOfTheBusiestClusterOutsideOwnDecisions) {
  model::Snapshot snap;
  for (const char* name : {"c1", "c2", "c3", "c4"}) snap.managed_clusters.push_back(Cluster(name));
  model::Placement p = MakePlacement("p", "ns");
  // Other placements (any namespace): c1 x6, c2 x3, c3 x2; c4 in none.
  for (int i = 0; i < 6; ++i) {
    std::vector<std::string> clusters{"c1"};
    if (i < 3) clusters.push_back("c2");
    if (i < 2) clusters.push_back("c3");
    snap.placement_decisions.push_back(
        Decision("other" + std::to_string(i), i % 2 ? "ns" : "other-ns", clusters));
  }
  // This placement's own decision is not counted.
  snap.placement_decisions.push_back(
      Decision("p", "ns", {"c4", "c4", "c4", "c4", "c4", "c4", "c4"}));
  auto scores = ScoreAll(*MakeBalanceScorer(), snap, p);
  ASSERT_EQ(scores.size(), 4u);
  EXPECT_EQ(scores[0], -100);  // count == max
  EXPECT_EQ(scores[1], 0);     // half of max
  EXPECT_EQ(scores[2], 32);    // 2 * trunc(100 * (0.5 - 1/3)) = 2 * 16
  EXPECT_EQ(scores[3], 100);   // in no counted decision
}

TEST(BalanceScorerTest, SamePlacementNameInAnotherNamespaceCounts) {
  model::Snapshot snap;
  snap.managed_clusters.push_back(Cluster("c1"));
  snap.managed_clusters.push_back(Cluster("c2"));
  snap.placement_decisions.push_back(Decision("p", "elsewhere", {"c1"}));
  auto scores = ScoreAll(*MakeBalanceScorer(), snap, MakePlacement("p", "ns"));
  EXPECT_EQ(scores[0], -100);
  EXPECT_EQ(scores[1], 100);
}

TEST(SteadyScorerTest, FavoursClustersAlreadySelected) {
  model::Snapshot snap;
  snap.managed_clusters.push_back(Cluster("a"));
  snap.managed_clusters.push_back(Cluster("b"));
  auto scores = ScoreAll(*MakeSteadyScorer(), snap, MakePlacement("p"), {"b"});
  EXPECT_EQ(scores[0], 0);
  EXPECT_EQ(scores[1], 100);
}

TEST(ResourceAllocatableScorerTest, ScalesBetweenMinAndMax) {
  model::Snapshot snap;
  for (const char* name : {"c1", "c2", "c3", "c4"}) snap.managed_clusters.push_back(Cluster(name));
  SetResource(&snap.managed_clusters[0], "cpu", "10", "10");
  SetResource(&snap.managed_clusters[1], "cpu", "15", "20");
  SetResource(&snap.managed_clusters[2], "cpu", "30", "40");
  SetResource(&snap.managed_clusters[3], "cpu", "100", "");  // no capacity: no entry
  auto scores = ScoreAll(*MakeResourceAllocatableScorer("ResourceAllocatableCPU", "cpu"), snap,
                         MakePlacement("p"));
  EXPECT_EQ(scores[0], -100);
  EXPECT_EQ(scores[1], -50);  // trunc((0.25 - 0.5) * 200)
  EXPECT_EQ(scores[2], 100);
  EXPECT_EQ(scores[3], std::nullopt);
}

TEST(ResourceAllocatableScorerTest, EqualValuesAllScoreMax) {
  model::Snapshot snap;
  snap.managed_clusters.push_back(Cluster("c1"));
  snap.managed_clusters.push_back(Cluster("c2"));
  snap.managed_clusters.push_back(Cluster("c3"));
  SetResource(&snap.managed_clusters[0], "memory", "0", "0");
  SetResource(&snap.managed_clusters[1], "memory", "0", "1Gi");
  auto scores = ScoreAll(*MakeResourceAllocatableScorer("ResourceAllocatableMemory", "memory"),
                         snap, MakePlacement("p"));
  EXPECT_EQ(scores[0], 100);
  EXPECT_EQ(scores[1], 100);
  EXPECT_EQ(scores[2], std::nullopt);  // no allocatable
}

TEST(ResourceAllocatableScorerTest, TruncatesTowardZero) {
  model::Snapshot snap;
  for (const char* name : {"c1", "c2", "c3"}) snap.managed_clusters.push_back(Cluster(name));
  SetResource(&snap.managed_clusters[0], "cpu", "0", "1");
  SetResource(&snap.managed_clusters[1], "cpu", "1", "1");
  SetResource(&snap.managed_clusters[2], "cpu", "3", "1");
  auto scores = ScoreAll(*MakeResourceAllocatableScorer("ResourceAllocatableCPU", "cpu"), snap,
                         MakePlacement("p"));
  EXPECT_EQ(scores[1], -33);  // (1/3 - 0.5) * 200 = -33.3
}

TEST(AddOnScorerTest, ReadsTheScoreInTheClusterNamespaceAndDefaultsToZero) {
  model::Snapshot snap;
  for (const char* name : {"c1", "c2", "c3", "c4"}) snap.managed_clusters.push_back(Cluster(name));
  auto score = [](const std::string& ns, const std::string& name, int32_t value,
                  std::optional<core::Timestamp> valid_until) {
    model::AddOnPlacementScore s;
    s.meta.name = name;
    s.meta.namespace_ = ns;
    s.scores = {{"other", 7}, {"gpu", value}};
    s.valid_until = valid_until;
    return s;
  };
  snap.addon_placement_scores.push_back(score("c1", "usage", 80, std::nullopt));
  snap.addon_placement_scores.push_back(score("c2", "usage", -40, T(2000)));
  snap.addon_placement_scores.push_back(score("c3", "usage", 90, T(999)));  // expired
  snap.addon_placement_scores.push_back(score("c4", "other-resource", 50, std::nullopt));
  snap.managed_clusters.push_back(Cluster("c5"));
  snap.addon_placement_scores.push_back(score("c5", "usage", 90, T(10)));  // expired
  std::vector<std::string> warnings;
  auto scores = ScoreAll(*MakeAddOnScorer("usage", "gpu"), snap, MakePlacement("p"), {}, &warnings);
  EXPECT_EQ(scores[0], 80);
  EXPECT_EQ(scores[1], -40);
  EXPECT_EQ(scores[2], 0);
  EXPECT_EQ(scores[3], 0);
  EXPECT_EQ(scores[4], 0);
  EXPECT_EQ(warnings, std::vector<std::string>{"AddOnPlacementScores c3/usage c5/usage expired"});
  EXPECT_EQ(MakeAddOnScorer("usage", "gpu")->Name(), "AddOn/usage/gpu");
  // A missing score item is 0 too.
  auto missing = ScoreAll(*MakeAddOnScorer("usage", "tpu"), snap, MakePlacement("p"));
  EXPECT_EQ(missing[0], 0);
}

TEST(ScorerRegistryTest, HoldsUpstreamBuiltInsAndTakesExtensions) {
  ScorerRegistry registry = ScorerRegistry::Upstream();
  for (const char* name :
       {"Balance", "Steady", "ResourceAllocatableCPU", "ResourceAllocatableMemory"}) {
    ASSERT_TRUE(registry.Contains(name)) << name;
    EXPECT_EQ(registry.Make(name)->Name(), name);
  }
  EXPECT_FALSE(registry.Contains("Spread"));
  EXPECT_EQ(registry.Make("balance"), nullptr);
  registry.Register("Cost", [] { return MakeSteadyScorer(); });
  EXPECT_TRUE(registry.Contains("Cost"));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement
