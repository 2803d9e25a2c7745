// berth doctor: runs the rules (rules/rules.h) over a snapshot and returns the findings,
// sorted by severity (errors first), rule and object, with a summary and the rules that were
// skipped because an object they need could not be read. Pure; the CLI prints the report.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "core/time.h"
#include "diag/doctor_finding.h"
#include "diag/doctor_rule.h"
#include "model/snapshot.h"

namespace berth::diag {

// Every rule, in catalogue order (area, then id). Ids are unique (a test checks).
const std::vector<Rule>& AllRules();
const Rule* FindRule(std::string_view id);

struct DoctorOptions {
  std::vector<std::string> only;  // --rules: run just these ids (empty: all)
  std::vector<std::string> skip;  // --skip
  core::Timestamp now;
};

struct SkippedRule {
  std::string rule;
  std::string reason;  // "ResourceQuota/team-a/gpu could not be read"
};

struct DoctorReport {
  std::vector<Finding> findings;
  std::vector<SkippedRule> skipped;  // ran on the rest, but missed the unread objects
  int32_t rules_run = 0;
  int32_t errors = 0, warnings = 0, infos = 0;
};

DoctorReport RunDoctor(const model::Snapshot& snapshot, const core::Diagnostics& diagnostics,
                       const DoctorOptions& options);

}  // namespace berth::diag
