// berth_fleet_dispatch_bench: fleet dispatch end to end (engine::RunPlan on a hub with a
// placement admission check): C member clusters of N GPU nodes each (8 GPUs per node, two
// GPU products, four regions, a price label per cluster), one Placement selecting every
// cluster with the Cost and ResourceAllocatableGPU prioritizers, and W queued Workloads on
// the hub (1 pod x 1 GPU, 1 pod x 4 GPUs, 2 pods x 8 GPUs) that Kueue admits against the
// fleet quota and FleetDispatcher gives to the best-scored cluster whose nodes take every
// pod at once. Every run first checks its answer: as many workloads dispatched as the
// fleet's GPUs allow, and no cluster given more GPUs than it has.
// `berth_fleet_dispatch_bench --scale [--clusters=C] [--nodes=N] [--workloads=W]` runs
// 1,000 clusters x 100 nodes and 100,000 workloads once and prints the time per stage,
// dispatched workloads/s, peak RSS and a digest of every dispatch (workload, cluster, the
// pods' nodes), which stays the same while the engine's structure changes.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/plan.h"
#include "model/snapshot.h"
#include "bench_util.h"

namespace berth::bench {
namespace {

constexpr int64_t kGi = 1024LL * 1024 * 1024;

struct FleetSpec {
  int32_t clusters = 1000;
  int32_t nodes = 100;
  int32_t workloads = 100000;
};

std::string Name(const char* prefix, int64_t i) { return prefix + std::to_string(i); }

model::Condition Available() {
  model::Condition c;
  c.type = model::kConditionClusterAvailable;
  c.status = model::ConditionStatus::kTrue;
  c.reason = "ManagedClusterAvailable";
  c.last_transition_time = core::Timestamp{1000};
  return c;
}

model::Snapshot MakeFleet(const FleetSpec& spec) {
  model::Snapshot s;
  const model::ResourceId gpu = s.resources.Intern("nvidia.com/gpu");
  for (int32_t c = 0; c < spec.clusters; ++c) {
    const std::string cluster = Name("c-", c);
    model::ManagedCluster mc;
    mc.meta.name = cluster;
    mc.meta.labels[model::kClusterSetLabel] = "fleet";
    mc.meta.labels["region"] = Name("r-", c % 4);
    // Prices from 1.00 to 4.99 so that Cost orders the clusters.
    mc.meta.labels["berth.dev/gpu-hour-price"] =
        std::to_string(1 + (c * 7919) % 400 / 100) + "." + std::to_string(10 + (c * 7919) % 90);
    mc.hub_accepts_client = true;
    mc.conditions.push_back(Available());
    s.managed_clusters.push_back(std::move(mc));
    for (int32_t n = 0; n < spec.nodes; ++n) {
      model::Node node;
      node.meta.name = cluster + Name("-n", n);
      node.meta.labels["kubernetes.io/hostname"] = node.meta.name;
      node.meta.labels["nvidia.com/gpu.product"] = c % 2 == 0 ? "A100" : "H100";
      node.allocatable.Set(model::kCpu, 128000);
      node.allocatable.Set(model::kMemory, 1024 * kGi);
      node.allocatable.Set(model::kPods, 110);
      node.allocatable.Set(gpu, 8);
      node.capacity = node.allocatable;
      node.cluster = cluster;
      s.nodes.push_back(std::move(node));
    }
  }
  model::ManagedClusterSet set;
  set.meta.name = "fleet";
  s.managed_cluster_sets.push_back(set);
  model::ManagedClusterSetBinding binding;
  binding.meta.name = "fleet";
  binding.meta.namespace_ = "kueue-system";
  binding.cluster_set = "fleet";
  s.managed_cluster_set_bindings.push_back(binding);
  model::Placement placement;
  placement.meta.name = "fleet";
  placement.meta.namespace_ = "kueue-system";
  placement.cluster_sets = {"fleet"};
  placement.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  for (const auto& [name, weight] : {std::pair<const char*, int32_t>{"Cost", 2},
                                     std::pair<const char*, int32_t>{"ResourceAllocatableGPU", 1}}) {
    model::PrioritizerConfig config;
    config.score_coordinate = model::ScoreCoordinate{};
    config.score_coordinate->built_in = name;
    config.weight = weight;
    placement.prioritizer_policy.configurations.push_back(config);
  }
  s.placements.push_back(placement);

  model::AdmissionCheck check;
  check.meta.name = "fleet";
  check.controller_name = "open-cluster-management.io/placement";
  check.parameters_api_group = "cluster.open-cluster-management.io";
  check.parameters_kind = "Placement";
  check.parameters_name = "fleet";
  s.admission_checks.push_back(check);
  model::ResourceFlavor flavor;
  flavor.meta.name = "gpu";
  s.resource_flavors.push_back(flavor);
  model::ClusterQueue cq;
  cq.meta.name = "fleet";
  cq.namespace_selector = core::LabelSelector{};  // {}: every namespace
  model::ResourceGroup group;
  group.covered_resources = {model::kCpu, model::kMemory, gpu};
  const int64_t nodes = int64_t{spec.clusters} * spec.nodes;
  group.flavors.push_back({"gpu",
                           {{model::kCpu, nodes * 128000, std::nullopt, std::nullopt},
                            {model::kMemory, nodes * 1024 * kGi, std::nullopt, std::nullopt},
                            {gpu, nodes * 8, std::nullopt, std::nullopt}}});
  cq.resource_groups.push_back(group);
  cq.admission_checks.push_back({"fleet", {}});
  s.cluster_queues.push_back(cq);
  model::LocalQueue lq;
  lq.meta.name = "q";
  lq.meta.namespace_ = "default";
  lq.cluster_queue = "fleet";
  s.local_queues.push_back(lq);

  // 1 x 1 GPU, 1 x 4 GPUs, 2 x 8 GPUs: 7 GPUs per workload on average.
  static constexpr int32_t kPods[] = {1, 1, 2};
  static constexpr int64_t kGpus[] = {1, 4, 8};
  for (int32_t i = 0; i < spec.workloads; ++i) {
    const int32_t cls = i % 3;
    model::Workload w;
    w.meta.name = Name("wl-", i);
    w.meta.namespace_ = "default";
    w.meta.uid = Name("uid-", i);
    w.meta.creation_timestamp = core::Timestamp{2000 + i};
    w.queue_name = "q";
    model::KueuePodSet ps;
    ps.count = kPods[cls];
    model::Container container;
    container.requests.Set(model::kCpu, 8000 * kGpus[cls]);
    container.requests.Set(model::kMemory, 64 * kGi * kGpus[cls]);
    container.requests.Set(gpu, kGpus[cls]);
    ps.pod_template.containers.push_back(std::move(container));
    w.pod_sets.push_back(std::move(ps));
    s.kueue_workloads.push_back(std::move(w));
  }
  return s;
}

// FNV-1a over every dispatch in workload order: the workload, its cluster (or none) and,
// for the attempt that fit, each pod's node.
uint64_t Digest(const engine::Plan& plan) {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&](const std::string& s) {
    for (unsigned char ch : s) {
      h ^= ch;
      h *= 1099511628211ULL;
    }
    h ^= 0xff;
    h *= 1099511628211ULL;
  };
  for (const auto& [index, d] : plan.dispatches) {
    mix(std::to_string(index));
    mix(d.cluster.value_or("-"));
    if (!d.cluster || d.attempts.empty()) continue;
    for (const auto& [pod, node] : d.attempts.back().pods) {
      mix(pod);
      mix(node);
    }
  }
  return h;
}

// The answer is checked before it is timed: the dispatched workloads' GPUs per cluster stay
// within the cluster's GPUs, and the fleet is filled (a workload waits only when no cluster
// has room for it).
bool Check(const FleetSpec& spec, const model::Snapshot& snapshot, const engine::Plan& plan,
           int64_t* dispatched) {
  static constexpr int64_t kGpus[] = {1, 4, 16};
  std::map<std::string, int64_t> used;
  *dispatched = 0;
  for (const auto& [index, d] : plan.dispatches) {
    if (!d.cluster) continue;
    ++*dispatched;
    used[*d.cluster] += kGpus[index % 3];
  }
  for (const auto& [cluster, gpus] : used) {
    if (gpus > int64_t{spec.nodes} * 8) {
      std::fprintf(stderr, "cluster %s got %lld GPUs\n", cluster.c_str(), static_cast<long long>(gpus));
      return false;
    }
  }
  (void)snapshot;
  if (*dispatched == 0) {
    std::fprintf(stderr, "nothing dispatched (%zu dispatch attempts", plan.dispatches.size());
    if (!plan.dispatches.empty()) {
      std::fprintf(stderr, "; first: %s", plan.dispatches.begin()->second.message.c_str());
    }
    for (const auto& a : plan.admissions) {
      if (!a.result.decisions.empty()) {
        std::fprintf(stderr, "; %s: %s %s", a.cluster.c_str(), a.result.decisions.front().reason.c_str(),
                     a.result.decisions.front().message.c_str());
      }
    }
    std::fprintf(stderr, ")\n");
  }
  return *dispatched > 0;
}

void BM_Dispatch(benchmark::State& state) {
  FleetSpec spec;
  spec.clusters = static_cast<int32_t>(state.range(0));
  spec.nodes = 20;
  spec.workloads = static_cast<int32_t>(state.range(1));
  const model::Snapshot snapshot = MakeFleet(spec);
  int64_t dispatched = 0;
  for (auto _ : state) {
    engine::Plan plan = engine::RunPlan(snapshot, {});
    if (!Check(spec, snapshot, plan, &dispatched)) state.SkipWithError("wrong answer");
    benchmark::DoNotOptimize(plan);
  }
  state.counters["dispatched"] = static_cast<double>(dispatched);
  state.counters["workloads/s"] =
      benchmark::Counter(static_cast<double>(spec.workloads), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Dispatch)->Args({10, 200})->Args({100, 2000})->Unit(benchmark::kMillisecond);

int RunScale(int argc, char** argv) {
  FleetSpec spec;
  std::string dispatcher;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--clusters=", 11) == 0) spec.clusters = std::atoi(argv[i] + 11);
    if (std::strncmp(argv[i], "--nodes=", 8) == 0) spec.nodes = std::atoi(argv[i] + 8);
    if (std::strncmp(argv[i], "--workloads=", 12) == 0) spec.workloads = std::atoi(argv[i] + 12);
    // Kueue's MultiKueue dispatcher instead of best-fit (docs/fleet.md "Dispatch modes"):
    // --dispatcher=kueue.x-k8s.io/multikueue-dispatcher-all-at-once, or -incremental.
    if (std::strncmp(argv[i], "--dispatcher=", 13) == 0) dispatcher = argv[i] + 13;
  }
  const auto t0 = std::chrono::steady_clock::now();
  model::Snapshot snapshot = MakeFleet(spec);
  if (!dispatcher.empty()) {
    model::KueueConfig config;
    config.multikueue_dispatcher = dispatcher;
    config.multikueue_dispatcher_given = true;
    snapshot.kueue_config = config;
    std::printf("dispatcher: %s\n", dispatcher.c_str());
  }
  const auto t1 = std::chrono::steady_clock::now();
  // The input is handed over, as `berth plan` hands over what it read (RunPlan(Snapshot&&)).
  engine::Plan plan = engine::RunPlan(std::move(snapshot), {});
  const auto t2 = std::chrono::steady_clock::now();
  int64_t dispatched = 0;
  if (!Check(spec, plan.planned, plan, &dispatched)) {
    std::fprintf(stderr, "wrong answer\n");
    return 1;
  }
  const double build_s = std::chrono::duration<double>(t1 - t0).count();
  const double plan_s = std::chrono::duration<double>(t2 - t1).count();
  std::printf("fleet: %d clusters x %d nodes (8 GPUs each), %d queued workloads\n", spec.clusters,
              spec.nodes, spec.workloads);
  std::printf("snapshot build: %.2f s\n", build_s);
  std::printf("plan (member cycles, placement, hub admission + dispatch): %.2f s\n", plan_s);
  std::printf("dispatched: %lld, waiting: %lld\n", static_cast<long long>(dispatched),
              static_cast<long long>(plan.dispatches.size()) - static_cast<long long>(dispatched));
  std::printf("workloads/s: %.0f\n", spec.workloads / plan_s);
  std::printf("peak RSS: %.0f MiB\n", PeakRssMiB());
  std::printf("dispatch digest: %016llx\n", static_cast<unsigned long long>(Digest(plan)));
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
