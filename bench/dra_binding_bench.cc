// berth_dra_binding_bench: pods with DRA ResourceClaims bound end to end by
// binding::Scheduler (DynamicResources filter, the device allocator per candidate node,
// Reserve/PreBind), on 1,000 nodes with 8 GPUs each (bench/scenarios/dra_fleet.h). Cases:
// one GPU picked by a CEL selector, two GPUs on one PCIe root (matchAttribute), and eight
// GPUs where each node has seven free (no node can take it: every node must say why).
// Each run binds from an empty fleet until the GPUs run out, so it measures both the easy
// start and the fill, where the best-scoring nodes are full and nodes are tried in score
// order. Every benchmark first checks its answers (how many pods bind, that no device is
// given twice).
// `berth_dra_binding_bench --scale` runs each case once and prints pods/s, per-node time for
// the unsatisfiable case, peak RSS per 1,000 nodes, and per case a decision digest (a hash of
// every pod's node or message and of every claim's devices), which must not change when
// binding gets faster. `--scale --reference` also binds every case node by node (no index,
// the reference path, ~1.7 ms a pod) and prints whether its digest is the same.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "bench/scenarios/dra_fleet.h"
#include "binding/scheduler.h"
#include "core/diagnostics.h"
#include "model/scheduler_config.h"

namespace berth::bench {
namespace {

constexpr int32_t kNodes = 1000;

struct RunResult {
  int64_t pods = 0;
  int64_t bound = 0;
  double build_seconds = 0;  // constructing the Scheduler (and its device allocator)
  double seconds = 0;        // scheduling the pods
  uint64_t digest = 0;       // DecisionDigest
  std::string error;  // empty when the answers check out
};

// FNV-1a over the decisions in queue order (pod, node or unschedulable message) and the
// claim bindings (pod, claim, request, driver/pool/device): equal digests mean equal answers.
class DecisionDigest {
 public:
  void Add(std::string_view s) {
    for (unsigned char c : s) {
      h_ ^= c;
      h_ *= 1099511628211ULL;
    }
    h_ ^= 0xff;  // separator, so that ("ab", "c") and ("a", "bc") differ
    h_ *= 1099511628211ULL;
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 14695981039346656037ULL;
};

// kube-scheduler's default scoring spreads pods (LeastAllocated); GPU clusters often pack
// them (MostAllocated), which puts the fullest nodes first in score order: the hard case
// for a scheduler that asks the device allocator node by node.
model::SchedulerConfig Config(bool pack) {
  model::SchedulerConfig config;
  if (pack) config.profiles[0].fit_strategy.type = model::ScoringStrategyType::kMostAllocated;
  return config;
}

// Binds every pending pod of `snap` in queue order and checks the answers.
RunResult BindAll(const model::Snapshot& snap, int64_t expected_bound, bool pack,
                  bool use_index = true) {
  RunResult r;
  core::Diagnostics diags;
  binding::SchedulerOptions options;
  options.diagnostics = &diags;
  options.use_index = use_index;
  const auto build_start = std::chrono::steady_clock::now();
  binding::Scheduler scheduler(snap, Config(pack), options);
  const auto start = std::chrono::steady_clock::now();
  r.build_seconds = std::chrono::duration<double>(start - build_start).count();
  std::vector<model::PodDecision> decisions;
  for (model::PodIndex pod : scheduler.QueueOrder()) {
    ++r.pods;
    decisions.push_back(scheduler.ScheduleOne(pod));
    if (decisions.back().node.has_value()) ++r.bound;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  DecisionDigest digest;
  for (const model::PodDecision& d : decisions) {
    digest.Add(snap.pod(d.pod).meta.name);
    digest.Add(d.node.has_value() ? snap.node(*d.node).meta.name : "-");
    digest.Add(d.message);
  }
  for (const auto& b : scheduler.ClaimBindings()) {
    digest.Add(snap.pod(b.pod).meta.name);
    digest.Add(snap.resource_claims[static_cast<size_t>(b.claim.v)].meta.name);
    digest.Add(b.allocated ? "allocated" : "reserved");
    for (const auto& result : b.allocation.results) {
      digest.Add(result.request);
      digest.Add(result.driver);
      digest.Add(result.pool);
      digest.Add(result.device);
    }
  }
  r.digest = digest.value();
  if (!diags.entries().empty()) {
    r.error = "the DRA objects had problems: " + diags.entries().front().error.message();
  } else if (r.bound != expected_bound) {
    r.error = "bound " + std::to_string(r.bound) + " pods, expected " +
              std::to_string(expected_bound);
  } else {
    // No device may be handed out twice (pool and device name identify it).
    std::set<std::tuple<std::string, std::string>> used;
    for (const auto& b : scheduler.ClaimBindings()) {
      for (const auto& result : b.allocation.results) {
        if (!used.insert({result.pool, result.device}).second) {
          r.error = "device " + result.pool + "/" + result.device + " allocated twice";
          return r;
        }
      }
    }
  }
  return r;
}

double PeakRssMb() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

void Run(benchmark::State& state, DraClaimShape shape, bool pack) {
  DraFleetSpec spec;
  spec.nodes = kNodes;
  spec.shape = shape;
  spec.pods = static_cast<int32_t>(state.range(0));
  const model::Snapshot snap = MakeDraFleet(spec);
  const int64_t expected = ExpectedBound(spec);
  int64_t pods = 0;
  for (auto _ : state) {
    RunResult r = BindAll(snap, expected, pack);
    if (!r.error.empty()) {
      state.SkipWithError(r.error.c_str());
      return;
    }
    pods += r.pods;
    state.SetIterationTime(r.seconds);
  }
  state.counters["pods/s"] = benchmark::Counter(static_cast<double>(pods), benchmark::Counter::kIsRate);
  state.counters["peak_rss_MB_per_1k_nodes"] = PeakRssMb() * 1000.0 / kNodes;
}

void BM_DraBind_OneGpuCel_1kNodes(benchmark::State& state) {
  Run(state, DraClaimShape::kOneGpuCel, false);
}
void BM_DraBind_OneGpuCel_MostAllocated_1kNodes(benchmark::State& state) {
  Run(state, DraClaimShape::kOneGpuCel, true);
}
void BM_DraBind_TwoGpusMatchAttribute_1kNodes(benchmark::State& state) {
  Run(state, DraClaimShape::kTwoGpusSamePcieRoot, false);
}
void BM_DraBind_TwoGpusMatchAttribute_MostAllocated_1kNodes(benchmark::State& state) {
  Run(state, DraClaimShape::kTwoGpusSamePcieRoot, true);
}
void BM_DraBind_EightOfSeven_1kNodes(benchmark::State& state) {
  Run(state, DraClaimShape::kEightOfSeven, false);
}

// 1,000 pods: the start; 7,000 / 3,000: until every GPU (every free PCIe-root pair) is used.
BENCHMARK(BM_DraBind_OneGpuCel_1kNodes)->Arg(1000)->Arg(7000)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DraBind_OneGpuCel_MostAllocated_1kNodes)->Arg(7000)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DraBind_TwoGpusMatchAttribute_1kNodes)->Arg(1000)->Arg(3000)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DraBind_TwoGpusMatchAttribute_MostAllocated_1kNodes)
    ->Arg(3000)
    ->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DraBind_EightOfSeven_1kNodes)->Arg(100)->UseManualTime()->Unit(benchmark::kMillisecond);

int RunScale(bool check_reference) {
  struct Case {
    const char* name;
    DraClaimShape shape;
    int32_t pods;
    bool pack;
  };
  const Case cases[] = {
      {"1 GPU, CEL selector, first 1,000 pods", DraClaimShape::kOneGpuCel, 1000, false},
      {"1 GPU, CEL selector, fill all 7,000 free GPUs", DraClaimShape::kOneGpuCel, 7000, false},
      {"1 GPU, CEL selector, fill, MostAllocated", DraClaimShape::kOneGpuCel, 7000, true},
      {"2 GPUs, matchAttribute, first 1,000 pods", DraClaimShape::kTwoGpusSamePcieRoot, 1000, false},
      {"2 GPUs, matchAttribute, fill all 3,000 pairs", DraClaimShape::kTwoGpusSamePcieRoot, 3000, false},
      {"2 GPUs, matchAttribute, fill, MostAllocated", DraClaimShape::kTwoGpusSamePcieRoot, 3000, true},
      {"8 of 7 free GPUs (unsatisfiable), 200 pods", DraClaimShape::kEightOfSeven, 200, false},
  };
  std::printf("DRA binding, %d nodes x 8 GPUs, one core; pods/s excludes building the scheduler\n",
              kNodes);
  std::printf("%-46s %6s %6s %9s %9s %10s  %s\n", "case", "pods", "bound", "pods/s", "build ms",
              "us/pod/node", "decision digest");
  for (const Case& c : cases) {
    DraFleetSpec spec;
    spec.nodes = kNodes;
    spec.shape = c.shape;
    spec.pods = c.pods;
    const model::Snapshot snap = MakeDraFleet(spec);
    RunResult r = BindAll(snap, ExpectedBound(spec), c.pack);
    if (!r.error.empty()) {
      std::printf("%s: FAILED: %s\n", c.name, r.error.c_str());
      return 1;
    }
    const double per_pod_us = r.seconds * 1e6 / static_cast<double>(r.pods);
    std::printf("%-46s %6lld %6lld %9.0f %9.1f %10.3f  %016llx\n", c.name,
                static_cast<long long>(r.pods), static_cast<long long>(r.bound),
                static_cast<double>(r.pods) / r.seconds, r.build_seconds * 1e3,
                per_pod_us / kNodes, static_cast<unsigned long long>(r.digest));
    if (check_reference) {
      RunResult ref = BindAll(snap, ExpectedBound(spec), c.pack, /*use_index=*/false);
      std::printf("  reference path (no index): %.0f pods/s, digest %016llx: %s\n",
                  static_cast<double>(ref.pods) / ref.seconds,
                  static_cast<unsigned long long>(ref.digest),
                  ref.error.empty() && ref.digest == r.digest ? "same" : "DIFFERENT");
      if (!ref.error.empty() || ref.digest != r.digest) return 1;
    }
  }
  std::printf("peak RSS %.1f MiB per 1,000 nodes\n", PeakRssMb() * 1000.0 / kNodes);
  return 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) {
  bool scale = false;
  bool reference = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scale") == 0) scale = true;
    if (std::strcmp(argv[i], "--reference") == 0) reference = true;
  }
  if (scale) return berth::bench::RunScale(reference);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
