// berth_data_fetch_bench: data::ScheduleFetches of one 140 GB model for R replicas on R/10
// nodes in 4 clusters (three in the origin's region, one across regions), every 10th node
// already warm, every 3rd node with a 25 Gbit/s NIC, one cluster with a half-filled cluster
// cache. Limits: 4 concurrent origin pulls, 2 per cluster; in-cluster sharing (P2P) off and
// on. Each benchmark first checks its answer: every allowed replica gets a finite end time,
// the origin pulls in flight never exceed the limits (counted again from the schedule's own
// intervals), and the origin bytes match an independent count.
// `berth_data_fetch_bench --scale` runs each size once and prints the figures of
// docs/benchmarks.md ("Fetch schedule").
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "bench_util.h"
#include "data/data_view.h"
#include "data/fetch_schedule.h"

namespace berth::bench {
namespace {

constexpr int32_t kClusters = 4;
constexpr int64_t kSize = 140'000'000'000;  // a 70B model at 16 bits
constexpr int32_t kOriginLimit = 4;
constexpr int32_t kClusterLimit = 2;

struct Fleet {
  data::Topology topology;
  data::Copies copies;
  std::vector<data::Replica> replicas;
};

bool Warm(int32_t node) { return node % 10 == 0; }

Fleet MakeFleet(int32_t replicas) {
  const int32_t nodes = std::max(1, replicas / 10);
  Fleet f;
  for (int32_t c = 0; c < kClusters; ++c) {
    f.topology.clusters.push_back({"cluster-" + std::to_string(c), c == 3 ? "us" : "eu", 0, 0});
  }
  for (int32_t n = 0; n < nodes; ++n) {
    data::DataNode node{"node-" + std::to_string(n), "cluster-" + std::to_string(n % kClusters),
                        n % 3 == 0 ? 3.125e9 : 0, 0, 0};
    if (Warm(n)) f.copies.nodes.push_back({"llama-70b", node.name, true});
    f.topology.nodes.push_back(std::move(node));
  }
  f.copies.clusters.push_back({"llama-70b", "cluster-1", 0.5});
  for (int32_t r = 0; r < replicas; ++r) {
    // Replicas spread over the nodes out of name order, so ties are really broken by name.
    const int32_t n = static_cast<int32_t>((static_cast<int64_t>(r) * 7919) % nodes);
    f.replicas.push_back({"pod-" + std::to_string(r), "node-" + std::to_string(n), ""});
  }
  return f;
}

data::Artifact Model() {
  data::Artifact a;
  a.id = "llama-70b";
  a.size_bytes = kSize;
  a.origin = {"s3", "models-eu", "eu"};
  return a;
}

// mode 0: the limits without sharing; 1: the limits with P2P; 2: the storm (neither).
enum Mode { kLimits = 0, kP2P = 1, kStorm = 2 };

data::FetchLimits Limits(Mode mode) {
  if (mode == kStorm) return {0, 0, false};
  return {kOriginLimit, kClusterLimit, mode == kP2P};
}

// Most intervals open at once, an interval closing at t before one opening at t.
int32_t MaxOverlap(std::vector<std::pair<double, int>> edges) {
  std::sort(edges.begin(), edges.end());
  int32_t now = 0;
  int32_t peak = 0;
  for (auto [t, d] : edges) peak = std::max(peak, now += d);
  return peak;
}

void Fail(const char* what, double got, double want) {
  std::fprintf(stderr, "wrong answer: %s = %.0f, want %.0f\n", what, got, want);
  std::abort();
}

void Check(const Fleet& f, const data::FetchSchedule& s, Mode mode) {
  const bool share = mode == kP2P;
  std::vector<std::pair<double, int>> all;
  std::vector<std::vector<std::pair<double, int>>> per_cluster(kClusters);
  int64_t origin_bytes = 0;
  for (size_t i = 0; i < s.replicas.size(); ++i) {
    const data::ReplicaFetch& r = s.replicas[i];
    if (!std::isfinite(r.end_s) || r.end_s <= 0 || r.end_s < r.start_s) Fail("end_s", r.end_s, 1);
    origin_bytes += r.origin_bytes;
    if (r.origin_bytes == 0) continue;
    const int32_t node = std::atoi(f.replicas[i].node.c_str() + 5);
    // The cache part of a cluster-1 pull follows its origin part: the origin slot is held
    // for the origin bytes only, so the interval ends fetched_s minus the cache read.
    double end = r.fetched_s;
    if (node % kClusters == 1) end -= static_cast<double>(kSize / 2) / 1.25e9;  // 56 s
    end -= 1e-9 * end;  // a rounding error of the subtraction must not count as overlap
    all.emplace_back(r.start_s, +1);
    all.emplace_back(end, -1);
    per_cluster[static_cast<size_t>(node % kClusters)].emplace_back(r.start_s, +1);
    per_cluster[static_cast<size_t>(node % kClusters)].emplace_back(end, -1);
  }
  if (mode != kStorm) {
    if (s.peak_origin_pulls > kOriginLimit) {
      Fail("peak_origin_pulls", s.peak_origin_pulls, kOriginLimit);
    }
    if (MaxOverlap(all) > kOriginLimit)
      Fail("origin pulls in flight", MaxOverlap(all), kOriginLimit);
    for (auto& edges : per_cluster) {
      if (MaxOverlap(edges) > kClusterLimit)
        Fail("cluster pulls", MaxOverlap(edges), kClusterLimit);
    }
  } else if (s.peak_origin_pulls != MaxOverlap(all)) {
    Fail("storm peak", s.peak_origin_pulls, MaxOverlap(all));
  }
  if (origin_bytes != s.origin_bytes) Fail("origin_bytes sum", origin_bytes, s.origin_bytes);
  // Independent count: without sharing every cold node pulls (half of it for cluster 1,
  // whose cache holds half); with sharing one node per cluster does, and none in a cluster
  // where a warm node hosts a replica (it serves the others).
  int64_t want = 0;
  std::vector<bool> used(f.topology.nodes.size(), false);
  for (const data::Replica& r : f.replicas) used[std::atoi(r.node.c_str() + 5)] = true;
  std::vector<bool> seeded(kClusters, false);
  for (size_t n = 0; n < used.size(); ++n) {
    if (share && used[n] && Warm(static_cast<int32_t>(n))) seeded[n % kClusters] = true;
  }
  for (size_t n = 0; n < used.size(); ++n) {
    if (!used[n] || Warm(static_cast<int32_t>(n))) continue;
    const size_t c = n % kClusters;
    if (share && seeded[c]) continue;
    seeded[c] = true;
    want += c == 1 ? kSize / 2 : kSize;
  }
  if (s.origin_bytes != want)
    Fail("origin_bytes", static_cast<double>(s.origin_bytes), static_cast<double>(want));
}

data::DataView MakeView(const Fleet& f) {
  auto v = data::DataView::Build(f.topology, f.copies);
  if (!v.has_value()) {
    std::fprintf(stderr, "%s\n", v.error().ToString().c_str());
    std::abort();
  }
  return std::move(v).value();
}

data::FetchSchedule Schedule(const Fleet& f, const data::DataView& v, Mode mode) {
  auto s = data::ScheduleFetches(Model(), f.replicas, Limits(mode), v);
  if (!s.has_value()) {
    std::fprintf(stderr, "%s\n", s.error().ToString().c_str());
    std::abort();
  }
  return std::move(s).value();
}

void RunFetch(benchmark::State& state, Mode mode) {
  const auto replicas = static_cast<int32_t>(state.range(0));
  Fleet f = MakeFleet(replicas);
  data::DataView v = MakeView(f);
  Check(f, Schedule(f, v, mode), mode);
  for (auto _ : state) {
    data::FetchSchedule s = Schedule(f, v, mode);
    benchmark::DoNotOptimize(s.replicas.data());
  }
  state.counters["replicas/s"] =
      benchmark::Counter(static_cast<double>(replicas) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

void BM_ScheduleFetches_NoSharing(benchmark::State& state) { RunFetch(state, kLimits); }
BENCHMARK(BM_ScheduleFetches_NoSharing)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

void BM_ScheduleFetches_P2P(benchmark::State& state) { RunFetch(state, kP2P); }
BENCHMARK(BM_ScheduleFetches_P2P)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// The storm: no limits, no sharing; every cold node pulls at once and the egress is split.
void BM_ScheduleFetches_Storm(benchmark::State& state) { RunFetch(state, kStorm); }
BENCHMARK(BM_ScheduleFetches_Storm)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

int Scale() {
  const char* const kModeNames[] = {"limits", "p2p", "storm"};
  std::printf("%9s %7s %7s %10s %12s %10s %6s\n", "replicas", "nodes", "mode", "ms/sched",
              "all ready s", "origin GB", "peak");
  for (int32_t replicas : {1000, 10000, 100000}) {
    Fleet f = MakeFleet(replicas);
    data::DataView v = MakeView(f);
    for (Mode mode : {kLimits, kP2P, kStorm}) {
      data::FetchSchedule s = Schedule(f, v, mode);
      Check(f, s, mode);
      const int runs = replicas >= 100000 ? 5 : 50;
      std::vector<double> ms;
      for (int i = 0; i < runs; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        data::FetchSchedule again = Schedule(f, v, mode);
        benchmark::DoNotOptimize(again.replicas.data());
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
      }
      std::sort(ms.begin(), ms.end());
      std::printf("%9d %7zu %7s %10.3f %12.1f %10.0f %6d\n", replicas, f.topology.nodes.size(),
                  kModeNames[mode], ms[ms.size() / 2], s.all_ready_s,
                  static_cast<double>(s.origin_bytes) / 1e9, s.peak_origin_pulls);
    }
  }
  std::printf("peak RSS: %.1f MiB\n", PeakRssMiB());
  return 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scale") == 0) return berth::bench::Scale();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
