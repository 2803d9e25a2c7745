// Condition rules. The WellKnownConditions cases (Job complete, failed, incomplete; Pod
// succeeded, failed, running) are ported from OCM pkg/work/spoke/conditions/reader_test.go
// (TestConditionReader), with the same objects and expected conditions.
#include "server/work/condition_rules.h"

#include <gtest/gtest.h>

namespace berth::server::work {
namespace BERTH_UNITY_ID {

Json JobWith(const char* conditions) {
  return Json::parse(
      std::string(R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"test"},
      "status":{"conditions":)") +
      conditions + "}}");
}

Json PodIn(const char* phase) {
  return Json::parse(std::string(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"test"},
      "status":{"conditions":[{"status":"False","type":"Ready"}],"phase":")") +
                     phase + "\"}}");
}

const Json kCompleteRule =
    Json::parse(R"([{"type":"WellKnownConditions","condition":"Complete"}])");

Json Expected(const char* status, const char* message,
              const char* reason = "ConditionRuleEvaluated") {
  return Json::array(
      {Json{{"type", "Complete"}, {"status", status}, {"reason", reason}, {"message", message}}});
}

TEST(ConditionRulesTest, UpstreamWellKnownTable) {
  EXPECT_EQ(
      EvaluateConditionRules(
          JobWith(R"([{"status":"True","type":"Complete"},{"status":"True","type":"Another"}])"),
          kCompleteRule),
      Expected("True", "Job is finished"));
  EXPECT_EQ(
      EvaluateConditionRules(JobWith(R"([{"status":"True","type":"Failed"}])"), kCompleteRule),
      Expected("True", "Job is finished"));
  EXPECT_EQ(
      EvaluateConditionRules(
          JobWith(R"([{"status":"False","type":"Complete"},{"status":"True","type":"Another"}])"),
          kCompleteRule),
      Expected("False", "Job is not finished"));
  EXPECT_EQ(EvaluateConditionRules(PodIn("Succeeded"), kCompleteRule),
            Expected("True", "Pod is in phase Succeeded"));
  EXPECT_EQ(EvaluateConditionRules(PodIn("Failed"), kCompleteRule),
            Expected("True", "Pod is in phase Failed"));
  EXPECT_EQ(EvaluateConditionRules(PodIn("Running"), kCompleteRule),
            Expected("False", "Pod is in phase Running"));
}

TEST(ConditionRulesTest, MissingFieldsAndOverrides) {
  // hasConditions() is false for an empty list; a missing status is a CEL "no such key".
  EXPECT_EQ(EvaluateConditionRules(JobWith("[]"), kCompleteRule),
            Expected("False", "Job is not finished"));
  EXPECT_EQ(EvaluateConditionRules(
                Json::parse(R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"}})"),
                kCompleteRule),
            Expected("False", "no such key: status", "ConditionRuleExpressionError"));
  EXPECT_EQ(
      EvaluateConditionRules(
          Json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"status":{}})"),
          kCompleteRule),
      Expected("False", "no such key: phase", "ConditionRuleExpressionError"));
  // A rule's message replaces the built-in one.
  EXPECT_EQ(EvaluateConditionRules(
                PodIn("Succeeded"),
                Json::parse(
                    R"([{"type":"WellKnownConditions","condition":"Complete","message":"done"}])")),
            Expected("True", "done"));
}

TEST(ConditionRulesTest, UnknownConditionsCelAndBadTypes) {
  const Json deployment = Json::parse(
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"status":{}})");
  // No well-known rule for the kind: nothing.
  EXPECT_EQ(EvaluateConditionRules(deployment, kCompleteRule), Json::array());
  EXPECT_EQ(EvaluateConditionRules(
                PodIn("Succeeded"),
                Json::parse(R"([{"type":"WellKnownConditions","condition":"Available"}])")),
            Json::array());
  const Json out = EvaluateConditionRules(deployment, Json::parse(R"([
      {"type":"CEL","condition":"Progressing","celExpressions":["true"]},
      {"type":"Magic","condition":"Degraded"}])"));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0]["type"], "Progressing");
  EXPECT_EQ(out[0]["status"], "Unknown");
  EXPECT_EQ(out[0]["reason"], "ConditionRuleInternalError");
  EXPECT_EQ(out[1], Json::parse(R"({"type":"Degraded","status":"Unknown",
      "reason":"ConditionRuleInvalid","message":"unrecognized condition rule type Magic"})"));
  EXPECT_EQ(EvaluateConditionRules(deployment, nullptr), Json::array());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::work
