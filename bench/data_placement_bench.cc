// berth_data_placement_bench: placement::SchedulePlacement of one Placement that names three
// artifacts (models llama-3-70b = 140Gi and mistral-7b, whose size comes from its
// InferenceService, and the Fluid Dataset team-a/patients, 200 GiB from its status.ufsTotal)
// over a synthetic hub of 10,000 ManagedClusters in 8 regions (1% without a region). Caches
// by claim: llama on every 10th cluster, mistral on every 5th, the dataset on every 7th.
// The dataset may stay in eu-west-1 or eu-central-1 only and requires gdpr, which two
// clusters in three claim. DataLocality (weight 1) ranks by the engine's DataLoadTimeModel,
// numberOfClusters 20.
// The answer is checked first: the feasible clusters are exactly those in the two EU regions
// claiming gdpr (counted independently), no selected cluster is forbidden, and the 20
// selected are the first 20 by name of the allowed clusters caching all three artifacts
// (they tie at the fastest load time). A baseline runs the same hub and prioritizer with no
// artifacts named. Prints peak RSS after the run.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/data_load_time.h"
#include "model/berth_names.h"
#include "model/data_residency.h"
#include "model/ocm.h"
#include "model/snapshot.h"
#include "placement/placement_scheduler.h"

namespace berth::bench {
namespace {

const char* const kRegions[] = {"eu-west-1",      "eu-central-1", "us-east-1", "us-west-2",
                                "ap-northeast-1", "ap-south-1",   "sa-east-1", "ca-central-1"};

bool HasRegion(int32_t i) { return i % 100 != 42; }
int32_t RegionOf(int32_t i) { return i % 8; }
bool CachesLlama(int32_t i) { return i % 10 == 0; }
bool CachesMistral(int32_t i) { return i % 5 == 0; }
bool CachesPatients(int32_t i) { return i % 7 == 0; }
bool ClaimsGdpr(int32_t i) { return i % 3 != 2; }
bool Allowed(int32_t i) { return HasRegion(i) && RegionOf(i) <= 1 && ClaimsGdpr(i); }

std::string Name(int32_t i) {
  std::string name = "cluster-";
  name += std::to_string(i);
  return name;
}

model::Snapshot MakeHub(int32_t clusters) {
  model::Snapshot snap;
  snap.managed_clusters.reserve(static_cast<size_t>(clusters));
  for (int32_t i = 0; i < clusters; ++i) {
    model::ManagedCluster c;
    c.meta.name = Name(i);
    if (HasRegion(i)) {
      // Half say their region as a claim, half as the topology label.
      if (i % 2 == 0) {
        c.cluster_claims.push_back({"region.open-cluster-management.io", kRegions[RegionOf(i)]});
      } else {
        c.meta.labels["topology.kubernetes.io/region"] = kRegions[RegionOf(i)];
      }
    }
    std::string models;
    if (CachesLlama(i)) models = "llama-3-70b";
    if (CachesMistral(i)) models += models.empty() ? "mistral-7b" : ",mistral-7b";
    if (!models.empty()) c.cluster_claims.push_back({"models.cache.berth.dev", models});
    if (CachesPatients(i))
      c.cluster_claims.push_back({"datasets.cache.berth.dev", "team-a/patients"});
    if (ClaimsGdpr(i)) c.cluster_claims.push_back({model::kComplianceClaim, "gdpr,iso27001"});
    model::Condition available;
    available.type = model::kConditionClusterAvailable;
    available.status = model::ConditionStatus::kTrue;
    available.last_transition_time = core::Timestamp{0};
    c.conditions.push_back(available);
    snap.managed_clusters.push_back(std::move(c));
  }
  model::ManagedClusterSetBinding binding;
  binding.meta.name = "global";
  binding.meta.namespace_ = "team-a";
  binding.cluster_set = "global";
  snap.managed_cluster_set_bindings.push_back(binding);
  model::Dataset patients;
  patients.meta.namespace_ = "team-a";
  patients.meta.name = "patients";
  patients.ufs_total_bytes = int64_t{200} << 30;
  patients.meta.annotations[model::kBerthDataRegionsKey] = "eu-west-1,eu-central-1";
  patients.meta.annotations[model::kBerthDataComplianceKey] = "gdpr";
  patients.meta.annotations[model::kBerthOriginRegionKey] = "eu-west-1";
  snap.datasets.push_back(patients);
  model::InferenceServiceModel mistral;
  mistral.meta.namespace_ = "team-a";
  mistral.meta.name = "mistral";
  mistral.meta.annotations[model::kBerthModelsKey] = "mistral-7b";
  mistral.size_bytes = int64_t{15} << 30;
  mistral.origin_region = "us-east-1";
  snap.inference_services.push_back(mistral);
  return snap;
}

model::Placement MakePlacement(bool with_data) {
  model::Placement p;
  p.meta.name = "train";
  p.meta.namespace_ = "team-a";
  if (with_data) {
    p.meta.annotations[model::kBerthModelsKey] = "llama-3-70b=140Gi,mistral-7b";
    p.meta.annotations[model::kBerthDatasetsKey] = "patients";
    p.meta.annotations[model::kBerthOriginRegionKey] = "us-east-1";
  }
  p.number_of_clusters = 20;
  p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  model::PrioritizerConfig data;
  data.score_coordinate =
      model::ScoreCoordinate{model::ScoreCoordinateType::kBuiltIn, "DataLocality", "", ""};
  data.weight = 1;
  p.prioritizer_policy.configurations = {data};
  return p;
}

[[noreturn]] void Wrong(const char* what) {
  std::fprintf(stderr, "wrong answer: %s\n", what);
  std::abort();
}

void Check(const placement::PlacementOutcome& out, int32_t clusters) {
  int32_t want_feasible = 0;
  std::vector<std::string> fastest;
  for (int32_t i = 0; i < clusters; ++i) {
    if (!Allowed(i)) continue;
    ++want_feasible;
    if (CachesLlama(i) && CachesMistral(i) && CachesPatients(i)) fastest.push_back(Name(i));
  }
  std::sort(fastest.begin(), fastest.end());
  if (fastest.size() < 20) Wrong("fewer than 20 allowed clusters cache everything");
  fastest.resize(20);
  int32_t feasible = 0;
  for (const placement::ClusterVerdict& v : out.clusters) {
    feasible += v.feasible ? 1 : 0;
    const int32_t i = std::stoi(v.cluster_name.substr(8));
    if (v.feasible != Allowed(i)) Wrong("a cluster's residency verdict");
    if (v.selected && !Allowed(i)) Wrong("a forbidden cluster was selected");
  }
  if (feasible != want_feasible) Wrong("feasible count");
  if (out.selected != fastest) Wrong("the selected clusters are not the cached allowed ones");
}

void Run(benchmark::State& state, bool with_data) {
  const auto clusters = static_cast<int32_t>(state.range(0));
  const model::Snapshot snap = MakeHub(clusters);
  const model::Placement placement = MakePlacement(with_data);
  const engine::DataLoadTimeModel load_time;
  placement::ScheduleOptions options;
  options.load_time = &load_time;
  placement::PlacementOutcome first =
      placement::SchedulePlacement(snap, placement, {1000}, options);
  if (with_data) {
    Check(first, clusters);
    std::printf("feasible %zu of %d; selected %s .. %s; note of the first: %s\n",
                static_cast<size_t>(std::count_if(first.clusters.begin(), first.clusters.end(),
                                                  [](const auto& v) { return v.feasible; })),
                clusters, first.selected.front().c_str(), first.selected.back().c_str(),
                first.score_notes.empty() ? "-" : first.score_notes.front().c_str());
  } else if (first.number_of_selected_clusters != 20) {
    Wrong("baseline selection");
  }
  for (auto _ : state) {
    placement::PlacementOutcome out =
        placement::SchedulePlacement(snap, placement, {1000}, options);
    benchmark::DoNotOptimize(out.selected.data());
  }
  state.counters["clusters/s"] =
      benchmark::Counter(static_cast<double>(clusters) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["s/Placement"] =
      benchmark::Counter(static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_DataPlacement_10kClusters(benchmark::State& state) { Run(state, true); }
BENCHMARK(BM_DataPlacement_10kClusters)->Arg(10000)->Unit(benchmark::kMillisecond);

// The same hub and prioritizer with no artifacts named: what the data rules add.
void BM_DataPlacement_10kClusters_NoArtifacts(benchmark::State& state) { Run(state, false); }
BENCHMARK(BM_DataPlacement_10kClusters_NoArtifacts)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("peak RSS: %.1f MiB\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
  return 0;
}
