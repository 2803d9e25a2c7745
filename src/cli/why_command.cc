#include "cli/why_command.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "cli/exit_code.h"
#include "cli/input_loader.h"
#include "cli/suggest.h"
#include "io/json_writer.h"
#include "model/kind_info.h"

namespace berth::cli {
namespace {

std::string LowerWord(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void PrintWhyText(const diag::WhyAnswer& a, std::ostream& out) {
  if (a.state == diag::WhyState::kPending) {
    out << "Why is " << a.target << " pending?\n";
  } else {
    out << a.target << " is " << diag::WhyStateName(a.state) << ".\n";
  }
  if (!a.chain.empty()) {
    out << (a.state == diag::WhyState::kPending ? "\nChain (the first reason blocks):\n"
                                                : "\nChain:\n");
    for (size_t i = 0; i < a.chain.size(); ++i) {
      const diag::WhyReason& r = a.chain[i];
      const std::string number = std::to_string(i + 1) + ". ";
      std::string layer = diag::WhyLayerName(r.layer);
      layer.resize(10, ' ');
      out << "  " << number << layer << r.reason << (r.blocking ? "" : " (context)") << '\n';
      if (!r.objects.empty()) {
        std::string objects;
        for (const auto& o : r.objects) {
          objects += (objects.empty() ? "" : ", ") + o.kind + " " +
                     (o.namespace_.empty() ? "" : o.namespace_ + "/") + o.name;
        }
        out << "  " << std::string(number.size() + 10, ' ') << objects << '\n';
      }
    }
  }
  if (a.state == diag::WhyState::kPending) {
    out << "\nFixes (each verified by planning the changed input: " << a.fixes.size() << " of "
        << a.fix_candidates << " candidates, " << a.fix_runs << " plans):\n";
    if (a.fixes.empty()) out << "  none found that makes it run now\n";
    for (size_t i = 0; i < a.fixes.size(); ++i) {
      out << "  " << i + 1 << ". " << a.fixes[i].change << '\n'
          << "     effect: " << a.fixes[i].effect << '\n';
    }
    if (!a.rejected_fixes.empty()) {
      out << "  Planned, but not enough on its own:\n";
      for (const std::string& change : a.rejected_fixes) out << "  - " << change << '\n';
    }
    if (!a.runbook.empty()) out << "\nRunbook: " << a.runbook << '\n';
  }
}

void PrintWhyJson(const diag::WhyAnswer& a, std::ostream& out) {
  io::JsonWriter j(out);
  j.BeginObject();
  j.Field("target", a.target);
  j.Field("state", diag::WhyStateName(a.state));
  j.Key("chain");
  j.BeginArray();
  for (const diag::WhyReason& r : a.chain) {
    j.BeginObject();
    j.Field("layer", diag::WhyLayerName(r.layer));
    j.Field("reason", r.reason);
    j.FieldBool("blocking", r.blocking);
    j.Key("objects");
    j.BeginArray();
    for (const diag::WhyObject& o : r.objects) {
      j.BeginObject();
      j.Field("kind", o.kind);
      j.Field("namespace", o.namespace_);
      j.Field("name", o.name);
      j.EndObject();
    }
    j.EndArray();
    j.EndObject();
  }
  j.EndArray();
  j.Key("fixes");
  j.BeginArray();
  for (const diag::WhyFix& f : a.fixes) {
    j.BeginObject();
    j.Field("change", f.change);
    j.Field("effect", f.effect);
    j.EndObject();
  }
  j.EndArray();
  j.Field("runbook", a.runbook);
  j.EndObject();
  j.Finish();
}

// "berth: error: pod "ml/x" not found in the input; did you mean "ml/y"?"
core::Error WithSuggestion(const core::Error& error, const model::Snapshot& snapshot,
                           const diag::WhyTarget& target) {
  if (error.code() != core::ErrorCode::kNotFound) return error;
  const std::vector<std::string> keys = diag::WhyTargetNames(snapshot, target);
  std::vector<std::string> bare;
  for (const std::string& k : keys) bare.push_back(k.substr(k.find('/') + 1));
  const bool qualified = target.name.find('/') != std::string::npos;
  std::optional<std::string> near = Closest(target.name, qualified ? keys : bare);
  if (!near && qualified) {
    // The right name in another namespace: "team-a/llama-serve" -> "serving/llama-serve".
    const std::string name = target.name.substr(target.name.find('/') + 1);
    if (auto by_name = Closest(name, bare)) {
      near =
          keys[static_cast<size_t>(std::find(bare.begin(), bare.end(), *by_name) - bare.begin())];
    }
  }
  std::string message = error.message();
  if (near) {
    message += "; did you mean \"" + *near + "\"?";
  } else if (keys.empty()) {
    message += "; the input has none of that kind";
  }
  return core::NotFound(message);
}

}  // namespace

core::Result<diag::WhyTarget> ParseWhyTarget(const std::string& target) {
  const size_t slash = target.find('/');
  const std::string usage =
      "expected pod/NAMESPACE/NAME, workload/NAMESPACE/NAME or KIND/NAMESPACE/NAME "
      "of a workload kind (job, deployment, jobset, pytorchjob, ...), got \"" +
      target + "\"";
  if (slash == std::string::npos || slash == 0) return core::InvalidArgument(usage);
  const std::string kind = LowerWord(std::string_view(target).substr(0, slash));
  const std::string name = target.substr(slash + 1);
  const size_t slashes = static_cast<size_t>(std::count(name.begin(), name.end(), '/'));
  if (name.empty() || slashes > 1 || name.front() == '/' || name.back() == '/') {
    return core::InvalidArgument(usage);
  }
  if (kind == "pod" || kind == "pods" || kind == "po")
    return diag::WhyTarget{diag::WhyTargetKind::kPod, "", name};
  if (kind == "workload" || kind == "workloads" || kind == "wl") {
    return diag::WhyTarget{diag::WhyTargetKind::kWorkload, "", name};
  }
  for (const model::KindInfo& info : model::AllKinds()) {
    if (!info.workload) continue;
    bool match = LowerWord(info.kind) == kind || info.resource == kind;
    for (std::string_view s : info.short_names) match |= s == kind;
    if (match) return diag::WhyTarget{diag::WhyTargetKind::kJob, std::string(info.kind), name};
  }
  return core::InvalidArgument(usage);
}

int RunWhyCommand(const WhyFlags& flags, std::ostream& out, std::ostream& err) {
  auto target = ParseWhyTarget(flags.target);
  if (!target.has_value()) {
    PrintError(target.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  if (flags.output != "text" && flags.output != "json") {
    PrintError(core::InvalidArgument("-o must be text or json, got \"" + flags.output + "\""), err);
    return ToInt(ExitCode::kFailed);
  }
  if (flags.demo == !flags.files.empty()) {
    PrintError(core::InvalidArgument(flags.demo ? "give either -f PATH or --demo, not both"
                                                : "why needs -f PATH (or --demo)"),
               err);
    return ToInt(ExitCode::kFailed);
  }
  std::optional<LoadedInput> loaded = LoadInput({.files = flags.files,
                                                 .clusters = flags.clusters,
                                                 .demo = flags.demo,
                                                 .scoring = flags.scoring,
                                                 .now = flags.now,
                                                 .cycles = std::nullopt},
                                                err);
  if (!loaded) return ToInt(ExitCode::kFailed);
  const model::Snapshot& snapshot = loaded->input.snapshot;
  auto answer =
      diag::AnswerWhy(snapshot, target.value(), {.plan = loaded->options, .max_fix_runs = 8});
  if (!answer.has_value()) {
    PrintError(WithSuggestion(answer.error(), snapshot, target.value()), err);
    return ToInt(ExitCode::kFailed);
  }
  const int code = ExitCodeAfterPlan(*loaded, answer.value().diagnostics, err);
  if (flags.output == "json") {
    PrintWhyJson(answer.value(), out);
  } else {
    PrintWhyText(answer.value(), out);
  }
  return code;
}

}  // namespace berth::cli
