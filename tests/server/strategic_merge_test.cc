// Strategic merge patch on built-in kinds, after strategicpatch's patch_test.go cases for the
// directives and the struct tags of core/v1 (containers by name, env by name, finalizers as
// a set, tolerations replaced).
#include "server/api/strategic_merge.h"

#include <gtest/gtest.h>

namespace berth::server {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

Json Apply(std::string_view target, std::string_view patch) {
  auto r = ApplyStrategicMergePatch(Json::parse(target), patch);
  EXPECT_TRUE(r.has_value()) << patch << ": " << (r ? "" : r.error().message);
  return r.has_value() ? r.value() : Json();
}

constexpr std::string_view kPod = R"({"metadata":{"name":"p","finalizers":["a"]},
  "spec":{"containers":[{"name":"main","image":"v1","env":[{"name":"A","value":"1"},
  {"name":"B","value":"2"}]},{"name":"side","image":"s1"}],
  "tolerations":[{"key":"x","operator":"Exists"}]}})";

TEST(StrategicMergeTest, MergesKeyedListsElementByElement) {
  const Json out = Apply(kPod, R"({"spec":{"containers":[{"name":"main","image":"v2",
      "env":[{"name":"B","value":"3"},{"name":"C","value":"4"}]}]}})");
  const Json& cs = out["spec"]["containers"];
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[0]["image"], "v2");
  EXPECT_EQ(cs[1]["name"], "side");  // untouched, not dropped as a merge patch would
  EXPECT_EQ(cs[0]["env"].dump(),
            R"([{"name":"A","value":"1"},{"name":"B","value":"3"},{"name":"C","value":"4"}])");
}

TEST(StrategicMergeTest, DeleteAndReplaceDirectives) {
  const Json del = Apply(kPod, R"({"spec":{"containers":[{"name":"side","$patch":"delete"}]}})");
  ASSERT_EQ(del["spec"]["containers"].size(), 1u);
  EXPECT_EQ(del["spec"]["containers"][0]["name"], "main");
  const Json rep = Apply(kPod, R"({"spec":{"containers":[{"name":"only","image":"o"},
      {"$patch":"replace"}]}})");
  EXPECT_EQ(rep["spec"]["containers"].dump(), R"([{"name":"only","image":"o"}])");
  const Json map_replace = Apply(kPod, R"({"metadata":{"$patch":"replace","name":"q"}})");
  EXPECT_EQ(map_replace["metadata"].dump(), R"({"name":"q"})");
  const Json map_delete = Apply(kPod, R"({"spec":{"$patch":"delete"}})");
  EXPECT_EQ(map_delete["spec"].dump(), "{}");
}

// A NetworkPolicy's rule ports have no merge key upstream (replaced whole); a container's
// merge by containerPort. Merging the policy's by containerPort failed every patch naming them.
TEST(StrategicMergeTest, NetworkPolicyPortsAreReplacedContainerPortsMerged) {
  const Json policy = Apply(R"({"kind":"NetworkPolicy","spec":{"ingress":[{"ports":[
      {"protocol":"TCP","port":80}]}]}})",
                            R"({"spec":{"ingress":[{"ports":[{"protocol":"TCP","port":443}]}]}})");
  EXPECT_EQ(policy["spec"]["ingress"].dump(), R"([{"ports":[{"protocol":"TCP","port":443}]}])");
  const Json pod = Apply(R"({"kind":"Pod","spec":{"containers":[{"name":"c","ports":[
      {"containerPort":80}]}]}})",
                         R"({"spec":{"containers":[{"name":"c","ports":[{"containerPort":443}]}]}})");
  EXPECT_EQ(pod["spec"]["containers"][0]["ports"].dump(),
            R"([{"containerPort":80},{"containerPort":443}])");
}

TEST(StrategicMergeTest, PrimitiveListsAndRetainKeys) {
  const Json fin = Apply(kPod, R"({"metadata":{"finalizers":["b","a"]}})");
  EXPECT_EQ(fin["metadata"]["finalizers"].dump(), R"(["a","b"])");
  const Json drop = Apply(kPod, R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}})");
  EXPECT_EQ(drop["metadata"]["finalizers"].dump(), "[]");
  const Json retain = Apply(R"({"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}})",
                            R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}})");
  EXPECT_EQ(retain["spec"]["strategy"].dump(), R"({"type":"Recreate"})");
  const Json order = Apply(kPod, R"({"spec":{"$setElementOrder/containers":[{"name":"side"},
      {"name":"main"}],"containers":[{"name":"side","image":"s2"}]}})");
  EXPECT_EQ(order["spec"]["containers"][1]["image"], "s2");
  EXPECT_FALSE(order["spec"].contains("$setElementOrder/containers"));
}

TEST(StrategicMergeTest, UnkeyedListsReplaceAndNullDeletes) {
  const Json tol = Apply(kPod, R"({"spec":{"tolerations":[{"key":"y","operator":"Exists"}]}})");
  EXPECT_EQ(tol["spec"]["tolerations"].dump(), R"([{"key":"y","operator":"Exists"}])");
  const Json cordon = Apply(R"({"metadata":{"name":"n1"},"spec":{}})",
                            R"({"spec":{"unschedulable":true}})");
  EXPECT_EQ(cordon["spec"]["unschedulable"], true);
  const Json removed = Apply(kPod, R"({"spec":{"tolerations":null}})");
  EXPECT_FALSE(removed["spec"].contains("tolerations"));
  const Json conditions = Apply(
      R"({"status":{"conditions":[{"type":"Ready","status":"False"},{"type":"X","status":"True"}]}})",
      R"({"status":{"conditions":[{"type":"Ready","status":"True"}]}})");
  EXPECT_EQ(conditions["status"]["conditions"].dump(),
            R"([{"type":"Ready","status":"True"},{"type":"X","status":"True"}])");
}

TEST(StrategicMergeTest, Refusals) {
  const Json pod = Json::parse(kPod);
  auto no_key = ApplyStrategicMergePatch(pod, R"({"spec":{"containers":[{"image":"x"}]}})");
  ASSERT_FALSE(no_key.has_value());
  EXPECT_EQ(no_key.error().code, 400);
  EXPECT_NE(no_key.error().message.find("does not contain declared merge key: name"),
            std::string::npos);
  EXPECT_EQ(ApplyStrategicMergePatch(pod, R"({"spec":{"$patch":"frob"}})").error().code, 400);
  EXPECT_EQ(ApplyStrategicMergePatch(pod, "[]").error().code, 400);
  EXPECT_EQ(ApplyStrategicMergePatch(pod, "{").error().code, 400);
  std::string deep;
  for (int i = 0; i < 1100; ++i) deep += R"({"a":)";
  deep += "1";
  for (int i = 0; i < 1100; ++i) deep += "}";
  EXPECT_EQ(ApplyStrategicMergePatch(pod, deep).error().code, 400);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
