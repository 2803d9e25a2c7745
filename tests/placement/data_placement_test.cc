// Data-aware placement (issue 19): DataLocality by estimated load time (with the engine's
// DataLoadTimeModel, i.e. data's transfer model and default bandwidths: 0.3 GB/s origin
// stream, 0.06 GB/s across regions, 1.25 GB/s cluster cache and NIC, 25 GB/s host to GPU),
// and the DataResidency filter. Load times below are worked by hand from docs/data.md.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/data_load_time.h"
#include "model/berth_names.h"
#include "model/data_residency.h"
#include "placement/berth_scorers.h"
#include "placement/fleet_builder.h"
#include "placement/placement_artifacts.h"
#include "placement/placement_scheduler.h"
#include "placement/residency_filter.h"

namespace berth::placement {
namespace BERTH_UNITY_ID {

using testing::BuiltIn;
using testing::Cluster;
using testing::GlobalHub;
using testing::MakePlacement;
using testing::T;

model::ManagedCluster InRegion(std::string name, std::string region) {
  return Cluster(std::move(name), {{kRegionKey, std::move(region)}});
}

model::ManagedCluster Claiming(model::ManagedCluster c, std::string claim, std::string value) {
  c.cluster_claims.push_back({std::move(claim), std::move(value)});
  return c;
}

model::Placement DataPlacement() {
  model::Placement p = MakePlacement("p");
  p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  p.prioritizer_policy.configurations = {BuiltIn(kDataLocalityScorer, 1)};
  return p;
}

struct Row {
  std::string cluster;
  bool feasible = false;
  std::optional<int64_t> score;
  std::string note;
  std::string rejection;  // "Plugin/Reason: message"
};

std::vector<Row> Rows(const PlacementOutcome& out) {
  std::vector<Row> rows;
  for (const ClusterVerdict& v : out.clusters) {
    Row r;
    r.cluster = v.cluster_name;
    r.feasible = v.feasible;
    for (const ScoreTerm& t : out.ScoresOf(v)) {
      r.score = t.score;
      if (const std::string* n = out.NoteOf(t)) r.note = *n;
    }
    if (const model::Rejection* j = out.RejectionOf(v)) {
      r.rejection = j->plugin + "/" + j->reason + ": " + j->message;
    }
    rows.push_back(r);
  }
  return rows;
}

PlacementOutcome Schedule(const model::Snapshot& snap, const model::Placement& p) {
  const engine::DataLoadTimeModel model;
  ScheduleOptions options;
  options.load_time = &model;
  return SchedulePlacement(snap, p, T(0), options);
}

model::Dataset FluidDataset(std::string ns, std::string name, std::string cluster = "default") {
  model::Dataset d;
  d.meta.namespace_ = std::move(ns);
  d.meta.name = std::move(name);
  d.cluster = std::move(cluster);
  return d;
}

// ---- load time ----

TEST(DataLoadTimeModelTest, OneNodeFromCacheSameRegionOriginAndAcrossRegions) {
  const engine::DataLoadTimeModel model;
  LoadQuery q;
  q.size_bytes = 120'000'000'000;
  q.origin_region = "us-east-1";
  q.cluster_region = "us-east-1";
  // 120 GB / 0.3 GB/s + 120 / 25 = 400 + 4.8.
  std::optional<LoadTimeEstimate> e = model.Estimate(q);
  ASSERT_TRUE(e.has_value());
  EXPECT_DOUBLE_EQ(e->seconds, 404.8);
  EXPECT_EQ(e->path, LoadPath::kOriginSameRegion);
  // 120 / 0.06 + 4.8.
  q.cluster_region = "eu-west-1";
  e = model.Estimate(q);
  EXPECT_NEAR(e->seconds, 2004.8, 1e-9);
  EXPECT_EQ(e->path, LoadPath::kOriginCrossRegion);
  // The cluster's cache holds it: 120 / 1.25 + 4.8.
  q.cluster_cached_fraction = 1.0;
  e = model.Estimate(q);
  EXPECT_NEAR(e->seconds, 100.8, 1e-9);
  EXPECT_EQ(e->path, LoadPath::kClusterCache);
  // An origin of unknown region counts as remote even "in" the same region.
  q.cluster_cached_fraction = 0;
  q.origin_region = "";
  q.cluster_region = "";
  EXPECT_NEAR(model.Estimate(q)->seconds, 2004.8, 1e-9);
  // A size data rejects: no estimate.
  q.size_bytes = 0;
  EXPECT_FALSE(model.Estimate(q).has_value());
}

TEST(DataLocalityLoadTimeTest, CachedBeatsSameRegionBeatsCrossRegion) {
  model::Snapshot snap =
      GlobalHub({Claiming(Cluster("cached"), kModelsCacheClaim, "mistral-7b, llama-3-70b"),
                 InRegion("far", "eu-west-1"), InRegion("near", "us-east-1"), Cluster("unknown")});
  model::Placement p = DataPlacement();
  p.meta.annotations[kModelsAnnotation] = "llama-3-70b=120G";
  p.meta.annotations[model::kBerthOriginRegionKey] = "us-east-1";
  PlacementOutcome out = Schedule(snap, p);
  std::vector<Row> rows = Rows(out);
  ASSERT_EQ(rows.size(), 4u);
  // cached 100.8 s, near 404.8 s, far 2004.8 s: min-max, lower is better;
  // near: trunc(((2004.8 − 404.8) / (2004.8 − 100.8) − 0.5) × 200) = trunc(68.07).
  EXPECT_EQ(rows[0].cluster, "cached");
  EXPECT_EQ(rows[0].score, 100);
  EXPECT_EQ(rows[0].note, "load 100.8 s: llama-3-70b (120.0 GB) from the cluster cache");
  EXPECT_EQ(rows[1].cluster, "far");
  EXPECT_EQ(rows[1].score, -100);
  EXPECT_EQ(rows[1].note,
            "load 2004.8 s: llama-3-70b (120.0 GB) from the origin in us-east-1, across regions");
  EXPECT_EQ(rows[2].cluster, "near");
  EXPECT_EQ(rows[2].score, 68);
  EXPECT_EQ(rows[2].note, "load 404.8 s: llama-3-70b (120.0 GB) from the origin in us-east-1");
  // Neither a cache claim, a FleetCapacity entry nor a region: nothing known, no entry.
  EXPECT_EQ(rows[3].cluster, "unknown");
  EXPECT_EQ(rows[3].score, std::nullopt);
  // No entry gains nothing (0), which ranks above far's −100.
  EXPECT_EQ(out.selected, (std::vector<std::string>{"cached", "near", "unknown", "far"}));
  EXPECT_TRUE(out.warnings.empty());
}

TEST(DataLocalityLoadTimeTest, SizesFromFluidAndKServeAndFluidCacheFractions) {
  model::Snapshot snap =
      GlobalHub({InRegion("half", "us-east-1"), InRegion("cold", "us-east-1"),
                 Claiming(InRegion("full", "us-east-1"), kDatasetsCacheClaim, "ns/corpus")});
  // The dataset's size from its status.ufsTotal, its origin's region from its annotation;
  // member cluster "half" holds half of it in its Fluid cache.
  model::Dataset hub = FluidDataset("ns", "corpus");
  hub.ufs_total_bytes = 100'000'000'000;
  hub.meta.annotations[model::kBerthOriginRegionKey] = "us-east-1";
  model::Dataset member = FluidDataset("ns", "corpus", "half");
  member.cache.cached_percentage = 50.0;
  snap.datasets = {hub, member};
  // The model's size from the InferenceService whose cache name it is.
  model::InferenceServiceModel isvc;
  isvc.meta.namespace_ = "ns";
  isvc.meta.name = "chat";
  isvc.meta.annotations[model::kBerthModelsKey] = "tiny";
  isvc.size_bytes = 3'000'000'000;
  isvc.origin_region = "us-east-1";
  snap.inference_services = {isvc};
  model::Placement p = DataPlacement();
  p.meta.annotations[kModelsAnnotation] = "tiny";
  p.meta.annotations[kDatasetsAnnotation] = "corpus";
  PlacementOutcome out = Schedule(snap, p);
  std::vector<Row> rows = Rows(out);
  ASSERT_EQ(rows.size(), 3u);
  // tiny from the origin in region everywhere: 3 / 0.3 + 3 / 25 = 10.12 s.
  // corpus: cold 100 / 0.3 + 100 / 25 = 337.33 s; full 100 / 1.25 + 4 = 84 s;
  // half: 50 / 1.25 + 50 / 0.3 + 4 = 210.67 s.
  EXPECT_EQ(rows[0].cluster, "cold");
  EXPECT_EQ(rows[0].score, -100);
  EXPECT_EQ(rows[0].note,
            "load 347.5 s: tiny (3.0 GB) 10.1 s from the origin in us-east-1; ns/corpus "
            "(100.0 GB) 337.3 s from the origin in us-east-1");
  EXPECT_EQ(rows[1].cluster, "full");
  EXPECT_EQ(rows[1].score, 100);
  EXPECT_EQ(rows[2].cluster, "half");
  // trunc(((347.45 − 220.79) / (347.45 − 94.12) − 0.5) × 200) = trunc(−0.0).
  EXPECT_EQ(rows[2].score, 0);
  EXPECT_EQ(rows[2].note,
            "load 220.8 s: tiny (3.0 GB) 10.1 s from the origin in us-east-1; ns/corpus "
            "(100.0 GB) 210.7 s from the cluster cache (50% cached, the rest from the origin)");
}

TEST(DataLocalityLoadTimeTest, WithoutALoadTimeModelScoresTheShareOfBytesCached) {
  model::Snapshot snap = GlobalHub({Claiming(Cluster("a"), kModelsCacheClaim, "m1"),
                                    Claiming(Cluster("b"), kModelsCacheClaim, "m2")});
  model::Placement p = DataPlacement();
  p.meta.annotations[kModelsAnnotation] = "m1=30G,m2=10G";
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  std::vector<Row> rows = Rows(out);
  EXPECT_EQ(rows[0].score, 50);   // 200 × 30/40 − 100
  EXPECT_EQ(rows[1].score, -50);  // 200 × 10/40 − 100
  EXPECT_EQ(rows[0].note, "");
}

TEST(DataLocalityLoadTimeTest, AnUnknownDatasetWithoutASizeWarnsAndCountsOneByte) {
  model::Snapshot snap = GlobalHub({Claiming(Cluster("a"), kDatasetsCacheClaim, "ns/ghost")});
  model::Placement p = DataPlacement();
  p.meta.annotations[kDatasetsAnnotation] = "ghost";
  PlacementOutcome out = Schedule(snap, p);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(out.warnings[0],
            "DataLocality: dataset ns/ghost has no size: no Fluid Dataset ns/ghost is in the "
            "input; give it as \"ns/ghost=SIZE\" in berth.dev/datasets (1 byte is counted)");
  EXPECT_EQ(Rows(out)[0].score, 100);
}

TEST(DataLocalityLoadTimeTest, AnUnsizedModelBesideSizedOnesWarnsButAllUnsizedDoNot) {
  model::Snapshot snap = GlobalHub({Claiming(Cluster("a"), kModelsCacheClaim, "llama")});
  model::Placement p = DataPlacement();
  p.meta.annotations[kModelsAnnotation] = "llama, mistral";
  EXPECT_TRUE(Schedule(snap, p).warnings.empty());
  p.meta.annotations[kModelsAnnotation] = "llama=140Gi, mistral";
  PlacementOutcome out = Schedule(snap, p);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].find("model mistral has no size beside sized artifacts"),
            std::string::npos)
      << out.warnings[0];
}

// ---- residency ----

model::Snapshot ResidencyHub() {
  // us-1 holds the data in its cache, so DataLocality alone would pick it first.
  model::Snapshot snap = GlobalHub(
      {Claiming(InRegion("eu-1", "eu-west-1"), model::kComplianceClaim, "gdpr,iso27001"),
       Claiming(Claiming(InRegion("us-1", "us-east-1"), kDatasetsCacheClaim, "team-a/patients"),
                model::kComplianceClaim, "gdpr"),
       Cluster("x-1", {{kTopologyRegionLabel, "eu-west-1"}}), Cluster("nowhere")});
  model::Dataset d = FluidDataset("team-a", "patients");
  d.ufs_total_bytes = 50'000'000'000;
  d.meta.annotations[model::kBerthDataRegionsKey] = "eu-west-1";
  snap.datasets = {d};
  return snap;
}

TEST(ResidencyFilterTest, RejectsClustersOutsideTheAllowedRegionsOrOfUnknownRegion) {
  model::Snapshot snap = ResidencyHub();
  model::Placement p = DataPlacement();
  p.meta.annotations[kDatasetsAnnotation] = "team-a/patients";
  PlacementOutcome out = Schedule(snap, p);
  std::vector<Row> rows = Rows(out);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_TRUE(rows[0].feasible);  // eu-1
  EXPECT_FALSE(rows[1].feasible);
  EXPECT_EQ(rows[1].cluster, "nowhere");
  EXPECT_EQ(rows[1].rejection,
            "DataResidency/RegionUnknown: dataset team-a/patients may stay in eu-west-1 only "
            "(Dataset team-a/patients); the cluster's region is unknown (no claim or label "
            "region.open-cluster-management.io, no label topology.kubernetes.io/region)");
  EXPECT_FALSE(rows[2].feasible);
  EXPECT_EQ(rows[2].cluster, "us-1");
  EXPECT_EQ(rows[2].rejection,
            "DataResidency/RegionNotAllowed: dataset team-a/patients may stay in eu-west-1 "
            "only (Dataset team-a/patients); the cluster is in us-east-1");
  EXPECT_TRUE(rows[3].feasible);  // x-1: the topology label
  EXPECT_EQ(out.selected, (std::vector<std::string>{"eu-1", "x-1"}));
}

TEST(ResidencyFilterTest, PlacementAndInferenceServiceRulesAndCompliance) {
  model::Snapshot snap = ResidencyHub();
  snap.datasets[0].meta.annotations.erase(model::kBerthDataRegionsKey);
  snap.datasets[0].meta.annotations[model::kBerthDataComplianceKey] = "gdpr, iso27001";
  model::Placement p = DataPlacement();
  p.meta.annotations[kDatasetsAnnotation] = "team-a/patients";
  PlacementOutcome out = Schedule(snap, p);
  std::vector<Row> rows = Rows(out);
  EXPECT_TRUE(rows[0].feasible);  // eu-1 claims both
  EXPECT_EQ(rows[1].rejection,
            "DataResidency/ComplianceNotClaimed: dataset team-a/patients requires compliance "
            "gdpr,iso27001; the cluster has no compliance.berth.dev claim (Dataset "
            "team-a/patients)");
  EXPECT_EQ(rows[2].rejection,
            "DataResidency/ComplianceNotClaimed: dataset team-a/patients requires compliance "
            "gdpr,iso27001; the cluster claims compliance.berth.dev=gdpr (Dataset "
            "team-a/patients)");
  // The placement's own list, and a model's from its InferenceService.
  model::InferenceServiceModel isvc;
  isvc.meta.namespace_ = "ns";
  isvc.meta.name = "chat";
  isvc.meta.annotations[model::kBerthModelsKey] = "llama";
  isvc.meta.annotations[model::kBerthDataRegionsKey] = "eu-west-1, us-east-1";
  snap.inference_services = {isvc};
  snap.datasets.clear();
  p.meta.annotations.erase(kDatasetsAnnotation);
  p.meta.annotations[kModelsAnnotation] = "llama=1G";
  p.meta.annotations[model::kBerthDataRegionsKey] = "us-east-1";
  rows = Rows(Schedule(snap, p));
  EXPECT_EQ(rows[0].rejection,
            "DataResidency/RegionNotAllowed: the data of placement ns/p may stay in us-east-1 "
            "only (Placement ns/p); the cluster is in eu-west-1");
  EXPECT_TRUE(rows[2].feasible);  // us-1
  isvc.meta.annotations[model::kBerthDataRegionsKey] = "eu-west-1";
  snap.inference_services = {isvc};
  rows = Rows(Schedule(snap, p));
  EXPECT_EQ(rows[2].rejection,
            "DataResidency/RegionNotAllowed: model llama may stay in eu-west-1 only "
            "(InferenceService ns/chat); the cluster is in us-east-1");
}

TEST(ResidencyFilterTest, ABadRegionListWarnsAndAdmitsNoCluster) {
  model::Snapshot snap = ResidencyHub();
  snap.datasets[0].meta.annotations[model::kBerthDataRegionsKey] = "eu-west-1,,eu-central-1";
  model::Placement p = DataPlacement();
  p.meta.annotations[kDatasetsAnnotation] = "team-a/patients";
  PlacementOutcome out = Schedule(snap, p);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(out.warnings[0],
            "DataResidency: Dataset team-a/patients "
            "metadata.annotations[berth.dev/data-regions] \"eu-west-1,,eu-central-1\": entry 2 "
            "is empty; expected comma-separated regions such as \"eu-west-1,eu-central-1\"; no "
            "cluster may hold the data until it is fixed");
  EXPECT_TRUE(out.selected.empty());
  for (const Row& r : Rows(out)) {
    EXPECT_FALSE(r.feasible);
    EXPECT_EQ(r.rejection.substr(0, 43), "DataResidency/ResidencyInvalid: dataset tea");
  }
  EXPECT_EQ(out.rejections.size(), 1u);  // one message, shared by every cluster
  EXPECT_EQ(out.rejections[0].count, 4);
}

TEST(ResidencyFilterTest, ParseRegionListNamesTheProblem) {
  EXPECT_EQ(model::ParseRegionList(" eu-west-1 , eu-central-1 ").value(),
            (std::vector<std::string>{"eu-west-1", "eu-central-1"}));
  EXPECT_FALSE(model::ParseRegionList("").has_value());
  EXPECT_FALSE(model::ParseRegionList("eu-west-1,").has_value());
  auto bad = model::ParseRegionList("eu west");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message(),
            "\"eu west\": \"eu west\" is not a region name (letters, digits, '-', '_', '.'); "
            "expected comma-separated regions such as \"eu-west-1,eu-central-1\"");
}

TEST(ResidencyFilterTest, NoRulesNoFilter) {
  PlacementArtifacts artifacts = ResolveArtifacts(ResidencyHub(), MakePlacement("p"));
  EXPECT_TRUE(artifacts.rules.empty());
  ResidencyFilter filter(artifacts.rules);
  EXPECT_TRUE(filter.empty());
  EXPECT_EQ(filter.Check(Cluster("any")), nullptr);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement
