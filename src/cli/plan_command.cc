#include "cli/plan_command.h"

#include <optional>
#include <utility>

#include "cli/exit_code.h"
#include "cli/flags.h"
#include "cli/input_loader.h"
#include "cli/plan_items.h"
#include "engine/plan.h"
#include "io/writer.h"

namespace berth::cli {

namespace {

std::string JoinPaths(const std::vector<std::string>& paths) {
  std::string out;
  for (const auto& path : paths) out += (out.empty() ? "" : ", ") + path;
  return out;
}

}  // namespace

int RunPlanCommand(const PlanFlags& flags, std::ostream& out, std::ostream& err) {
  auto format = ParseOutputFormat(flags.output);
  if (!format.has_value()) {
    PrintError(format.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  auto options = ParsePlanOptions(flags.scoring, flags.now);
  if (!options.has_value()) {
    PrintError(options.error(), err);
    return ToInt(ExitCode::kFailed);
  }

  core::Diagnostics diags;
  std::optional<io::Input> input = LoadPaths(flags.files, diags, flags.clusters);
  PrintDiagnostics(diags, err);
  if (!input) return ToInt(ExitCode::kFailed);
  const ExitCode code = ExitCodeFor(diags, input->objects_read);
  if (code == ExitCode::kFailed) {
    // Errors already say why nothing was read; an empty input deserves its own sentence.
    if (!diags.has_errors()) {
      PrintError(core::NotFound("no Kubernetes objects found in " + JoinPaths(flags.files)), err);
    }
    return ToInt(code);
  }

  // The input is not read again: the plan takes it over instead of copying it.
  const engine::Plan plan = engine::RunPlan(std::move(input->snapshot), options.value());
  // Problems the allocator found in the DRA objects: those objects were left out, the rest
  // is planned (exit 1, as for objects the reader dropped).
  const core::Diagnostics plan_diags = WithSourceFiles(plan.diagnostics, input->documents);
  PrintDiagnostics(plan_diags, err);
  const io::PlanItems items = PlanItemsOf(plan);
  io::WritePlan(plan.planned, items, input->documents, format.value(), out);
  return ToInt(code == ExitCode::kOk && plan_diags.has_errors() ? ExitCode::kPartial : code);
}

}  // namespace berth::cli
