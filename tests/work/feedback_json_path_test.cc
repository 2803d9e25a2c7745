// FeedbackJsonPath: the JSONPath subset of OCM's feedback rules and ignoreFields, with
// client-go's jsonpath semantics under AllowMissingKeys (k8s.io/client-go/util/jsonpath
// jsonpath.go: evalField, evalArray, evalFilter).
#include "server/work/feedback_json_path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace berth::server::work {
namespace BERTH_UNITY_ID {

const Json kPodObject = Json::parse(R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "p", "labels": {"app.kubernetes.io/name": "trainer"}},
  "status": {
    "phase": "Running",
    "restarts": 3,
    "ready": true,
    "conditions": [
      {"type": "Ready", "status": "False", "generation": 2},
      {"type": "Initialized", "status": "True", "generation": 1},
      {"type": "Scheduled", "status": "True", "generation": 1}
    ],
    "empty": null
  }
})");

// The selected values, dumped; a test failure when the path does not parse or evaluate.
std::vector<std::string> Select(const std::string& path, const Json& object = kPodObject) {
  auto parsed = FeedbackJsonPath::Parse(path);
  EXPECT_TRUE(parsed) << path << ": " << parsed.error().ToString();
  if (!parsed) return {};
  auto found = parsed->Find(object);
  EXPECT_TRUE(found) << path << ": " << found.error().ToString();
  if (!found) return {};
  std::vector<std::string> out;
  for (const Json* v : *found) out.push_back(v->dump());
  return out;
}

std::string EvalError(const std::string& path, const Json& object = kPodObject) {
  auto parsed = FeedbackJsonPath::Parse(path);
  EXPECT_TRUE(parsed) << parsed.error().ToString();
  if (!parsed) return "";
  auto found = parsed->Find(object);
  EXPECT_FALSE(found) << path << " selected " << (found ? found->size() : 0) << " values";
  return found ? "" : found.error().message();
}

using Values = std::vector<std::string>;

TEST(FeedbackJsonPathTest, FieldsAndMissingKeys) {
  EXPECT_EQ(Select(".status.phase"), Values{"\"Running\""});
  EXPECT_EQ(Select(".status.restarts"), Values{"3"});
  EXPECT_EQ(Select("{.status.ready}"), Values{"true"});
  EXPECT_EQ(Select("  .status.phase  "), Values{"\"Running\""});
  EXPECT_EQ(Select(".metadata.labels['app.kubernetes.io/name']"), Values{"\"trainer\""});
  // AllowMissingKeys: nothing selected, no error; a field of a scalar selects nothing too.
  EXPECT_EQ(Select(".status.missing"), Values{});
  EXPECT_EQ(Select(".status.phase.deeper"), Values{});
  EXPECT_EQ(Select(".nothing.at.all"), Values{});
  // null is skipped as Go skips a nil interface.
  EXPECT_EQ(Select(".status.empty.x"), Values{});
}

TEST(FeedbackJsonPathTest, IndexesAndWildcards) {
  EXPECT_EQ(Select(".status.conditions[0].type"), Values{"\"Ready\""});
  EXPECT_EQ(Select(".status.conditions[-1].type"), Values{"\"Scheduled\""});
  EXPECT_EQ(Select(".status.conditions[*].status"), (Values{"\"False\"", "\"True\"", "\"True\""}));
  EXPECT_EQ(Select(".metadata.labels.*"), Values{"\"trainer\""});
  EXPECT_EQ(EvalError(".status.conditions[3]"), "array index out of bounds: index 3, length 3");
  EXPECT_EQ(EvalError(".status.conditions[-4]"), "array index out of bounds: index -1, length 3");
  EXPECT_EQ(EvalError(".status[0]"), "map[string]interface {} is not array or slice");
}

TEST(FeedbackJsonPathTest, Filters) {
  EXPECT_EQ(Select(R"(.status.conditions[?(@.type=="Ready")].status)"), Values{"\"False\""});
  EXPECT_EQ(Select(".status.conditions[?(@.type=='Ready')].status"), Values{"\"False\""});
  EXPECT_EQ(Select(R"(.status.conditions[?( @.type == "Initialized" )].status)"),
            Values{"\"True\""});
  EXPECT_EQ(Select(R"(.status.conditions[?(@.status!="True")].type)"), Values{"\"Ready\""});
  EXPECT_EQ(Select(".status.conditions[?(@.generation==1)].type"),
            (Values{"\"Initialized\"", "\"Scheduled\""}));
  EXPECT_EQ(Select(".status.conditions[?(@.generation>1)].type"), Values{"\"Ready\""});
  EXPECT_EQ(Select(".status.conditions[?(@.generation<=1.5)].type"),
            (Values{"\"Initialized\"", "\"Scheduled\""}));
  EXPECT_EQ(Select(".status.conditions[?(@.type)].type").size(), 3u);
  EXPECT_EQ(Select(".status.conditions[?(@.missing)].type"), Values{});
  EXPECT_EQ(Select(".status.conditions[?(@.missing=='x')].type"), Values{});
  EXPECT_EQ(Select(".status.conditions[?(@.type==@.type)].type").size(), 3u);
  const Json flags = Json::parse(R"({"items":[{"on":true,"n":"a"},{"on":false,"n":"b"}]})");
  EXPECT_EQ(Select(".items[?(@.on==true)].n", flags), Values{"\"a\""});
  EXPECT_EQ(EvalError(".status.conditions[?(@.type==1)].type"),
            "incompatible types for comparison");
  EXPECT_EQ(
      EvalError(".status[?(@.type=='x')]"),
      kPodObject["status"].dump().substr(0, 200) + " is not array or slice and cannot be filtered");
}

TEST(FeedbackJsonPathTest, RefusesSyntaxOutsideTheSubset) {
  for (const char* path : {"", "status.phase", ".status..phase", ".status.conditions[0:2]",
                           ".status.conditions[0,1]", ".status.conditions[?(@.type=~'R.*')]",
                           ".status.conditions[?(type=='x')]", ".status.conditions[?(@.type=='x')",
                           ".status.conditions['unterminated]", ".status.", ".a[?(@.x==y)]"}) {
    auto parsed = FeedbackJsonPath::Parse(path);
    EXPECT_FALSE(parsed) << "parsed: " << path;
  }
  auto bad = FeedbackJsonPath::Parse(".status.conditions[0:2]");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message(),
            "array slices are not supported at byte 20 of JSONPath \".status.conditions[0:2]\"");
}

TEST(FeedbackJsonPathTest, FindInReturnsMutablePointers) {
  Json object = kPodObject;
  auto parsed = FeedbackJsonPath::Parse(R"(.status.conditions[?(@.type=="Ready")])");
  ASSERT_TRUE(parsed);
  auto found = parsed->FindIn(object);
  ASSERT_TRUE(found);
  ASSERT_EQ(found->size(), 1u);
  (*found)[0]->erase("generation");
  EXPECT_FALSE(object["status"]["conditions"][0].contains("generation"));
  EXPECT_TRUE(object["status"]["conditions"][1].contains("generation"));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::work
