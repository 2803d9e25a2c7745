// berth_volume_binding_bench: binding the pending pods of a synthetic cluster
// (bench/scenarios/synthetic_cluster.h) with and without volumes. The volume run gives
// every pending pod a PersistentVolumeClaim: nine in ten a WaitForFirstConsumer claim of a
// provisioning class, one in ten a claim of a local class with four local PersistentVolumes
// per node (node affinity on kubernetes.io/hostname; more than the local claims, so the
// volume run leaves no more pods pending than the plain one), every node a CSINode
// limiting the provisioner's attachments. The index decides such pods (FirstAccepting with the
// volume filters as the predicate); each benchmark first checks that its decisions equal the
// reference path's on a prefix. `berth_volume_binding_bench --scale [--nodes=N] [--pods=M]`
// binds both runs in nine back-to-back pairs and prints the median pair's ratio of pods per
// CPU second, with the best rate of each (issue 18's goal: within 20%).
#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/scenarios/synthetic_cluster.h"
#include "binding/scheduler.h"
#include "model/scheduler_config.h"
#include "bench/bench_util.h"
#include "bench/schedule_queue.h"

namespace berth::bench {
namespace {

constexpr const char* kProvisioner = "ebs.csi.example.com";

model::Snapshot Cluster(int64_t nodes, int64_t pods, bool volumes) {
  SyntheticClusterSpec spec;
  spec.nodes = static_cast<int32_t>(nodes);
  spec.pods = static_cast<int32_t>(pods);
  spec.bound_pod_fraction = 0.1;
  model::Snapshot snap = MakeSyntheticCluster(spec);
  if (!volumes) return snap;
  model::StorageClass standard;
  standard.meta.name = "standard";
  standard.provisioner = kProvisioner;
  standard.volume_binding_mode = "WaitForFirstConsumer";
  model::StorageClass local;
  local.meta.name = "local";
  local.provisioner = "kubernetes.io/no-provisioner";
  local.volume_binding_mode = "WaitForFirstConsumer";
  snap.storage_classes = {standard, local};
  const auto gi = [](int64_t n) { return core::Quantity::FromUnits(n << 30); };
  for (const model::Node& node : snap.nodes) {
    for (int disk = 0; disk < 4; ++disk) {
      model::PersistentVolume pv;
      pv.meta.name = "local-" + node.meta.name + "-" + std::to_string(disk);
      pv.storage_class_name = "local";
      pv.access_modes = {"ReadWriteOnce"};
      pv.capacity = gi(100);
      pv.phase = "Available";
      core::NodeSelectorTerm term;
      core::SelectorRequirement r;
      r.key = "kubernetes.io/hostname";
      r.op = core::SelectorOp::kIn;
      r.values = {node.meta.name};
      term.match_expressions.push_back(r);
      pv.node_affinity = core::NodeSelector{};
      pv.node_affinity->terms.push_back(term);
      snap.persistent_volumes.push_back(pv);
    }
    model::CSINode csi;
    csi.meta.name = node.meta.name;
    model::CSINodeDriver driver;
    driver.name = kProvisioner;
    driver.node_id = node.meta.name;
    driver.allocatable_count = 39;
    csi.drivers.push_back(driver);
    snap.csi_nodes.push_back(csi);
  }
  int64_t i = 0;
  for (model::Pod& pod : snap.pods) {
    if (pod.IsBound()) continue;
    model::PersistentVolumeClaim claim;
    claim.meta.name = "data-" + pod.meta.name;
    claim.meta.namespace_ = pod.meta.namespace_;
    claim.access_modes = {"ReadWriteOnce"};
    claim.storage_class_name = (i++ % 10 == 0) ? "local" : "standard";
    claim.storage_request = gi(10);
    snap.persistent_volume_claims.push_back(claim);
    model::PodVolume v;
    v.name = "data";
    v.claim_name = claim.meta.name;
    pod.volumes.push_back(v);
  }
  return snap;
}

// The answer check: the first `prefix` decisions through the index equal the reference's.
bool SameAsReference(const model::Snapshot& snap, int64_t prefix) {
  std::vector<model::PodDecision> indexed = Bind(snap, true, prefix);
  std::vector<model::PodDecision> ref = Bind(snap, false, prefix);
  if (indexed.size() != ref.size()) return false;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (indexed[i].node != ref[i].node || indexed[i].message != ref[i].message) return false;
  }
  return true;
}

void BindPods(benchmark::State& state, int64_t nodes, int64_t pods, bool volumes) {
  model::Snapshot snap = Cluster(nodes, pods, volumes);
  if (!SameAsReference(snap, 200)) {
    state.SkipWithError("the index decides differently from the reference path");
    return;
  }
  std::vector<model::PodDecision> first = Bind(snap, true, -1);
  if (CountBound(first) == 0) {
    state.SkipWithError("no pod was bound");
    return;
  }
  int64_t placed = 0;
  for (auto _ : state) {
    std::vector<model::PodDecision> d = Bind(snap, true, -1);
    benchmark::DoNotOptimize(d.data());
    placed += static_cast<int64_t>(d.size());
  }
  state.counters["pods/s"] =
      benchmark::Counter(static_cast<double>(placed), benchmark::Counter::kIsRate);
  state.counters["bound"] = static_cast<double>(CountBound(first));
}

void BM_BindWithoutVolumes_1kNodes(benchmark::State& state) { BindPods(state, 1000, 5000, false); }
BENCHMARK(BM_BindWithoutVolumes_1kNodes)->Unit(benchmark::kMillisecond);

void BM_BindWithVolumes_1kNodes(benchmark::State& state) { BindPods(state, 1000, 5000, true); }
BENCHMARK(BM_BindWithVolumes_1kNodes)->Unit(benchmark::kMillisecond);

// One timed run: pods per CPU second over the whole queue, the scheduler's construction
// included (CPU time, so that another process on the shared machine slows neither run).
double PodsPerSecond(const model::Snapshot& snap, int64_t* bound, binding::SchedulerStats* stats) {
  const double start = CpuSeconds();
  std::vector<model::PodDecision> d = Bind(snap, true, -1, stats);
  const double s = CpuSeconds() - start;
  *bound = CountBound(d);
  return static_cast<double>(d.size()) / s;
}

int RunScale(int argc, char** argv) {
  const int64_t nodes = Flag(argc, argv, "--nodes", 10000);
  const int64_t pods = Flag(argc, argv, "--pods", 100000);
  // --profile=1 (plain) or 2 (volumes): that run alone, ten times, for perf.
  const int64_t profile = Flag(argc, argv, "--profile", 0);
  if (profile != 0) {
    const model::Snapshot snap = Cluster(nodes, pods, profile == 2);
    int64_t bound = 0;
    binding::SchedulerStats stats;
    double rate = 0;
    for (int run = 0; run < 10; ++run) rate = std::max(rate, PodsPerSecond(snap, &bound, &stats));
    std::printf("%s: %.0f pods/s, %lld bound\n", profile == 2 ? "with volumes" : "without volumes",
                rate, static_cast<long long>(bound));
    return 0;
  }
  const model::Snapshot plain = Cluster(nodes, pods, false);
  const model::Snapshot with = Cluster(nodes, pods, true);
  if (!SameAsReference(with, 200)) {
    std::fprintf(stderr, "the index decides differently from the reference path\n");
    return 1;
  }
  int64_t plain_bound = 0;
  int64_t with_bound = 0;
  binding::SchedulerStats plain_stats;
  binding::SchedulerStats with_stats;
  // Nine pairs, each a plain run then a volume run back to back: on the shared machine the
  // speed of the moment moves both runs of a pair alike, so the pair's ratio is steadier
  // than either rate; the median pair is the figure, the best rates are printed beside it.
  double plain_rate = 0;
  double with_rate = 0;
  std::vector<double> ratios;
  for (int run = 0; run < 9; ++run) {
    const double p = PodsPerSecond(plain, &plain_bound, &plain_stats);
    const double w = PodsPerSecond(with, &with_bound, &with_stats);
    plain_rate = std::max(plain_rate, p);
    with_rate = std::max(with_rate, w);
    ratios.push_back(w / p);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("binding %lld nodes, %lld pods (10%% bound), one core, pods per CPU second\n",
              static_cast<long long>(nodes), static_cast<long long>(pods));
  std::printf("%-16s %10s %9s %9s %9s\n", "run", "pods/s", "bound", "indexed", "reference");
  std::printf("%-16s %10.0f %9lld %9lld %9lld\n", "without volumes", plain_rate,
              static_cast<long long>(plain_bound), static_cast<long long>(plain_stats.indexed),
              static_cast<long long>(plain_stats.reference));
  std::printf("%-16s %10.0f %9lld %9lld %9lld\n", "with volumes", with_rate,
              static_cast<long long>(with_bound), static_cast<long long>(with_stats.indexed),
              static_cast<long long>(with_stats.reference));
  std::printf("with/without: median pair %.2f (pairs %.2f to %.2f), best rates %.2f (goal >= 0.80)\n",
              ratios[ratios.size() / 2], ratios.front(), ratios.back(), with_rate / plain_rate);
  return 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scale") == 0) return berth::bench::RunScale(argc, argv);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
