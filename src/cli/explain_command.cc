#include "cli/explain_command.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "cli/exit_code.h"
#include "cli/explain_printer.h"
#include "cli/input_loader.h"
#include "cli/placement_printer.h"
#include "cli/workload_printer.h"
#include "engine/explain_placement.h"
#include "engine/explain_workload.h"
#include "engine/plan.h"

namespace berth::cli {

core::Result<ExplainTarget> ParseExplainTarget(const std::string& target) {
  const std::pair<const char*, ExplainTarget::Kind> kinds[] = {
      {"workload/", ExplainTarget::Kind::kWorkload},
      {"workloads/", ExplainTarget::Kind::kWorkload},
      {"wl/", ExplainTarget::Kind::kWorkload},
      {"placement/", ExplainTarget::Kind::kPlacement},
      {"placements/", ExplainTarget::Kind::kPlacement}};
  for (const auto& [prefix, kind] : kinds) {
    const std::string p(prefix);
    if (target.rfind(p, 0) != 0) continue;
    std::string name = target.substr(p.size());
    const size_t slashes = static_cast<size_t>(std::count(name.begin(), name.end(), '/'));
    if (name.empty() || slashes > 1 || name.front() == '/' || name.back() == '/') break;
    return ExplainTarget{kind, name};
  }
  auto pod = ParsePodTarget(target);
  if (!pod.has_value()) {
    return core::InvalidArgument("expected pod/NAME, workload/NAME or placement/NAME (each also "
                                 "as KIND/NAMESPACE/NAME), got \"" + target + "\"");
  }
  return ExplainTarget{ExplainTarget::Kind::kPod, pod.value()};
}

core::Result<std::string> ParsePodTarget(const std::string& target) {
  for (const char* prefix : {"pod/", "pods/", "po/"}) {
    const std::string p(prefix);
    if (target.rfind(p, 0) != 0) continue;
    std::string name = target.substr(p.size());
    const size_t slashes = static_cast<size_t>(std::count(name.begin(), name.end(), '/'));
    if (name.empty() || slashes > 1 || name.front() == '/' || name.back() == '/') break;
    return name;
  }
  return core::InvalidArgument("expected pod/NAME or pod/NAMESPACE/NAME, got \"" + target + "\"");
}

int RunExplainCommand(const ExplainFlags& flags, std::ostream& out, std::ostream& err) {
  auto target = ParseExplainTarget(flags.target);
  if (!target.has_value()) {
    PrintError(target.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  if (flags.demo == !flags.files.empty()) {
    PrintError(core::InvalidArgument(flags.demo ? "give either -f PATH or --demo, not both"
                                                : "explain needs -f PATH (or --demo)"),
               err);
    return ToInt(ExitCode::kFailed);
  }
  std::optional<LoadedInput> loaded = LoadInput({.files = flags.files,
                                                 .clusters = flags.clusters,
                                                 .demo = flags.demo,
                                                 .scoring = flags.scoring,
                                                 .now = flags.now,
                                                 .cycles = flags.cycles},
                                                err);
  if (!loaded) return ToInt(ExitCode::kFailed);
  model::Snapshot& snapshot = loaded->input.snapshot;

  // Placement and workload explanations run the whole plan: its diagnostics are printed
  // (with source files) before the explanation, and errors among them make the exit 1.
  // They take the input over (the printers read the planned snapshot), so it is held once.
  auto print_planned = [&](const auto& explanation, auto print) {
    if (!explanation.has_value()) {
      PrintError(explanation.error(), err);
      return ToInt(ExitCode::kFailed);
    }
    const int code = ExitCodeAfterPlan(*loaded, explanation.value().plan.diagnostics, err);
    print(explanation.value(), out);
    return code;
  };
  if (target.value().kind == ExplainTarget::Kind::kPlacement) {
    return print_planned(engine::ExplainPlacement(std::move(snapshot), target.value().name, loaded->options),
                         PrintPlacementExplanation);
  }
  if (target.value().kind == ExplainTarget::Kind::kWorkload) {
    return print_planned(engine::ExplainWorkload(std::move(snapshot), target.value().name, loaded->options),
                         PrintWorkloadExplanation);
  }
  auto explanation = engine::ExplainPod(snapshot, target.value().name, loaded->options);
  if (!explanation.has_value()) {
    PrintError(explanation.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  const int code = ExitCodeAfterPlan(*loaded, explanation.value().diagnostics, err);
  PrintExplanation(snapshot, explanation.value(), ExplainDetail::kFull, out);
  return code;
}

}  // namespace berth::cli
