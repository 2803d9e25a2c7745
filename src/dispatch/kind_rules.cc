#include "dispatch/kind_rules.h"

#include <utility>

namespace berth::dispatch {
namespace {

model::FeedbackRule WellKnown() { return model::FeedbackRule{}; }

model::FeedbackRule JsonPaths(std::vector<model::JsonPathRule> paths) {
  model::FeedbackRule rule;
  rule.type = model::FeedbackRuleType::kJsonPaths;
  rule.json_paths = std::move(paths);
  return rule;
}

// A condition's status ("True", "False", "Unknown"): a JSONPath filter that yields one
// scalar, since conditions are a list map keyed by type.
model::JsonPathRule Condition(const std::string& name, const std::string& type) {
  std::string path = ".status.conditions[?(@.type==\"";
  path += type;
  path += "\")].status";
  return model::JsonPathRule{name, std::move(path)};
}

std::string Lower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

}  // namespace

std::string GroupOf(const std::string& api_version) {
  const size_t slash = api_version.find('/');
  return slash == std::string::npos ? std::string() : api_version.substr(0, slash);
}

KindRules RulesForKind(const std::string& api_version, const std::string& kind) {
  KindRules rules;
  rules.group = GroupOf(api_version);
  const std::string& g = rules.group;
  if (g == "batch" && kind == "Job") {
    rules.resource = "jobs";
    rules.suspendable = true;
    // JobComplete and JobSucceeded say nothing about a failed Job; the Failed condition
    // does, so a finished-with-failure run is seen on the hub too.
    rules.feedback_rules = {WellKnown(), JsonPaths({Condition("JobFailed", "Failed")})};
  } else if (g == "apps" && kind == "Deployment") {
    rules.resource = "deployments";
    rules.feedback_rules = {WellKnown()};
  } else if (g.empty() && kind == "Pod") {
    rules.resource = "pods";
    rules.feedback_rules = {WellKnown()};
  } else if (g == "apps" && kind == "StatefulSet") {
    rules.resource = "statefulsets";
    rules.feedback_rules = {JsonPaths({{"ReadyReplicas", ".status.readyReplicas"},
                                       {"Replicas", ".status.replicas"},
                                       {"AvailableReplicas", ".status.availableReplicas"}})};
  } else if (g == "jobset.x-k8s.io" && kind == "JobSet") {
    rules.resource = "jobsets";
    rules.suspendable = true;
    // terminalState is "Completed" or "Failed" once the JobSet finished, empty before;
    // restarts counts whole-JobSet recreations (failure policy).
    rules.feedback_rules = {JsonPaths({{"TerminalState", ".status.terminalState"},
                                       {"Restarts", ".status.restarts"},
                                       Condition("Completed", "Completed"),
                                       Condition("Failed", "Failed")})};
  } else if (g == "kubeflow.org" && kind == "PyTorchJob") {
    rules.resource = "pytorchjobs";
    rules.suspendable = true;  // spec.runPolicy.suspend
    rules.feedback_rules = {
        JsonPaths({Condition("Succeeded", "Succeeded"), Condition("Failed", "Failed"),
                   Condition("Running", "Running")})};
  } else if (g == "leaderworkerset.x-k8s.io" && kind == "LeaderWorkerSet") {
    rules.resource = "leaderworkersets";
    rules.feedback_rules = {JsonPaths({{"ReadyReplicas", ".status.readyReplicas"},
                                       {"Replicas", ".status.replicas"},
                                       Condition("Available", "Available")})};
  } else {
    rules.resource = Lower(kind);
    rules.resource += 's';
  }
  return rules;
}

}  // namespace berth::dispatch
