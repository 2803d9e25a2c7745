// berth_placement_bench: placement::SchedulePlacement of one Placement over a synthetic hub
// of 10,000 ManagedClusters (4 regions, 3 clouds, a few tainted or unreachable, allocatable
// cpu/memory/GPUs, GPU prices or cost classes, an AddOnPlacementScore for most clusters,
// measured FleetCapacity for half of them, earlier decisions of other placements).
// The Placement has label, claim and CEL predicates (the CEL one calls
// managedCluster.scores()), a toleration and five prioritizers (Balance, Steady,
// ResourceAllocatableGPU, Cost, an AddOn score), numberOfClusters 50 in 10%-groups.
// Variants: the AddOnPlacementScore index built by the caller once (as the engine does for
// many placements), spreadPolicy over the regions, and the issue-5 groundwork workload
// (three prioritizers, no scores() call) for comparison with the figures before.
// Each benchmark first checks its answer against an independent count of the feasible
// clusters and the selected count. After the run it prints the peak RSS.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "model/ocm.h"
#include "model/snapshot.h"
#include "placement/addon_score_index.h"
#include "placement/fleet_capacity.h"
#include "placement/placement_scheduler.h"

namespace berth::bench {
namespace {

const char* const kRegions[] = {"eu", "us", "asia", "sa"};
const char* const kClouds[] = {"aws", "gcp", "azure"};
const char* const kClasses[] = {"spot", "reserved", "on-demand", "premium"};

int32_t AddOnValue(int32_t i) { return (i * 13) % 201 - 100; }
bool HasAddOnScore(int32_t i) { return i % 50 != 7; }

model::Snapshot MakeHub(int32_t clusters) {
  model::Snapshot snap;
  snap.managed_clusters.reserve(static_cast<size_t>(clusters));
  for (int32_t i = 0; i < clusters; ++i) {
    model::ManagedCluster c;
    c.meta.name = "cluster-" + std::to_string(i);
    c.meta.labels["region"] = kRegions[i % 4];
    c.meta.labels["tier"] = i % 5 == 0 ? "bronze" : "gold";
    c.cluster_claims.push_back({"platform.open-cluster-management.io", kClouds[i % 3]});
    c.cluster_claims.push_back({"gpu.count", std::to_string(i % 16)});
    if (i % 3 == 0) {
      c.meta.labels["berth.dev/gpu-hour-price"] = std::to_string(1 + i % 4) + ".25";
    } else if (i % 3 == 1) {
      c.cluster_claims.push_back({"berth.dev/cost-class", kClasses[i % 4]});
    }
    model::Condition available;
    available.type = model::kConditionClusterAvailable;
    available.status =
        i % 97 == 0 ? model::ConditionStatus::kUnknown : model::ConditionStatus::kTrue;
    available.last_transition_time = core::Timestamp{0};
    c.conditions.push_back(available);
    if (i % 89 == 0)
      c.taints.push_back({"maintenance", "", model::ClusterTaintEffect::kNoSelect, {}});
    c.allocatable["cpu"] = core::Quantity::FromUnits(16 + (i * 7) % 240);
    c.capacity["cpu"] = core::Quantity::FromUnits(256);
    c.allocatable["memory"] = core::Quantity::FromUnits(int64_t{1} << 36);
    c.capacity["memory"] = core::Quantity::FromUnits(int64_t{1} << 37);
    c.allocatable["nvidia.com/gpu"] = core::Quantity::FromUnits(i % 9);
    c.capacity["nvidia.com/gpu"] = core::Quantity::FromUnits(8);
    snap.managed_clusters.push_back(std::move(c));

    if (!HasAddOnScore(i)) continue;
    model::AddOnPlacementScore score;
    score.meta.name = "resource-usage-score";
    score.meta.namespace_ = "cluster-" + std::to_string(i);
    score.scores = {{"cpuClusterAvailable", (i * 7) % 201 - 100},
                    {"gpuClusterAvailable", AddOnValue(i)}};
    snap.addon_placement_scores.push_back(std::move(score));
  }
  for (int32_t p = 0; p < 20; ++p) {
    model::PlacementDecision pd;
    pd.meta.name = "other-" + std::to_string(p) + "-decision-1";
    pd.meta.namespace_ = "team-" + std::to_string(p);
    pd.meta.labels[model::kPlacementLabel] = "other-" + std::to_string(p);
    for (int32_t k = 0; k < 50; ++k) {
      pd.decisions.push_back({"cluster-" + std::to_string((p * 37 + k * 11) % clusters), ""});
    }
    snap.placement_decisions.push_back(std::move(pd));
  }
  model::ManagedClusterSetBinding binding;
  binding.meta.name = "global";
  binding.meta.namespace_ = "ml";
  binding.cluster_set = "global";
  snap.managed_cluster_set_bindings.push_back(binding);
  return snap;
}

// Measured capacity for every other cluster: free GPUs of two products.
placement::FleetCapacity MakeCapacity(int32_t clusters) {
  placement::FleetCapacity capacity;
  for (int32_t i = 0; i < clusters; i += 2) {
    placement::ClusterCapacity& c = capacity["cluster-" + std::to_string(i)];
    c.free_gpus_by_product["NVIDIA-H100-80GB-HBM3"] = i % 7;
    c.free_gpus_by_product["NVIDIA-A100-SXM4-40GB"] = i % 5;
    c.free_gpus = i % 7 + i % 5;
    c.total_gpus = 16;
  }
  return capacity;
}

model::PrioritizerConfig BuiltIn(const char* name, int32_t weight) {
  model::PrioritizerConfig c;
  c.score_coordinate = model::ScoreCoordinate{model::ScoreCoordinateType::kBuiltIn, name, "", ""};
  c.weight = weight;
  return c;
}

model::PrioritizerConfig AddOn(int32_t weight) {
  model::PrioritizerConfig c;
  c.score_coordinate = model::ScoreCoordinate{model::ScoreCoordinateType::kAddOn, "",
                                              "resource-usage-score", "gpuClusterAvailable"};
  c.weight = weight;
  return c;
}

model::Placement MakeTrainingPlacement(bool groundwork) {
  model::Placement p;
  p.meta.name = "train";
  p.meta.namespace_ = "ml";
  p.number_of_clusters = 50;
  model::ClusterSelector sel;
  sel.label_selector = core::LabelSelector{{{"tier", "gold"}}, {}};
  sel.claim_selector = model::ClaimSelector{
      {{"platform.open-cluster-management.io", core::SelectorOp::kIn, {"aws", "gcp"}}}};
  sel.cel_expressions = {"managedCluster.metadata.labels[\"region\"] != \"sa\""};
  if (!groundwork) {
    sel.cel_expressions.push_back(
        "managedCluster.scores(\"resource-usage-score\").exists(s, s.name == "
        "\"gpuClusterAvailable\" && s.value > -90)");
  }
  p.predicates.push_back(sel);
  p.tolerations.push_back({model::kTaintClusterUnreachable, model::PlacementTolerationOp::kExists,
                           "", std::nullopt, std::nullopt});
  p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  if (groundwork) {
    p.prioritizer_policy.configurations = {BuiltIn("ResourceAllocatableCPU", 1),
                                           BuiltIn("Balance", 1), AddOn(2)};
  } else {
    p.prioritizer_policy.configurations = {BuiltIn("Balance", 1), BuiltIn("Steady", 1),
                                           BuiltIn("ResourceAllocatableGPU", 2), BuiltIn("Cost", 1),
                                           AddOn(2)};
  }
  p.group_strategy.clusters_per_decision_group = {true, 0, "10%"};
  return p;
}

// Feasible by the rules, counted independently of the scheduler.
int32_t ExpectedFeasible(int32_t clusters, bool groundwork) {
  int32_t n = 0;
  for (int32_t i = 0; i < clusters; ++i) {
    bool gold = i % 5 != 0;
    bool cloud = i % 3 != 2;
    bool region = i % 4 != 3;
    bool tainted = i % 89 == 0;
    bool score = groundwork || (HasAddOnScore(i) && AddOnValue(i) > -90);
    if (gold && cloud && region && !tainted && score) ++n;
  }
  return n;
}

void Check(const placement::PlacementOutcome& out, int32_t clusters, bool groundwork) {
  int32_t feasible = 0;
  for (const placement::ClusterVerdict& v : out.clusters) feasible += v.feasible ? 1 : 0;
  int32_t want = ExpectedFeasible(clusters, groundwork);
  if (feasible != want || out.number_of_selected_clusters != 50 ||
      out.satisfied.reason != "AllDecisionsScheduled") {
    std::fprintf(stderr, "wrong answer: %d feasible (want %d), %d selected, %s\n", feasible, want,
                 out.number_of_selected_clusters, out.satisfied.reason.c_str());
    std::abort();
  }
}

void Report(benchmark::State& state, int32_t clusters) {
  state.counters["clusters/s"] =
      benchmark::Counter(static_cast<double>(clusters) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  // Seconds per Placement (printed with an SI prefix: "3.1m" is 3.1 ms).
  state.counters["s/Placement"] =
      benchmark::Counter(static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// mode 0: SchedulePlacement indexes the scores itself; 1: the caller's index; 2: spread.
void RunPlacement(benchmark::State& state, int mode) {
  const int32_t clusters = static_cast<int32_t>(state.range(0));
  model::Snapshot snap = MakeHub(clusters);
  placement::FleetCapacity capacity = MakeCapacity(clusters);
  placement::AddOnScoreIndex index(snap.addon_placement_scores);
  model::Placement placement = MakeTrainingPlacement(/*groundwork=*/false);
  placement.meta.annotations["berth.dev/gpu-product"] = "NVIDIA-H100-80GB-HBM3";
  if (mode == 2) {
    placement.spread_constraints.push_back(
        {"region", model::TopologyKeyType::kLabel, 1, model::WhenUnsatisfiable::kDoNotSchedule});
  }
  placement::ScheduleOptions options;
  options.capacity = &capacity;
  if (mode == 1) options.addon_scores = &index;
  placement::PlacementOutcome check =
      placement::SchedulePlacement(snap, placement, {1000}, options);
  Check(check, clusters, /*groundwork=*/false);
  if (mode == 2) {
    // Three regions are feasible, so DoNotSchedule with maxSkew 1 selects 17, 17, 16.
    int32_t per_region[4] = {0, 0, 0, 0};
    for (const std::string& name : check.selected) {
      per_region[std::stoi(name.substr(8)) % 4]++;
    }
    if (per_region[0] < 16 || per_region[1] < 16 || per_region[2] < 16 || per_region[3] != 0) {
      std::fprintf(stderr, "spread: regions %d %d %d %d\n", per_region[0], per_region[1],
                   per_region[2], per_region[3]);
      std::abort();
    }
  }
  for (auto _ : state) {
    placement::PlacementOutcome out =
        placement::SchedulePlacement(snap, placement, {1000}, options);
    benchmark::DoNotOptimize(out.selected.data());
  }
  Report(state, clusters);
}

void BM_SchedulePlacement_10kClusters(benchmark::State& state) { RunPlacement(state, 0); }
BENCHMARK(BM_SchedulePlacement_10kClusters)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_SchedulePlacement_10kClusters_PrebuiltIndex(benchmark::State& state) {
  RunPlacement(state, 1);
}
BENCHMARK(BM_SchedulePlacement_10kClusters_PrebuiltIndex)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);

void BM_SchedulePlacement_10kClusters_Spread(benchmark::State& state) { RunPlacement(state, 2); }
BENCHMARK(BM_SchedulePlacement_10kClusters_Spread)->Arg(10000)->Unit(benchmark::kMillisecond);

// The workload of the issue-5 groundwork benchmark (8.75 ms at 5,000 clusters before).
void BM_SchedulePlacement_Groundwork(benchmark::State& state) {
  const int32_t clusters = static_cast<int32_t>(state.range(0));
  model::Snapshot snap = MakeHub(clusters);
  model::Placement placement = MakeTrainingPlacement(/*groundwork=*/true);
  Check(placement::SchedulePlacement(snap, placement, {1000}), clusters, /*groundwork=*/true);
  for (auto _ : state) {
    placement::PlacementOutcome out = placement::SchedulePlacement(snap, placement, {1000});
    benchmark::DoNotOptimize(out.selected.data());
  }
  Report(state, clusters);
}
BENCHMARK(BM_SchedulePlacement_Groundwork)->Arg(5000)->Arg(10000)->Unit(benchmark::kMillisecond);

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
