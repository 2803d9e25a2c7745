// Topology-aware scheduling benchmarks: building a TopologySnapshot over 10,000 nodes and
// placing pod sets on it (required rack, preferred rack spilling over racks, unconstrained),
// and admitting rack-required workloads until the cluster is full. Each benchmark first
// checks its answer. Cluster: 10 blocks × 20 racks × 50 hosts of 96 cpu / 8 GPUs, with one
// small bound pod on every other host.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "model/snapshot.h"
#include "queueing/topology_assigner.h"
#include "queueing/topology_snapshot.h"

namespace berth::bench {
namespace {

constexpr char kBlock[] = "cloud.com/topology-block";
constexpr char kRack[] = "cloud.com/topology-rack";
constexpr char kHost[] = "kubernetes.io/hostname";

struct Cluster {
  model::Snapshot snapshot;
  model::Topology topology;
  model::ResourceFlavor flavor;
  model::ResourceId gpu;
};

Cluster MakeCluster(int blocks, int racks_per_block, int hosts_per_rack) {
  Cluster c;
  c.gpu = c.snapshot.resources.Intern("nvidia.com/gpu");
  c.topology.meta.name = "default";
  c.topology.levels = {kBlock, kRack, kHost};
  c.flavor.meta.name = "gpu";
  c.flavor.topology_name = "default";
  c.flavor.node_labels["pool"] = "gpu";
  int index = 0;
  for (int b = 0; b < blocks; ++b) {
    for (int r = 0; r < racks_per_block; ++r) {
      for (int h = 0; h < hosts_per_rack; ++h, ++index) {
        model::Node n;
        n.meta.name = "node-" + std::to_string(index);
        n.meta.labels["pool"] = "gpu";
        n.meta.labels[kBlock] = "b" + std::to_string(b);
        n.meta.labels[kRack] = "b" + std::to_string(b) + "-r" + std::to_string(r);
        n.meta.labels[kHost] = n.meta.name;
        n.allocatable.Set(model::kCpu, 96000);
        n.allocatable.Set(model::kMemory, 256LL << 30);
        n.allocatable.Set(model::kPods, 110);
        n.allocatable.Set(c.gpu, 8);
        n.capacity = n.allocatable;
        c.snapshot.nodes.push_back(n);
        if (index % 2 == 0) {
          model::Pod p;
          p.meta.name = "daemon-" + std::to_string(index);
          p.node_name = n.meta.name;
          p.phase = model::PodPhase::kRunning;
          model::Container ctr;
          ctr.requests.Set(model::kCpu, 500);
          p.containers.push_back(ctr);
          c.snapshot.pods.push_back(p);
        }
      }
    }
  }
  return c;
}

const Cluster& TenThousandNodes() {
  static const Cluster* cluster = new Cluster(MakeCluster(10, 20, 50));
  return *cluster;
}

queueing::TopologyPodSetRequest GpuPods(const Cluster& c, int32_t count,
                                        model::TopologyRequest tr) {
  queueing::TopologyPodSetRequest r;
  r.request = std::move(tr);
  r.count = count;
  r.per_pod.Set(model::kCpu, 8000);
  r.per_pod.Set(c.gpu, 8);
  return r;
}

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "benchmark answer check failed: %s\n", what);
    std::abort();
  }
}

int32_t Pods(const model::TopologyAssignment& a) {
  int32_t n = 0;
  for (const auto& d : a.domains) n += d.count;
  return n;
}

void BM_TasBuild_10kNodes(benchmark::State& state) {
  const Cluster& c = TenThousandNodes();
  for (auto _ : state) {
    queueing::TopologySnapshot s =
        queueing::TopologySnapshot::Build(c.snapshot, c.topology, c.flavor, "default");
    Check(s.leaves().size() == 10000, "10,000 leaves");
    benchmark::DoNotOptimize(s);
  }
  state.counters["nodes/s"] = benchmark::Counter(10000.0 * static_cast<double>(state.iterations()),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TasBuild_10kNodes)->Unit(benchmark::kMillisecond);

void Place(benchmark::State& state, model::TopologyRequest tr, int32_t count, size_t max_racks) {
  const Cluster& c = TenThousandNodes();
  queueing::TopologySnapshot s =
      queueing::TopologySnapshot::Build(c.snapshot, c.topology, c.flavor, "default");
  queueing::TopologyPodSetRequest r = GpuPods(c, count, std::move(tr));
  {
    auto a = queueing::FindTopologyAssignment(s, r);
    Check(a.has_value() && Pods(*a) == count, "all pods placed");
    std::string last_rack;
    size_t racks = 0;
    for (const auto& d : a->domains) {
      // hosts are node-<i>, 50 per rack in index order
      std::string rack = std::to_string(std::stoi(d.values[0].substr(5)) / 50);
      if (rack != last_rack) ++racks;
      last_rack = rack;
    }
    Check(racks <= max_racks, "fewest racks");
  }
  for (auto _ : state) {
    auto a = queueing::FindTopologyAssignment(s, r);
    benchmark::DoNotOptimize(a);
  }
  state.counters["decisions/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_TasRackRequired_10kNodes(benchmark::State& state) {
  model::TopologyRequest tr;
  tr.required = kRack;
  Place(state, tr, 32, 1);
}
BENCHMARK(BM_TasRackRequired_10kNodes)->Unit(benchmark::kMicrosecond);

void BM_TasRackPreferred200Pods_10kNodes(benchmark::State& state) {
  model::TopologyRequest tr;
  tr.preferred = kRack;
  Place(state, tr, 200, 4);
}
BENCHMARK(BM_TasRackPreferred200Pods_10kNodes)->Unit(benchmark::kMicrosecond);

void BM_TasUnconstrained_10kNodes(benchmark::State& state) {
  Place(state, model::TopologyRequest{}, 16, 16);
}
BENCHMARK(BM_TasUnconstrained_10kNodes)->Unit(benchmark::kMicrosecond);

// Admits 32-pod rack-required workloads (each fills most of a rack) until none fits:
// 200 racks × 50 hosts / 32 hosts per workload = 200 workloads, then one failure.
void BM_TasAdmitUntilFull_10kNodes(benchmark::State& state) {
  const Cluster& c = TenThousandNodes();
  model::TopologyRequest tr;
  tr.required = kRack;
  queueing::TopologyPodSetRequest r = GpuPods(c, 32, tr);
  int64_t decisions = 0;
  for (auto _ : state) {
    state.PauseTiming();
    queueing::TopologySnapshot s =
        queueing::TopologySnapshot::Build(c.snapshot, c.topology, c.flavor, "default");
    state.ResumeTiming();
    int admitted = 0;
    while (true) {
      auto a = queueing::FindTopologyAssignment(s, r);
      ++decisions;
      if (!a.has_value()) break;
      s.AddUsage(*a, r.per_pod);
      ++admitted;
    }
    Check(admitted == 200, "200 workloads admitted");
  }
  state.counters["decisions/s"] =
      benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TasAdmitUntilFull_10kNodes)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace berth::bench

BENCHMARK_MAIN();
