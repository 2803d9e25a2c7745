// berth_binding_bench: binding the pending pods of a synthetic cluster
// (bench/scenarios/synthetic_cluster.h) with kube-scheduler's filters and scores, full
// filtering (no percentageOfNodesToScore sampling). The index path is compared with the
// node-by-node reference path, which is also the baseline: every benchmark first checks that
// both make the same decisions.
// `berth_binding_bench --scale [--nodes=N] [--pods=M] [--baseline-pods=K]` binds 100,000 pods
// onto 10,000 nodes once and prints pods/s and peak RSS, then runs the first K pods of the
// same queue through the reference path for comparison.
#include <benchmark/benchmark.h>

#include <chrono>
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

// Benchmarks start with 10% of the pods already bound, as a live cluster would; --scale
// binds every pod (--bound-percent=P to change that).
SyntheticClusterSpec Spec(int64_t nodes, int64_t pods, int64_t bound_percent = 10) {
  SyntheticClusterSpec spec;
  spec.nodes = static_cast<int32_t>(nodes);
  spec.pods = static_cast<int32_t>(pods);
  spec.bound_pod_fraction = static_cast<double>(bound_percent) / 100.0;
  return spec;
}

// The answer check: the first `prefix` decisions of `indexed` equal the reference path's.
bool SameAsReference(const model::Snapshot& snap, const std::vector<model::PodDecision>& indexed,
                     int64_t prefix, std::string* why) {
  std::vector<model::PodDecision> ref = Bind(snap, false, prefix);
  for (size_t i = 0; i < ref.size(); ++i) {
    if (i >= indexed.size() || indexed[i].node != ref[i].node ||
        indexed[i].message != ref[i].message) {
      *why = "decision " + std::to_string(i) + " differs from the reference path";
      return false;
    }
  }
  return true;
}

void BindPods(benchmark::State& state, int64_t nodes, int64_t pods, bool use_index,
              int64_t check_prefix) {
  model::Snapshot snap = MakeSyntheticCluster(Spec(nodes, pods));
  std::vector<model::PodDecision> first = Bind(snap, use_index, -1);
  std::string why;
  if (CountBound(first) == 0) {
    state.SkipWithError("no pod was bound");
    return;
  }
  if (!SameAsReference(snap, first, check_prefix, &why)) {
    state.SkipWithError(why.c_str());
    return;
  }
  int64_t placed = 0;
  for (auto _ : state) {
    std::vector<model::PodDecision> d = Bind(snap, use_index, -1);
    benchmark::DoNotOptimize(d.data());
    placed += static_cast<int64_t>(d.size());
  }
  state.counters["pods/s"] =
      benchmark::Counter(static_cast<double>(placed), benchmark::Counter::kIsRate);
  state.counters["bound"] = static_cast<double>(CountBound(first));
  state.counters["pending"] = static_cast<double>(first.size());
}

void BM_BindPods_1kNodes(benchmark::State& state) { BindPods(state, 1000, 10000, true, 1000); }
BENCHMARK(BM_BindPods_1kNodes)->Unit(benchmark::kMillisecond);

void BM_BindPods_1kNodes_Reference(benchmark::State& state) {
  BindPods(state, 1000, 1000, false, 0);
}
BENCHMARK(BM_BindPods_1kNodes_Reference)->Unit(benchmark::kMillisecond);

void BM_BindPods_10kNodes(benchmark::State& state) { BindPods(state, 10000, 100000, true, 200); }
BENCHMARK(BM_BindPods_10kNodes)->Unit(benchmark::kMillisecond)->Iterations(1);

// Every pod (bound and pending) holds host port 9100/TCP, as a node exporter's pods do: a
// node takes at most one, so each pending pod must pass over the nodes whose port is taken
// (NodePorts; docs/binding.md, "Pods with host ports"). 10,000 nodes, 5,000 pods, 10% of
// them bound first; the first 200 decisions are checked against the reference path.
model::Snapshot HostPortCluster(int64_t nodes, int64_t pods) {
  model::Snapshot snap = MakeSyntheticCluster(Spec(nodes, pods));
  for (model::Pod& pod : snap.pods) {
    model::HostPort port;
    port.container_port = 9100;
    port.host_port = 9100;
    pod.containers.front().host_ports.push_back(port);
  }
  return snap;
}

void BindHostPortPods(benchmark::State& state, bool use_index) {
  model::Snapshot snap = HostPortCluster(10000, 5000);
  binding::SchedulerStats stats;
  std::vector<model::PodDecision> first = Bind(snap, use_index, -1, &stats);
  std::string why;
  if (CountBound(first) == 0) {
    state.SkipWithError("no pod was bound");
    return;
  }
  if (use_index && !SameAsReference(snap, first, 200, &why)) {
    state.SkipWithError(why.c_str());
    return;
  }
  int64_t placed = 0;
  for (auto _ : state) {
    std::vector<model::PodDecision> d = Bind(snap, use_index, -1);
    benchmark::DoNotOptimize(d.data());
    placed += static_cast<int64_t>(d.size());
  }
  state.counters["pods/s"] =
      benchmark::Counter(static_cast<double>(placed), benchmark::Counter::kIsRate);
  state.counters["bound"] = static_cast<double>(CountBound(first));
  state.counters["indexed"] = static_cast<double>(stats.indexed);
}

void BM_BindHostPortPods_10kNodes(benchmark::State& state) { BindHostPortPods(state, true); }
BENCHMARK(BM_BindHostPortPods_10kNodes)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_BindHostPortPods_10kNodes_Reference(benchmark::State& state) {
  BindHostPortPods(state, false);
}
BENCHMARK(BM_BindHostPortPods_10kNodes_Reference)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_ExplainPod_10kNodes(benchmark::State& state) {
  model::Snapshot snap = MakeSyntheticCluster(Spec(10000, 1000));
  binding::Scheduler scheduler(snap, model::SchedulerConfig{});
  std::vector<model::PodIndex> queue = scheduler.QueueOrder();
  if (queue.empty() || scheduler.Explain(queue.front()).nodes.size() != snap.nodes.size()) {
    state.SkipWithError("explain does not cover every node");
    return;
  }
  size_t i = 0;
  for (auto _ : state) {
    binding::PodExplanation e = scheduler.Explain(queue[i++ % queue.size()]);
    benchmark::DoNotOptimize(e.nodes.data());
  }
  state.counters["pods/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExplainPod_10kNodes)->Unit(benchmark::kMillisecond);

int RunScale(int argc, char** argv) {
  int64_t nodes = Flag(argc, argv, "--nodes", 10000);
  int64_t pods = Flag(argc, argv, "--pods", 100000);
  int64_t baseline_pods = Flag(argc, argv, "--baseline-pods", 2000);
  int64_t bound_percent = Flag(argc, argv, "--bound-percent", 0);
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  model::Snapshot snap = MakeSyntheticCluster(Spec(nodes, pods, bound_percent));
  auto t1 = Clock::now();
  binding::SchedulerStats stats;
  std::vector<model::PodDecision> indexed = Bind(snap, true, -1, &stats);
  auto t2 = Clock::now();
  double gen_s = std::chrono::duration<double>(t1 - t0).count();
  double bind_s = std::chrono::duration<double>(t2 - t1).count();
  double rss = PeakRssMiB();
  std::printf("cluster: %lld nodes, %lld pods (%zu pending), generated in %.2f s\n",
              static_cast<long long>(nodes), static_cast<long long>(pods), indexed.size(), gen_s);
  std::printf(
      "index:     %zu pods in %.3f s = %.0f pods/s (%lld bound, %lld unschedulable; "
      "%lld by index, %lld node by node)\n",
      indexed.size(), bind_s, static_cast<double>(indexed.size()) / bind_s,
      static_cast<long long>(CountBound(indexed)),
      static_cast<long long>(indexed.size()) - static_cast<long long>(CountBound(indexed)),
      static_cast<long long>(stats.indexed), static_cast<long long>(stats.reference));
  std::printf("peak RSS:  %.0f MiB (cluster, scheduler and decisions); %d node classes\n", rss,
              stats.node_classes);
  auto t3 = Clock::now();
  std::vector<model::PodDecision> ref = Bind(snap, false, baseline_pods);
  auto t4 = Clock::now();
  double ref_s = std::chrono::duration<double>(t4 - t3).count();
  double ref_rate = static_cast<double>(ref.size()) / ref_s;
  std::printf("reference: first %zu pods node by node in %.3f s = %.0f pods/s (index is %.0fx)\n",
              ref.size(), ref_s, ref_rate, static_cast<double>(indexed.size()) / bind_s / ref_rate);
  for (size_t i = 0; i < ref.size(); ++i) {
    if (indexed[i].node != ref[i].node || indexed[i].message != ref[i].message) {
      std::printf("MISMATCH at decision %zu: index and reference differ\n", i);
      return 1;
    }
  }
  std::printf("check:     the first %zu decisions of both paths are identical\n", ref.size());
  return 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scale") == 0) return berth::bench::RunScale(argc, argv);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
