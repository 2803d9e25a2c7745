// Manifest configs, delete options and the owner mark. FindManifestConfiguration,
// wildcardMatch (TestNameMatch) and OwnedByTheWork tables are ported from OCM
// pkg/work/helper/helper_test.go.
#include "server/work/manifest_config.h"

#include <gtest/gtest.h>

#include "server/work/delete_option.h"
#include "server/work/owner_mark.h"

namespace berth::server::work {
namespace BERTH_UNITY_ID {

ResourceMeta ConfigMapMeta() {
  ResourceMeta m;
  m.resource = "configmaps";
  m.name = "test";
  m.namespace_ = "testns";
  return m;
}

TEST(ManifestConfigTest, UpstreamNameMatch) {
  EXPECT_TRUE(WildcardMatch("my-test", "my*"));
  EXPECT_FALSE(WildcardMatch("my-test", "*my"));
  EXPECT_TRUE(WildcardMatch("my-test", "*m*"));
  EXPECT_TRUE(WildcardMatch("my-test", "*t"));
  EXPECT_TRUE(WildcardMatch("my-test", "*"));
  EXPECT_TRUE(WildcardMatch("my-test", "my-test"));
  EXPECT_FALSE(WildcardMatch("my-test", "my-tes"));
  EXPECT_TRUE(WildcardMatch("", "*"));
  EXPECT_FALSE(WildcardMatch("", "a*"));
  EXPECT_TRUE(WildcardMatch("a.b.c", "a*c"));  // '.' is literal, not a regex
  EXPECT_FALSE(WildcardMatch("abc", "a.c"));
}

TEST(ManifestConfigTest, UpstreamFindManifestConfiguration) {
  const ResourceMeta meta = ConfigMapMeta();
  // "nil options"
  EXPECT_FALSE(FindManifestConfig(meta, nullptr).matched);
  // "options not found"
  EXPECT_FALSE(FindManifestConfig(meta, Json::parse(R"([
      {"resourceIdentifier":{"group":"","resource":"nodes","name":"node1"}},
      {"resourceIdentifier":{"group":"","resource":"configmaps","name":"test1","namespace":"testns"}}])"))
                   .matched);
  // "no feedbackRules, conditionRules, or updateStrategy"
  EXPECT_FALSE(FindManifestConfig(meta, Json::parse(R"([
      {"resourceIdentifier":{"group":"","resource":"nodes","name":"node1"}},
      {"resourceIdentifier":{"group":"","resource":"configmaps","name":"*","namespace":"test*"}}])"))
                   .matched);
  // "options found with feedback rules"
  ManifestConfig c = FindManifestConfig(meta, Json::parse(R"([
      {"resourceIdentifier":{"group":"","resource":"nodes","name":"node1"}},
      {"resourceIdentifier":{"group":"","resource":"configmaps","name":"test","namespace":"testns"},
       "feedbackRules":[{"type":"WellKnownStatus"}]}])"));
  EXPECT_TRUE(c.matched);
  EXPECT_EQ(c.feedback_rules, Json::parse(R"([{"type":"WellKnownStatus"}])"));
  EXPECT_TRUE(c.condition_rules.is_null());
  EXPECT_EQ(c.strategy, "Update");
  // "options found with condition rules"
  c = FindManifestConfig(meta, Json::parse(R"([
      {"resourceIdentifier":{"group":"","resource":"configmaps","name":"test","namespace":"testns"},
       "conditionRules":[{"type":"WellKnownConditions","condition":"Completed"}]}])"));
  EXPECT_TRUE(c.matched);
  EXPECT_EQ(c.condition_rules.size(), 1u);
  // "multi options matched, return the first one" (per part).
  c = FindManifestConfig(meta, Json::parse(R"([
      {"resourceIdentifier":{"group":"","resource":"configmaps","name":"test","namespace":"test*"},
       "feedbackRules":[{"type":"WellKnownStatus"}]},
      {"resourceIdentifier":{"group":"","resource":"nodes","name":"node1"}},
      {"resourceIdentifier":{"group":"","resource":"configmaps","name":"test","namespace":"testns"},
       "feedbackRules":[{"type":"JSONPaths"}]},
      {"resourceIdentifier":{"group":"","resource":"configmaps","name":"*","namespace":"testns"},
       "updateStrategy":{"type":"Update"}},
      {"resourceIdentifier":{"group":"","resource":"configmaps","name":"*","namespace":"testns"},
       "updateStrategy":{"type":"CreateOnly"}}])"));
  EXPECT_EQ(c.feedback_rules, Json::parse(R"([{"type":"WellKnownStatus"}])"));
  EXPECT_EQ(c.strategy, "Update");
}

TEST(ManifestConfigTest, ServerSideApplySettings) {
  ResourceMeta meta;
  meta.group = "apps";
  meta.resource = "deployments";
  meta.name = "web";
  meta.namespace_ = "ns1";
  ManifestConfig c = FindManifestConfig(meta, Json::parse(R"([
      {"resourceIdentifier":{"group":"apps","resource":"deployments","name":"web","namespace":"ns1"},
       "updateStrategy":{"type":"ServerSideApply","serverSideApply":{"force":true,
         "fieldManager":"work-agent-x","ignoreFields":[
           {"condition":"OnSpokeChange","jsonPaths":[".spec.replicas"]},
           {"jsonPointers":["/metadata/annotations/a~1b"],"jqPathExpressions":[".x"]}]}}}])"));
  EXPECT_EQ(c.strategy, "ServerSideApply");
  EXPECT_TRUE(c.force);
  EXPECT_EQ(c.field_manager, "work-agent-x");
  ASSERT_EQ(c.ignore_fields.size(), 2u);
  EXPECT_EQ(c.ignore_fields[0].condition, "OnSpokeChange");
  EXPECT_EQ(c.ignore_fields[0].json_paths, std::vector<std::string>{".spec.replicas"});
  EXPECT_EQ(c.ignore_fields[1].condition, "OnSpokePresent");  // the API's default
  EXPECT_EQ(c.ignore_fields[1].json_pointers,
            std::vector<std::string>{"/metadata/annotations/a~1b"});
  EXPECT_EQ(c.ignore_fields[1].jq_path_expressions, std::vector<std::string>{".x"});
  // An empty type is the API's default, Update; no fieldManager is upstream's default.
  c = FindManifestConfig(meta, Json::parse(R"([
      {"resourceIdentifier":{"group":"apps","resource":"deployments","name":"*","namespace":"*"},
       "updateStrategy":{}}])"));
  EXPECT_EQ(c.strategy, "Update");
  EXPECT_EQ(c.field_manager, "work-agent");
  EXPECT_FALSE(c.force);
}

TEST(DeleteOptionTest, UpstreamOwnedByTheWork) {
  auto owns = [](const char* option) {
    return DeleteOption::FromJson(option == nullptr ? Json() : Json::parse(option))
        .Owns("", "secrets", "testns", "test");
  };
  EXPECT_TRUE(owns(nullptr));  // "foreground by default"
  EXPECT_TRUE(owns(R"({"propagationPolicy":"Foreground"})"));
  EXPECT_FALSE(owns(R"({"propagationPolicy":"Orphan"})"));
  EXPECT_TRUE(owns(R"({"propagationPolicy":"SelectivelyOrphan"})"));
  EXPECT_FALSE(owns(R"({"propagationPolicy":"SelectivelyOrphan","selectivelyOrphans":{
      "orphaningRules":[{"group":"","resource":"secrets","namespace":"testns","name":"test"}]}})"));
  EXPECT_TRUE(owns(R"({"propagationPolicy":"SelectivelyOrphan","selectivelyOrphans":{
      "orphaningRules":[{"group":"","resource":"secrets","namespace":"testns1","name":"test"}]}})"));
  // Orphaning rules take no wildcards.
  EXPECT_TRUE(owns(R"({"propagationPolicy":"SelectivelyOrphan","selectivelyOrphans":{
      "orphaningRules":[{"group":"","resource":"secrets","namespace":"*","name":"*"}]}})"));
}

TEST(OwnerMarkTest, AddsAndRemovesOwnersInOneSortedList) {
  Json annotations;  // null: a new map
  EXPECT_TRUE(SetOwnerMark(annotations, "h-work-b", true));
  EXPECT_FALSE(SetOwnerMark(annotations, "h-work-b", true));
  EXPECT_TRUE(SetOwnerMark(annotations, "h-work-a", true));
  EXPECT_EQ(annotations, Json::parse(R"({"work.berth.dev/applied-by":"h-work-a,h-work-b"})"));
  const Json object = Json{{"metadata", Json{{"annotations", annotations}}}};
  EXPECT_EQ(MarkedOwners(object), (std::vector<std::string>{"h-work-a", "h-work-b"}));
  EXPECT_TRUE(IsMarkedBy(object, "h-work-a"));
  EXPECT_FALSE(IsMarkedBy(object, "h-work"));
  EXPECT_TRUE(SetOwnerMark(annotations, "h-work-b", false));
  EXPECT_FALSE(SetOwnerMark(annotations, "h-work-c", false));
  EXPECT_TRUE(SetOwnerMark(annotations, "h-work-a", false));
  EXPECT_EQ(annotations, Json::object());
  EXPECT_TRUE(MarkedOwners(Json::parse(R"({"metadata":{"annotations":{"x":"y"}}})")).empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::work
