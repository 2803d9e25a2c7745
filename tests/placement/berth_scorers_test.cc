// berth's prioritizers (ResourceAllocatableGPU, Cost, Latency, DataLocality) and
// ScorerRegistry::Berth(): inputs, formulas, "no entry" cases and warnings, as
// docs/placement.md ("berth extensions") specifies them.
#include "placement/berth_scorers.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "placement/fleet_builder.h"
#include "placement/placement_scheduler.h"

namespace berth::placement {
namespace BERTH_UNITY_ID {

using testing::BuiltIn;
using testing::Cluster;
using testing::GlobalHub;
using testing::MakePlacement;
using testing::SetResource;
using testing::T;

using Scores = std::vector<std::optional<int64_t>>;

struct Scored {
  Scores scores;
  std::vector<std::string> warnings;
};

Scored ScoreWith(const ClusterScorer& scorer, const std::vector<model::ManagedCluster>& clusters,
                 const model::Placement& placement, const FleetCapacity* capacity = nullptr) {
  model::Snapshot snap;
  snap.managed_clusters = clusters;
  std::vector<const model::ManagedCluster*> ptrs;
  for (const model::ManagedCluster& c : snap.managed_clusters) ptrs.push_back(&c);
  std::vector<std::string> existing;
  ScoreContext context{snap, placement, T(0), existing, capacity, nullptr};
  ScoreOutput out = scorer.Score(context, ptrs);
  return {out.scores, out.warnings};
}

model::ManagedCluster WithClaim(std::string name, std::string claim, std::string value,
                                core::Labels labels = {}) {
  model::ManagedCluster c = Cluster(std::move(name), std::move(labels));
  c.cluster_claims.push_back({std::move(claim), std::move(value)});
  return c;
}

// ---- ResourceAllocatableGPU ----

TEST(ResourceAllocatableGpuScorerTest, MinMaxOverFreeGpusFromFleetCapacity) {
  FleetCapacity capacity;
  capacity["a"].free_gpus = 0;
  capacity["b"].free_gpus = 4;
  capacity["c"].free_gpus = 16;
  capacity["d"].free_gpus = 10;
  Scored s = ScoreWith(*MakeResourceAllocatableGpuScorer(),
                       {Cluster("a"), Cluster("b"), Cluster("c"), Cluster("d")}, MakePlacement("p"),
                       &capacity);
  // trunc(((v − 0)/16 − 0.5) × 200): real counts, not a 0-20 range.
  EXPECT_EQ(s.scores, (Scores{-100, -50, 100, 25}));
  EXPECT_EQ(MakeResourceAllocatableGpuScorer()->Name(), "ResourceAllocatableGPU");
}

TEST(ResourceAllocatableGpuScorerTest, RestrictsToTheAnnotatedProductExactly) {
  FleetCapacity capacity;
  capacity["a"].free_gpus_by_product = {{"NVIDIA-H100-80GB-HBM3", 2}, {"NVIDIA-A100", 8}};
  capacity["b"].free_gpus_by_product = {{"NVIDIA-H100-80GB-HBM3", 6}};
  capacity["c"].free_gpus_by_product = {{"nvidia-h100-80gb-hbm3", 9}};  // not the same string
  model::Placement p = MakePlacement("p");
  p.meta.annotations[kGpuProductAnnotation] = "NVIDIA-H100-80GB-HBM3";
  Scored s = ScoreWith(*MakeResourceAllocatableGpuScorer(),
                       {Cluster("a"), Cluster("b"), Cluster("c")}, p, &capacity);
  // a: 2, b: 6, c: 0 of that product.
  EXPECT_EQ(s.scores, (Scores{-33, 100, -100}));
}

TEST(ResourceAllocatableGpuScorerTest, FallsBackToAllocatableWithoutACapacityEntry) {
  FleetCapacity capacity;
  capacity["a"].free_gpus = 2;
  model::ManagedCluster b = Cluster("b");
  SetResource(&b, "nvidia.com/gpu", "8", "");  // allocatable only is enough
  model::ManagedCluster c = Cluster("c");      // no data at all
  Scored s = ScoreWith(*MakeResourceAllocatableGpuScorer(), {Cluster("a"), b, c},
                       MakePlacement("p"), &capacity);
  EXPECT_EQ(s.scores, (Scores{-100, 100, std::nullopt}));
  // Status cannot tell products apart: with a product asked for, b has no data.
  model::Placement p = MakePlacement("p");
  p.meta.annotations[kGpuProductAnnotation] = "NVIDIA-A100";
  s = ScoreWith(*MakeResourceAllocatableGpuScorer(), {Cluster("a"), b}, p, &capacity);
  EXPECT_EQ(s.scores, (Scores{100, std::nullopt}));  // a: 0 of A100, alone: 100
}

TEST(ResourceAllocatableGpuScorerTest, EqualValuesAllScoreMaxAndClustersMayComeInAnyOrder) {
  FleetCapacity capacity;
  for (const char* name : {"x1", "x2", "x3"}) capacity[name].free_gpus = 3;
  Scored s =
      ScoreWith(*MakeResourceAllocatableGpuScorer(), {Cluster("x3"), Cluster("x1"), Cluster("x2")},
                MakePlacement("p"), &capacity);
  EXPECT_EQ(s.scores, (Scores{100, 100, 100}));
  capacity["x1"].free_gpus = 0;
  s = ScoreWith(*MakeResourceAllocatableGpuScorer(), {Cluster("x3"), Cluster("x1"), Cluster("x2")},
                MakePlacement("p"), &capacity);
  EXPECT_EQ(s.scores, (Scores{100, -100, 100}));
}

// ---- Cost ----

TEST(CostScorerTest, CheaperIsBetterClaimWinsOverLabel) {
  std::vector<model::ManagedCluster> clusters = {
      Cluster("a", {{kGpuHourPriceKey, "1.85"}}),
      WithClaim("b", kGpuHourPriceKey, "3.70", {{kGpuHourPriceKey, "0.10"}}),  // claim: 3.70
      Cluster("c", {{kGpuHourPriceKey, "2.775"}}),
  };
  Scored s = ScoreWith(*MakeCostScorer(), clusters, MakePlacement("p"));
  // min 1.85 → +100, max 3.70 → −100, midpoint → 0.
  EXPECT_EQ(s.scores, (Scores{100, -100, 0}));
  EXPECT_TRUE(s.warnings.empty());
}

TEST(CostScorerTest, CostClassesAreRelativePrices) {
  std::vector<model::ManagedCluster> clusters = {
      WithClaim("spot", kCostClassKey, "spot"),
      Cluster("reserved", {{kCostClassKey, "reserved"}}),
      WithClaim("ondemand", kCostClassKey, "on-demand"),
      WithClaim("premium", kCostClassKey, "premium"),
      Cluster("none"),
  };
  Scored s = ScoreWith(*MakeCostScorer(), clusters, MakePlacement("p"));
  // 0.3, 0.6, 1.0, 1.5 over [0.3, 1.5]: trunc(((1.5 − v)/1.2 − 0.5) × 200).
  EXPECT_EQ(s.scores, (Scores{100, 50, -16, -100, std::nullopt}));
  // A price wins over a class.
  model::ManagedCluster both = WithClaim("both", kCostClassKey, "spot", {{kGpuHourPriceKey, "9"}});
  s = ScoreWith(*MakeCostScorer(), {both, WithClaim("p2", kGpuHourPriceKey, "1")},
                MakePlacement("p"));
  EXPECT_EQ(s.scores, (Scores{-100, 100}));
}

TEST(CostScorerTest, UnparsablePriceOrUnknownClassWarnsAndGivesNoEntry) {
  std::vector<model::ManagedCluster> clusters = {
      Cluster("a", {{kGpuHourPriceKey, "1,85"}}),
      WithClaim("b", kGpuHourPriceKey, "-1"),
      WithClaim("c", kCostClassKey, "cheap"),
      Cluster("d", {{kGpuHourPriceKey, "2"}}),
  };
  Scored s = ScoreWith(*MakeCostScorer(), clusters, MakePlacement("p"));
  EXPECT_EQ(s.scores, (Scores{std::nullopt, std::nullopt, std::nullopt, 100}));
  EXPECT_EQ(s.warnings,
            (std::vector<std::string>{
                "Cost: cluster a: berth.dev/gpu-hour-price \"1,85\" is not a decimal price",
                "Cost: cluster b: berth.dev/gpu-hour-price \"-1\" is not a decimal price",
                "Cost: cluster c: berth.dev/cost-class \"cheap\" is not one of spot, reserved, "
                "on-demand, premium"}));
}

// ---- Latency ----

TEST(LatencyScorerTest, MeanOverUserLocationsLowerIsBetter) {
  model::Placement p = MakePlacement("p");
  p.meta.annotations[kUserLocationsAnnotation] = "eu-west, us-east";
  std::vector<model::ManagedCluster> clusters = {
      WithClaim("a", kLatencyClaim, "eu-west=10,us-east=90"),         // mean 50
      WithClaim("b", kLatencyClaim, "eu-west=20, us-east=40"),        // 30
      WithClaim("c", kLatencyClaim, "us-east=100,eu-west=120,ap=5"),  // 110
  };
  Scored s = ScoreWith(*MakeLatencyScorer(), clusters, p);
  // [30, 110]: trunc(((110 − v)/80 − 0.5) × 200).
  EXPECT_EQ(s.scores, (Scores{50, 100, -100}));
}

TEST(LatencyScorerTest, TheClustersOwnRegionIsZeroWhenTheTableLacksIt) {
  model::Placement p = MakePlacement("p");
  p.meta.annotations[kUserLocationsAnnotation] = "eu-west,us-east";
  model::ManagedCluster label_region =
      WithClaim("a", kLatencyClaim, "us-east=80", {{kRegionKey, "eu-west"}});  // (0 + 80)/2
  model::ManagedCluster claim_region = WithClaim("b", kLatencyClaim, "eu-west=60");
  claim_region.cluster_claims.push_back({kRegionKey, "us-east"});  // (60 + 0)/2
  model::ManagedCluster topology =
      WithClaim("c", kLatencyClaim, "eu-west=20", {{kTopologyRegionLabel, "us-east"}});  // 10
  model::ManagedCluster unknown = WithClaim("d", kLatencyClaim, "eu-west=1");            // us-east?
  model::ManagedCluster in_table = WithClaim("e", kLatencyClaim, "eu-west=5,us-east=15",
                                             {{kRegionKey, "eu-west"}});  // table wins: 10
  Scored s =
      ScoreWith(*MakeLatencyScorer(), {label_region, claim_region, topology, unknown, in_table}, p);
  // [10, 40]: a 40 → −100, b 30 → −33, c 10 → 100, e 10 → 100.
  EXPECT_EQ(s.scores, (Scores{-100, -33, 100, std::nullopt, 100}));
}

TEST(LatencyScorerTest, NoAnnotationNoEntriesAndABadTableWarns) {
  std::vector<model::ManagedCluster> clusters = {WithClaim("a", kLatencyClaim, "eu-west=10"),
                                                 WithClaim("b", kLatencyClaim, "eu-west")};
  Scored s = ScoreWith(*MakeLatencyScorer(), clusters, MakePlacement("p"));
  EXPECT_EQ(s.scores, (Scores{std::nullopt, std::nullopt}));
  EXPECT_TRUE(s.warnings.empty());
  model::Placement p = MakePlacement("p");
  p.meta.annotations[kUserLocationsAnnotation] = "eu-west";
  s = ScoreWith(*MakeLatencyScorer(), clusters, p);
  EXPECT_EQ(s.scores, (Scores{100, std::nullopt}));
  EXPECT_EQ(s.warnings, std::vector<std::string>{
                            "Latency: cluster b: claim latency.berth.dev \"eu-west\" is not a "
                            "list of location=milliseconds"});
}

// ---- DataLocality ----

TEST(DataLocalityScorerTest, ShareOfBytesCachedFromClaims) {
  model::Placement p = MakePlacement("p", "team-a");
  p.meta.annotations[kModelsAnnotation] = "llama-3-70b=140Gi, mistral-7b=14Gi";
  p.meta.annotations[kDatasetsAnnotation] = "team-a/corpus=26Gi";  // 180Gi in all
  model::ManagedCluster all = WithClaim("all", kModelsCacheClaim, "mistral-7b,llama-3-70b");
  all.cluster_claims.push_back({kDatasetsCacheClaim, "team-a/corpus"});
  model::ManagedCluster llama = WithClaim("llama", kModelsCacheClaim, "llama-3-70b");
  model::ManagedCluster data = WithClaim("data", kDatasetsCacheClaim, "team-b/x, team-a/corpus");
  model::ManagedCluster none = WithClaim("none", kModelsCacheClaim, "");
  model::ManagedCluster unknown = Cluster("unknown");  // no claims, no capacity entry
  Scored s = ScoreWith(*MakeDataLocalityScorer(), {all, llama, data, none, unknown}, p);
  // trunc(200 × cached/180 − 100): 180 → 100, 140 → 55, 26 → −71, 0 → −100.
  EXPECT_EQ(s.scores, (Scores{100, 55, -71, -100, std::nullopt}));
}

TEST(DataLocalityScorerTest, FleetCapacityCachesAndUnsizedArtifactsCountEqually) {
  model::Placement p = MakePlacement("p", "team-a");
  p.meta.annotations[kModelsAnnotation] = "m1,m2";
  p.meta.annotations[kDatasetsAnnotation] = "corpus,team-b/eval";  // corpus: team-a/corpus
  FleetCapacity capacity;
  capacity["a"].cached_artifacts = {"model/m1", "dataset/team-a/corpus", "dataset/team-b/eval"};
  capacity["b"].cached_artifacts = {"model/m2"};
  capacity["c"].cached_artifacts = {"dataset/team-b/corpus"};  // another namespace's corpus
  Scored s = ScoreWith(*MakeDataLocalityScorer(), {Cluster("a"), Cluster("b"), Cluster("c")}, p,
                       &capacity);
  // 4 artifacts of size 1: a holds 3 → 50, b 1 → −50, c 0 → −100.
  EXPECT_EQ(s.scores, (Scores{50, -50, -100}));
}

TEST(DataLocalityScorerTest, NoAnnotationsNoEntriesAndBadSizesWarn) {
  FleetCapacity capacity;
  capacity["a"].cached_artifacts = {"model/m1"};
  Scored s = ScoreWith(*MakeDataLocalityScorer(), {Cluster("a")}, MakePlacement("p"), &capacity);
  EXPECT_EQ(s.scores, (Scores{std::nullopt}));
  model::Placement p = MakePlacement("p");
  p.meta.annotations[kModelsAnnotation] = "m1=lots,m2=0,m3=10Gi";
  s = ScoreWith(*MakeDataLocalityScorer(), {Cluster("a")}, p, &capacity);
  EXPECT_EQ(s.scores, (Scores{-100}));  // only m3 counts; a does not hold it
  EXPECT_EQ(s.warnings,
            (std::vector<std::string>{
                "DataLocality: Placement ns/p: berth.dev/models item \"m1=lots\" needs a name and "
                "a positive size",
                "DataLocality: Placement ns/p: berth.dev/models item \"m2=0\" needs a name and a "
                "positive size"}));
}

// ---- the registry and SchedulePlacement ----

TEST(BerthRegistryTest, HoldsUpstreamsFourAndBerthsFour) {
  ScorerRegistry registry = ScorerRegistry::Berth();
  for (const char* name :
       {"Balance", "Steady", "ResourceAllocatableCPU", "ResourceAllocatableMemory",
        "ResourceAllocatableGPU", "Cost", "Latency", "DataLocality"}) {
    ASSERT_TRUE(registry.Contains(name)) << name;
    EXPECT_EQ(registry.Make(name)->Name(), name);
  }
  EXPECT_FALSE(registry.Contains("Spread"));
  EXPECT_FALSE(ScorerRegistry::Upstream().Contains("Cost"));
}

TEST(BerthRegistryTest, SchedulePlacementUsesBerthsByDefault) {
  model::Snapshot snap = GlobalHub(
      {Cluster("cheap", {{kCostClassKey, "spot"}}), Cluster("dear", {{kCostClassKey, "premium"}})});
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 1;
  p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  p.prioritizer_policy.configurations = {BuiltIn("Cost", 3)};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.selected, std::vector<std::string>{"cheap"});
  EXPECT_EQ(out.clusters[0].total, 300);
  EXPECT_EQ(out.clusters[1].total, -300);
  ASSERT_EQ(out.prioritizers.size(), 1u);
  EXPECT_EQ(out.prioritizers[0].name, "Cost");
  // An unknown name keeps upstream's message.
  p.prioritizer_policy.configurations = {BuiltIn("Costs", 1)};
  out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.misconfigured.reason, "Misconfigured");
  EXPECT_EQ(out.misconfigured.message, ":incorrect builtin prioritizer: Costs");
  EXPECT_TRUE(out.selected.empty());
}

TEST(BerthRegistryTest, CapacityReachesTheScorersThroughScheduleOptions) {
  model::Snapshot snap = GlobalHub({Cluster("a"), Cluster("b"), Cluster("c")});
  FleetCapacity capacity;
  capacity["a"].free_gpus = 1;
  capacity["b"].free_gpus = 7;
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 1;
  p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  p.prioritizer_policy.configurations = {BuiltIn("ResourceAllocatableGPU", 1)};
  ScheduleOptions options;
  options.capacity = &capacity;
  PlacementOutcome out = SchedulePlacement(snap, p, T(0), options);
  EXPECT_EQ(out.selected, std::vector<std::string>{"b"});
  // c has no data: no score term, total 0.
  EXPECT_EQ(out.ScoresOf(out.clusters[2]).size(), 0u);
  EXPECT_EQ(out.ScoresOf(out.clusters[1])[0].score, 100);
  // Without capacity nobody has data and names decide.
  EXPECT_EQ(SchedulePlacement(snap, p, T(0)).selected, std::vector<std::string>{"a"});
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement
