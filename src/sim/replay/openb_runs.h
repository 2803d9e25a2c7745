// OpenbRuns: `berth simulate --format openb`: the FGD paper's replay protocol (gpushare's
// RunReplay) for every (policy, seed) pair, run on `threads` threads, each result turned into
// the report's RunReport (allocation by arrived %, fragmentation, unallocated GPUs at 100%).
// Called by the CLI; runs are independent, so the result does not depend on `threads`.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "sim/gpushare/openb_trace.h"
#include "gpu/policy.h"
#include "sim/report/run_report.h"

namespace berth::sim {

struct OpenbRunOptions {
  std::vector<gpu::Policy> policies;
  std::vector<uint64_t> seeds;
  int threads = 2;
  std::string trace_name;
  std::function<void()> on_run_done;  // called once per finished run (from worker threads)
};

struct OpenbRunsResult {
  std::vector<report::RunReport> runs;  // policy-major, then seed, in the order given
  int64_t events = 0;
  double seconds = 0;
};

// The first failing run's error stops the grid (the others' results are dropped). No
// policies, no seeds or threads < 1 are InvalidArgument.
core::Result<OpenbRunsResult> RunOpenbGrid(const gpushare::OpenbTrace& trace,
                                           const OpenbRunOptions& options);

// "42-51", "42,43,50" or "7": the seeds in order. InvalidArgument naming the bad part.
core::Result<std::vector<uint64_t>> ParseSeedList(const std::string& text);

}  // namespace berth::sim
