#include "cli/demo_command.h"

#include <optional>
#include <string>
#include <utility>

#include "cli/exit_code.h"
#include "cli/explain_printer.h"
#include "cli/flags.h"
#include "cli/input_loader.h"
#include "cli/plan_items.h"
#include "cli/text_table.h"
#include "engine/plan.h"
#include "io/writer.h"

namespace berth::cli {

namespace {

// The first pod in scheduling order that found no node: the highest-priority disappointment,
// which is the one a user would ask about first.
const model::PodDecision* FirstUnschedulable(const engine::Plan& plan) {
  for (const auto& decision : plan.pod_decisions) {
    if (!decision.node && !decision.skipped) return &decision;
  }
  return nullptr;
}

// `berth why` first: it is the question a user asks. Each line repeats the flags this
// demo ran with (--scoring), so the next command sees the same plan.
void PrintNextSteps(const std::string& featured, const DemoFlags& flags, std::ostream& out) {
  const std::string same = flags.scoring.empty() ? "" : " --scoring " + flags.scoring;
  TextTable table({TextTable::Align::kLeft, TextTable::Align::kLeft});
  if (!featured.empty()) {
    table.AddRow({"berth why pod/" + featured + " --demo" + same,
                  "why it waits, across every layer, and the verified fixes"});
    table.AddRow({"berth explain pod/" + featured + " --demo" + same,
                  "every node's filter verdicts and scores for that pod"});
  }
  if (flags.scoring != "MostAllocated") {
    table.AddRow(
        {"berth demo --scoring MostAllocated", "bin-pack nodes instead of spreading pods"});
  }
  table.AddRow(
      {"berth demo -o yaml" + same, "the objects with spec.nodeName and PodScheduled written"});
  table.AddRow(
      {"berth plan -f DIR" + same, "the same for your manifests or a kubectl get -A -o yaml dump"});
  out << "\nNext:\n";
  table.Print(out, "  ");
}

}  // namespace

int RunDemoCommand(const DemoFlags& flags, std::ostream& out, std::ostream& err) {
  auto format = ParseOutputFormat(flags.output);
  if (!format.has_value()) {
    PrintError(format.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  // The demo fleet is an e2e case, so a diagnostic here means berth and its examples
  // disagree; LoadInput shows it rather than hide it.
  std::optional<LoadedInput> loaded = LoadInput(
      {.files = {},
       .clusters = {},
       .demo = true,
       .scoring = flags.scoring,
       .now = "",
       .cycles = std::nullopt},
      err);
  if (!loaded) return ToInt(ExitCode::kFailed);
  const ExitCode code = loaded->code;

  // The plan takes the input over, so the snapshot is held once. The table's explanation
  // replays the cycle on the input as read (ExplainPod), which the plan has written into:
  // it reads the embedded fleet again once the plan is gone.
  std::string featured;
  {
    const engine::Plan plan = engine::RunPlan(std::move(loaded->input.snapshot), loaded->options);
    PrintDiagnostics(WithSourceFiles(plan.diagnostics, loaded->input.documents), err);
    const io::PlanItems items = PlanItemsOf(plan);
    io::WritePlan(plan.planned, items, loaded->input.documents, format.value(), out);
    if (format.value() != io::OutputFormat::kTable) return ToInt(code);
    if (const model::PodDecision* decision = FirstUnschedulable(plan)) {
      featured = engine::PodKey(plan.planned.pod(decision->pod));
    }
  }
  if (!featured.empty()) {
    core::Diagnostics read_again;  // the same as LoadInput's, printed already
    const io::Input input = LoadDemoFleet(read_again);
    auto explanation = engine::ExplainPod(input.snapshot, featured, loaded->options);
    if (explanation.has_value()) {
      out << "\nWhy is " << featured << " pending?\n\n";
      PrintExplanation(input.snapshot, explanation.value(), ExplainDetail::kSummary, out);
    } else {
      PrintError(explanation.error(), err);
    }
  }
  PrintNextSteps(featured, flags, out);
  return ToInt(code);
}

}  // namespace berth::cli
