#include "sim/report_test_util.h"

#include <string>
#include <vector>

#include "sim/core/metrics_recorder.h"
#include "sim/core/rng.h"

namespace berth::sim::report::testing {

RunReport MakeRun(const std::string& policy, uint64_t seed, const std::string& queue_b) {
  MetricsOptions options;
  options.interval_ms = 60'000;
  options.entitlements = {{"team-a", 0.5}, {"team-b", 0.5}};
  MetricsRecorder r(options);
  Rng rng(seed);
  const int64_t total = 8000;
  int64_t allocated = 0;
  auto sample = [&](int64_t t) {
    CapacitySample s;
    s.allocated_gpu_milli = allocated;
    s.total_gpu_milli = total;
    s.frag_gpu_milli = static_cast<double>(total - allocated) * 0.1;
    r.RecordCapacity(t, s);
  };
  sample(0);
  r.RecordPoolCapacity(0, {"spot", "A100"}, 4000);
  r.RecordPoolCapacity(0, {"on-demand", "H100"}, 4000);
  int64_t t = 0;
  for (int j = 0; j < 40; ++j) {
    t += static_cast<int64_t>(rng.UniformInt(30'000));
    const bool a = j % 2 == 0;
    JobIndex job = r.RecordSubmitted(t, {a ? "team-a" : "team-b", a ? "q-a" : queue_b,
                                         j % 3 == 0 ? "train" : "infer", 1000, 0, 0});
    const int64_t start = t + static_cast<int64_t>(rng.UniformInt(20'000));
    const GpuLabels pool = a ? GpuLabels{"spot", "A100"} : GpuLabels{"on-demand", "H100"};
    r.RecordStarted(start, job, pool);
    allocated += 1000;
    sample(start);
    int64_t end = start + 10'000 + static_cast<int64_t>(rng.UniformInt(50'000));
    if (j == 5) {
      r.RecordPreempted(start + 5'000, job);
      r.RecordStarted(start + 6'000, job, pool);
      end += 6'000;
    }
    if (j == 7) {
      const FailureIndex node = r.RecordFailureEvent(start + 5'000, "node n<1>");
      r.RecordFailed(start + 5'000, job, /*requeued=*/true, node);
      r.RecordStarted(start + 9'000, job, pool);
      end += 9'000;
    }
    r.RecordFinished(end, job);
    allocated -= 1000;
    sample(end);
    t = end;
  }
  RunReport run;
  run.policy = policy;
  run.seed = seed;
  run.trace = "unit";
  run.metrics = r.Finish(t + 1'000);
  run.extra_metrics = {{"custom_figure", static_cast<double>(seed % 7)}};
  return run;
}

RunReport MakeCurveRun(const std::string& policy, uint64_t seed, double at_100) {
  RunReport run;
  run.policy = policy;
  run.seed = seed;
  run.trace = "openb_pod_list_default";
  for (int pct = 0; pct <= 130; ++pct) {
    run.allocation_pct_by_arrived_pct[pct] = pct <= 90 ? pct : (pct == 100 ? at_100 : 90.0);
  }
  return run;
}

ReportOptions Options() {
  ReportOptions o;
  o.berth_version = "0.1.0-test";
  return o;
}

std::vector<std::string> ChartKeys() {
  return {"gpu-allocation",
          "fragmentation",
          "utilisation-by-flavor",
          "utilisation-by-gpu-model",
          "queue-length",
          "wait-cdf",
          "jct-cdf",
          "tenant-share",
          "preemptions",
          "preemption-work-lost",
          "failures",
          "failure-work-lost",
          "recovery-cdf"};
}

}  // namespace berth::sim::report::testing
