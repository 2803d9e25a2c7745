#include "cli/simulate_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>

#include <unistd.h>

#include "cli/exit_code.h"
#include "cli/flags.h"
#include "cli/input_loader.h"
#include "cli/simulate_study.h"
#include "cli/text_table.h"
#include "cli/version.h"
#include "core/human_units.h"
#include "core/selector.h"
#include "engine/gpu_share_policy.h"
#include "engine/plan.h"
#include "sim/modelload/study_file.h"
#include "sim/gpushare/openb_reader.h"
#include "sim/replay/openb_runs.h"
#include "sim/replay/queue_replay.h"
#include "sim/replay/scenario_file.h"
#include "sim/report/progress_bar.h"
#include "sim/trace/queued_trace.h"
#include "sim/trace/reader.h"
#include "sim/trace/tenant_mapping.h"
#include "sim/trace/values.h"

namespace berth::cli {
namespace {

int Fail(const core::Error& error, std::ostream& err) {
  // Internal: a step broke an engine invariant (SimulateFlags::check_invariants).
  if (error.code() == core::ErrorCode::kInternal) {
    err << "berth: internal error: " << error.ToString() << '\n';
    return ToInt(ExitCode::kInternal);
  }
  PrintError(error, err);
  return ToInt(ExitCode::kFailed);
}

std::string Fixed(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Waits read at a glance, in the units every berth output uses (core/human_units.h).
std::string Human(double seconds) { return core::HumanDuration(seconds); }

// A scenario event in a few words for the report's charts: "Drain gpu-h100-0, gpu-h100-1",
// "NodeFailure nodes matching pool=h100".
std::string EventLabel(const sim::ScenarioAction& a) {
  std::string out = sim::ActionKindName(a.kind);
  std::string nodes;
  constexpr size_t kShown = 3;
  for (size_t i = 0; i < a.node_names.size() && i < kShown; ++i) {
    nodes += (i ? ", " : " ") + a.node_names[i];
  }
  if (a.node_names.size() > kShown) {
    nodes += ", +" + std::to_string(a.node_names.size() - kShown) + " more";
  }
  if (a.selector) {
    std::string sel;
    for (const auto& [key, value] : a.selector->match_labels) {
      sel += (sel.empty() ? "" : ",") + key + "=" + value;
    }
    for (const auto& r : a.selector->match_expressions) {
      sel += (sel.empty() ? "" : ",") + r.key + " " + core::SelectorOpName(r.op);
    }
    nodes += (nodes.empty() ? " nodes matching " : " and nodes matching ") + sel;
  }
  return out + nodes;
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = text.find(',', pos);
    std::string part = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (!part.empty()) out.push_back(part);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

// simulate's duration flags (--interval, --until, --cycle-interval), in seconds: positive (a
// zero interval would sample forever or be read as "not given", a zero --until replays
// nothing). The upper bound is sim's own (ParseDuration refuses more than
// sim::kMaxDurationSeconds), so flags and scenario files share one limit.
core::Result<int64_t> DurationS(const std::string& flag, const std::string& text) {
  auto s = sim::ParseDuration(text);
  if (!s) return core::InvalidArgument(flag + ": " + s.error().message());
  if (*s <= 0) {
    return core::InvalidArgument(flag + ": \"" + text + "\" is not a duration from 1s to " +
                                 std::to_string(sim::kMaxDurationSeconds / 86400) + "d");
  }
  return *s;
}

// A table whose first column is left-aligned and the others right-aligned, header first.
TextTable HeadedTable(std::vector<std::string> header) {
  std::vector<TextTable::Align> aligns(header.size(), TextTable::Align::kRight);
  aligns[0] = TextTable::Align::kLeft;
  TextTable table(std::move(aligns));
  table.AddRow(std::move(header));
  return table;
}

// The binding profile a queued-trace policy names: a NodeResourcesFit scoring strategy over the
// fleet's own profile, or one of berth's GPU-sharing score plugins (the FGD paper's policies,
// docs/binding.md) added to it at weight 100, so it decides and the others only break ties.
core::Result<model::SchedulerConfig> QueuedPolicyConfig(const model::Snapshot& fleet,
                                                        const std::string& policy) {
  engine::PlanOptions plan;
  if (auto scoring = ParseScoringStrategy(policy)) {
    plan.scoring = *scoring;
    return engine::EffectiveSchedulerConfig(fleet, plan);
  }
  const std::optional<std::string_view> plugin = engine::GpuSharePluginForPolicy(policy);
  if (!plugin.has_value()) {
    return core::InvalidArgument(
        "--policy: unknown policy \"" + policy +
        "\" for a queued trace (default, LeastAllocated, MostAllocated, "
        "RequestedToCapacityRatio, random, dotprod, clustering, packing, bestfit, fgd)");
  }
  model::SchedulerConfig config = engine::EffectiveSchedulerConfig(fleet, plan);
  for (model::SchedulerProfile& profile : config.profiles) {
    profile.score_weights[std::string(*plugin)] = 100;
  }
  return config;
}

bool LooksLikeOpenbPods(const std::string& path) {
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  return header.rfind("name,cpu_milli", 0) == 0;
}

int WriteReportDir(const SimulateFlags& flags, const std::vector<sim::report::RunReport>& runs,
                   const std::string& title, std::ostream& out, std::ostream& err) {
  if (flags.report.empty()) return 0;
  sim::report::ReportOptions ro;
  ro.berth_version = VersionString();
  ro.title = title;
  core::Status s = sim::report::WriteReport(flags.report, runs, ro);
  if (!s.ok()) return Fail(s.error(), err);
  out << "\nReport: " << flags.report << "/report.html (with summary.json and metrics.csv)\n";
  return 0;
}

int RunOpenb(const SimulateFlags& flags, std::ostream& out, std::ostream& err) {
  core::Diagnostics diags;
  sim::gpushare::CsvReadOptions read;
  read.skip_bad_rows = flags.skip_bad_rows;
  int64_t skipped = 0;
  auto trace = sim::gpushare::ReadOpenbTrace(flags.fleet, flags.trace, read, &diags, &skipped);
  PrintDiagnostics(diags, err);
  if (!trace) return Fail(trace.error(), err);
  auto policies = gpu::ParsePolicyList(flags.policy.empty() ? "all+berth" : flags.policy);
  if (!policies) return Fail(core::InvalidArgument("--policy: " + policies.error().message()), err);
  auto seeds = sim::ParseSeedList(flags.seeds);
  if (!seeds) return Fail(seeds.error(), err);
  if (!flags.until.empty()) {
    err << "berth: warning: --until is ignored for --format openb (the protocol replays every "
           "arrival, up to 130% of the GPUs)\n";
  }
  sim::OpenbRunOptions ro;
  ro.policies = *policies;
  ro.seeds = *seeds;
  ro.threads = std::max(1, flags.threads);  // main.cc refuses 0; library callers may not
  ro.trace_name = std::filesystem::path(flags.trace).stem().string();
  const int64_t total = static_cast<int64_t>(ro.policies.size() * ro.seeds.size());
  sim::report::ProgressBar bar("simulate", total);
  ro.on_run_done = [&bar]() { bar.Advance(); };
  auto result = sim::RunOpenbGrid(*trace, ro);
  bar.Finish();
  if (!result) return Fail(result.error(), err);
  out << "OpenB replay (FGD paper protocol): " << trace->nodes.size() << " nodes, "
      << trace->pods.size() << " pods, inflated to 130% of the GPUs, one attempt per pod\n\n";
  // Mean unallocated GPU % at 100% arrived per policy over the seeds.
  TextTable table =
      HeadedTable({"POLICY", "RUNS", "UNALLOCATED GPU % AT 100% ARRIVED (MEAN)", "MIN", "MAX"});
  for (gpu::Policy p : ro.policies) {
    const std::string name(gpu::PolicyName(p));
    double sum = 0, lo = 1e9, hi = -1e9;
    int n = 0;
    for (const auto& run : result->runs) {
      if (run.policy != name) continue;
      for (const auto& [k, v] : run.extra_metrics) {
        if (k != "unallocated_gpu_pct_at_arrived_100") continue;
        sum += v;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        ++n;
      }
    }
    table.AddRow({name, std::to_string(n), n ? Fixed(sum / n, 2) : "-", n ? Fixed(lo, 2) : "-",
                  n ? Fixed(hi, 2) : "-"});
  }
  table.Print(out, "");
  if (isatty(2)) {
    err << result->runs.size() << " runs, " << result->events << " pod events in "
        << Fixed(result->seconds, 2) << " s ("
        << Fixed(static_cast<double>(result->events) / std::max(1e-9, result->seconds), 0)
        << " events/s)\n";
  }
  const int code =
      WriteReportDir(flags, result->runs, "berth simulate: OpenB " + ro.trace_name, out, err);
  if (code != 0) return code;
  return ToInt(skipped > 0 ? ExitCode::kPartial : ExitCode::kOk);
}

int RunQueued(const SimulateFlags& flags, sim::TraceFormat format,
              const std::vector<sim::ScenarioAction>& actions, std::ostream& out,
              std::ostream& err) {
  core::Diagnostics diags;
  std::optional<io::Input> input = LoadPaths({flags.fleet}, diags);
  if (!input) {
    PrintDiagnostics(diags, err);
    return ToInt(ExitCode::kFailed);
  }
  const std::string cluster = flags.cluster.empty() ? "default" : flags.cluster;
  // The queues the trace's tenants go to.
  sim::TenantMapping mapping;
  if (!flags.tenant_queues.empty()) {
    auto m = sim::ReadTenantMappingFile(flags.tenant_queues);
    if (!m) return Fail(m.error(), err);
    mapping = std::move(*m);
  }
  for (const std::string& f : flags.tenant_queue) {
    if (core::Status s = sim::AddTenantFlag(f, mapping); !s.ok()) return Fail(s.error(), err);
  }
  if (mapping.size() == 0 && !mapping.default_queue()) {
    // One LocalQueue in the cluster: every tenant goes there.
    std::vector<const model::LocalQueue*> queues;
    for (const model::LocalQueue& lq : input->snapshot.local_queues) {
      if (lq.cluster == cluster) queues.push_back(&lq);
    }
    if (queues.size() != 1) {
      return Fail(core::InvalidArgument(
                      "the fleet's cluster \"" + cluster + "\" has " +
                      std::to_string(queues.size()) +
                      " LocalQueues: say which queue each tenant's jobs go to with "
                      "--tenant-queues FILE or --tenant-queue TENANT=NAMESPACE/QUEUE "
                      "(TENANT * for every other tenant)"),
                  err);
    }
    mapping.SetDefault({queues[0]->meta.namespace_, queues[0]->meta.name});
  }
  sim::TraceReadOptions read;
  read.skip_bad_rows = flags.skip_bad_rows;
  auto trace = sim::ReadTraceFile(flags.trace, format, read, diags);
  if (!trace) {
    PrintDiagnostics(diags, err);
    return Fail(trace.error(), err);
  }
  auto queued = sim::AssignQueues(std::move(*trace), mapping, flags.skip_bad_rows, diags);
  if (!queued) {
    PrintDiagnostics(diags, err);
    return Fail(queued.error(), err);
  }
  sim::QueueReplayOptions base;
  base.shape.cluster = cluster;
  base.shape.max_gpus_per_pod = flags.max_gpus_per_pod;
  base.actions = actions;
  auto interval = DurationS("--interval", flags.interval);
  if (!interval) return Fail(interval.error(), err);
  base.metrics_interval_ms = *interval * 1000;
  if (!flags.until.empty()) {
    auto until = DurationS("--until", flags.until);
    if (!until) return Fail(until.error(), err);
    // One metrics row per interval up to --until, whether or not anything happens then.
    if (*until / *interval > kMaxMetricsSamples) {
      return Fail(core::InvalidArgument("--interval: " + flags.interval + " over --until " +
                                        flags.until + " is more than " +
                                        std::to_string(kMaxMetricsSamples) +
                                        " metrics samples; give a longer --interval"),
                  err);
    }
    base.until_ms = *until * 1000;
  }
  if (!flags.cycle_interval.empty()) {
    auto c = DurationS("--cycle-interval", flags.cycle_interval);
    if (!c) return Fail(c.error(), err);
    base.cycle_interval_ms = *c * 1000;
  }
  // Checked though unused, so that a typo is not silently ignored.
  if (auto seeds = sim::ParseSeedList(flags.seeds); !seeds) return Fail(seeds.error(), err);
  if (SplitList(flags.seeds).size() > 1 || flags.seeds.find('-') != std::string::npos) {
    err << "berth: warning: --seeds: the queued replay has no randomness (same inputs, same "
           "run): one run per policy\n";
  }
  std::vector<std::string> policies = SplitList(flags.policy.empty() ? "default" : flags.policy);
  std::vector<sim::report::RunReport> runs;
  std::vector<sim::QueueReplayStats> stats;
  sim::report::ProgressBar bar("simulate", static_cast<int64_t>(policies.size()) * 1000);
  for (const std::string& policy : policies) {
    sim::QueueReplayOptions options = base;
    options.policy = policy;
    options.check_invariants = flags.check_invariants;
    if (policy != "default") {
      auto config = QueuedPolicyConfig(input->snapshot, policy);
      if (!config) return Fail(config.error(), err);
      options.scheduler_config = std::move(*config);
      // FGD reads its typical pods from the snapshot: give it the trace's.
      options.workload_pods_for_scoring = !ParseScoringStrategy(policy).has_value();
    }
    int64_t shown = 0;
    options.progress = [&](double f) {
      const int64_t now = static_cast<int64_t>(f * 1000);
      if (now > shown) bar.Advance(now - shown), shown = now;
    };
    auto result = sim::RunQueueReplay(input->snapshot, *queued, options, diags);
    if (!result) {
      bar.Finish();
      PrintDiagnostics(WithSourceFiles(diags, input->documents), err);
      return Fail(result.error(), err);
    }
    runs.push_back(std::move(result->report));
    stats.push_back(result->stats);
  }
  bar.Finish();
  PrintDiagnostics(WithSourceFiles(diags, input->documents), err);
  out << "Replay of " << queued->jobs.size() << " jobs (" << queued->name << ") on cluster \""
      << cluster << "\" through its Kueue queues" << (actions.empty() ? "" : " with the scenario's events")
      << "\n\n";
  TextTable table = HeadedTable({"POLICY", "FINISHED", "PENDING", "WAIT MEAN", "WAIT P95", "JCT MEAN",
                   "GPU ALLOC %", "PREEMPTIONS", "FAILURES", "GPU-H LOST"});
  for (size_t i = 0; i < runs.size(); ++i) {
    const sim::RunMetrics& m = runs[i].metrics;
    table.AddRow({runs[i].policy, std::to_string(m.jobs_finished),
                  std::to_string(m.jobs_pending_at_end), Human(m.wait_s.mean), Human(m.wait_s.p95),
                  Human(m.jct_s.mean), Fixed(m.gpu_allocation_pct), std::to_string(m.preemptions),
                  std::to_string(m.failures),
                  Fixed(m.preemption_gpu_hours_lost + m.failure_gpu_hours_lost)});
    // Wall time differs run to run: only on a terminal, never in the output files compare.
    if (isatty(2)) {
      err << runs[i].policy << ": " << stats[i].events << " events in " << Fixed(stats[i].wall_s, 2)
          << " s (" << Fixed(static_cast<double>(stats[i].events) / std::max(1e-9, stats[i].wall_s), 0)
          << " events/s)\n";
    }
  }
  table.Print(out, "");
  if (!actions.empty()) {
    for (const sim::report::RunReport& run : runs) {
      const sim::RunMetrics& m = run.metrics;
      out << "\n" << run.policy << ": " << m.failure_events.size() << " failure events, "
          << Fixed(m.failure_gpu_hours_lost) << " GPU-hours to rerun, "
          << m.jobs_not_recovered << " jobs never came back";
      if (m.failure_recovery_s.count > 0) {
        out << ", time to recover mean " << Human(m.failure_recovery_s.mean) << " (max "
            << Human(m.failure_recovery_s.max) << ")";
      }
      out << "\n";
    }
  }
  // The report is titled by the scenario file when there is one (what the study is), else
  // by the trace; its time charts mark the scenario's events.
  for (sim::report::RunReport& run : runs) {
    for (const sim::ScenarioAction& a : actions) run.events.push_back({a.at_ms, EventLabel(a)});
    std::stable_sort(run.events.begin(), run.events.end(),
                     [](const auto& x, const auto& y) { return x.at_ms < y.at_ms; });
  }
  const std::string title =
      flags.scenario.empty()
          ? "berth simulate: " + queued->name
          : "berth simulate: " + std::filesystem::path(flags.scenario).stem().string() +
                " (" + queued->name + ")";
  const int code = WriteReportDir(flags, runs, title, out, err);
  if (code != 0) return code;
  // Rows skipped under --skip-bad-rows were bad input: the run went on without them (exit 1).
  const ExitCode exit = ExitCodeFor(diags, input->objects_read);
  if (exit == ExitCode::kOk && queued->skipped_rows > 0) return ToInt(ExitCode::kPartial);
  return ToInt(exit);
}

}  // namespace

int RunSimulateCommand(const SimulateFlags& given, std::ostream& out, std::ostream& err) {
  SimulateFlags flags = given;
  std::vector<sim::ScenarioAction> actions;
  if (!flags.scenario.empty()) {
    // A ModelLoadStudy is a run of its own (no trace): simulate_study.h.
    if (auto text = sim::ReadWholeFile(flags.scenario);
        text && sim::modelload::IsModelLoadStudy(*text)) {
      return RunModelLoadStudyCommand(given, out, err);
    }
    auto scenario = sim::ReadScenarioFile(flags.scenario);
    if (!scenario) return Fail(scenario.error(), err);
    // The command line wins over the file.
    if (flags.fleet.empty()) flags.fleet = scenario->fleet;
    if (flags.trace.empty()) flags.trace = scenario->trace;
    if (flags.format.empty()) flags.format = scenario->format;
    if (flags.tenant_queues.empty()) flags.tenant_queues = scenario->tenant_queues;
    if (flags.tenant_queue.empty()) flags.tenant_queue = scenario->tenant_queue;
    if (flags.cluster.empty()) flags.cluster = scenario->cluster;
    if (flags.until.empty() && scenario->until_s) flags.until = std::to_string(*scenario->until_s) + "s";
    if (scenario->metrics_interval_s && given.interval == "60s") {
      flags.interval = std::to_string(*scenario->metrics_interval_s) + "s";
    }
    if (scenario->max_gpus_per_pod && given.max_gpus_per_pod == 8) {
      flags.max_gpus_per_pod = *scenario->max_gpus_per_pod;
    }
    actions = std::move(scenario->actions);
  }
  if (flags.fleet.empty() || flags.trace.empty()) {
    return Fail(core::InvalidArgument("give --fleet and --trace (or a --scenario file naming them)"),
                err);
  }
  if (flags.max_gpus_per_pod < 1) {
    return Fail(core::InvalidArgument("--max-gpus-per-pod must be at least 1"), err);
  }
  if (flags.format == "openb" || (flags.format.empty() && LooksLikeOpenbPods(flags.trace))) {
    if (!actions.empty()) {
      return Fail(core::InvalidArgument("--format openb replays arrivals only: a scenario's "
                                        "events need a queued trace"),
                  err);
    }
    return RunOpenb(flags, out, err);
  }
  sim::TraceFormat format;
  if (flags.format.empty()) {
    auto text = sim::ReadWholeFile(flags.trace);
    if (!text) return Fail(text.error(), err);
    auto detected = sim::DetectTraceFormat(*text);
    if (!detected) {
      return Fail(core::InvalidArgument(flags.trace +
                                        ": cannot tell the trace's format from its first line: "
                                        "give --format (philly, pollux, csv, jsonl, openb)"),
                  err);
    }
    format = *detected;
  } else {
    auto f = sim::ParseTraceFormat(flags.format);
    if (!f) return Fail(core::InvalidArgument("--format: " + f.error().message() + " (or openb)"), err);
    format = *f;
  }
  return RunQueued(flags, format, actions, out, err);
}

}  // namespace berth::cli
