#include "cli/plan_command.h"

#include <optional>
#include <utility>
#include <vector>

#include "cli/exit_code.h"
#include "cli/flags.h"
#include "cli/input_loader.h"
#include "cli/plan_filter.h"
#include "cli/plan_items.h"
#include "engine/invariants.h"
#include "engine/plan.h"
#include "io/writer.h"

namespace berth::cli {

int RunPlanCommand(const PlanFlags& flags, std::ostream& out, std::ostream& err) {
  auto format = ParsePlanOutput(flags.output, flags.no_headers);
  if (!format.has_value()) {
    PrintError(format.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  auto filter = ObjectFilter::FromFlags(flags.filter);
  if (!filter.has_value()) {
    PrintError(filter.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  std::optional<LoadedInput> loaded = LoadInput({.files = flags.files,
                                                 .clusters = flags.clusters,
                                                 .demo = false,
                                                 .scoring = flags.scoring,
                                                 .now = flags.now,
                                                 .cycles = flags.cycles},
                                                err);
  if (!loaded) return ToInt(ExitCode::kFailed);
  // The input is not read again: the plan takes it over instead of copying it.
  const engine::Plan plan =
      engine::RunPlan(std::move(loaded->input.snapshot), loaded->options);
  // Problems the allocator found in the DRA objects: those objects were left out, the rest
  // is planned (exit 1, as for objects the reader dropped).
  const int code = ExitCodeAfterPlan(*loaded, plan.diagnostics, err);
  if (flags.check_invariants) {
    const std::vector<engine::InvariantViolation> violations = engine::CheckPlanInvariants(plan);
    for (const engine::InvariantViolation& v : violations) {
      err << "berth: internal error: " << v.ToString() << '\n';
    }
    if (!violations.empty()) return ToInt(ExitCode::kInternal);
  }
  // The filter narrows what is printed only: the plan above saw every object.
  std::vector<model::PodDecision> kept_pods;
  const io::PlanItems items =
      FilterPlanItems(plan.planned, PlanItemsOf(plan), filter.value(), &kept_pods);
  io::WritePlan(plan.planned, items, loaded->input.documents, format.value().format, out,
                format.value().table);
  return code;
}

}  // namespace berth::cli
