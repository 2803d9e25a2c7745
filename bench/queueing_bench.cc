// berth_queueing_bench: Kueue admission (queueing::RunAdmission) over a synthetic fleet shaped
// like Kueue's large-scale performance test (../shared/reference/kueue.md §18): cohorts of
// ClusterQueues with two flavors, and small / medium / large workloads with three
// priorities. The preemption variant starts with low-priority workloads already admitted
// and borrowing, and enables reclaimWithinCohort=Any and withinClusterQueue=LowerPriority, so
// the high-priority work has to reclaim quota. Every run first checks its answer: no queue or
// cohort holds more than its quota allows, and work was admitted.
// `berth_queueing_bench --scale [--cohorts=N] [--queues=M] [--workloads=W] [--preemption=0|1]
// [--fair-sharing=0|1]` runs 10 cohorts × 100 ClusterQueues and 100,000 workloads once per
// variant (classical and fair sharing) and prints admissions, cycles, a digest of every
// decision (to check that an optimization changes none), CPU seconds, admissions/s and peak
// RSS.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "model/kueue.h"
#include "model/snapshot.h"
#include "queueing/admission.h"
#include "bench_util.h"

namespace berth::bench {
namespace {

constexpr int64_t kGi = 1024LL * 1024 * 1024;

struct FleetSpec {
  int32_t cohorts = 10;
  int32_t queues_per_cohort = 100;
  int32_t workloads = 100000;
  bool preemption = false;
  bool fair_sharing = false;  // kueue_config.fairSharing with the default strategies
};

std::string Name(const char* prefix, int64_t i) {
  std::string s = prefix;
  s += std::to_string(i);
  return s;
}

model::ResourceGroup Group(int64_t on_demand_cpu, int64_t spot_cpu, bool borrowing_limit) {
  model::ResourceGroup g;
  g.covered_resources = {model::kCpu, model::kMemory};
  model::FlavorQuotas on_demand{
      "on-demand",
      {{model::kCpu, on_demand_cpu, std::nullopt, std::nullopt},
       {model::kMemory, on_demand_cpu * 4 * kGi / 1000, std::nullopt, std::nullopt}}};
  if (borrowing_limit) on_demand.resources[0].borrowing_limit = 100000;
  model::FlavorQuotas spot{
      "spot",
      {{model::kCpu, spot_cpu, std::nullopt, std::nullopt},
       {model::kMemory, spot_cpu * 4 * kGi / 1000, std::nullopt, std::nullopt}}};
  g.flavors = {on_demand, spot};
  return g;
}

model::Workload MakeWorkload(int64_t i, const std::string& queue, int32_t cls) {
  // small: 1 pod × 1 cpu (priority 50); medium: 5 pods × 1 cpu (100); large: 4 pods × 5 cpu (200).
  static constexpr int32_t kCount[] = {1, 5, 4};
  static constexpr int64_t kCpuMilli[] = {1000, 1000, 5000};
  static constexpr int32_t kPriority[] = {50, 100, 200};
  model::Workload wl;
  wl.meta.name = Name("wl-", i);
  wl.meta.namespace_ = "default";
  wl.meta.uid = Name("uid-", i);
  wl.meta.creation_timestamp.unix_s = 1000 + i;
  wl.queue_name = queue;
  wl.priority = kPriority[cls];
  model::KueuePodSet ps;
  ps.count = kCount[cls];
  model::Container c;
  c.requests.Set(model::kCpu, kCpuMilli[cls]);
  c.requests.Set(model::kMemory, kCpuMilli[cls] * 4 * kGi / 1000);
  ps.pod_template.containers.push_back(std::move(c));
  wl.pod_sets.push_back(std::move(ps));
  return wl;
}

model::Snapshot MakeFleet(const FleetSpec& spec) {
  model::Snapshot s;
  for (const char* f : {"on-demand", "spot"}) {
    model::ResourceFlavor flavor;
    flavor.meta.name = f;
    s.resource_flavors.push_back(flavor);
  }
  const int32_t queues = spec.cohorts * spec.queues_per_cohort;
  for (int32_t q = 0; q < queues; ++q) {
    model::ClusterQueue cq;
    cq.meta.name = Name("cq-", q);
    cq.cohort = Name("cohort-", q / spec.queues_per_cohort);
    cq.namespace_selector = core::LabelSelector{};
    cq.resource_groups.push_back(Group(20000, 10000, true));
    if (spec.preemption) {
      cq.preemption.reclaim_within_cohort = model::PreemptionPolicy::kAny;
      cq.preemption.within_cluster_queue = model::PreemptionPolicy::kLowerPriority;
    }
    s.cluster_queues.push_back(std::move(cq));
    model::LocalQueue lq;
    lq.meta.name = Name("lq-", q);
    lq.meta.namespace_ = "default";
    lq.cluster_queue = Name("cq-", q);
    s.local_queues.push_back(std::move(lq));
  }
  // 70% small, 22% medium, 8% large, spread round-robin over the queues.
  for (int64_t i = 0; i < spec.workloads; ++i) {
    const int64_t r = (i * 37) % 100;
    const int32_t cls = r < 70 ? 0 : (r < 92 ? 1 : 2);
    s.kueue_workloads.push_back(MakeWorkload(i, Name("lq-", i % queues), cls));
  }
  if (spec.preemption) {
    // The first tenth of every cohort's queues already runs 100 low-priority 1-cpu workloads
    // each (80 cpu borrowed per queue) that the others will reclaim.
    int64_t next = spec.workloads;
    for (int32_t q = 0; q < queues; ++q) {
      if (q % spec.queues_per_cohort >= spec.queues_per_cohort / 10) continue;
      for (int32_t k = 0; k < 100; ++k) {
        model::Workload wl = MakeWorkload(next++, Name("lq-", q), 0);
        wl.priority = 10;
        model::PodSetAssignment psa;
        psa.name = "main";
        psa.count = 1;
        psa.flavors = {{"cpu", "on-demand"}, {"memory", "on-demand"}};
        psa.resource_usage = {{"cpu", 1000}, {"memory", 4 * kGi}};
        wl.admission = model::Admission{Name("cq-", q), {psa}};
        wl.conditions.push_back({"QuotaReserved", "True", "QuotaReserved", "", {500 + k}});
        wl.conditions.push_back({"Admitted", "True", "Admitted", "", {500 + k}});
        s.kueue_workloads.push_back(std::move(wl));
      }
    }
  }
  if (spec.fair_sharing) {
    s.kueue_config = model::KueueConfig{};
    s.kueue_config->fair_sharing = model::FairSharingConfig{};
  }
  return s;
}

struct Counts {
  int64_t admitted = 0, preempted = 0, pending = 0;
};

// FNV-1a over every decision (outcome, cycle, queue, flavors, victims, reasons), so an
// optimization can be checked to leave the decisions unchanged, not just their counts.
uint64_t Digest(const queueing::AdmissionResult& r) {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&](const std::string& text) {
    for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    h = (h ^ 0xffU) * 1099511628211ULL;
  };
  for (const auto& d : r.decisions) {
    mix(std::to_string(d.workload) + ":" + std::to_string(static_cast<int>(d.outcome)) + ":" +
        std::to_string(d.cycle) + ":" + d.reason + ":" + d.eviction.ValueOrEmpty().preemption_reason);
    if (d.admission) {
      mix(d.admission->cluster_queue);
      for (const auto& psa : d.admission->pod_set_assignments) {
        for (const auto& [resource, flavor] : psa.flavors) mix(resource + "=" + flavor);
      }
    }
    for (int32_t v : d.victims) mix(std::to_string(v));
    if (d.preempted_by) mix(std::to_string(*d.preempted_by));
  }
  return h;
}

// The answer check: per-queue usage within nominal + borrowingLimit, per-cohort usage within
// the cohort's quota, and something admitted. Returns an empty string when it holds.
std::string Check(const model::Snapshot& s, const queueing::AdmissionResult& r,
                  const FleetSpec& spec, Counts* counts) {
  for (const auto& d : r.decisions) {
    if (d.outcome == queueing::WorkloadOutcome::kAdmitted) ++counts->admitted;
    if (d.outcome == queueing::WorkloadOutcome::kPreempted) ++counts->preempted;
    if (d.outcome == queueing::WorkloadOutcome::kPending) ++counts->pending;
  }
  if (counts->admitted == 0) return "nothing admitted";
  std::vector<int64_t> cohort_cpu(static_cast<size_t>(spec.cohorts), 0);
  for (size_t q = 0; q < r.cluster_queues.size(); ++q) {
    for (const auto& u : r.cluster_queues[q].usage) {
      if (u.resource != "cpu") continue;
      const int64_t nominal = u.flavor == "on-demand" ? 20000 : 10000;
      const int64_t limit = u.flavor == "on-demand" ? nominal + 100000 : 1LL << 60;
      if (u.total > limit) return r.cluster_queues[q].name + " exceeds its borrowing limit";
      if (u.flavor == "on-demand") {
        cohort_cpu[q / static_cast<size_t>(spec.queues_per_cohort)] += u.total;
      }
    }
  }
  for (int64_t used : cohort_cpu) {
    if (used > 20000LL * spec.queues_per_cohort) return "a cohort exceeds its on-demand quota";
  }
  (void)s;
  return "";
}

queueing::AdmissionResult Admit(const model::Snapshot& s) {
  core::Diagnostics diags;
  queueing::AdmissionOptions options;
  options.now.unix_s = 1'000'000;
  return queueing::RunAdmission(s, options, nullptr, diags);
}

void RunBenchmark(benchmark::State& state, bool preemption, bool fair_sharing = false) {
  FleetSpec spec;
  spec.fair_sharing = fair_sharing;
  spec.cohorts = 2;
  spec.queues_per_cohort = 10;
  spec.workloads = static_cast<int32_t>(state.range(0));
  spec.preemption = preemption;
  model::Snapshot s = MakeFleet(spec);
  Counts counts;
  const std::string problem = Check(s, Admit(s), spec, &counts);
  if (!problem.empty()) {
    state.SkipWithError(problem.c_str());
    return;
  }
  for (auto _ : state) {
    queueing::AdmissionResult r = Admit(s);
    benchmark::DoNotOptimize(r.decisions.data());
  }
  state.counters["workloads/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * spec.workloads, benchmark::Counter::kIsRate);
  state.counters["admitted"] = static_cast<double>(counts.admitted);
}

void BM_Admission_20Queues(benchmark::State& state) { RunBenchmark(state, false); }
BENCHMARK(BM_Admission_20Queues)->Arg(2000)->Unit(benchmark::kMillisecond);

void BM_AdmissionWithPreemption_20Queues(benchmark::State& state) { RunBenchmark(state, true); }
BENCHMARK(BM_AdmissionWithPreemption_20Queues)->Arg(2000)->Unit(benchmark::kMillisecond);

void BM_FairSharingWithPreemption_20Queues(benchmark::State& state) {
  RunBenchmark(state, true, true);
}
BENCHMARK(BM_FairSharingWithPreemption_20Queues)->Arg(2000)->Unit(benchmark::kMillisecond);

int RunScale(int argc, char** argv) {
  FleetSpec base;
  base.cohorts = static_cast<int32_t>(Flag(argc, argv, "--cohorts", 10));
  base.queues_per_cohort = static_cast<int32_t>(Flag(argc, argv, "--queues", 100));
  base.workloads = static_cast<int32_t>(Flag(argc, argv, "--workloads", 100000));
  const int64_t only = Flag(argc, argv, "--preemption", -1);
  const int64_t only_fair = Flag(argc, argv, "--fair-sharing", -1);
  // Runs: quota only, with preemption, then the same two with fair sharing.
  for (int run = 0; run < 4; ++run) {
    const int preemption = run % 2;
    const int fair = run / 2;
    if (only >= 0 && only != preemption) continue;
    if (only_fair >= 0 && only_fair != fair) continue;
    FleetSpec spec = base;
    spec.preemption = preemption == 1;
    spec.fair_sharing = fair == 1;
    model::Snapshot s = MakeFleet(spec);
    const double c0 = CpuSeconds();
    queueing::AdmissionResult r = Admit(s);
    const double cpu = CpuSeconds() - c0;
    Counts counts;
    const std::string problem = Check(s, r, spec, &counts);
    std::printf("%s%s: %d cohorts x %d ClusterQueues, %zu workloads\n",
                spec.fair_sharing ? "fair sharing, " : "",
                spec.preemption ? "with preemption" : "quota only", spec.cohorts,
                spec.queues_per_cohort, s.kueue_workloads.size());
    std::printf("  admitted %lld, preempted %lld, pending %lld in %d cycles\n",
                static_cast<long long>(counts.admitted), static_cast<long long>(counts.preempted),
                static_cast<long long>(counts.pending), r.cycles);
    std::printf("  decisions digest %016llx\n", static_cast<unsigned long long>(Digest(r)));
    std::printf("  %.3f s CPU = %.0f admissions/s, %.0f decisions/s; peak RSS %.0f MiB\n", cpu,
                static_cast<double>(counts.admitted) / cpu,
                static_cast<double>(r.decisions.size()) / cpu, PeakRssMiB());
    if (!problem.empty()) {
      std::printf("CHECK FAILED: %s\n", problem.c_str());
      return 1;
    }
    std::printf("  check: every queue and cohort within its quota\n");
  }
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
