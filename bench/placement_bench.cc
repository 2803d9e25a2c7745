// berth_placement_bench: placement::SchedulePlacement of one Placement over a synthetic hub
// (5,000 ManagedClusters in 4 regions, 3 clouds, a few tainted or unreachable, allocatable
// cpu/memory, an AddOnPlacementScore per cluster, earlier decisions of other placements).
// The Placement has label, claim and CEL predicates, a toleration and three prioritizers
// (ResourceAllocatableCPU, Balance, an AddOn score), numberOfClusters 50 in 10%-groups.
// Each benchmark first checks its answer against an independent count of the feasible
// clusters and the selected count.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "model/ocm.h"
#include "model/snapshot.h"
#include "placement/placement_scheduler.h"

namespace berth::bench {
namespace {

const char* const kRegions[] = {"eu", "us", "asia", "sa"};
const char* const kClouds[] = {"aws", "gcp", "azure"};

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
    snap.managed_clusters.push_back(std::move(c));

    model::AddOnPlacementScore score;
    score.meta.name = "resource-usage-score";
    score.meta.namespace_ = "cluster-" + std::to_string(i);
    score.scores = {{"gpuClusterAvailable", (i * 13) % 201 - 100}};
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

model::Placement MakeTrainingPlacement() {
  model::Placement p;
  p.meta.name = "train";
  p.meta.namespace_ = "ml";
  p.number_of_clusters = 50;
  model::ClusterSelector sel;
  sel.label_selector = core::LabelSelector{{{"tier", "gold"}}, {}};
  sel.claim_selector = model::ClaimSelector{
      {{"platform.open-cluster-management.io", core::SelectorOp::kIn, {"aws", "gcp"}}}};
  sel.cel_expressions = {"managedCluster.metadata.labels[\"region\"] != \"sa\""};
  p.predicates.push_back(sel);
  p.tolerations.push_back({model::kTaintClusterUnreachable, model::PlacementTolerationOp::kExists,
                           "", std::nullopt, std::nullopt});
  p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  auto builtin = [](const char* name, int32_t weight) {
    model::PrioritizerConfig c;
    c.score_coordinate = model::ScoreCoordinate{model::ScoreCoordinateType::kBuiltIn, name, "", ""};
    c.weight = weight;
    return c;
  };
  model::PrioritizerConfig addon;
  addon.score_coordinate = model::ScoreCoordinate{model::ScoreCoordinateType::kAddOn, "",
                                                  "resource-usage-score", "gpuClusterAvailable"};
  addon.weight = 2;
  p.prioritizer_policy.configurations = {builtin("ResourceAllocatableCPU", 1),
                                         builtin("Balance", 1), addon};
  p.group_strategy.clusters_per_decision_group = {true, 0, "10%"};
  return p;
}

// Feasible by the rules, counted independently of the scheduler.
int32_t ExpectedFeasible(int32_t clusters) {
  int32_t n = 0;
  for (int32_t i = 0; i < clusters; ++i) {
    bool gold = i % 5 != 0;
    bool cloud = i % 3 != 2;
    bool region = i % 4 != 3;
    bool tainted = i % 89 == 0;
    if (gold && cloud && region && !tainted) ++n;
  }
  return n;
}

void BM_SchedulePlacement_5kClusters(benchmark::State& state) {
  const int32_t clusters = static_cast<int32_t>(state.range(0));
  model::Snapshot snap = MakeHub(clusters);
  model::Placement placement = MakeTrainingPlacement();
  placement::PlacementOutcome check = placement::SchedulePlacement(snap, placement, {1000});
  int32_t feasible = 0;
  for (const placement::ClusterVerdict& v : check.clusters) feasible += v.feasible ? 1 : 0;
  if (feasible != ExpectedFeasible(clusters) || check.number_of_selected_clusters != 50 ||
      check.satisfied.reason != "AllDecisionsScheduled") {
    std::fprintf(stderr, "wrong answer: %d feasible (want %d), %d selected, %s\n", feasible,
                 ExpectedFeasible(clusters), check.number_of_selected_clusters,
                 check.satisfied.reason.c_str());
    std::abort();
  }
  for (auto _ : state) {
    placement::PlacementOutcome out = placement::SchedulePlacement(snap, placement, {1000});
    benchmark::DoNotOptimize(out.selected.data());
  }
  state.counters["clusters/s"] =
      benchmark::Counter(static_cast<double>(clusters) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SchedulePlacement_5kClusters)->Arg(5000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace berth::bench

BENCHMARK_MAIN();
