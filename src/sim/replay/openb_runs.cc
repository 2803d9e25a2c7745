#include "sim/replay/openb_runs.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "sim/gpushare/replay.h"

namespace berth::sim {

core::Result<std::vector<uint64_t>> ParseSeedList(const std::string& text) {
  std::vector<uint64_t> seeds;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = text.find(',', pos);
    const std::string part = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    auto number = [&](const std::string& s) -> core::Result<uint64_t> {
      if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18) {
        return core::InvalidArgument("--seeds: \"" + part + "\" is not a seed or a range A-B");
      }
      return std::stoull(s);
    };
    const size_t dash = part.find('-');
    if (dash == std::string::npos) {
      auto s = number(part);
      if (!s) return s.error();
      seeds.push_back(*s);
    } else {
      auto a = number(part.substr(0, dash));
      auto b = number(part.substr(dash + 1));
      if (!a) return a.error();
      if (!b) return b.error();
      if (*b < *a || *b - *a > 100'000) {
        return core::InvalidArgument("--seeds: range \"" + part + "\" is empty or too long");
      }
      for (uint64_t s = *a; s <= *b; ++s) seeds.push_back(s);
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return seeds;
}

core::Result<OpenbRunsResult> RunOpenbGrid(const gpushare::OpenbTrace& trace,
                                           const OpenbRunOptions& options) {
  // The CLI checks its flags too; these are the grid's own preconditions, so a caller that
  // passes an empty list gets an error, not an empty report that looks like a result.
  if (options.policies.empty()) return core::InvalidArgument("no policy to run");
  if (options.seeds.empty()) return core::InvalidArgument("no seed to run");
  if (options.threads < 1) {
    return core::InvalidArgument("threads must be at least 1, not " +
                                 std::to_string(options.threads));
  }
  struct Job {
    gpu::Policy policy;
    uint64_t seed;
  };
  std::vector<Job> jobs;
  for (gpu::Policy p : options.policies) {
    for (uint64_t s : options.seeds) jobs.push_back({p, s});
  }
  std::vector<core::Result<gpushare::ReplayResult>> results(
      jobs.size(), core::Result<gpushare::ReplayResult>(core::Internal("not run")));
  std::atomic<size_t> next{0};
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&]() {
    for (size_t j = next++; j < jobs.size(); j = next++) {
      gpushare::ReplayOptions ro;
      ro.policy = jobs[j].policy;
      ro.seed = jobs[j].seed;
      results[j] = gpushare::RunReplay(trace.nodes, trace.pods, ro);
      if (options.on_run_done) options.on_run_done();
    }
  };
  std::vector<std::thread> pool;
  const int threads = std::max(1, std::min<int>(options.threads, static_cast<int>(jobs.size())));
  for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  OpenbRunsResult out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (!results[j]) return results[j].error();
    const gpushare::ReplayResult& r = *results[j];
    out.events += r.events;
    report::RunReport run;
    run.policy = std::string(gpu::PolicyName(r.policy));
    run.seed = r.seed;
    run.trace = options.trace_name;
    run.allocation_pct_by_arrived_pct = r.allocation_pct_by_arrived_pct;
    if (!std::isnan(r.unallocated_pct_at_100)) {
      run.extra_metrics.push_back({"unallocated_gpu_pct_at_arrived_100", r.unallocated_pct_at_100});
    }
    if (auto it = r.frag_amount_pct_by_arrived_pct.find(100); it != r.frag_amount_pct_by_arrived_pct.end()) {
      run.extra_metrics.push_back({"frag_amount_pct_at_arrived_100", it->second});
    }
    if (auto it = r.frag_rate_pct_by_arrived_pct.find(100); it != r.frag_rate_pct_by_arrived_pct.end()) {
      run.extra_metrics.push_back({"frag_rate_pct_at_arrived_100", it->second});
    }
    run.extra_metrics.push_back({"final_allocation_pct", r.final_allocation_pct});
    run.extra_metrics.push_back({"pods_placed", static_cast<double>(r.placed)});
    run.extra_metrics.push_back({"pods_failed", static_cast<double>(r.failed)});
    out.runs.push_back(std::move(run));
  }
  return out;
}

}  // namespace berth::sim
