// berth_admission_bench: the admission of created pods (src/admission) at scale: N
// namespaces, each with a GPU ResourceQuota (requests.nvidia.com/gpu, requests.cpu, pods)
// and a LimitRange with Container defaults, and M pods created round-robin over them.
// Baseline: a naive admission that sums each namespace's admitted pods again for every pod
// (what a rescan per pod costs). `berth_admission_bench --scale [--namespaces=N] [--pods=M]`
// runs 10,000 namespaces / 100,000 pods once and prints pods/s and peak RSS.
#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "admission/limit_ranger.h"
#include "admission/quota_ledger.h"
#include "core/quantity.h"
#include "bench_util.h"

namespace berth::bench {
namespace {

constexpr int64_t kGpusPerNamespace = 8;  // hard requests.nvidia.com/gpu
constexpr int64_t kGpusPerPod = 1;

model::QuotaEntry Entry(const std::string& name, const std::string& amount) {
  model::QuotaEntry e;
  e.name = name;
  e.amount = amount;
  e.milli = static_cast<int64_t>(core::Quantity::Parse(amount)->milli());
  return e;
}

struct Fleet {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas;
  std::vector<model::LimitRange> ranges;  // defaulted, one per namespace
  std::vector<model::Pod> pods;
};

Fleet MakeFleet(int64_t namespaces, int64_t pods) {
  Fleet f;
  const model::ResourceId gpu = f.catalog.Intern("nvidia.com/gpu");
  for (int64_t i = 0; i < namespaces; ++i) {
    const std::string ns = "team-" + std::to_string(i);
    model::NamespaceQuota q;
    q.meta.name = "gpu";
    q.meta.namespace_ = ns;
    q.hard = {Entry("requests.nvidia.com/gpu", std::to_string(kGpusPerNamespace)),
              Entry("requests.cpu", "64"), Entry("pods", "100")};
    q.used = {Entry("requests.nvidia.com/gpu", "0")};
    q.has_used = true;
    f.quotas.push_back(std::move(q));
    model::LimitRange r;
    r.meta.name = "defaults";
    r.meta.namespace_ = ns;
    model::LimitRangeItem item;
    item.type = "Container";
    item.default_limits = {Entry("cpu", "2"), Entry("memory", "8Gi")};
    item.default_requests = {Entry("cpu", "1"), Entry("memory", "4Gi")};
    item.max = {Entry("nvidia.com/gpu", "8")};
    r.limits.push_back(std::move(item));
    f.ranges.push_back(admission::DefaultedLimitRange(r));
  }
  for (int64_t p = 0; p < pods; ++p) {
    model::Pod pod;
    pod.meta.name = "job-" + std::to_string(p);
    pod.meta.namespace_ = "team-" + std::to_string(p % namespaces);
    model::Container c;
    c.name = "main";
    c.requests.Set(gpu, kGpusPerPod);
    c.limits.Set(gpu, kGpusPerPod);
    pod.containers.push_back(std::move(c));
    f.pods.push_back(std::move(pod));
  }
  return f;
}

// Admits every pod; returns how many were refused.
int64_t AdmitAll(Fleet& f, std::vector<model::Pod> pods) {
  admission::QuotaLedger ledger(f.quotas, {}, f.catalog);
  int64_t refused = 0;
  for (model::Pod& pod : pods) {
    const size_t ns = std::stoul(pod.meta.namespace_.substr(5));
    const model::LimitRange* ranges[] = {&f.ranges[ns]};
    admission::LimitRangerResult r = admission::ApplyLimitRanges(ranges, f.catalog, &pod);
    if (!r.admitted() || !ledger.Admit(pod, f.catalog).empty()) ++refused;
  }
  return refused;
}

// The expected answer: each namespace admits kGpusPerNamespace pods and refuses the rest.
int64_t ExpectedRefused(int64_t namespaces, int64_t pods) {
  int64_t refused = 0;
  for (int64_t i = 0; i < namespaces; ++i) {
    const int64_t in_ns = pods / namespaces + (i < pods % namespaces ? 1 : 0);
    refused += std::max<int64_t>(0, in_ns - kGpusPerNamespace / kGpusPerPod);
  }
  return refused;
}

// The naive baseline: each pod's namespace usage summed again from the pods admitted so far.
int64_t AdmitNaive(const Fleet& f, const std::vector<model::Pod>& pods) {
  model::ResourceId gpu;
  (void)f.catalog.Find("nvidia.com/gpu", &gpu);
  std::vector<const model::Pod*> admitted;
  int64_t refused = 0;
  for (const model::Pod& pod : pods) {
    int64_t used = 0;
    for (const model::Pod* a : admitted) {
      if (a->meta.namespace_ == pod.meta.namespace_) used += a->containers[0].requests.Get(gpu);
    }
    if (used + pod.containers[0].requests.Get(gpu) > kGpusPerNamespace) {
      ++refused;
    } else {
      admitted.push_back(&pod);
    }
  }
  return refused;
}

void BM_AdmitPods(benchmark::State& state) {
  const int64_t namespaces = state.range(0);
  const int64_t pods = state.range(1);
  Fleet f = MakeFleet(namespaces, pods);
  if (AdmitAll(f, f.pods) != ExpectedRefused(namespaces, pods)) {
    state.SkipWithError("wrong answer");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(AdmitAll(f, f.pods));
  state.counters["pods/s"] =
      benchmark::Counter(static_cast<double>(pods), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_AdmitPods)->Args({100, 1000})->Args({1000, 10000})->Unit(benchmark::kMillisecond);

void BM_AdmitPodsNaiveRescan(benchmark::State& state) {
  const int64_t namespaces = state.range(0);
  const int64_t pods = state.range(1);
  const Fleet f = MakeFleet(namespaces, pods);
  if (AdmitNaive(f, f.pods) != ExpectedRefused(namespaces, pods)) {
    state.SkipWithError("wrong answer");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(AdmitNaive(f, f.pods));
  state.counters["pods/s"] =
      benchmark::Counter(static_cast<double>(pods), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_AdmitPodsNaiveRescan)->Args({100, 1000})->Args({1000, 10000})->Unit(benchmark::kMillisecond);

int RunScale(int64_t namespaces, int64_t pods) {
  Fleet f = MakeFleet(namespaces, pods);
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  const int64_t refused = AdmitAll(f, f.pods);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // CPU time too: on a shared machine the wall clock measures the neighbours.
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  if (refused != ExpectedRefused(namespaces, pods)) {
    std::fprintf(stderr, "berth_admission_bench --scale: wrong answer: %lld refused, want %lld\n",
                 static_cast<long long>(refused),
                 static_cast<long long>(ExpectedRefused(namespaces, pods)));
    return 1;
  }
  std::printf("admission: %lld namespaces (quota + limit range each), %lld created pods, %lld "
              "refused: %.3f s wall (%.0f pods/s), %.3f s CPU (%.0f pods/s), peak RSS %.0f MiB\n",
              static_cast<long long>(namespaces), static_cast<long long>(pods),
              static_cast<long long>(refused), seconds, static_cast<double>(pods) / seconds,
              cpu_seconds, static_cast<double>(pods) / cpu_seconds, PeakRssMiB());
  return 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) {
  bool scale = false;
  int64_t namespaces = 10000;
  int64_t pods = 100000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--scale") scale = true;
    if (arg.rfind("--namespaces=", 0) == 0) namespaces = std::atoll(arg.c_str() + 13);
    if (arg.rfind("--pods=", 0) == 0) pods = std::atoll(arg.c_str() + 7);
  }
  if (scale) return berth::bench::RunScale(namespaces, pods);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
