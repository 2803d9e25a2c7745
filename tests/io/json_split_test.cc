// The List splitter that lets large `kubectl get -o json` dumps be parsed item by item.
#include "io/internal/json_split.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using internal::JsonListSplit;
using internal::SplitJsonList;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(JsonSplitTest, SplitsItemsWhateverTheKeyOrder) {
  JsonListSplit split;
  ASSERT_TRUE(SplitJsonList(
      R"( {"apiVersion":"v1","items":[ {"a":1} , {"b":[1,{"c":"}"}]},{} ],"kind":"PodList"} )",
      &split));
  EXPECT_THAT(split.items, ElementsAre(R"({"a":1})", R"({"b":[1,{"c":"}"}]})", "{}"));
  EXPECT_EQ(split.shell, R"( {"apiVersion":"v1","items":[],"kind":"PodList"} )");
}

TEST(JsonSplitTest, BracketsAndEscapesInsideStringsAreText) {
  // Long strings so that the 64-byte block path meets quotes, escapes and brackets inside
  // strings, and strings that span blocks.
  std::string long_text(100, 'x');
  std::string item1 = R"({"s":"[{ \"quoted\" ]} \\ )" + long_text + R"(","t":"\\\\"})";
  std::string item2 = R"({"u":")" + long_text + R"(]]]}}}","v":[")" + long_text + R"("]})";
  std::string text = R"({"kind":"List","items":[)" + item1 + "," + item2 + "]}";
  JsonListSplit split;
  ASSERT_TRUE(SplitJsonList(text, &split));
  EXPECT_THAT(split.items, ElementsAre(item1, item2));
}

TEST(JsonSplitTest, EmptyList) {
  JsonListSplit split;
  ASSERT_TRUE(SplitJsonList(R"({"kind":"List","items":[]})", &split));
  EXPECT_TRUE(split.items.empty());
}

TEST(JsonSplitTest, OtherShapesAreReadWhole) {
  JsonListSplit split;
  EXPECT_FALSE(SplitJsonList(R"({"kind":"Pod","items":[{}]})", &split));
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List"})", &split));
  EXPECT_FALSE(SplitJsonList(R"([{"kind":"List","items":[]}])", &split));
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List","items":[]} {"kind":"List","items":[]})", &split));
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List","items":[{"a":1}{"b":2}]})", &split));
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List","items":[{"a":1})", &split));
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List","items":[{"a":"unterminated}]})", &split));
  EXPECT_FALSE(SplitJsonList("", &split));
}

TEST(JsonListReadTest, MalformedItemReportsItsLineAndKeepsEarlierItems) {
  core::Diagnostics diags;
  Input in = testing::ReadString(
      "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n"
      "  {\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"a\"}},\n"
      "  {\"apiVersion\": \"v1\", \"kind\": \"Namespace\",\n"
      "   \"metadata\": {\"name\": \"b\",}},\n"
      "  {\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"c\"}}\n"
      "]}\n",
      diags, "list.json");
  ASSERT_EQ(diags.error_count(), 1u) << testing::Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().file, "list.json");
  EXPECT_THAT(diags.entries()[0].error.message(), HasSubstr("line 4"));
  ASSERT_EQ(in.snapshot.namespaces.size(), 1u);
  EXPECT_EQ(in.snapshot.namespaces[0].meta.name, "a");
}

TEST(JsonListReadTest, MalformedShellIsReportedLikeAnyJson) {
  core::Diagnostics diags;
  Input in = testing::ReadString(
      "{\"apiVersion\": \"v1\" \"kind\": \"List\", \"items\": [\n"
      "  {\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"a\"}}]}\n",
      diags, "shell.json");
  ASSERT_EQ(diags.error_count(), 1u) << testing::Dump(diags);
  EXPECT_THAT(diags.entries()[0].error.message(), HasSubstr("line 1"));
  EXPECT_TRUE(in.snapshot.namespaces.empty());
}

TEST(JsonListReadTest, ItemsAreStoredCompactAsWritten) {
  core::Diagnostics diags;
  Input in = testing::ReadString(
      "{\n  \"kind\": \"List\",\n  \"items\": [\n    {\n      \"apiVersion\": \"v1\",\n"
      "      \"kind\": \"Namespace\",\n      \"metadata\": {\"name\": \"cafe\", "
      "\"annotations\": {\"d\": \"caf\\u00e9\", \"n\": \"1.50\", \"x\": \"a b\"}}\n    }\n  ]\n}\n",
      diags, "list.json");
  ASSERT_EQ(in.snapshot.namespaces.size(), 1u) << testing::Dump(diags);
  EXPECT_EQ(in.snapshot.namespaces[0].meta.annotations.at("d"), "caf\xC3\xA9");
  EXPECT_EQ(in.documents.Get(in.snapshot.namespaces[0].source).json,
            R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"cafe",)"
            R"("annotations":{"d":"caf\u00e9","n":"1.50","x":"a b"}}})");
}

TEST(JsonListReadTest, YamlListsAreReadToo) {
  core::Diagnostics diags;
  Input in = testing::ReadString(R"(
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Namespace
  metadata: {name: a}
- apiVersion: v1
  kind: NamespaceList
  items:
  - apiVersion: v1
    kind: Namespace
    metadata: {name: b}
)",
                                 diags);
  EXPECT_TRUE(diags.entries().empty()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.namespaces.size(), 2u);
  EXPECT_EQ(in.documents.Get(in.snapshot.namespaces[1].source).json,
            R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"b"}})");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
