// Upstream picks one manifestConfig per manifest (the first that matches with feedback
// rules) and evaluates only its rules; a value a later matching config names is never read,
// so it is not "read" here either.
#include "dispatch/work_feedback.h"

#include "core/wildcard.h"

namespace berth::dispatch {

bool FeedbackRulesRead(const model::ManifestWork& work, const model::ManifestStatus& status,
                       std::string_view name) {
  for (const model::ManifestConfig& config : work.manifest_configs) {
    const model::ResourceIdentifier& id = config.resource;
    if (id.group != status.group || id.resource != status.resource ||
        !core::WildcardMatch(status.namespace_, id.namespace_) ||
        !core::WildcardMatch(status.name, id.name) || config.feedback_rules.empty()) {
      continue;
    }
    for (const model::FeedbackRule& rule : config.feedback_rules) {
      if (rule.type == model::FeedbackRuleType::kWellKnownStatus) {
        for (const model::WellKnownStatusPath& p :
             model::WellKnownStatusPaths(status.group, status.version, status.kind)) {
          if (p.name == name) return true;
        }
        continue;
      }
      for (const model::JsonPathRule& p : rule.json_paths) {
        if (p.name == name) return true;
      }
    }
    return false;
  }
  return false;
}

}  // namespace berth::dispatch
