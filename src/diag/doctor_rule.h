// A doctor rule: its stable id, default severity, area, the kinds it reads, and a check that
// reports findings into a FindingSink. Rules are pure functions of the DoctorContext; each
// area's rules live in rules/<area>.cc and are listed by rules/rules.h.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "diag/doctor_finding.h"

namespace berth::diag {

class DoctorContext;

// Collects findings; one per (rule, object, field): pods expanded from one template report
// once, on their workload.
class FindingSink {
 public:
  explicit FindingSink(std::string_view rule, Severity severity) : rule_(rule), severity_(severity) {}

  // Adds a finding at the rule's default severity; a duplicate (same object and field) is
  // dropped.
  void Add(const ObjectRef& object, std::string field, std::string message, std::string fix) {
    AddAt(severity_, object, std::move(field), std::move(message), std::move(fix));
  }
  void AddAt(Severity severity, const ObjectRef& object, std::string field, std::string message,
             std::string fix);

  std::vector<Finding>& findings() { return findings_; }

 private:
  std::string rule_;
  Severity severity_;
  std::set<std::tuple<std::string, std::string, std::string, std::string, std::string>> seen_;
  std::vector<Finding> findings_;
};

using RuleCheck = void (*)(const DoctorContext& context, FindingSink& sink);

struct Rule {
  std::string_view id;        // kebab-case, stable, the name of docs/doctor/<id>.md
  Severity severity;          // default; a rule may report some findings at another level
  std::string_view area;      // gpu, scheduling, kueue, dra, ocm, tenancy, operations, storage
  std::string_view title;     // one line: what is wrong
  std::vector<std::string_view> reads;  // the kinds it needs ("Node", "ResourceQuota")
  RuleCheck check;
};

}  // namespace berth::diag
