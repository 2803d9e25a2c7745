// Status feedback: the values a ManifestWork's feedbackRules read from an applied object as
// the member cluster holds it, as OCM's work agent reads them
// (pkg/work/spoke/statusfeedback/reader.go, rules/rule.go): WellKnownStatus takes the fixed
// paths of the object's kind (apps/v1 Deployment and DaemonSet, batch/v1 Job, v1 Pod), and
// JSONPaths takes the rule's own {name, path, version}. A path that selects nothing adds no
// value and no error; a value that is not a scalar is an error unless the
// RawFeedbackJsonString gate is on, when it (or a multi-value selection) becomes a JsonRaw
// string capped at max_json_raw_length. Called by the work applier after reading the object
// back. Pure functions; thread-compatible.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/work.h"

namespace berth::server::work {

using Json = nlohmann::ordered_json;

struct FeedbackOptions {
  // OCM's RawFeedbackJsonString feature gate (alpha, off by default upstream).
  bool raw_json = false;
  // The work agent's --max-json-raw-length (upstream default 1024; the API caps jsonRaw at
  // 1024 characters).
  size_t max_json_raw_length = 1024;
};

// One fixed path of a kind's WellKnownStatus rule (the table is model's, shared with the hub).
using model::WellKnownStatusPath;

// The WellKnownStatus paths of (group, version, kind), in upstream's order; empty when the
// kind has none (the rule is then an error for that object).
std::span<const WellKnownStatusPath> WellKnownStatusPaths(std::string_view group,
                                                          std::string_view version,
                                                          std::string_view kind);

// What one feedback rule read: values [{name, fieldValue {type, integer|string|boolean|
// jsonRaw}}] in the rule's path order, and one message per path that failed.
struct FeedbackRuleResult {
  Json values = Json::array();
  std::vector<std::string> errors;
};
FeedbackRuleResult EvaluateFeedbackRule(const Json& object, const Json& rule,
                                        const FeedbackOptions& options);

// Every rule of a manifest config's feedbackRules (null or [] when it has none): the values of
// all rules, and the StatusFeedbackSynced condition (True/NoStatusFeedbackSynced without
// rules, True/StatusFeedbackSynced, False/StatusFeedbackSyncFailed naming the errors).
struct StatusFeedback {
  Json values = Json::array();
  Json condition;
};
StatusFeedback EvaluateStatusFeedback(const Json& object, const Json& feedback_rules,
                                      const FeedbackOptions& options);

}  // namespace berth::server::work
