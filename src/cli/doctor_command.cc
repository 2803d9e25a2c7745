// berth doctor reads like plan (same loader, same diagnostics) but plans nothing: the rules
// read the objects as written. Rule ids given to --rules/--skip are checked here, where the
// CLI's near-miss suggestion lives.
#include "cli/doctor_command.h"

#include <algorithm>

#include "cli/doctor_output.h"
#include "cli/exit_code.h"
#include "cli/input_loader.h"
#include "cli/suggest.h"
#include "diag/doctor.h"
#include "engine/plan.h"

namespace berth::cli {

namespace {

// "a,b" and repeated flags, flattened; empty items dropped.
std::vector<std::string> SplitIds(const std::vector<std::string>& values) {
  std::vector<std::string> ids;
  for (const std::string& v : values) {
    size_t start = 0;
    while (start <= v.size()) {
      const size_t comma = std::min(v.find(',', start), v.size());
      if (comma > start) ids.push_back(v.substr(start, comma - start));
      start = comma + 1;
    }
  }
  return ids;
}

core::Status CheckIds(const std::vector<std::string>& ids, std::string_view flag) {
  std::vector<std::string> known;
  for (const diag::Rule& r : diag::AllRules()) known.emplace_back(r.id);
  for (const std::string& id : ids) {
    if (diag::FindRule(id) != nullptr) continue;
    std::string message = std::string(flag) + ": unknown rule \"" + id + "\"";
    if (auto near = Closest(id, known)) message += "; did you mean \"" + *near + "\"?";
    return core::InvalidArgument(message + " (berth doctor --list-rules lists them)");
  }
  return core::OkStatus();
}

}  // namespace

int RunDoctorCommand(const DoctorFlags& flags, std::ostream& out, std::ostream& err) {
  if (flags.list_rules) {
    PrintRuleCatalogue(out);
    return ToInt(ExitCode::kOk);
  }
  const std::optional<diag::Severity> fail_on = diag::ParseSeverity(flags.fail_on);
  if (!fail_on) {
    PrintError(core::InvalidArgument("--fail-on: unknown severity \"" + flags.fail_on +
                                     "\" (want error, warning or info)"),
               err);
    return ToInt(ExitCode::kFailed);
  }
  diag::DoctorOptions options;
  options.only = SplitIds(flags.rules);
  options.skip = SplitIds(flags.skip);
  for (auto [ids, flag] : {std::pair{&options.only, "--rules"}, std::pair{&options.skip, "--skip"}}) {
    if (core::Status s = CheckIds(*ids, flag); !s.ok()) {
      PrintError(s.error(), err);
      return ToInt(ExitCode::kFailed);
    }
  }
  if (flags.files.empty() && !flags.demo) {
    PrintError(core::InvalidArgument("--filename: required (a file, a directory or - for stdin), or --demo"), err);
    return ToInt(ExitCode::kFailed);
  }
  std::optional<LoadedInput> loaded = LoadInput({.files = flags.files,
                                                 .clusters = flags.clusters,
                                                 .demo = flags.demo,
                                                 .scoring = "",
                                                 .now = flags.now,
                                                 .cycles = std::nullopt},
                                                err);
  if (!loaded) return ToInt(ExitCode::kFailed);
  options.now = engine::PlanTime(loaded->input.snapshot, loaded->options);
  const diag::DoctorReport report =
      diag::RunDoctor(loaded->input.snapshot, loaded->read_diagnostics, options);
  if (flags.output == "json") {
    PrintDoctorJson(report, out);
  } else if (flags.output == "sarif") {
    std::vector<const diag::Rule*> rules;
    for (const diag::Rule& r : diag::AllRules()) {
      const bool only = options.only.empty() ||
                        std::find(options.only.begin(), options.only.end(), r.id) != options.only.end();
      const bool skipped = std::find(options.skip.begin(), options.skip.end(), r.id) != options.skip.end();
      if (only && !skipped) rules.push_back(&r);
    }
    PrintDoctorSarif(report, rules, loaded->input.documents, out);
  } else {
    PrintDoctorTable(report, loaded->input.documents, out);
  }
  bool failing = loaded->code != ExitCode::kOk;  // objects the rules could not see
  for (const diag::Finding& f : report.findings) failing = failing || f.severity >= *fail_on;
  return ToInt(failing ? ExitCode::kPartial : ExitCode::kOk);
}

}  // namespace berth::cli
