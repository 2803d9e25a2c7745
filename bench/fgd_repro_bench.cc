// berth_fgd_repro_bench: the FGD paper's reproduction grid (shared/reference/traces.md §2).
// For each OpenB trace variant, policy and seed it replays the trace with
// sim::gpushare::RunReplay (1213 GPU nodes, seeded shuffle, inflation to 130% of the GPUs,
// one attempt per pod) and prints, per trace and policy, berth's mean ± sd unallocated GPU %
// at arrived 100% next to the authors' mean ± sd from fgd-expected-results, flagging cells
// more than 2 of the authors' sd away; when both fgd and berth ran, a second table puts
// berth's own policy beside FGD per trace and says whether berth <= fgd; then the total time,
// runs/s, pod events/s and peak RSS. --runs FILE writes one CSV row per run. Runs go to --threads
// worker threads. Before printing it checks its answer: every run accounts for each arrival once,
// allocation stays within 0..100%, and the first run replayed again gives the same buckets.
//
//   berth_fgd_repro_bench --data ../shared/data [--traces default,cpu050,...|all]
//                         [--seeds 42-51] [--policies all+berth|all|fgd,berth,...]
//                         [--threads 2]
//                         [--trace-dir DIR] [--expected FILE|none] [--curves] [--runs FILE]
//                         [--tie-break ranked|uniform]
//
// --policies defaults to all+berth: the paper's six and berth's policy ("all" is the six).
// --tie-break uniform replaces upstream's seeded node order among equal scores by a uniform
// draw per pod (stock kube-scheduler), to show how much the paper's results lean on it.
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpu/policy.h"
#include "sim/gpushare/openb_reader.h"
#include "sim/gpushare/replay.h"

namespace berth::bench {
namespace {

using gpu::Policy;

// The paper's 17 trace variants (generate_run_scripts.py FILELIST).
constexpr std::array<const char*, 17> kPaperTraces = {
    "default",    "cpu050",     "cpu100",      "cpu200",     "cpu250",    "gpushare40",
    "gpushare60", "gpushare80", "gpushare100", "gpuspec10",  "gpuspec20", "gpuspec25",
    "gpuspec33",  "multigpu20", "multigpu30",  "multigpu40", "multigpu50"};

struct Flags {
  std::string data = "../shared/data";
  std::string trace_dir;  // default: <data>/alibaba-gpu-2023
  std::string expected;   // default: <data>/fgd-expected-results/summary_unallocated_gpu_pct.csv
  std::vector<std::string> traces = {"default"};
  std::vector<uint64_t> seeds;
  std::vector<Policy> policies;
  int threads = 2;
  bool curves = false;
  std::string runs_csv;  // --runs: one row per run, full precision
  sim::gpushare::TieBreak tie_break = sim::gpushare::TieBreak::kSeededNodeOrder;
};

[[noreturn]] void Usage(const std::string& problem) {
  std::fprintf(stderr,
               "berth_fgd_repro_bench: %s\nusage: berth_fgd_repro_bench [--data DIR] "
               "[--trace-dir DIR] [--expected FILE|none] [--traces LIST|all] [--seeds A-B|LIST] "
               "[--policies LIST|all|all+berth] [--threads N] [--tie-break ranked|uniform] "
               "[--curves] [--runs FILE]\n",
               problem.c_str());
  std::exit(2);
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::vector<uint64_t> ParseSeeds(const std::string& text) {
  std::vector<uint64_t> seeds;
  for (const std::string& item : SplitList(text)) {
    const size_t dash = item.find('-');
    char* end = nullptr;
    const uint64_t first = std::strtoull(item.c_str(), &end, 10);
    if (dash == std::string::npos) {
      if (*end != '\0') Usage("bad seed '" + item + "'");
      seeds.push_back(first);
      continue;
    }
    const uint64_t last = std::strtoull(item.c_str() + dash + 1, &end, 10);
    if (*end != '\0' || last < first) Usage("bad seed range '" + item + "'");
    for (uint64_t s = first; s <= last; ++s) seeds.push_back(s);
  }
  if (seeds.empty()) Usage("no seeds");
  return seeds;
}

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  std::string seeds = "42-51";
  std::string policies = "all+berth";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--data") {
      flags.data = value();
    } else if (arg == "--trace-dir") {
      flags.trace_dir = value();
    } else if (arg == "--expected") {
      flags.expected = value();
    } else if (arg == "--traces") {
      const std::string list = value();
      flags.traces =
          list == "all" ? std::vector<std::string>(std::begin(kPaperTraces), std::end(kPaperTraces))
                        : SplitList(list);
    } else if (arg == "--seeds") {
      seeds = value();
    } else if (arg == "--policies") {
      policies = value();
    } else if (arg == "--threads") {
      flags.threads = std::atoi(value().c_str());
      if (flags.threads < 1) Usage("--threads must be at least 1");
    } else if (arg == "--curves") {
      flags.curves = true;
    } else if (arg == "--runs") {
      flags.runs_csv = value();
    } else if (arg == "--tie-break") {
      const std::string rule = value();
      if (rule != "ranked" && rule != "uniform") Usage("--tie-break is ranked or uniform");
      flags.tie_break = rule == "uniform" ? sim::gpushare::TieBreak::kUniform
                                          : sim::gpushare::TieBreak::kSeededNodeOrder;
    } else {
      Usage("unknown argument '" + arg + "'");
    }
  }
  if (flags.trace_dir.empty()) flags.trace_dir = flags.data + "/alibaba-gpu-2023";
  if (flags.expected.empty()) {
    flags.expected = flags.data + "/fgd-expected-results/summary_unallocated_gpu_pct.csv";
  }
  flags.seeds = ParseSeeds(seeds);
  core::Result<std::vector<Policy>> parsed = gpu::ParsePolicyList(policies);
  if (!parsed.has_value()) Usage(parsed.error().ToString());
  flags.policies = std::move(parsed).value();
  return flags;
}

// The authors' mean and sd per (trace, policy) at arrived 100%, from the derived summary
// (columns arrived_pct, workload, mean_<01-Random>..., sd_<01-Random>...).
struct Published {
  double mean = NAN;
  double sd = NAN;
};
using PublishedTable = std::map<std::pair<std::string, Policy>, Published>;

PublishedTable ReadPublished(const std::string& path) {
  PublishedTable table;
  if (path == "none") return table;
  std::ifstream in(path);
  if (!in) Usage("cannot open the published results '" + path + "' (use --expected none)");
  std::string line;
  auto next_line = [&in, &line]() {
    if (!std::getline(in, line)) return false;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // the file has CRLF endings
    return true;
  };
  next_line();
  std::vector<std::string> header;
  std::stringstream header_in(line);
  for (std::string cell; std::getline(header_in, cell, ',');) header.push_back(cell);
  while (next_line()) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells.size() != header.size() || cells[0] != "100") continue;
    std::string trace = cells[1];
    if (trace.rfind("openb_pod_list_", 0) == 0) trace = trace.substr(15);
    for (Policy policy : gpu::kAllPolicies) {
      const std::string paper(gpu::PolicyPaperName(policy));
      Published published;
      for (size_t c = 2; c < header.size(); ++c) {
        if (header[c] == "mean_" + paper) published.mean = std::atof(cells[c].c_str());
        if (header[c] == "sd_" + paper) published.sd = std::atof(cells[c].c_str());
      }
      table[{trace, policy}] = published;
    }
  }
  return table;
}

struct Job {
  int trace = 0;
  Policy policy = Policy::kFgd;
  uint64_t seed = 0;
};

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? NAN : sum / static_cast<double>(v.size());
}

// Sample standard deviation (ddof 1), as pandas computes the authors' sd.
double Sd(const std::vector<double>& v) {
  if (v.size() < 2) return NAN;
  const double mean = Mean(v);
  double sq = 0;
  for (double x : v) sq += (x - mean) * (x - mean);
  return std::sqrt(sq / static_cast<double>(v.size() - 1));
}

long PeakRssKib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

int Run(const Flags& flags) {
  gpu::GpuModelTable models;
  const sim::gpushare::CsvReadOptions strict;
  const std::string node_path = flags.trace_dir + "/openb_node_list_gpu_node.csv";
  core::Result<sim::gpushare::NodeList> nodes =
      sim::gpushare::ReadOpenbNodes(node_path, models, strict);
  if (!nodes.has_value()) Usage(nodes.error().ToString());
  std::vector<std::vector<gpu::PodSpec>> traces;
  for (const std::string& trace : flags.traces) {
    core::Result<sim::gpushare::PodList> pods = sim::gpushare::ReadOpenbPods(
        flags.trace_dir + "/openb_pod_list_" + trace + ".csv", models, strict);
    if (!pods.has_value()) Usage(pods.error().ToString());
    traces.push_back(std::move(pods->pods));
  }
  const PublishedTable published = ReadPublished(flags.expected);

  std::vector<Job> jobs;
  for (int t = 0; t < static_cast<int>(traces.size()); ++t) {
    for (Policy policy : flags.policies) {
      for (uint64_t seed : flags.seeds) jobs.push_back({t, policy, seed});
    }
  }
  std::vector<sim::gpushare::ReplayResult> results(jobs.size());
  std::vector<std::string> errors(jobs.size());
  std::atomic<size_t> next{0};
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&]() {
    for (size_t j = next++; j < jobs.size(); j = next++) {
      sim::gpushare::ReplayOptions options;
      options.policy = jobs[j].policy;
      options.seed = jobs[j].seed;
      options.tie_break = flags.tie_break;
      core::Result<sim::gpushare::ReplayResult> result =
          sim::gpushare::RunReplay(nodes->nodes, traces[jobs[j].trace], options);
      if (result.has_value()) {
        results[j] = std::move(result).value();
      } else {
        errors[j] = result.error().ToString();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int i = 0; i < flags.threads; ++i) pool.emplace_back(worker);
  for (std::thread& thread : pool) thread.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Check the answer before printing it.
  int64_t events = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (!errors[j].empty()) {
      std::fprintf(stderr, "run %zu failed: %s\n", j, errors[j].c_str());
      return 1;
    }
    const sim::gpushare::ReplayResult& r = results[j];
    events += r.events;
    if (r.placed + r.failed != r.pods || r.events != r.pods || r.final_allocation_pct < 0 ||
        r.final_allocation_pct > 100) {
      std::fprintf(stderr, "check failed: run %zu does not account for its arrivals\n", j);
      return 1;
    }
  }
  if (!jobs.empty()) {
    sim::gpushare::ReplayOptions options;
    options.policy = jobs[0].policy;
    options.seed = jobs[0].seed;
    options.tie_break = flags.tie_break;
    core::Result<sim::gpushare::ReplayResult> again =
        sim::gpushare::RunReplay(nodes->nodes, traces[jobs[0].trace], options);
    if (!again.has_value() ||
        again->allocation_pct_by_arrived_pct != results[0].allocation_pct_by_arrived_pct ||
        again->frag_amount_pct_by_arrived_pct != results[0].frag_amount_pct_by_arrived_pct) {
      std::fprintf(stderr, "check failed: the same seed gave different results\n");
      return 1;
    }
  }

  if (!flags.runs_csv.empty()) {
    std::ofstream out(flags.runs_csv);
    if (!out) Usage("cannot write '" + flags.runs_csv + "'");
    out << "trace,policy,seed,unallocated_pct_at_100,placed,failed\n";
    for (size_t j = 0; j < jobs.size(); ++j) {
      std::array<char, 64> cell{};
      std::snprintf(cell.data(), cell.size(), "%.17g", results[j].unallocated_pct_at_100);
      out << flags.traces[jobs[j].trace] << ',' << gpu::PolicyName(jobs[j].policy) << ','
          << jobs[j].seed << ',' << cell.data() << ',' << results[j].placed << ','
          << results[j].failed << '\n';
    }
  }

  std::printf("FGD reproduction: unallocated GPU %% at arrived 100%% (mean ± sd over %zu seeds)\n",
              flags.seeds.size());
  std::printf("%-12s %-11s %15s %15s %7s  %s\n", "trace", "policy", "measured", "paper", "z",
              "within 2 sd");
  int outside = 0;
  int compared = 0;
  for (int t = 0; t < static_cast<int>(traces.size()); ++t) {
    for (Policy policy : flags.policies) {
      std::vector<double> unallocated;
      for (size_t j = 0; j < jobs.size(); ++j) {
        if (jobs[j].trace == t && jobs[j].policy == policy) {
          unallocated.push_back(results[j].unallocated_pct_at_100);
        }
      }
      const double mean = Mean(unallocated);
      const double sd = Sd(unallocated);
      auto it = published.find({flags.traces[t], policy});
      std::array<char, 32> berth_cell{};
      std::snprintf(berth_cell.data(), berth_cell.size(), "%.2f ± %.2f", mean,
                    std::isnan(sd) ? 0 : sd);
      if (it == published.end() || std::isnan(it->second.mean)) {
        std::printf("%-12s %-11s %16s %15s\n", flags.traces[t].c_str(),
                    std::string(gpu::PolicyName(policy)).c_str(), berth_cell.data(), "-");
        continue;
      }
      const Published& paper = it->second;
      const double z = paper.sd > 0 ? (mean - paper.mean) / paper.sd : NAN;
      const bool within = std::fabs(mean - paper.mean) <= 2 * paper.sd;
      ++compared;
      outside += within ? 0 : 1;
      std::array<char, 32> paper_cell{};
      std::snprintf(paper_cell.data(), paper_cell.size(), "%.2f ± %.2f", paper.mean, paper.sd);
      std::printf("%-12s %-11s %16s %16s %+7.1f  %s\n", flags.traces[t].c_str(),
                  std::string(gpu::PolicyName(policy)).c_str(), berth_cell.data(),
                  paper_cell.data(), z, within ? "yes" : "NO");
    }
  }
  // berth's policy against FGD on the same runs (docs/simulate.md "The berth policy").
  const bool both = std::find(flags.policies.begin(), flags.policies.end(), Policy::kFgd) !=
                        flags.policies.end() &&
                    std::find(flags.policies.begin(), flags.policies.end(), Policy::kBerth) !=
                        flags.policies.end();
  int berth_wins = 0;
  if (both) {
    std::printf(
        "\nberth against FGD: unallocated GPU %% at arrived 100%% (mean ± sd, same seeds)\n");
    std::printf("%-12s %15s %15s %7s  %s\n", "trace", "fgd", "berth", "delta", "berth <= fgd");
    for (int t = 0; t < static_cast<int>(traces.size()); ++t) {
      auto values = [&](Policy policy) {
        std::vector<double> out;
        for (size_t j = 0; j < jobs.size(); ++j) {
          if (jobs[j].trace == t && jobs[j].policy == policy) {
            out.push_back(results[j].unallocated_pct_at_100);
          }
        }
        return out;
      };
      const std::vector<double> fgd = values(Policy::kFgd);
      const std::vector<double> berth = values(Policy::kBerth);
      const bool ok = Mean(berth) <= Mean(fgd);
      berth_wins += ok ? 1 : 0;
      std::array<char, 32> fgd_cell{};
      std::array<char, 32> berth_cell{};
      std::snprintf(fgd_cell.data(), fgd_cell.size(), "%.2f ± %.2f", Mean(fgd),
                    std::isnan(Sd(fgd)) ? 0 : Sd(fgd));
      std::snprintf(berth_cell.data(), berth_cell.size(), "%.2f ± %.2f", Mean(berth),
                    std::isnan(Sd(berth)) ? 0 : Sd(berth));
      std::printf("%-12s %16s %16s %+7.2f  %s\n", flags.traces[t].c_str(), fgd_cell.data(),
                  berth_cell.data(), Mean(berth) - Mean(fgd), ok ? "yes" : "NO");
    }
  }
  if (flags.curves) {
    std::printf("\nmean curves (allocation %% / fragment amount %% / fragment rate %%)\n");
    for (int t = 0; t < static_cast<int>(traces.size()); ++t) {
      for (Policy policy : flags.policies) {
        std::printf("%s %s:", flags.traces[t].c_str(),
                    std::string(gpu::PolicyName(policy)).c_str());
        for (int pct : {0, 50, 80, 90, 100, 130}) {
          std::vector<double> a, f, r;
          for (size_t j = 0; j < jobs.size(); ++j) {
            if (jobs[j].trace != t || jobs[j].policy != policy) continue;
            const auto& res = results[j];
            if (auto i = res.allocation_pct_by_arrived_pct.find(pct);
                i != res.allocation_pct_by_arrived_pct.end()) {
              a.push_back(i->second);
            }
            if (auto i = res.frag_amount_pct_by_arrived_pct.find(pct);
                i != res.frag_amount_pct_by_arrived_pct.end()) {
              f.push_back(i->second);
            }
            if (auto i = res.frag_rate_pct_by_arrived_pct.find(pct);
                i != res.frag_rate_pct_by_arrived_pct.end()) {
              r.push_back(i->second);
            }
          }
          std::printf("  %d: %.2f/%.2f/%.1f", pct, Mean(a), Mean(f), Mean(r));
        }
        std::printf("\n");
      }
    }
  }
  std::printf(
      "\n%zu runs (%zu traces x %zu policies x %zu seeds) on %d threads: %.1f s, "
      "%.2f runs/s, %.0f pod events/s, peak RSS %.1f MiB\n",
      jobs.size(), traces.size(), flags.policies.size(), flags.seeds.size(), flags.threads, seconds,
      static_cast<double>(jobs.size()) / seconds, static_cast<double>(events) / seconds,
      static_cast<double>(PeakRssKib()) / 1024);
  if (compared > 0) {
    std::printf("%d of %d cells within 2 sd of the authors' mean\n", compared - outside, compared);
  }
  if (both) {
    std::printf("berth <= fgd on %d of %zu traces\n", berth_wins, traces.size());
  }
  return 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) { return berth::bench::Run(berth::bench::ParseFlags(argc, argv)); }
