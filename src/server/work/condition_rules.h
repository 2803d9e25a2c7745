// Condition rules: the conditions a ManifestWork's conditionRules add to a manifest's status
// from the applied object as read back (OCM pkg/work/spoke/conditions). WellKnownConditions
// is evaluated natively for upstream's table (batch/v1 Job and v1 Pod "Complete"); a
// condition the table does not know for the kind adds nothing. CEL rules are not evaluated
// here (the server module may not use berth's cel module): they report Unknown with reason
// ConditionRuleInternalError, so the hub sees the rule was not honoured rather than a guess.
// Pure; thread-compatible.
#pragma once

#include <nlohmann/json.hpp>

namespace berth::server::work {

using Json = nlohmann::ordered_json;

// The conditions of `condition_rules` (null or an array of {condition, type, celExpressions,
// message, messageExpression}) for `object`, in rule order, without transition times or
// observedGeneration (the caller stamps both). Reasons are upstream's: ConditionRuleEvaluated,
// ConditionRuleExpressionError (a field the rule reads is missing), ConditionRuleInvalid
// (an unknown rule type), ConditionRuleInternalError (CEL).
Json EvaluateConditionRules(const Json& object, const Json& condition_rules);

}  // namespace berth::server::work
