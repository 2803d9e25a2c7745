// berth_kueue_baseline_bench: Kueue's baseline scheduler performance scenario
// (kubernetes-sigs/kueue test/performance/scheduler/configs/baseline; shared/reference/kueue.md
// §18) replayed by berth simulate's queue replay (sim::RunQueueReplay), printing berth's
// figures beside the means and thresholds Kueue's CI publishes (rangespec.yaml).
//
// The scenario: 5 Cohorts x 6 ClusterQueues (nominal 20 CPU, borrowingLimit 100,
// reclaimWithinCohort Any, withinClusterQueue LowerPriority), one LocalQueue per ClusterQueue,
// one ResourceFlavor, no nodes (Kueue's minimalkueue runs without kube-scheduler). Per
// ClusterQueue three workload sets created concurrently: 350 small (1 CPU, priority 50, runs
// 200 ms, one every 100 ms), 100 medium (5 CPU, 100, 500 ms, every 500 ms), 50 large (20 CPU,
// 200, 1 s, every 1.2 s): 15,000 workloads. A workload finishes its run time after its
// (latest) admission; a preempted one starts over.
//
// Time scale: trace durations are whole seconds, so the scenario runs 1000x slower in
// virtual time: one virtual second is one millisecond of the scenario, and every figure is
// printed back in the scenario's milliseconds.
//
// Metrics, as Kueue's runner and checker define them:
//  - average time to admission per workload class: creation -> the workload's latest
//    admission (its Admitted condition's last transition). berth's replay reports each job's
//    first start (wait) and its finish (JCT); the last admission is JCT - run time, exact here
//    because a quota-only cluster starts a job the moment Kueue admits it.
//  - ClusterQueue usage: CPU·ms used by admitted workloads, summed over the ClusterQueues, /
//    (summed nominal quota x elapsed from the first to the last event). The replay integrates
//    the allocation of the GPU resource against the nominal GPU quota, so each workload's N
//    CPUs are mirrored as N nvidia.com/gpu under identical quotas: the allocated-GPU ratio is
//    then exactly that usage. A second replay without the mirror (CPU quotas only, as Kueue's
//    generator writes them) must give the same admissions, which shows the mirror changes
//    nothing.
//
// Before printing it checks its answer, and exits 1 when a check fails: every workload
// finished; usage within (0, 100]%; allocated GPU-time = finished work + preempted work; the
// replay repeated gives byte-identical summary.json; the CPU-only replay gives the same
// admissions; and the policy's signature holds: average time to admission large < medium <
// small. Exit 2 on bad flags or a scenario berth rejects.
//
//   berth_kueue_baseline_bench [--cohorts 5] [--queues 6] [--stagger-ms 0] [--fleet-out FILE]
//
// --queues is ClusterQueues per Cohort. Cohorts share nothing and the ClusterQueues of a Cohort
// are identical and in phase, so fewer of either give the same per-class figures from fewer
// workloads (the smoke run). --stagger-ms N starts the i-th ClusterQueue's generators i x N ms
// late, as the generator's goroutines drift in Kueue's real run; out of phase, ClusterQueues
// borrow from and reclaim from each other. --fleet-out writes the generated Kueue objects
// (YAML) for `berth plan` or `berth simulate`.
// Run by hand and by CTest (bench_smoke_kueue_baseline); one thread; about 0.3 s and 63 MiB a
// replay of the full scenario.
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "io/reader.h"
#include "sim/replay/queue_replay.h"
#include "sim/report/run_report.h"
#include "sim/trace/queued_trace.h"

namespace berth::bench {
namespace {

// One workload set of Kueue's generator.yaml and its published figures (rangespec.yaml,
// averages of the 5 CI runs its comments cite; threshold = the checker's maximum).
struct WorkloadClass {
  const char* name;
  int count;  // per ClusterQueue
  int64_t interval_ms;
  int64_t runtime_ms;
  int32_t priority;
  int32_t cpus;
  int64_t kueue_mean_ms;
  int64_t kueue_max_ms;
};

// In the order the policy should admit them fastest first (priority descending).
constexpr std::array<WorkloadClass, 3> kClasses = {{
    {"large", 50, 1200, 1000, 200, 20, 16'501, 23'000},
    {"medium", 100, 500, 500, 100, 5, 76'768, 90'000},
    {"small", 350, 100, 200, 50, 1, 215'468, 260'000},
}};

constexpr int kNominalCpus = 20;
constexpr int kBorrowingLimitCpus = 100;
constexpr double kKueueUsageMeanPct = 55.9;
constexpr double kKueueUsageMinPct = 50;
constexpr int64_t kKueueWallMeanMs = 351'116;
constexpr int64_t kKueueWallMaxMs = 425'000;
// One virtual second of the replay is one millisecond of the scenario.
constexpr int64_t kTimeScale = 1000;
constexpr const char* kGpu = "nvidia.com/gpu";

struct Flags {
  int cohorts = 5;
  int queues = 6;
  int64_t stagger_ms = 0;
  std::string fleet_out;
};

[[noreturn]] void Usage(const std::string& problem) {
  std::fprintf(stderr,
               "berth_kueue_baseline_bench: %s\nusage: berth_kueue_baseline_bench [--cohorts N] "
               "[--queues N] [--stagger-ms N] [--fleet-out FILE]\n",
               problem.c_str());
  std::exit(2);
}

int PositiveInt(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || v < 1 || v > 1000) Usage(flag + " must be an integer in 1..1000");
  return static_cast<int>(v);
}

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--cohorts") {
      flags.cohorts = PositiveInt(arg, value());
    } else if (arg == "--queues") {
      flags.queues = PositiveInt(arg, value());
    } else if (arg == "--stagger-ms") {
      const std::string text = value();
      char* end = nullptr;
      flags.stagger_ms = std::strtoll(text.c_str(), &end, 10);
      if (*end != '\0' || flags.stagger_ms < 0 || flags.stagger_ms > 10'000) {
        Usage("--stagger-ms must be an integer in 0..10000");
      }
    } else if (arg == "--fleet-out") {
      flags.fleet_out = value();
    } else {
      Usage("unknown argument '" + arg + "'");
    }
  }
  return flags;
}

long PeakRssKib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// Kueue's generator names: ClusterQueue "<class>-<set>-<index>-<cohort>", its namespace and
// LocalQueue named the same.
std::string QueueName(int cohort, int queue) {
  return "cq-0-" + std::to_string(queue) + "-cohort-" + std::to_string(cohort);
}

// The Kueue objects of the scenario as users write them (kueue.x-k8s.io/v1beta2), so that the
// io reader validates them. gpu_mirror adds nvidia.com/gpu beside cpu with the same quotas.
std::string FleetYaml(const Flags& flags, bool gpu_mirror) {
  std::string y;
  y += "# Kueue's baseline scheduler performance scenario (test/performance/scheduler/configs/\n"
       "# baseline/generator.yaml), written by berth_kueue_baseline_bench.\n";
  y += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: rf\n";
  const std::string nominal = std::to_string(kNominalCpus);
  const std::string borrowing = std::to_string(kBorrowingLimitCpus);
  for (int c = 0; c < flags.cohorts; ++c) {
    for (int q = 0; q < flags.queues; ++q) {
      const std::string name = QueueName(c, q);
      y += "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + "\n";
      y += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: " +
           name +
           "\n  labels:\n    kueue.x-k8s.io/performance-scheduler-class: cq\nspec:\n"
           "  cohortName: cohort-" +
           std::to_string(c) +
           "\n  namespaceSelector: {}\n"
           "  preemption:\n    reclaimWithinCohort: Any\n    withinClusterQueue: LowerPriority\n"
           "  resourceGroups:\n  - coveredResources: [cpu" +
           (gpu_mirror ? std::string(", ") + kGpu : std::string()) +
           "]\n    flavors:\n    - name: rf\n      resources:\n";
      y += "      - name: cpu\n        nominalQuota: \"" + nominal +
           "\"\n        borrowingLimit: \"" + borrowing + "\"\n";
      if (gpu_mirror) {
        y += std::string("      - name: ") + kGpu + "\n        nominalQuota: \"" + nominal +
             "\"\n        borrowingLimit: \"" + borrowing + "\"\n";
      }
      y += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: " + name +
           "\n  namespace: " + name + "\nspec:\n  clusterQueue: " + name + "\n";
    }
  }
  return y;
}

struct Scenario {
  sim::QueuedTrace trace;
  std::vector<std::string> job_classes;  // parallel to trace.jobs
  std::array<int64_t, kClasses.size()> count_by_class{};
  // Work of all workloads in GPU x virtual ms (one GPU per CPU under the mirror).
  double work_milli_ms = 0;
};

// The generator's workloads: in each ClusterQueue, set k's i-th workload is created at
// (i + 1) x interval (its goroutine sleeps before each create). Jobs are ordered by creation
// time, ties by (cohort, queue, class) as the file order.
Scenario BuildScenario(const Flags& flags, bool gpu_mirror) {
  Scenario s;
  s.trace.name = "kueue-baseline";
  s.trace.file = "kueue-baseline (generated)";
  for (int c = 0; c < flags.cohorts; ++c) {
    for (int q = 0; q < flags.queues; ++q) {
      const std::string name = QueueName(c, q);
      s.trace.queues.push_back({name, name});
    }
  }
  std::sort(s.trace.queues.begin(), s.trace.queues.end());
  struct Pending {
    sim::QueuedJob job;
    int32_t cls;
  };
  std::vector<Pending> jobs;
  for (int c = 0; c < flags.cohorts; ++c) {
    for (int q = 0; q < flags.queues; ++q) {
      const std::string name = QueueName(c, q);
      const sim::QueueRef ref{name, name};
      const int32_t queue =
          static_cast<int32_t>(std::lower_bound(s.trace.queues.begin(), s.trace.queues.end(), ref) -
                               s.trace.queues.begin());
      for (size_t k = 0; k < kClasses.size(); ++k) {
        const WorkloadClass& wc = kClasses[k];
        for (int i = 0; i < wc.count; ++i) {
          Pending p;
          p.cls = static_cast<int32_t>(k);
          p.job.queue = queue;
          sim::TraceJob& j = p.job.job;
          j.id = name + "/" + wc.name + "-" + std::to_string(k) + "-" + std::to_string(i) + "-0";
          // Virtual seconds are scenario milliseconds.
          j.submit_s = (i + 1) * wc.interval_ms + flags.stagger_ms * (c * flags.queues + q);
          j.duration_s = wc.runtime_ms;
          j.cpu_milli = int64_t{1000} * wc.cpus;
          j.gpus = gpu_mirror ? wc.cpus : 0;
          j.priority = wc.priority;
          jobs.push_back(std::move(p));
        }
      }
    }
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const Pending& a, const Pending& b) {
    return a.job.job.submit_s < b.job.job.submit_s;
  });
  s.trace.jobs.reserve(jobs.size());
  s.job_classes.reserve(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].job.job.line = static_cast<int64_t>(i) + 1;
    const WorkloadClass& wc = kClasses[static_cast<size_t>(jobs[i].cls)];
    s.work_milli_ms += 1000.0 * wc.cpus * static_cast<double>(wc.runtime_ms * 1000);
    ++s.count_by_class[static_cast<size_t>(jobs[i].cls)];
    s.job_classes.push_back(wc.name);
    s.trace.jobs.push_back(std::move(jobs[i].job));
  }
  return s;
}

struct Run {
  sim::QueueReplayResult result;
  double read_s = 0;   // generating and reading the Kueue objects
  double total_s = 0;  // read + trace + replay
};

// Reads the fleet through io (as `berth simulate --fleet` does) and replays the scenario.
// Exits 2 when berth rejects an object or the replay refuses to run: the scenario is wrong.
Run ReplayScenario(const Flags& flags, bool gpu_mirror) {
  const auto start = std::chrono::steady_clock::now();
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(FleetYaml(flags, gpu_mirror), "kueue-baseline.yaml");
  io::Input input = reader.Finish();
  const size_t queues = static_cast<size_t>(flags.cohorts) * static_cast<size_t>(flags.queues);
  if (diags.has_errors() || input.snapshot.cluster_queues.size() != queues ||
      input.snapshot.local_queues.size() != queues) {
    for (const core::Diagnostic& d : diags.entries()) {
      std::fprintf(stderr, "%s\n", d.error.ToString().c_str());
    }
    Usage("berth did not read the scenario's " + std::to_string(queues) +
          " ClusterQueues and LocalQueues");
  }
  const auto read_done = std::chrono::steady_clock::now();
  Scenario scenario = BuildScenario(flags, gpu_mirror);
  sim::QueueReplayOptions options;
  options.shape.cluster = "default";
  options.shape.gpu_resource = kGpu;
  // A workload is one pod however many CPUs (and mirrored GPUs) it asks for.
  options.shape.max_gpus_per_pod = kBorrowingLimitCpus + kNominalCpus;
  options.metrics_interval_ms = 1000 * kTimeScale;  // one scenario second per row
  options.job_classes = std::move(scenario.job_classes);
  options.policy = gpu_mirror ? "kueue" : "kueue-cpu-only";
  auto result = sim::RunQueueReplay(input.snapshot, scenario.trace, options, diags);
  if (!result.has_value()) Usage("the replay refused the scenario: " + result.error().ToString());
  Run run;
  run.result = std::move(*result);
  const auto end = std::chrono::steady_clock::now();
  run.read_s = std::chrono::duration<double>(read_done - start).count();
  run.total_s = std::chrono::duration<double>(end - start).count();
  return run;
}

const sim::GroupStats* ClassStats(const sim::RunMetrics& m, const std::string& name) {
  for (const sim::GroupStats& g : m.by_class) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

// Average creation -> latest admission per class in scenario ms (Kueue's definition):
// mean JCT - run time. Virtual seconds are scenario milliseconds.
double AdmissionMs(const sim::GroupStats& g, const WorkloadClass& wc) {
  return g.jct_s.mean - static_cast<double>(wc.runtime_ms);
}

int Check(bool ok, const std::string& what, std::vector<std::string>& failures) {
  if (!ok) failures.push_back(what);
  return ok ? 0 : 1;
}

int RunBench(const Flags& flags) {
  if (!flags.fleet_out.empty()) {
    std::ofstream out(flags.fleet_out);
    out << FleetYaml(flags, true);
    if (!out) Usage("cannot write " + flags.fleet_out);
  }
  const Run first = ReplayScenario(flags, true);
  const Run again = ReplayScenario(flags, true);
  const Run cpu_only = ReplayScenario(flags, false);
  const Scenario scenario = BuildScenario(flags, true);
  const sim::RunMetrics& m = first.result.report.metrics;
  const sim::QueueReplayStats& st = first.result.stats;
  const int64_t workloads = static_cast<int64_t>(scenario.trace.jobs.size());

  std::vector<std::string> failures;
  // Sanity: everything ran to the end, usage is a fraction of the nominal quota, and the
  // allocated GPU-time is the finished work plus the work preempted attempts threw away.
  Check(m.jobs_finished == workloads && m.jobs_pending_at_end == 0 && m.jobs_running_at_end == 0 &&
            st.never_admitted == 0,
        "every workload finished (" + std::to_string(m.jobs_finished) + " of " +
            std::to_string(workloads) + ")",
        failures);
  const double usage_pct = m.gpu_allocation_pct;
  Check(usage_pct > 0 && usage_pct <= 100 + 1e-9, "usage within (0, 100]%", failures);
  const double work_h = scenario.work_milli_ms / 1000.0 / 3'600'000.0;
  const double accounted_h = work_h + m.preemption_gpu_hours_lost;
  Check(std::abs(m.gpu_hours_allocated - accounted_h) <= 1e-6 * accounted_h,
        "allocated time = finished work + preempted work", failures);
  for (size_t k = 0; k < kClasses.size(); ++k) {
    const sim::GroupStats* g = ClassStats(m, kClasses[k].name);
    Check(g != nullptr && g->jct_s.count == scenario.count_by_class[k],
          std::string("every ") + kClasses[k].name + " workload measured", failures);
  }
  if (!failures.empty()) {
    for (const std::string& f : failures) std::printf("CHECK FAILED: %s\n", f.c_str());
    return 1;
  }
  // Determinism: the same scenario gives the same bytes.
  const sim::report::ReportOptions ro;
  const std::string summary = sim::report::RenderSummaryJson({first.result.report}, ro);
  Check(summary == sim::report::RenderSummaryJson({again.result.report}, ro) &&
            st.events == again.result.stats.events && st.cycles == again.result.stats.cycles &&
            st.admissions == again.result.stats.admissions,
        "the replay repeated gives the same summary.json", failures);
  // The GPU mirror measures usage and changes nothing else.
  const sim::RunMetrics& c = cpu_only.result.report.metrics;
  bool same = c.preemptions == m.preemptions && c.makespan_ms == m.makespan_ms &&
              cpu_only.result.stats.admissions == st.admissions;
  for (const WorkloadClass& wc : kClasses) {
    const sim::GroupStats* a = ClassStats(m, wc.name);
    const sim::GroupStats* b = ClassStats(c, wc.name);
    same = same && b != nullptr && a->wait_s.mean == b->wait_s.mean &&
           a->jct_s.mean == b->jct_s.mean && a->wait_s.max == b->wait_s.max;
  }
  Check(same, "the CPU-only replay (no GPU mirror) admits the same way", failures);

  const double elapsed_ms = static_cast<double>(m.end_ms - m.start_ms) / kTimeScale;
  std::printf(
      "Kueue baseline scheduler performance scenario (kueue test/performance/scheduler/configs/"
      "baseline)\n%d Cohorts x %d ClusterQueues (nominal %d CPU, borrowingLimit %d, "
      "reclaimWithinCohort Any,\nwithinClusterQueue LowerPriority), no nodes; %lld workloads "
      "(stagger %lld ms)\nTime scale: 1 virtual second of the replay = 1 ms of the scenario; "
      "figures in "
      "scenario ms.\n\n",
      flags.cohorts, flags.queues, kNominalCpus, kBorrowingLimitCpus,
      static_cast<long long>(workloads), static_cast<long long>(flags.stagger_ms));
  std::printf("Average time to admission (creation -> latest admission), ms\n");
  std::printf("%-7s %9s %11s %12s %11s %11s  %s\n", "class", "workloads", "berth", "berth first",
              "Kueue mean", "Kueue max", "within Kueue's max");
  std::array<double, kClasses.size()> admission{};
  for (size_t k = 0; k < kClasses.size(); ++k) {
    const WorkloadClass& wc = kClasses[k];
    const sim::GroupStats* g = ClassStats(m, wc.name);
    admission[k] = AdmissionMs(*g, wc);
    std::printf("%-7s %9lld %11.1f %12.1f %11lld %11lld  %s\n", wc.name,
                static_cast<long long>(g->jct_s.count), admission[k], g->wait_s.mean,
                static_cast<long long>(wc.kueue_mean_ms), static_cast<long long>(wc.kueue_max_ms),
                admission[k] <= static_cast<double>(wc.kueue_max_ms) ? "yes" : "no");
  }
  std::printf(
      "(berth first: creation -> first admission; the two differ by the preempted attempts)\n\n");
  std::printf("ClusterQueue usage (CPU-ms used / (nominal x elapsed)), class cq\n");
  std::printf("%-7s %9s %11s %12s %11s %11s  %s\n", "class", "CQs", "berth %", "elapsed ms",
              "Kueue mean", "Kueue min", "within Kueue's min");
  std::printf("%-7s %9d %11.2f %12.1f %11.1f %11.1f  %s\n\n", "cq", flags.cohorts * flags.queues,
              usage_pct, elapsed_ms, kKueueUsageMeanPct, kKueueUsageMinPct,
              usage_pct >= kKueueUsageMinPct ? "yes" : "no");
  std::printf(
      "Whole run: berth %.3f s wall (reading the objects %.3f s, trace and engine setup %.3f s, "
      "event loop %.3f s)\nvs Kueue mean %.1f s (max %.1f s)\n%lld events, %.0f events/s in the "
      "loop, %.0f "
      "events/s overall; %lld admissions (%lld cycles),\n%lld preemptions; peak RSS %.1f MiB "
      "(three replays)\n\n",
      first.total_s, first.read_s, first.total_s - first.read_s - st.wall_s, st.wall_s,
      kKueueWallMeanMs / 1000.0, kKueueWallMaxMs / 1000.0, static_cast<long long>(st.events),
      static_cast<double>(st.events) / std::max(1e-9, st.wall_s),
      static_cast<double>(st.events) / std::max(1e-9, first.total_s),
      static_cast<long long>(st.admissions), static_cast<long long>(st.cycles),
      static_cast<long long>(st.preemptions), static_cast<double>(PeakRssKib()) / 1024);

  // The policy's signature: higher priority classes are admitted sooner.
  bool ordered = true;
  for (size_t k = 1; k < kClasses.size(); ++k) ordered = ordered && admission[k - 1] < admission[k];
  Check(ordered, "average time to admission large < medium < small", failures);
  std::printf(
      "Note: Kueue's CI runs minimalkueue against an API server (envtest) through a client "
      "limited to 50\nQPS (burst 100): every admission, eviction and finish is a write and a "
      "watch event, so its times\nare the system's. berth runs the same policy (priority order, "
      "borrowing, reclaim and\npreemption) in virtual time with no API server and no controller "
      "latency: its times are the\npolicy's alone, hence far shorter admission waits and higher "
      "usage. What must agree is the\npolicy's signature, the order large < medium < small: %s\n",
      ordered ? "holds" : "DOES NOT HOLD");
  std::printf("Checks: finished, usage, work accounting, determinism, CPU-only mirror, order: %s\n",
              failures.empty() ? "ok" : "FAILED");
  for (const std::string& f : failures) std::printf("CHECK FAILED: %s\n", f.c_str());
  return failures.empty() ? 0 : 1;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) {
  return berth::bench::RunBench(berth::bench::ParseFlags(argc, argv));
}
