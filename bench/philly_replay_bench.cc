// Philly replay benchmark (issue #6): the Philly job list (Pollux's philly.csv, 82,247 jobs
// over 15 virtual clusters) replayed by sim::RunQueueReplay on examples/sim/philly (96 nodes x
// 8 V100, one ClusterQueue per virtual cluster in one Cohort, reclaim by preemption): every
// arrival and completion goes through Kueue's admission and the binding scheduler. Prints
// wall time, events/s and peak RSS beside the goals (< 10 s, < 1 GiB), and checks the run
// accounts for every job (all finished, none lost) and is deterministic (--check-twice).
//   berth_philly_replay_bench [--trace FILE] [--fleet DIR] [--tenants FILE] [--check-twice]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/diagnostics.h"
#include "io/reader.h"
#include "sim/replay/queue_replay.h"
#include "sim/trace/queued_trace.h"
#include "sim/trace/reader.h"
#include "sim/trace/tenant_mapping.h"

namespace {

using namespace berth;

[[noreturn]] void Die(const std::string& why) {
  std::fprintf(stderr, "philly_replay_bench: %s\n", why.c_str());
  std::exit(2);
}

double PeakRssMiB() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

}  // namespace

int main(int argc, char** argv) {
  std::string root = BERTH_SOURCE_DIR;
  std::string trace_path = root + "/../shared/data/philly-jobs-pollux/philly.csv";
  std::string fleet = root + "/examples/sim/philly";
  std::string tenants = root + "/examples/sim/philly/tenants.csv";
  bool twice = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Die(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--trace") {
      trace_path = value();
    } else if (arg == "--fleet") {
      fleet = value();
    } else if (arg == "--tenants") {
      tenants = value();
    } else if (arg == "--check-twice") {
      twice = true;
    } else {
      Die("unknown argument " + arg);
    }
  }
  core::Diagnostics diags;
  io::Reader reader(diags);
  if (core::Status s = reader.ReadPath(fleet); !s.ok() || diags.has_errors()) {
    Die("cannot read the fleet " + fleet);
  }
  const io::Input fleet_input = reader.Finish();
  const io::Input* input = &fleet_input;
  auto mapping = sim::ReadTenantMappingFile(tenants);
  if (!mapping) Die(mapping.error().ToString());
  const auto read_start = std::chrono::steady_clock::now();
  auto trace = sim::ReadTraceFile(trace_path, sim::TraceFormat::kPhilly, {}, diags);
  if (!trace) Die(trace.error().ToString());
  auto queued = sim::AssignQueues(std::move(*trace), *mapping, false, diags);
  if (!queued) Die(queued.error().ToString());
  const double read_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - read_start).count();

  sim::QueueReplayOptions options;
  options.metrics_interval_ms = 600'000;
  const auto start = std::chrono::steady_clock::now();
  auto result = sim::RunQueueReplay(input->snapshot, *queued, options, diags);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result) Die(result.error().ToString());
  const sim::RunMetrics& m = result->report.metrics;
  const double rss = PeakRssMiB();

  std::printf("Philly replay: %zu jobs, %zu queues, fleet %s\n", queued->jobs.size(),
              queued->queues.size(), fleet.c_str());
  std::printf("  trace read           %8.2f s\n", read_s);
  std::printf("  replay               %8.2f s   (goal < 10 s: %s)\n", seconds,
              seconds < 10 ? "met" : "MISSED");
  std::printf("  events               %8lld     %.0f events/s\n",
              static_cast<long long>(result->stats.events),
              static_cast<double>(result->stats.events) / std::max(1e-9, seconds));
  std::printf("  admission cycles     %8lld\n", static_cast<long long>(result->stats.cycles));
  std::printf("  peak RSS             %8.0f MiB (goal < 1024 MiB: %s)\n", rss,
              rss < 1024 ? "met" : "MISSED");
  std::printf("  finished %lld, preemptions %lld, GPU allocation %.1f%%, wait mean %.0f s / p95 %.0f s,"
              " JCT mean %.0f s\n",
              static_cast<long long>(m.jobs_finished), static_cast<long long>(m.preemptions),
              m.gpu_allocation_pct, m.wait_s.mean, m.wait_s.p95, m.jct_s.mean);

  // The run must account for every job: each arrived, and each finished (nothing waits at the
  // end of an unbounded replay on a fleet every job fits).
  if (m.jobs_submitted != static_cast<int64_t>(queued->jobs.size()) ||
      m.jobs_finished != m.jobs_submitted) {
    std::fprintf(stderr, "check failed: %lld submitted, %lld finished of %zu jobs\n",
                 static_cast<long long>(m.jobs_submitted), static_cast<long long>(m.jobs_finished),
                 queued->jobs.size());
    return 1;
  }
  if (twice) {
    auto again = sim::RunQueueReplay(input->snapshot, *queued, options, diags);
    if (!again || again->report.metrics.wait_samples_s != m.wait_samples_s ||
        again->report.metrics.preemptions != m.preemptions) {
      std::fprintf(stderr, "check failed: the same inputs gave a different run\n");
      return 1;
    }
    std::printf("  second run identical (deterministic)\n");
  }
  return 0;
}
