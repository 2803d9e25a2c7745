// The two well-known rules are CEL upstream (spoke/conditions/rules/rule.go); their meaning
// is written out here: a Job is Complete when its status has a non-empty conditions list and
// one of type Complete or Failed is True ("Job is finished" / "Job is not finished"); a Pod
// is Complete in phase Succeeded or Failed ("Pod is in phase <phase>"). Where the CEL
// expression would fail on a missing field ("no such key: ..."), the condition is False with
// ConditionRuleExpressionError and that message, as upstream's evaluator reports it. A rule's
// own message replaces the built-in one; a messageExpression (CEL) cannot be evaluated and is
// ignored.
#include "server/work/condition_rules.h"

#include <string>

#include "server/work/work_conditions.h"

namespace berth::server::work {

namespace {

std::string RuleString(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

struct RuleOutcome {
  bool known = false;  // the kind has a well-known rule for this condition
  std::string status;
  std::string reason;
  std::string message;
};

RuleOutcome RuleEvaluated(bool result, std::string message) {
  return RuleOutcome{true, result ? "True" : "False", "ConditionRuleEvaluated", std::move(message)};
}

RuleOutcome RuleMissingKey(const char* key) {
  return RuleOutcome{true, "False", "ConditionRuleExpressionError",
                     std::string("no such key: ") + key};
}

RuleOutcome RuleJobComplete(const Json& object) {
  auto status = object.find("status");
  if (status == object.end()) return RuleMissingKey("status");
  bool finished = false;
  if (status->is_object()) {
    auto conditions = status->find("conditions");
    if (conditions != status->end() && conditions->is_array()) {
      for (const Json& c : *conditions) {
        const std::string type = RuleString(c, "type");
        if ((type == "Complete" || type == "Failed") && RuleString(c, "status") == "True") {
          finished = true;
        }
      }
    }
  }
  return RuleEvaluated(finished, finished ? "Job is finished" : "Job is not finished");
}

RuleOutcome RulePodComplete(const Json& object) {
  auto status = object.find("status");
  if (status == object.end() || !status->is_object()) return RuleMissingKey("status");
  auto phase = status->find("phase");
  if (phase == status->end() || !phase->is_string()) return RuleMissingKey("phase");
  const std::string p = phase->get<std::string>();
  return RuleEvaluated(p == "Succeeded" || p == "Failed", "Pod is in phase " + p);
}

RuleOutcome WellKnownCondition(const Json& object, const std::string& condition) {
  const std::string api_version = RuleString(object, "apiVersion");
  const std::string kind = RuleString(object, "kind");
  if (condition != "Complete") return {};
  if (api_version == "batch/v1" && kind == "Job") return RuleJobComplete(object);
  if (api_version == "v1" && kind == "Pod") return RulePodComplete(object);
  return {};
}

}  // namespace

Json EvaluateConditionRules(const Json& object, const Json& condition_rules) {
  Json out = Json::array();
  if (!condition_rules.is_array() || !object.is_object()) return out;
  for (const Json& rule : condition_rules) {
    const std::string condition = RuleString(rule, "condition");
    const std::string type = RuleString(rule, "type");
    if (type == "WellKnownConditions") {
      RuleOutcome o = WellKnownCondition(object, condition);
      if (!o.known) continue;
      const std::string message = RuleString(rule, "message");
      if (!message.empty() && o.reason == "ConditionRuleEvaluated") o.message = message;
      out.push_back(MakeCondition(condition, o.status, o.reason, o.message));
    } else if (type == "CEL") {
      out.push_back(MakeCondition(condition, "Unknown", "ConditionRuleInternalError",
                                  "CEL condition rules are not evaluated by berth's work agent"));
    } else {
      out.push_back(MakeCondition(condition, "Unknown", "ConditionRuleInvalid",
                                  "unrecognized condition rule type " + type));
    }
  }
  return out;
}

}  // namespace berth::server::work
