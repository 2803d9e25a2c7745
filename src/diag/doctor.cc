// Runs each selected rule with its own sink (a rule's findings dedupe per object and field),
// then orders everything so the output is stable whatever order the rules ran in.
#include "diag/doctor.h"

#include <algorithm>

#include "diag/doctor_context.h"
#include "diag/rules/rules.h"

namespace berth::diag {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "error";
}

std::optional<Severity> ParseSeverity(std::string_view text) {
  if (text == "info") return Severity::kInfo;
  if (text == "warning") return Severity::kWarning;
  if (text == "error") return Severity::kError;
  return std::nullopt;
}

void FindingSink::AddAt(Severity severity, const ObjectRef& object, std::string field,
                        std::string message, std::string fix) {
  auto key = std::make_tuple(object.cluster, object.kind, object.namespace_, object.name, field);
  if (!seen_.insert(std::move(key)).second) return;
  findings_.push_back(Finding{rule_, severity, object, std::move(field), std::move(message), std::move(fix)});
}

const std::vector<Rule>& AllRules() {
  static const std::vector<Rule> rules = [] {
    std::vector<Rule> out;
    rules::AddGpuStackRules(out);
    rules::AddSchedulingRules(out);
    rules::AddKueueRules(out);
    rules::AddDraRules(out);
    rules::AddOcmRules(out);
    rules::AddTenancyRules(out);
    rules::AddOperationsRules(out);
    rules::AddStorageRules(out);
    return out;
  }();
  return rules;
}

const Rule* FindRule(std::string_view id) {
  for (const Rule& r : AllRules()) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

DoctorReport RunDoctor(const model::Snapshot& snapshot, const core::Diagnostics& diagnostics,
                       const DoctorOptions& options) {
  const DoctorContext context(snapshot, diagnostics, options.now);
  DoctorReport report;
  auto listed = [](const std::vector<std::string>& ids, std::string_view id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
  };
  for (const Rule& rule : AllRules()) {
    if (!options.only.empty() && !listed(options.only, rule.id)) continue;
    if (listed(options.skip, rule.id)) continue;
    ++report.rules_run;
    FindingSink sink(rule.id, rule.severity);
    rule.check(context, sink);
    for (Finding& f : sink.findings()) report.findings.push_back(std::move(f));
    // The rule ran on what was read; say which objects it could not see.
    for (std::string_view kind : rule.reads) {
      for (const std::string& object : context.UnreadObjects(kind)) {
        report.skipped.push_back(SkippedRule{std::string(rule.id), object + " could not be read"});
      }
    }
  }
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    return std::tie(a.rule, a.object.cluster, a.object.namespace_, a.object.kind, a.object.name, a.field) <
           std::tie(b.rule, b.object.cluster, b.object.namespace_, b.object.kind, b.object.name, b.field);
  });
  for (const Finding& f : report.findings) {
    switch (f.severity) {
      case Severity::kError: ++report.errors; break;
      case Severity::kWarning: ++report.warnings; break;
      case Severity::kInfo: ++report.infos; break;
    }
  }
  return report;
}

}  // namespace berth::diag
