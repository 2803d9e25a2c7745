#include "cli/explain_command.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "cli/exit_code.h"
#include "cli/explain_json.h"
#include "cli/explain_printer.h"
#include "cli/input_loader.h"
#include "cli/model_load_printer.h"
#include "cli/placement_printer.h"
#include "cli/workload_printer.h"
#include "engine/explain_placement.h"
#include "engine/explain_workload.h"
#include "engine/model_load.h"
#include "engine/plan.h"

namespace berth::cli {

core::Result<ExplainTarget> ParseExplainTarget(const std::string& target,
                                               const std::string& default_namespace) {
  BERTH_ASSIGN_OR_RETURN(ResourceName resource, ParseResourceName(target, default_namespace));
  const model::KindInfo& kind = *resource.kind;
  ExplainTarget out{ExplainTarget::Kind::kPod, resource.Key(), resource};
  if (kind.group.empty() && kind.kind == "Pod") return out;
  if (kind.group == "cluster.open-cluster-management.io" && kind.kind == "Placement") {
    out.kind = ExplainTarget::Kind::kPlacement;
    return out;
  }
  // KServe is no Kueue integration: its model's load is what there is to explain.
  if (kind.group == "serving.kserve.io" && kind.kind == "InferenceService") {
    out.kind = ExplainTarget::Kind::kInferenceService;
    return out;
  }
  // A job kind: the Workload Kueue made for it, which FindWorkload finds by the job's name.
  if ((kind.group == "kueue.x-k8s.io" && kind.kind == "Workload") || kind.workload) {
    out.kind = ExplainTarget::Kind::kWorkload;
    return out;
  }
  return core::InvalidArgument("explain cannot explain a " + std::string(kind.kind) +
                               ": give a pod, a workload (or the job it was made for) or a "
                               "placement, as TYPE/[NAMESPACE/]NAME");
}

core::Result<std::string> ParsePodTarget(const std::string& target) {
  auto resource = ParseResourceName(target);
  if (!resource.has_value() || !resource.value().kind->group.empty() ||
      resource.value().kind->kind != "Pod") {
    return core::InvalidArgument("expected pod/NAME or pod/NAMESPACE/NAME, got \"" + target + "\"");
  }
  return resource.value().Key();
}

namespace {

// The engine's NotFound, reworded as kubectl's with the closest name suggested; other
// errors (an ambiguous name) as they are.
core::Error ExplainLookupError(const model::Snapshot& snapshot, const ExplainTarget& target,
                               const core::Error& error) {
  if (error.code() != core::ErrorCode::kNotFound) return error;
  const model::KindInfo& kind = *target.resource.kind;
  if (target.kind == ExplainTarget::Kind::kWorkload && kind.workload &&
      CheckExists(snapshot, target.resource).ok()) {
    // The job is there but Kueue queues none of it: its pods are what there is to explain.
    std::string message = std::string(kind.resource) + " \"" + target.resource.name + "\"" +
                          (target.resource.namespace_.empty()
                               ? std::string()
                               : " in namespace \"" + target.resource.namespace_ + "\"") +
                          " is not queued by Kueue (no kueue.x-k8s.io/queue-name label), so it "
                          "has no admission to explain";
    for (const model::Pod& pod : snapshot.pods) {
      if (pod.owner && pod.owner->kind == kind.kind && pod.owner->name == target.resource.name &&
          (target.resource.namespace_.empty() || pod.meta.namespace_ == target.resource.namespace_)) {
        message += "; explain one of its pods: berth explain pod/" + pod.meta.namespace_ + "/" +
                   pod.meta.name;
        break;
      }
    }
    return core::FailedPrecondition(message);
  }
  return NotFoundError(snapshot, target.resource);
}

}  // namespace

int RunExplainCommand(const ExplainFlags& flags, std::ostream& out, std::ostream& err) {
  if (flags.output != "text" && flags.output != "json") {
    PrintError(core::InvalidArgument("--output: unknown format \"" + flags.output +
                                     "\" (want text or json)"),
               err);
    return ToInt(ExitCode::kFailed);
  }
  const bool json = flags.output == "json";
  auto target = ParseExplainTarget(flags.target, flags.namespace_);
  if (!target.has_value()) {
    PrintError(target.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  if (!flags.node.empty() && target.value().kind != ExplainTarget::Kind::kPod) {
    PrintError(core::InvalidArgument("--node applies to pod/NAME only"), err);
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
  // Looked up before the explanation takes the input over, so a name that is not there is
  // answered with the closest one that is.
  const ExplainTarget& t = target.value();
  const core::Status found = [&]() -> core::Status {
    switch (t.kind) {
      case ExplainTarget::Kind::kPod: {
        auto pod = engine::FindPod(snapshot, t.name);
        return pod.has_value() ? core::OkStatus() : core::Status(pod.error());
      }
      case ExplainTarget::Kind::kWorkload: {
        auto wl = engine::FindWorkload(snapshot, t.name);
        return wl.has_value() ? core::OkStatus() : core::Status(wl.error());
      }
      case ExplainTarget::Kind::kPlacement: {
        auto p = engine::FindPlacement(snapshot, t.name);
        return p.has_value() ? core::OkStatus() : core::Status(p.error());
      }
      case ExplainTarget::Kind::kInferenceService: {
        auto i = engine::FindInferenceService(snapshot, t.name);
        return i.has_value() ? core::OkStatus() : core::Status(i.error());
      }
    }
    return core::OkStatus();
  }();
  if (!found.ok()) {
    PrintError(ExplainLookupError(snapshot, t, found.error()), err);
    return ToInt(ExitCode::kFailed);
  }

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
    auto explanation = engine::ExplainPlacement(std::move(snapshot), t.name, loaded->options);
    return json ? print_planned(explanation, PrintPlacementExplanationJson)
                : print_planned(explanation, PrintPlacementExplanation);
  }
  if (target.value().kind == ExplainTarget::Kind::kInferenceService) {
    auto explanation =
        engine::ExplainInferenceService(std::move(snapshot), t.name, loaded->options);
    return json ? print_planned(explanation, PrintModelLoadExplanationJson)
                : print_planned(explanation, PrintModelLoadExplanation);
  }
  if (target.value().kind == ExplainTarget::Kind::kWorkload) {
    auto explanation = engine::ExplainWorkload(std::move(snapshot), t.name, loaded->options);
    return json ? print_planned(explanation, PrintWorkloadExplanationJson)
                : print_planned(explanation, PrintWorkloadExplanation);
  }
  auto explanation = engine::ExplainPod(snapshot, t.name, loaded->options);
  if (!explanation.has_value()) {
    PrintError(explanation.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  const int code = ExitCodeAfterPlan(*loaded, explanation.value().diagnostics, err);
  if (!flags.node.empty()) {
    if (PrintNodeExplanation(snapshot, explanation.value(), flags.node, out)) return code;
    PrintError(core::NotFound("--node: no node \"" + flags.node + "\" in the cluster of pod " +
                              target.value().name),
               err);
    return ToInt(ExitCode::kFailed);
  }
  if (json) {
    PrintPodExplanationJson(snapshot, explanation.value(), out);
  } else {
    PrintExplanation(snapshot, explanation.value(), ExplainDetail::kGrouped, out);
  }
  return code;
}

}  // namespace berth::cli
