// The rules are model's table of kinds (model/kind_info.h) turned into values: dispatch
// keeps no per-kind knowledge of its own, so a kind added to the table ships with its
// resource name, suspension and feedback rules.
#include "dispatch/kind_rules.h"

#include "model/kind_info.h"

namespace berth::dispatch {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

model::FeedbackRule ToRule(const model::FeedbackRuleInfo& info) {
  model::FeedbackRule rule;
  rule.type = info.type;
  for (const model::JsonPathInfo& path : info.json_paths) {
    rule.json_paths.push_back(model::JsonPathRule{std::string(path.name), std::string(path.path)});
  }
  return rule;
}

}  // namespace

std::string GroupOf(const std::string& api_version) {
  return std::string(model::ApiGroupOf(api_version));
}

KindRules RulesForKind(const std::string& api_version, const std::string& kind) {
  KindRules rules;
  rules.group = GroupOf(api_version);
  // Any version: a ManifestWork names the resource, and the kind's rules do not depend on it.
  const model::KindInfo* info = model::FindKind(rules.group, kind);
  if (info == nullptr || !info->served()) {
    rules.resource = Lower(kind);
    rules.resource += 's';
    return rules;
  }
  rules.resource = std::string(info->resource);
  rules.suspendable = info->dispatch.suspend != model::SuspendField::kNone;
  for (const model::FeedbackRuleInfo& rule : info->dispatch.feedback_rules) {
    rules.feedback_rules.push_back(ToRule(rule));
  }
  return rules;
}

}  // namespace berth::dispatch
