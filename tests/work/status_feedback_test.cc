// Status feedback rules. The table of StatusReader cases is ported from OCM
// pkg/work/spoke/statusfeedback/reader_test.go (TestStatusReader: same objects, rules,
// maximum raw length 40 and expected values); the condition cases from
// pkg/work/spoke/controllers/statuscontroller/availablestatus_controller_test.go
// (TestStatusFeedback: "get well known status", "get wrong json path").
#include "server/work/status_feedback.h"

#include <gtest/gtest.h>

#include <string>

namespace berth::server::work {
namespace BERTH_UNITY_ID {

const char* kDeploymentJson = R"({
  "apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"test"},
  "status":{"readyReplicas":1,"replicas":2,"conditions":[{"type":"Available","status":"true"}]}})";
const char* kDeploymentMultiConditionJson = R"({
  "apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"test"},
  "status":{"readyReplicas":1,"replicas":2,"conditions":[
    {"type":"Cond1","status":"true"},{"type":"Cond2","status":"false"},
    {"type":"Cond3","status":"true"}]}})";
const char* kDeploymentUnknownGroupJson = R"({
  "apiVersion":"extensions/v1","kind":"Deployment","metadata":{"name":"test"},
  "status":{"readyReplicas":1,"replicas":2,"conditions":[
    {"type":"Available","status":"true"},{"type":"Ready","status":"true"}]}})";
const char* kJobJson = R"({
  "apiVersion":"batch/v1","kind":"Job","metadata":{"name":"test"},
  "status":{"conditions":[{"status":"True","type":"Complete"}],"succeeded":1}})";
const char* kPodJson = R"({
  "apiVersion":"v1","kind":"Pod","metadata":{"name":"test"},
  "status":{"conditions":[{"status":"False","type":"Ready"}],"phase":"Succeeded"}})";

struct ReaderCase {
  const char* name;
  const char* object;
  const char* rule;
  bool raw_json;
  bool expect_error;
  const char* expected_values;  // the values array as JSON
};

const ReaderCase kReaderCases[] = {
    {"deployment values", kDeploymentJson, R"({"type":"WellKnownStatus"})", false, false,
     R"([{"name":"ReadyReplicas","fieldValue":{"type":"Integer","integer":1}},
         {"name":"Replicas","fieldValue":{"type":"Integer","integer":2}}])"},
    {"deployment jsonpaths", kDeploymentJson,
     R"({"type":"JSONPaths","jsonPaths":[
         {"name":"available","path":".status.conditions[?(@.type==\"Available\")].status "}]})",
     false, false, R"([{"name":"available","fieldValue":{"type":"String","string":"true"}}])"},
    {"wrong return type", kDeploymentJson,
     R"({"type":"JSONPaths","jsonPaths":[{"name":"available","path":".status.conditions"},
                                          {"name":"replicas","path":".status.replicas"}]})",
     false, true, R"([{"name":"replicas","fieldValue":{"type":"Integer","integer":2}}])"},
    {"mismatched gvk", kDeploymentUnknownGroupJson, R"({"type":"WellKnownStatus"})", false, true,
     "[]"},
    {"wrong version set for jsonpaths", kDeploymentJson,
     R"({"type":"JSONPaths","jsonPaths":[
         {"name":"available","path":".status.conditions","version":"v1beta1"},
         {"name":"replicas","path":".status.replicas"}]})",
     false, true, R"([{"name":"replicas","fieldValue":{"type":"Integer","integer":2}}])"},
    {"Job values", kJobJson, R"({"type":"WellKnownStatus"})", false, false,
     R"([{"name":"JobComplete","fieldValue":{"type":"String","string":"True"}},
         {"name":"JobSucceeded","fieldValue":{"type":"Integer","integer":1}}])"},
    {"Pod values", kPodJson, R"({"type":"WellKnownStatus"})", false, false,
     R"([{"name":"PodReady","fieldValue":{"type":"String","string":"False"}},
         {"name":"PodPhase","fieldValue":{"type":"String","string":"Succeeded"}}])"},
    {"Return 1st item with multiple patch", kDeploymentJson,
     R"({"type":"JSONPaths","jsonPaths":[
         {"name":"type","path":".status.conditions[?(@.status==\"true\")].type "}]})",
     false, false, R"([{"name":"type","fieldValue":{"type":"String","string":"Available"}}])"},
    {"rawjson value format", kPodJson,
     R"({"type":"JSONPaths","jsonPaths":[{"name":"conditions","path":".status.conditions"}]})",
     true, false,
     R"([{"name":"conditions","fieldValue":{"type":"JsonRaw",
          "jsonRaw":"[{\"status\":\"False\",\"type\":\"Ready\"}]"}}])"},
    {"rawjson value exceed max length", kPodJson,
     R"({"type":"JSONPaths","jsonPaths":[{"name":"status","path":".status"}]})", true, true, "[]"},
    {"filtered rawjson value format", kDeploymentMultiConditionJson,
     R"({"type":"JSONPaths","jsonPaths":[
         {"name":"conditions","path":".status.conditions[?(@.status==\"true\")].type"}]})",
     true, false,
     R"([{"name":"conditions","fieldValue":{"type":"JsonRaw","jsonRaw":"[\"Cond1\",\"Cond3\"]"}}])"},
};

TEST(StatusFeedbackTest, UpstreamStatusReaderTable) {
  for (const ReaderCase& c : kReaderCases) {
    SCOPED_TRACE(c.name);
    FeedbackOptions options;
    options.raw_json = c.raw_json;
    options.max_json_raw_length = 40;
    FeedbackRuleResult r =
        EvaluateFeedbackRule(Json::parse(c.object), Json::parse(c.rule), options);
    EXPECT_EQ(!r.errors.empty(), c.expect_error)
        << (r.errors.empty() ? "no error" : r.errors.front());
    EXPECT_EQ(r.values, Json::parse(c.expected_values)) << r.values.dump();
  }
}

TEST(StatusFeedbackTest, UpstreamErrorMessages) {
  FeedbackOptions options;
  options.max_json_raw_length = 40;
  auto errors = [&](const char* object, const char* rule, bool raw = false) {
    options.raw_json = raw;
    return EvaluateFeedbackRule(Json::parse(object), Json::parse(rule), options).errors;
  };
  EXPECT_EQ(errors(kDeploymentUnknownGroupJson, R"({"type":"WellKnownStatus"})"),
            std::vector<std::string>{
                "cannot find the wellknown statuses for resource with gvk extensions/v1, "
                "Kind=Deployment"});
  EXPECT_EQ(
      errors(kDeploymentJson,
             R"({"type":"JSONPaths","jsonPaths":[{"name":"c","path":".status.conditions"}]})"),
      std::vector<std::string>{"the type []interface {} of the value for c is not found"});
  EXPECT_EQ(errors(kDeploymentJson, R"({"type":"JSONPaths","jsonPaths":[
                       {"name":"c","path":".status.conditions","version":"v1beta1"}]})"),
            std::vector<std::string>{
                "version set in the path c is not matched for the related resource"});
  EXPECT_EQ(
      errors(kPodJson, R"({"type":"JSONPaths","jsonPaths":[{"name":"s","path":".status"}]})", true),
      std::vector<std::string>{
          "the length of returned json raw string for s is larger than the maximum "
          "length 40"});
  const auto parse =
      errors(kPodJson, R"({"type":"JSONPaths","jsonPaths":[{"name":"s","path":".a[0:1]"}]})");
  ASSERT_EQ(parse.size(), 1u);
  EXPECT_EQ(parse[0].rfind("failed to parse json path .a[0:1] of s with error: ", 0), 0u)
      << parse[0];
  const auto bounds = errors(kPodJson, R"({"type":"JSONPaths","jsonPaths":[
                                {"name":"s","path":".status.conditions[5]"}]})");
  ASSERT_EQ(bounds.size(), 1u);
  EXPECT_EQ(bounds[0],
            "failed to find value for s with error: array index out of bounds: index 5, length 1");
}

TEST(StatusFeedbackTest, WellKnownTableMatchesUpstream) {
  auto names = [](std::string_view group, std::string_view kind) {
    std::string out;
    for (const auto& p : WellKnownStatusPaths(group, "v1", kind)) {
      out += std::string(p.name) + "=" + std::string(p.path) + ";";
    }
    return out;
  };
  EXPECT_EQ(names("apps", "Deployment"),
            "ReadyReplicas=.status.readyReplicas;Replicas=.status.replicas;"
            "AvailableReplicas=.status.availableReplicas;");
  EXPECT_EQ(names("apps", "DaemonSet"),
            "NumberReady=.status.numberReady;DesiredNumberScheduled=.status.desiredNumberScheduled;"
            "NumberAvailable=.status.numberAvailable;");
  EXPECT_EQ(names("batch", "Job"),
            R"(JobComplete=.status.conditions[?(@.type=="Complete")].status;)"
            "JobSucceeded=.status.succeeded;");
  EXPECT_EQ(names("", "Pod"),
            R"(PodReady=.status.conditions[?(@.type=="Ready")].status;PodPhase=.status.phase;)");
  EXPECT_EQ(names("apps", "StatefulSet"), "");
  EXPECT_TRUE(WellKnownStatusPaths("apps", "v1beta1", "Deployment").empty());
}

TEST(StatusFeedbackTest, DaemonSetAndScalarTypes) {
  const Json ds = Json::parse(R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"d"},
      "status":{"numberReady":3,"desiredNumberScheduled":4,"numberAvailable":3}})");
  FeedbackRuleResult r = EvaluateFeedbackRule(ds, Json::parse(R"({"type":"WellKnownStatus"})"), {});
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.values, Json::parse(R"([
      {"name":"NumberReady","fieldValue":{"type":"Integer","integer":3}},
      {"name":"DesiredNumberScheduled","fieldValue":{"type":"Integer","integer":4}},
      {"name":"NumberAvailable","fieldValue":{"type":"Integer","integer":3}}])"));

  const Json obj = Json::parse(
      R"({"apiVersion":"v1","kind":"Pod","status":{"f":1.5,"b":false,"o":{"z":1,"a":2}}})");
  const Json rule = Json::parse(R"({"type":"JSONPaths","jsonPaths":[
      {"name":"f","path":".status.f"},{"name":"b","path":".status.b"},{"name":"o","path":".status.o"}]})");
  FeedbackRuleResult plain = EvaluateFeedbackRule(obj, rule, {});
  EXPECT_EQ(plain.values,
            Json::parse(R"([{"name":"b","fieldValue":{"type":"Boolean","boolean":false}}])"));
  EXPECT_EQ(plain.errors, (std::vector<std::string>{
                              "the type float64 of the value for f is not found",
                              "the type map[string]interface {} of the value for o is not found"}));
  FeedbackOptions raw;
  raw.raw_json = true;
  FeedbackRuleResult gated = EvaluateFeedbackRule(obj, rule, raw);
  EXPECT_TRUE(gated.errors.empty());
  // Keys sorted, as Go's json.Marshal writes a map.
  EXPECT_EQ(gated.values, Json::parse(R"([
      {"name":"f","fieldValue":{"type":"JsonRaw","jsonRaw":"1.5"}},
      {"name":"b","fieldValue":{"type":"Boolean","boolean":false}},
      {"name":"o","fieldValue":{"type":"JsonRaw","jsonRaw":"{\"a\":2,\"z\":1}"}}])"));
}

TEST(StatusFeedbackTest, SyncedCondition) {
  const Json deploy =
      Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"deploy1"},
      "status":{"readyReplicas":2,"replicas":3,"availableReplicas":2}})");
  StatusFeedback none = EvaluateStatusFeedback(deploy, nullptr, {});
  EXPECT_EQ(none.condition, Json::parse(R"({"type":"StatusFeedbackSynced","status":"True",
      "reason":"NoStatusFeedbackSynced","message":""})"));
  EXPECT_TRUE(none.values.empty());

  // "get well known status".
  StatusFeedback known =
      EvaluateStatusFeedback(deploy, Json::parse(R"([{"type":"WellKnownStatus"}])"), {});
  EXPECT_EQ(known.condition["status"], "True");
  EXPECT_EQ(known.condition["reason"], "StatusFeedbackSynced");
  EXPECT_EQ(known.values.size(), 3u);

  // A path selecting nothing adds no value and is no failure.
  StatusFeedback missing = EvaluateStatusFeedback(
      deploy,
      Json::parse(R"([{"type":"JSONPaths","jsonPaths":[{"name":"x","path":".status.nope"}]}])"),
      {});
  EXPECT_EQ(missing.condition["status"], "True");
  EXPECT_TRUE(missing.values.empty());

  // "get wrong json path": the well-known values still come, the map path fails the sync.
  const Json wrong =
      Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"deploy1"},
      "status":{"replicas":3,"conditions":{"status":"True"}}})");
  StatusFeedback failed = EvaluateStatusFeedback(wrong, Json::parse(R"([{"type":"WellKnownStatus"},
          {"type":"JSONPaths","jsonPaths":[{"name":"condition","path":".status.conditions"}]}])"),
                                                 {});
  EXPECT_EQ(failed.values,
            Json::parse(R"([{"name":"Replicas","fieldValue":{"type":"Integer","integer":3}}])"));
  EXPECT_EQ(failed.condition, Json::parse(R"({"type":"StatusFeedbackSynced","status":"False",
      "reason":"StatusFeedbackSyncFailed",
      "message":"Sync status feedback failed with error the type map[string]interface {} of the value for condition is not found"})"));

  // Two failures read as Go's aggregate: "[a, b]".
  StatusFeedback two =
      EvaluateStatusFeedback(wrong, Json::parse(R"([{"type":"JSONPaths","jsonPaths":[
          {"name":"a","path":".status.conditions"},{"name":"b","path":".status.conditions"}]}])"),
                             {});
  EXPECT_EQ(
      two.condition["message"],
      "Sync status feedback failed with error [the type map[string]interface {} of the value "
      "for a is not found, the type map[string]interface {} of the value for b is not found]");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::work
