// YAML in (YAML 1.2 core-schema typing into JSON) and YAML out (quoting, block layout).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/internal/yaml_emitter.h"
#include "io/internal/yaml_to_json.h"

namespace berth::io::internal {
namespace BERTH_UNITY_ID {

using ::testing::HasSubstr;

std::vector<std::string> Convert(const std::string& yaml, core::Status* status = nullptr) {
  std::vector<std::string> docs;
  core::Status s = ConvertYamlStream(yaml, [&](std::string&& json, int) { docs.push_back(json); });
  if (status != nullptr) *status = s;
  return docs;
}

TEST(PlainScalarTest, CoreSchemaTypes) {
  EXPECT_EQ(PlainScalarToJson("true"), "true");
  EXPECT_EQ(PlainScalarToJson("False"), "false");
  EXPECT_EQ(PlainScalarToJson("~"), "null");
  EXPECT_EQ(PlainScalarToJson("null"), "null");
  EXPECT_EQ(PlainScalarToJson(""), "null");
  EXPECT_EQ(PlainScalarToJson("42"), "42");
  EXPECT_EQ(PlainScalarToJson("-7"), "-7");
  EXPECT_EQ(PlainScalarToJson("+12"), "12");
  EXPECT_EQ(PlainScalarToJson("007"), "7");
  EXPECT_EQ(PlainScalarToJson("0x1F"), "31");
  EXPECT_EQ(PlainScalarToJson("0o17"), "15");
  EXPECT_EQ(PlainScalarToJson("1.5"), "1.5");
  EXPECT_EQ(PlainScalarToJson("1e3"), "1e3");
  EXPECT_EQ(PlainScalarToJson(".5"), "0.5");
  EXPECT_EQ(PlainScalarToJson("1."), "1.0");
  EXPECT_EQ(PlainScalarToJson("-1.5E-2"), "-1.5E-2");
}

TEST(PlainScalarTest, YamlOneOneWordsAndOtherFormsStayStrings) {
  EXPECT_EQ(PlainScalarToJson("yes"), "\"yes\"");
  EXPECT_EQ(PlainScalarToJson("on"), "\"on\"");
  EXPECT_EQ(PlainScalarToJson("1_000"), "\"1_000\"");
  EXPECT_EQ(PlainScalarToJson("12:30"), "\"12:30\"");
  EXPECT_EQ(PlainScalarToJson("500m"), "\"500m\"");
  EXPECT_EQ(PlainScalarToJson("1.5.3"), "\"1.5.3\"");
  EXPECT_EQ(PlainScalarToJson("tRUE"), "\"tRUE\"");
}

TEST(PlainScalarTest, NumbersJsonCannotHoldStayText) {
  EXPECT_EQ(PlainScalarToJson("1e400"), "\"1e400\"");
  EXPECT_EQ(PlainScalarToJson("99999999999999999999"), "\"99999999999999999999\"");
  EXPECT_EQ(PlainScalarToJson(".inf"), "\".inf\"");
  EXPECT_EQ(PlainScalarToJson(".NaN"), "\".NaN\"");
}

TEST(YamlToJsonTest, QuotedAndTaggedScalarsAreStrings) {
  std::vector<std::string> docs = Convert(
      "a: \"123\"\nb: '1.5'\nc: !!str true\nd: 123\ne: \"\"\nf:\ng: !!int 5\nh: !custom 7\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], R"({"a":"123","b":"1.5","c":"true","d":123,"e":"","f":null,"g":5,"h":"7"})");
}

TEST(YamlToJsonTest, KeysAreAlwaysStrings) {
  std::vector<std::string> docs = Convert("1: a\ntrue: b\nnull: c\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], R"({"1":"a","true":"b","null":"c"})");
}

TEST(YamlToJsonTest, NestingFlowStyleAndEscapes) {
  std::vector<std::string> docs =
      Convert("m:\n  - {x: 1, y: [a, \"b\\\"c\"]}\n  - []\n  - {}\ns: |\n  line1\n  line2\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], R"({"m":[{"x":1,"y":["a","b\"c"]},[],{}],"s":"line1\nline2\n"})");
}

TEST(YamlToJsonTest, AnchorsAndAliasesExpand) {
  std::vector<std::string> docs =
      Convert("base: &b {cpu: 1, tags: [x]}\ncopy: *b\nname: &n web\nalias: *n\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], R"({"base":{"cpu":1,"tags":["x"]},"copy":{"cpu":1,"tags":["x"]},)"
                     R"("name":"web","alias":"web"})");
}

TEST(YamlToJsonTest, MultipleDocumentsWithLines) {
  std::vector<int> lines;
  std::vector<std::string> docs;
  core::Status s = ConvertYamlStream("a: 1\n---\nb: 2\n---\n# nothing\n---\nc: 3\n",
                                     [&](std::string&& json, int line) {
                                       docs.push_back(json);
                                       lines.push_back(line);
                                     });
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(docs, (std::vector<std::string>{R"({"a":1})", R"({"b":2})", "null", R"({"c":3})"}));
  EXPECT_EQ(lines.front(), 1);
  EXPECT_EQ(lines[1], 2);  // the "---" line
}

TEST(YamlToJsonTest, SyntaxErrorGivesLineAndKeepsEarlierDocuments) {
  core::Status status;
  std::vector<std::string> docs = Convert("a: 1\n---\nb: [1, 2\nc: 3\n", &status);
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.error().message(), HasSubstr("line "));
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], R"({"a":1})");
}

TEST(YamlToJsonTest, ComplexKeyIsAnError) {
  core::Status status;
  Convert("? [a, b]\n: c\n", &status);
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.error().message(), HasSubstr("mapping keys"));
}

TEST(YamlQuotingTest, StringsThatReadAsOtherTypesAreQuoted) {
  for (const char* s : {"",
                        "true",
                        "True",
                        "false",
                        "yes",
                        "no",
                        "on",
                        "off",
                        "y",
                        "N",
                        "null",
                        "~",
                        "123",
                        "-1",
                        "1.5",
                        "1e3",
                        ".5",
                        "0x1F",
                        "0o17",
                        "1_000",
                        "12:30",
                        ".inf",
                        "-.inf",
                        ".nan",
                        "2024-01-01",
                        "2024-01-01T00:00:00Z",
                        "a: b",
                        "x #y",
                        "- item",
                        "-",
                        "key:",
                        ":x",
                        "#c",
                        "&a",
                        "*a",
                        "!t",
                        "|",
                        ">",
                        "'q'",
                        "\"q\"",
                        "{a}",
                        "[a]",
                        "%d",
                        "@x",
                        "`x",
                        " lead",
                        "trail ",
                        "tab\there",
                        "multi\nline",
                        "<<",
                        "=",
                        "0/5 nodes are available: 3 Insufficient cpu."}) {
    EXPECT_TRUE(YamlNeedsQuotes(s)) << "'" << s << "'";
  }
}

TEST(YamlQuotingTest, OrdinaryStringsArePlain) {
  for (const char* s : {"hello", "nginx:1.25", "100m", "1Gi", "http://example.com/a#b", "a-b_c.d",
                        "nvidia.com/gpu", "NoSchedule", "v1", "Pod/ns/name",
                        "0/5 nodes are available. 3 Insufficient cpu", "é", "a:b"}) {
    EXPECT_FALSE(YamlNeedsQuotes(s)) << "'" << s << "'";
  }
}

TEST(YamlEmitterTest, KubectlLayout) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(R"({
    "apiVersion": "v1",
    "items": [{"kind": "Pod", "spec": {"containers": [{"name": "c", "args": ["a", "1"]}]}}],
    "empty": {}, "none": [], "nil": null, "t": true, "i": 3, "f": 2.5,
    "nested": [[1, 2], [{"a": "b"}]],
    "text": "line1\nline2\n",
    "stripped": "a\nb",
    "kept": "a\n\n\n"
  })");
  std::string out;
  EmitYaml(j, &out);
  EXPECT_EQ(out,
            "apiVersion: v1\n"
            "items:\n"
            "- kind: Pod\n"
            "  spec:\n"
            "    containers:\n"
            "    - name: c\n"
            "      args:\n"
            "      - a\n"
            "      - \"1\"\n"
            "empty: {}\n"
            "none: []\n"
            "nil: null\n"
            "t: true\n"
            "i: 3\n"
            "f: 2.5\n"
            "nested:\n"
            "- - 1\n"
            "  - 2\n"
            "- - a: b\n"
            "text: |\n"
            "  line1\n"
            "  line2\n"
            "stripped: |-\n"
            "  a\n"
            "  b\n"
            "kept: |+\n"
            "  a\n"
            "\n"
            "\n");
}

// Whatever the emitter prints, the YAML reader reads back as the same JSON, in the same
// key order.
TEST(YamlEmitterTest, RoundTripsTrickyValues) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(R"({
    "strings": ["", "true", "yes", "123", "1.5", "~", "null", "a: b", "- x", "#", "x #y",
                "2024-01-01", " sp", "sp ", "tab\tx", "quote\"s", "back\\slash", "multi\nline",
                "trailing space \nx", "\u0001ctl", "ünïcödé", "{", "key:", "0x10", ".inf",
                "a\n\n", "\nleading newline", "  indented\nsecond"],
    "weird keys": {"": 1, "123": 2, "a: b": 3, "true": 4, "-": 5},
    "numbers": [0, -1, 1.5, 1e300, 9007199254740993],
    "bools": [true, false, null],
    "deep": [[[]], [{}], [[{"a": [1]}]]]
  })");
  std::string yaml;
  EmitYaml(j, &yaml);
  std::vector<std::string> docs = Convert(yaml);
  ASSERT_EQ(docs.size(), 1u) << yaml;
  EXPECT_EQ(nlohmann::ordered_json::parse(docs[0]), j) << yaml;
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io::internal
