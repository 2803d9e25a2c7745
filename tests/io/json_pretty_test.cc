// The pod printer that -o json uses instead of an ordered_json round trip: dump(2)'s layout,
// the pod patch, and the documents it declines (the writer then takes the nlohmann path;
// writer_test and the golden cases check the two agree).
#include "io/internal/json_pretty.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace berth::io {
namespace BERTH_UNITY_ID {

using internal::PodPatch;
using internal::PrettyPod;

std::string Pretty(const std::string& json, const PodPatch& patch = {}, int indent = 0) {
  std::string out = "kept";
  if (!PrettyPod(json, patch, indent, &out)) return "declined";
  return out.substr(4);
}

TEST(JsonPrettyTest, PrintsAsDumpTwo) {
  EXPECT_EQ(Pretty(R"({"a":{"b":[1,"x\"y",{}],"c":[]},"d":true,"e":null,"f":-3})"),
            "{\n"
            "  \"a\": {\n"
            "    \"b\": [\n"
            "      1,\n"
            "      \"x\\\"y\",\n"
            "      {}\n"
            "    ],\n"
            "    \"c\": []\n"
            "  },\n"
            "  \"d\": true,\n"
            "  \"e\": null,\n"
            "  \"f\": -3\n"
            "}");
  EXPECT_EQ(Pretty(R"({"a":[]})", {}, 4), "{\n      \"a\": []\n    }");
}

TEST(JsonPrettyTest, DeclinesWhatDumpWouldSpellDifferently) {
  EXPECT_EQ(Pretty(R"({"a":1.5})"), "declined");
  EXPECT_EQ(Pretty(R"({"a":1e3})"), "declined");
  EXPECT_EQ(Pretty(R"({"a":"\u00e9"})"), "declined");
  EXPECT_EQ(Pretty(R"({"a":"\/"})"), "declined");
  EXPECT_EQ(Pretty(R"({"a":1,"a":2})"), "declined");
  EXPECT_EQ(Pretty(R"({"a":12345678901234567890})"), "declined");
  EXPECT_EQ(Pretty(R"({"a":-0})"), "declined");
  EXPECT_EQ(Pretty(R"({"a":1} x)"), "declined");
  EXPECT_EQ(Pretty(R"({"a":{"b":1,"b":1}})"), "declined");
  // The same key in sibling objects is no duplicate.
  EXPECT_NE(Pretty(R"({"a":{"b":1},"c":{"b":1}})"), "declined");
}

TEST(JsonPrettyTest, PatchesNodeNameAndPodScheduled) {
  PodPatch patch;
  patch.node = "node-1";
  patch.condition = model::PodCondition{"PodScheduled", "True", "", ""};
  EXPECT_EQ(Pretty(R"({"spec":{"x":1},"status":{"conditions":[{"type":"Ready"},)"
                   R"({"reason":"Unschedulable","type":"PodScheduled","status":"False",)"
                   R"("message":"0/3 nodes"}]}})",
                   patch),
            "{\n"
            "  \"spec\": {\n"
            "    \"x\": 1,\n"
            "    \"nodeName\": \"node-1\"\n"
            "  },\n"
            "  \"status\": {\n"
            "    \"conditions\": [\n"
            "      {\n"
            "        \"type\": \"Ready\"\n"
            "      },\n"
            "      {\n"
            "        \"type\": \"PodScheduled\",\n"
            "        \"status\": \"True\"\n"
            "      }\n"
            "    ]\n"
            "  }\n"
            "}");
  // nodeName replaced in place; the condition appended when the pod has none.
  patch.condition = model::PodCondition{"PodScheduled", "False", "Unschedulable", "no \"fit\""};
  EXPECT_EQ(Pretty(R"({"spec":{"nodeName":"old","y":2},"status":{"conditions":[]}})", patch),
            "{\n"
            "  \"spec\": {\n"
            "    \"nodeName\": \"node-1\",\n"
            "    \"y\": 2\n"
            "  },\n"
            "  \"status\": {\n"
            "    \"conditions\": [\n"
            "      {\n"
            "        \"type\": \"PodScheduled\",\n"
            "        \"status\": \"False\",\n"
            "        \"reason\": \"Unschedulable\",\n"
            "        \"message\": \"no \\\"fit\\\"\"\n"
            "      }\n"
            "    ]\n"
            "  }\n"
            "}");
}

// A status without conditions, or no status: both get conditions holding only the new
// condition, added last, as the writer's ordered_json patch adds them.
TEST(JsonPrettyTest, AddsConditionsAndStatusAsTheWriterDoes) {
  PodPatch patch;
  patch.node = "node-1";
  patch.condition = model::PodCondition{"PodScheduled", "False", "Unschedulable", "0/3 nodes"};
  for (const std::string json : {R"({"spec":{},"status":{}})", R"({"spec":{"a":1}})",
                                 R"({"status":{"phase":"Pending"},"spec":{},"x":[1]})"}) {
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(json);
    doc["spec"]["nodeName"] = patch.node;
    nlohmann::ordered_json& conditions = doc["status"]["conditions"];
    conditions = nlohmann::ordered_json::array();
    conditions.push_back({{"type", "PodScheduled"},
                          {"status", "False"},
                          {"reason", "Unschedulable"},
                          {"message", "0/3 nodes"}});
    EXPECT_EQ(Pretty(json, patch), doc.dump(2)) << json;
  }
  EXPECT_EQ(Pretty(R"({"spec":{},"status":null})", patch), "declined");
}

TEST(JsonPrettyTest, DeclinesPatchesItDoesNotMake) {
  PodPatch patch;
  patch.node = "node-1";
  EXPECT_EQ(Pretty(R"({"metadata":{}})", patch), "declined");  // no spec to write into
  EXPECT_EQ(Pretty(R"({"spec":[]})", patch), "declined");
  patch.condition = model::PodCondition{"PodScheduled", "True", "", ""};
  // A nodeSelector or tolerations the document lacks would be added: declined; the ones it
  // holds print as read.
  const core::Labels selector = {{"zone", "a"}};
  PodPatch scheduling;
  scheduling.node_selector = &selector;
  EXPECT_EQ(Pretty(R"({"spec":{}})", scheduling), "declined");
  EXPECT_EQ(Pretty(R"({"spec":{"nodeSelector":{"zone":"b"}}})", scheduling), "declined");
  EXPECT_NE(Pretty(R"({"spec":{"nodeSelector":{"x":"y","zone":"a"}}})", scheduling), "declined");
  scheduling.node_selector = nullptr;
  scheduling.tolerations = 2;
  EXPECT_EQ(Pretty(R"({"spec":{"tolerations":[{}]}})", scheduling), "declined");
  EXPECT_NE(Pretty(R"({"spec":{"tolerations":[{},{}]}})", scheduling), "declined");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
