// Why the trace flags are refused rather than ignored: a study has no trace, and a user who
// passes --trace with a study file most likely meant another file; saying so beats a run
// that quietly did something else.
#include "cli/simulate_study.h"

#include <filesystem>
#include <optional>

#include "cli/exit_code.h"
#include "cli/human_amount.h"
#include "cli/input_loader.h"
#include "cli/text_table.h"
#include "cli/version.h"
#include "core/human_units.h"
#include "sim/modelload/study.h"
#include "sim/modelload/study_file.h"
#include "sim/report/model_load_report.h"

namespace berth::cli {
namespace {

std::string StudySources(const sim::modelload::StrategyResult& r) {
  std::string out;
  for (const auto& [source, n] : r.by_source) {
    out += (out.empty() ? "" : " ") + source + "=" + std::to_string(n);
  }
  return out;
}

std::string StudyBytes(int64_t bytes) { return bytes > 0 ? HumanAmount("memory", bytes) : "0"; }

}  // namespace

int RunModelLoadStudyCommand(const SimulateFlags& flags, std::ostream& out, std::ostream& err) {
  if (!flags.trace.empty() || !flags.format.empty() || !flags.policy.empty() ||
      !flags.until.empty() || !flags.tenant_queues.empty() || !flags.tenant_queue.empty()) {
    PrintError(core::InvalidArgument("a ModelLoadStudy has no trace: --trace, --format, "
                                     "--policy, --until and the tenant flags do not apply",
                                     core::Location{flags.scenario, "", ""}),
               err);
    return ToInt(ExitCode::kFailed);
  }
  auto study = sim::modelload::ReadModelLoadStudyFile(flags.scenario);
  if (!study) {
    PrintError(study.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  // --fleet wins over the file's spec.fleet, as for SimulationScenario files.
  if (!flags.fleet.empty()) study->fleet = flags.fleet;
  core::Diagnostics diags;
  std::optional<io::Input> input = LoadPaths({study->fleet}, diags);
  if (!input) {
    PrintDiagnostics(diags, err);
    return ToInt(ExitCode::kFailed);
  }
  PrintDiagnostics(WithSourceFiles(diags, input->documents), err);
  auto result =
      sim::modelload::RunModelLoadStudy(std::move(input->snapshot), *study, engine::PlanOptions{});
  if (!result) {
    PrintError(result.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  out << "Model-load study " << result->name << ": InferenceService " << result->service
      << " scaled out to " << result->replicas << " replicas on " << result->nodes << " nodes";
  if (result->unplaced > 0) out << " (" << result->unplaced << " not placed: they never load)";
  out << "; model " << result->artifact << ", " << StudyBytes(result->model_bytes) << " from "
      << result->origin << "\n\n";
  std::vector<TextTable::Align> aligns(10, TextTable::Align::kRight);
  aligns[0] = TextTable::Align::kLeft;
  aligns[9] = TextTable::Align::kLeft;
  TextTable table(std::move(aligns));
  table.AddRow({"STRATEGY", "P50", "P95", "P99", "MAX", "ALL READY", "ORIGIN BYTES", "PEAK PULLS",
                "WARM-UP", "SOURCES"});
  for (const sim::modelload::StrategyResult& r : result->strategies) {
    table.AddRow(
        {r.strategy.name, core::HumanDuration(r.load_s.p50), core::HumanDuration(r.load_s.p95),
         core::HumanDuration(r.load_s.p99), core::HumanDuration(r.load_s.max),
         r.all_ready ? core::HumanDuration(r.all_ready_s) : "never", StudyBytes(r.origin_bytes),
         std::to_string(r.peak_origin_pulls),
         r.seed_nodes.empty()
             ? "-"
             : core::HumanDuration(r.warmup_s) + " (" + StudyBytes(r.warmup_origin_bytes) + ")",
         StudySources(r)});
  }
  table.Print(out, "");
  out << "\n";
  for (const sim::modelload::StrategyResult& r : result->strategies) {
    out << r.strategy.name << ": " << sim::modelload::DescribeStrategy(r) << "\n";
  }
  if (!flags.report.empty()) {
    sim::report::ReportOptions ro;
    ro.berth_version = VersionString();
    ro.title = "berth simulate: model-load study " + result->name;
    core::Status s = sim::report::WriteModelLoadReport(flags.report, *result, ro);
    if (!s.ok()) {
      PrintError(s.error(), err);
      return ToInt(ExitCode::kFailed);
    }
    out << "\nReport: " << flags.report << "/report.html (with summary.json)\n";
  }
  return ToInt(ExitCodeFor(diags, input->objects_read));
}

}  // namespace berth::cli
