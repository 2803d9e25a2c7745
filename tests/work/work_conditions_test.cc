// Condition lists of a ManifestWork's status. MergeManifestConditions and
// MergeStatusConditions tables are ported from OCM pkg/work/helper/helper_test.go; the
// allInCondition table from pkg/work/spoke/controllers/manifestcontroller/
// manifestwork_reconciler_test.go (TestAllInCondition); the Available aggregation from
// statuscontroller/availablestatus_controller_test.go (TestSyncManifestWork).
#include "server/work/work_conditions.h"

#include <gtest/gtest.h>

#include <string>

namespace berth::server::work {
namespace BERTH_UNITY_ID {

constexpr core::Timestamp kThen{1'700'000'000};
constexpr core::Timestamp kNow{1'800'000'000};

Json Cond(const char* type, const char* status, const char* transition = nullptr,
          int64_t generation = 0) {
  Json c = MakeCondition(type, status, "my-reason", "my-message", generation);
  if (transition != nullptr) c["lastTransitionTime"] = transition;
  return c;
}

Json Manifest(int ordinal, const char* resource, std::initializer_list<Json> conditions) {
  Json m = Json::object();
  m["resourceMeta"] = Json{{"ordinal", ordinal},   {"group", ""}, {"version", "v1"}, {"kind", ""},
                           {"resource", resource}, {"name", ""},  {"namespace", ""}};
  m["conditions"] = Json::array();
  for (const Json& c : conditions) m["conditions"].push_back(c);
  return m;
}

// type=status@transition for each condition.
std::string Summary(const Json& conditions) {
  std::string out;
  for (const Json& c : conditions) {
    out += c["type"].get<std::string>() + "=" + c["status"].get<std::string>() + "@" +
           c["lastTransitionTime"].get<std::string>() + ";";
  }
  return out;
}

TEST(WorkConditionsTest, SetConditionMovesTransitionOnlyOnStatusChange) {
  Json conditions = Json::array();
  SetCondition(conditions, MakeCondition("Applied", "True", "A", "m1", 2), kThen);
  EXPECT_EQ(conditions, Json::parse(R"([{"type":"Applied","status":"True","observedGeneration":2,
      "lastTransitionTime":"2023-11-14T22:13:20Z","reason":"A","message":"m1"}])"));
  SetCondition(conditions, MakeCondition("Applied", "True", "B", "m2", 3), kNow);
  EXPECT_EQ(conditions[0]["lastTransitionTime"], kThen.ToString());
  EXPECT_EQ(conditions[0]["reason"], "B");
  EXPECT_EQ(conditions[0]["observedGeneration"], 3);
  SetCondition(conditions, MakeCondition("Applied", "False", "C", "m3"), kNow);
  EXPECT_EQ(conditions[0]["lastTransitionTime"], kNow.ToString());
  EXPECT_FALSE(conditions[0].contains("observedGeneration"));
  SetCondition(conditions, Cond("Other", "True", "2020-01-01T00:00:00Z"), kNow);
  EXPECT_EQ(conditions[1]["lastTransitionTime"], "2020-01-01T00:00:00Z");
  RemoveCondition(conditions, "Applied");
  EXPECT_EQ(conditions.size(), 1u);
  EXPECT_EQ(FindCondition(conditions, "Applied"), nullptr);
  EXPECT_TRUE(IsConditionTrue(conditions, "Other"));
}

TEST(WorkConditionsTest, UpstreamMergeStatusConditions) {
  const char* t = "2023-11-14T22:13:20Z";
  // "add status condition"
  EXPECT_EQ(Summary(MergeStatusConditions(Json::array(), Json::array({Cond("one", "True")}), kNow)),
            "one=True@2027-01-15T08:00:00Z;");
  // "merge status condition"
  EXPECT_EQ(Summary(MergeStatusConditions(Json::array({Cond("one", "True", t)}),
                                          Json::array({Cond("one", "False"), Cond("two", "True")}),
                                          kNow)),
            "one=False@2027-01-15T08:00:00Z;two=True@2027-01-15T08:00:00Z;");
  // "remove old status condition": an unchanged status keeps its time, others stay.
  EXPECT_EQ(
      Summary(MergeStatusConditions(Json::array({Cond("one", "False", t), Cond("two", "True", t)}),
                                    Json::array({Cond("one", "False")}), kNow)),
      std::string("one=False@") + t + ";two=True@" + t + ";");
  // A new observedGeneration replaces the condition whole, with a new time.
  EXPECT_EQ(Summary(MergeStatusConditions(Json::array({Cond("one", "True", t, 1)}),
                                          Json::array({Cond("one", "True", nullptr, 2)}), kNow)),
            "one=True@2027-01-15T08:00:00Z;");
}

TEST(WorkConditionsTest, UpstreamMergeManifestConditions) {
  const char* t = "2023-11-14T22:13:20Z";
  // "add to empty"
  Json merged = MergeManifestConditions(
      Json::array(), Json::array({Manifest(0, "resource1", {Cond("one", "True")})}), kNow);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(Summary(merged[0]["conditions"]), "one=True@2027-01-15T08:00:00Z;");
  EXPECT_EQ(merged[0]["statusFeedback"], Json::object());
  // "add new condition"
  merged =
      MergeManifestConditions(Json::array({Manifest(0, "resource1", {Cond("one", "True", t)})}),
                              Json::array({Manifest(0, "resource1", {Cond("one", "True")}),
                                           Manifest(0, "resource2", {Cond("two", "True")})}),
                              kNow);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(Summary(merged[0]["conditions"]), std::string("one=True@") + t + ";");
  EXPECT_EQ(Summary(merged[1]["conditions"]), "two=True@2027-01-15T08:00:00Z;");
  // "update existing"
  merged = MergeManifestConditions(
      Json::array({Manifest(0, "resource1", {Cond("one", "True", t)})}),
      Json::array({Manifest(0, "resource1", {Cond("one", "False")})}), kNow);
  EXPECT_EQ(Summary(merged[0]["conditions"]), "one=False@2027-01-15T08:00:00Z;");
  // "merge new"
  merged = MergeManifestConditions(
      Json::array({Manifest(0, "resource1", {Cond("one", "True", t)})}),
      Json::array({Manifest(0, "resource1", {Cond("two", "False")})}), kNow);
  EXPECT_EQ(Summary(merged[0]["conditions"]),
            std::string("one=True@") + t + ";two=False@2027-01-15T08:00:00Z;");
  // "remove useless": resource2 moved from ordinal 1 to 0 and keeps its time; resource1 goes.
  Json old = Json::array({Manifest(0, "resource1", {Cond("one", "True", t)}),
                          Manifest(1, "resource2", {Cond("two", "True", t)})});
  old[1]["statusFeedback"] = Json{{"values", Json::array({Json{{"name", "x"}}})}};
  merged = MergeManifestConditions(
      old, Json::array({Manifest(0, "resource2", {Cond("two", "True")})}), kNow);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0]["resourceMeta"]["ordinal"], 0);
  EXPECT_EQ(Summary(merged[0]["conditions"]), std::string("two=True@") + t + ";");
  EXPECT_EQ(merged[0]["statusFeedback"]["values"][0]["name"], "x");  // kept from the old entry
}

TEST(WorkConditionsTest, UpstreamAllInCondition) {
  const Json a = Json::array({Manifest(0, "resource0", {Cond("two", "True")}),
                              Manifest(1, "resource1", {Cond("two", "False")})});
  InCondition c = AllInCondition("one", a);
  EXPECT_FALSE(c.in);
  EXPECT_FALSE(c.exists);
  const Json b = Json::array({Manifest(0, "resource0", {Cond("one", "True")}),
                              Manifest(1, "resource1", {Cond("one", "True")}),
                              Manifest(2, "resource0", {Cond("two", "True")}),
                              Manifest(3, "resource1", {Cond("two", "False")})});
  c = AllInCondition("one", b);
  EXPECT_TRUE(c.in);
  EXPECT_TRUE(c.exists);
  c = AllInCondition("two", b);
  EXPECT_FALSE(c.in);
  EXPECT_TRUE(c.exists);
}

TEST(WorkConditionsTest, AggregatesAvailableAndRuleConditions) {
  auto available = [](const Json& manifests) {
    for (const Json& c : AggregateManifestConditions(5, manifests)) {
      if (c["type"] == "Available") return c;
    }
    return Json();
  };
  // "unknown available status from work whose manifests become empty"
  EXPECT_EQ(available(Json::array()), Json::parse(R"({"type":"Available","status":"Unknown",
      "observedGeneration":5,"reason":"ResourcesStatusUnknown",
      "message":"cannot get any available resource "})"));
  const Json yes = MakeCondition("Available", "True", "ResourceAvailable", "Resource is available");
  const Json no = MakeCondition("Available", "False", "ResourceNotAvailable", "x");
  const Json unknown = MakeCondition("Available", "Unknown", "IncompleteResourceMeta", "x");
  EXPECT_EQ(available(Json::array({Manifest(0, "a", {yes})}))["reason"], "ResourcesAvailable");
  const Json mixed = available(
      Json::array({Manifest(0, "a", {yes}), Manifest(1, "b", {no}), Manifest(2, "c", {unknown})}));
  EXPECT_EQ(mixed["status"], "False");
  EXPECT_EQ(mixed["message"], "1 of 3 resources are not available");
  const Json some_unknown =
      available(Json::array({Manifest(0, "a", {yes}), Manifest(1, "c", {unknown})}));
  EXPECT_EQ(some_unknown["status"], "Unknown");
  EXPECT_EQ(some_unknown["message"], "1 of 2 resources have unknown status");

  // Rule conditions aggregate by type; Progressing is True while any manifest is.
  Json rule_true = MakeCondition("Progressing", "True", "ConditionRuleEvaluated", "rolling", 5);
  Json rule_false = MakeCondition("Progressing", "False", "ConditionRuleEvaluated", "done", 5);
  Json complete = MakeCondition("Complete", "True", "ConditionRuleEvaluated", "Job is finished", 5);
  const Json all =
      AggregateManifestConditions(5, Json::array({Manifest(0, "a", {yes, rule_true, complete}),
                                                  Manifest(1, "b", {yes, rule_false})}));
  ASSERT_EQ(all.size(), 3u);  // sorted by type
  EXPECT_EQ(all[0]["type"], "Available");
  EXPECT_EQ(all[1], Json::parse(R"({"type":"Complete","status":"True","observedGeneration":5,
      "reason":"ConditionRulesAggregated","message":"Job is finished"})"));
  EXPECT_EQ(all[2]["type"], "Progressing");
  EXPECT_EQ(all[2]["status"], "True");
  EXPECT_EQ(all[2]["message"], "Aggregated from 2 manifest conditions");
}

TEST(WorkConditionsTest, PrunesRuleConditionsOfOldGenerations) {
  Json conditions =
      Json::array({MakeCondition("Applied", "True", "AppliedManifestComplete", "", 1),
                   MakeCondition("Complete", "True", "ConditionRuleEvaluated", "", 1),
                   MakeCondition("Progressing", "True", "ConditionRulesAggregated", "", 2)});
  PruneRuleConditions(conditions, 2);
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[0]["type"], "Applied");
  EXPECT_EQ(conditions[1]["type"], "Progressing");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::work
