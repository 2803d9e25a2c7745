// The document layer under hostile input (issue 14): YAML documents cut at their markers and
// read one by one, directives, the bounds of io/input_limits.h (aliases, nesting, strings,
// objects and bytes per file), and the document index and line in every document error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "io/input_limits.h"
#include "io/internal/json_duplicates.h"
#include "io/internal/yaml_to_json.h"
#include "io/reader.h"
#include "test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ReadString;
using ::testing::StartsWith;

std::string NodeYaml(const std::string& name) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
         "\nstatus:\n  allocatable: {cpu: \"8\", memory: 32Gi, pods: \"110\"}\n";
}

std::vector<std::string> NodeNames(const Input& in) {
  std::vector<std::string> names;
  for (const model::Node& n : in.snapshot.nodes) names.push_back(n.meta.name);
  return names;
}

// The errors as "object|message" lines.
std::vector<std::string> Errors(const core::Diagnostics& diags) {
  std::vector<std::string> out;
  for (const core::Diagnostic& d : diags.entries()) {
    if (d.severity == core::Severity::kError) {
      out.push_back(d.error.location().object + "|" + d.error.message());
    }
  }
  return out;
}

// Nested flow sequences `depth` deep: [[[...]]].
std::string Brackets(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// --- cutting a stream into documents --------------------------------------------------

TEST(SplitYamlDocumentsTest, CutsAtMarkerLinesOnly) {
  const std::vector<internal::YamlDocumentText> docs = internal::SplitYamlDocuments(
      "# lead comment\na: 1\n---\nb: |\n  ---x\n----\nc: 2\n--- # comment\nd: 3\n");
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0].text_line, 1);
  EXPECT_EQ(docs[0].line, 2);  // its first content
  EXPECT_EQ(docs[0].text, "# lead comment\na: 1\n");
  EXPECT_EQ(docs[1].line, 3);  // "----" is content, not a marker
  EXPECT_EQ(docs[1].text, "---\nb: |\n  ---x\n----\nc: 2\n");
  EXPECT_EQ(docs[2].line, 8);
  for (const auto& d : docs) EXPECT_EQ(d.stray_directive_line, 0);
}

TEST(SplitYamlDocumentsTest, DirectivesBelongToTheNextDocumentAfterAnEndMarker) {
  const std::vector<internal::YamlDocumentText> docs =
      internal::SplitYamlDocuments("a: 1\n...\n%YAML 1.1\n# c\n---\nb: 2\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].text, "a: 1\n...\n");
  EXPECT_EQ(docs[1].text, "%YAML 1.1\n# c\n---\nb: 2\n");
  EXPECT_EQ(docs[1].text_line, 3);
  EXPECT_EQ(docs[1].line, 5);  // its --- line
  EXPECT_EQ(docs[1].stray_directive_line, 0);
}

TEST(SplitYamlDocumentsTest, ADirectiveInsideADocumentIsMarked) {
  const std::vector<internal::YamlDocumentText> docs =
      internal::SplitYamlDocuments("a: 1\n---\nb:\n%YAML 1.1\n  c: 2\n---\nd: 4\n");
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[1].stray_directive_line, 4);
  EXPECT_EQ(docs[2].stray_directive_line, 0);
}

TEST(SplitYamlDocumentsTest, CommentsAloneAreNoDocumentButAnEmptyExplicitOneIs) {
  const std::vector<internal::YamlDocumentText> docs =
      internal::SplitYamlDocuments("# only a comment\n\n---\n---\n# c\n...\n# trailing\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].line, 3);
  EXPECT_EQ(docs[1].line, 4);
}

TEST(SplitYamlDocumentsTest, CarriageReturnsAndNoFinalNewline) {
  const std::vector<internal::YamlDocumentText> docs =
      internal::SplitYamlDocuments("a: 1\r\n---\r\nb: 2");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[1].text, "---\r\nb: 2");
}

// --- a broken document does not hide the others -----------------------------------------

TEST(DocumentErrorsTest, SyntaxErrorNamesTheDocumentAndTheNextOnesAreRead) {
  core::Diagnostics diags;
  Input in =
      ReadString(NodeYaml("a") + "---\n" + "apiVersion: v1\nkind: Node\nmetadata: {name: [\n" +
                     "---\n" + NodeYaml("c"),
                 diags, "file.yaml");
  EXPECT_THAT(NodeNames(in), ElementsAre("a", "c"));
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.location().file, "file.yaml");
  EXPECT_EQ(e.location().object, "document 2 (line 7)");
  EXPECT_THAT(e.message(), StartsWith("line 11, column 1: "));  // lines of the file
}

TEST(DocumentErrorsTest, UnclosedQuoteStopsAtTheNextMarker) {
  core::Diagnostics diags;
  Input in = ReadString(
      "apiVersion: v1\nkind: Node\nmetadata: {name: \"open\n---\n" + NodeYaml("b"), diags);
  EXPECT_THAT(NodeNames(in), ElementsAre("b"));
  EXPECT_EQ(diags.error_count(), 1u) << Dump(diags);
}

TEST(DocumentErrorsTest, DirectiveInsideALaterDocumentIsAnErrorForThatDocumentOnly) {
  // The bad-input campaign's crash: `%YAML 1.1` inside a document of a member cluster's file.
  core::Diagnostics diags;
  Reader reader(diags);
  reader.ReadText(
      NodeYaml("a") + "---\n" + NodeYaml("b").insert(26, "%YAML 1.1\n") + "---\n" + NodeYaml("c"),
      "queues.yaml", ReadOptions{"us-2"});
  Input in = reader.Finish();
  EXPECT_THAT(NodeNames(in), ElementsAre("a", "c"));
  EXPECT_THAT(Errors(diags),
              ElementsAre("document 2 (line 7)|line 10, column 1: a directive (%YAML, %TAG) "
                          "inside a document; directives go before a document's --- line, at "
                          "the start of the stream or after a ... line"));
}

TEST(DocumentErrorsTest, DirectivesWhereYamlAllowsThemAreRead) {
  core::Diagnostics diags;
  Input in = ReadString(
      "%YAML 1.2\n---\n" + NodeYaml("a") + "...\n%YAML 1.1\n---\n" + NodeYaml("b"), diags);
  EXPECT_THAT(NodeNames(in), ElementsAre("a", "b"));
  EXPECT_EQ(diags.error_count(), 0u) << Dump(diags);
}

TEST(DocumentErrorsTest, NotAnObjectAndMissingKindSayWhichDocument) {
  core::Diagnostics diags;
  Input in = ReadString(NodeYaml("a") + "---\n- 1\n---\n# c\n\napiVersion: v1\nmetadata: {}\n" +
                            "---\nkind: Node\nmetadata: {name: x}\n",
                        diags, "file.yaml");
  EXPECT_THAT(NodeNames(in), ElementsAre("a"));
  EXPECT_THAT(
      Errors(diags),
      ElementsAre("document 2 (line 7), item 0|a document must be an object with "
                  "apiVersion and kind",
                  "document 3 (line 9): object|required value", "Node/default/x|required value"));
  EXPECT_EQ(diags.entries()[1].error.location().field, "kind");
  EXPECT_EQ(diags.entries()[2].error.location().field, "apiVersion");
}

TEST(DocumentErrorsTest, JsonPlacesAreItemsWithTheirLine) {
  core::Diagnostics diags;
  ReadString(R"({"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}},
  7,
  {"apiVersion": "v1", "metadata": {}}
]})",
             diags, "dump.json");
  EXPECT_THAT(Errors(diags),
              ElementsAre("item 1 (line 3)|a document must be an object with apiVersion and kind",
                          "item 2 (line 4): object|required value"));
}

// --- aliases --------------------------------------------------------------------------

std::string BillionLaughs() {
  std::string doc =
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\n  annotations:\n"
      "    a0: &a0 \"lol\"\n";
  for (int level = 1; level <= 9; ++level) {
    doc += "    a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) {
      doc += (i > 0 ? ",*a" : "*a") + std::to_string(level - 1);
    }
    doc += "]\n";
  }
  return doc;
}

TEST(AliasLimitTest, BillionLaughsIsRefusedAtOnceAndTheNextDocumentRead) {
  core::Diagnostics diags;
  const auto start = std::chrono::steady_clock::now();
  Input in = ReadString(BillionLaughs() + "---\n" + NodeYaml("after"), diags);
  // Generous: the expansion it refuses would take minutes and gigabytes.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_THAT(NodeNames(in), ElementsAre("after"));
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().object, "document 1 (line 1)");
  EXPECT_THAT(diags.entries()[0].error.message(), HasSubstr("excessive aliasing"));
}

TEST(AliasLimitTest, OrdinaryAnchorsStillExpand) {
  // 150 aliases among 3,000 plain nodes: 5% from aliases, far under go-yaml's share.
  std::string doc = "base: &b {cpu: 1}\nlist:\n";
  for (int i = 0; i < 1500; ++i) doc += "- {n: " + std::to_string(i) + "}\n";
  doc += "copies:\n";
  for (int i = 0; i < 150; ++i) doc += "- *b\n";
  std::vector<std::string> docs;
  core::Status s =
      internal::ConvertYamlStream(doc, [&](std::string&& json, int) { docs.push_back(json); });
  ASSERT_TRUE(s.ok()) << s.error().message();
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_THAT(docs[0], HasSubstr(R"({"cpu":1},{"cpu":1}]})"));
}

TEST(AliasLimitTest, ExpandedBytesAreBoundedEvenWithFewAliases) {
  // 70 aliases of a 1 MiB string: under go-yaml's node rule (it needs 100 aliases), over the
  // 64 MiB of text berth lets aliases make.
  std::string doc = "big: &big \"" + std::string(1 << 20, 'x') + "\"\ncopies:\n";
  for (int i = 0; i < 70; ++i) doc += "- *big\n";
  core::Status s = internal::ConvertYamlStream(doc, [](std::string&&, int) {});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message(), HasSubstr("aliases expand to more than 64 MiB"));
}

TEST(AliasLimitTest, AnAliasCannotNestPastTheDepthLimit) {
  // The anchor is 200 deep, used 100 deep: 300 in all.
  const std::string doc = "a: &deep " + Brackets(200) + "\nb: " + std::string(99, '[') + "*deep" +
                          std::string(99, ']') + "\n";
  core::Status s = internal::ConvertYamlStream(doc, [](std::string&&, int) {});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message(), HasSubstr("more than 256 nested objects and arrays"));
}

// --- nesting depth: one limit, one message, YAML and JSON ---------------------------------

TEST(DepthLimitTest, YamlAtTheLimitIsReadAndOneDeeperIsNot) {
  std::vector<std::string> docs;
  // The document's mapping counts 1.
  ASSERT_TRUE(internal::ConvertYamlStream("a: " + Brackets(kMaxNestingDepth - 1) + "\n",
                                          [&](std::string&& json, int) { docs.push_back(json); })
                  .ok());
  core::Status s = internal::ConvertYamlStream("a: " + Brackets(kMaxNestingDepth) + "\n",
                                               [](std::string&&, int) {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message(),
            "line 1, column 259: more than 256 nested objects and arrays (berth's limit)");
}

TEST(DepthLimitTest, VeryDeepYamlFailsFastInBlockAndFlowStyle) {
  std::string block;
  for (int i = 0; i < 2000; ++i) block += std::string(static_cast<size_t>(i), ' ') + "- \n";
  for (const std::string& doc : {block, "a: " + Brackets(1'000'000) + "\n"}) {
    core::Status s = internal::ConvertYamlStream(doc, [](std::string&&, int) {});
    ASSERT_FALSE(s.ok());
    EXPECT_THAT(s.error().message(), HasSubstr("more than 256 nested objects and arrays"));
  }
}

TEST(DepthLimitTest, JsonGivesTheSameMessageAndBoundedMemory) {
  core::Diagnostics diags;
  ReadString("{\"a\": " + Brackets(10'000'000) + "}", diags, "deep.json");
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.ToString(),
            "deep.json: line 1, column 262: more than 256 nested objects and arrays (berth's "
            "limit)");
  const internal::JsonScan at_limit =
      internal::ScanJson("{\"a\": " + Brackets(kMaxNestingDepth - 1) + "}");
  EXPECT_TRUE(at_limit.breaches.empty());
}

TEST(DepthLimitTest, ADeepListItemDropsOnlyThatItem) {
  core::Diagnostics diags;
  Input in = ReadString(
      "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n" +
          std::string(R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}},)") +
          "\n{\"x\": " + Brackets(300) + "},\n" +
          R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "c"}}]})",
      diags, "dump.json");
  EXPECT_THAT(NodeNames(in), ElementsAre("a", "c"));
  EXPECT_THAT(Errors(diags), ElementsAre("item 1 (line 3)|line 3, column 260: more than 256 "
                                         "nested objects and arrays (berth's limit)"));
}

// --- strings ----------------------------------------------------------------------------

TEST(StringLimitTest, YamlAndJsonStringsAreBounded) {
  const std::string at_limit(static_cast<size_t>(kMaxStringBytes), 'x');
  const std::string over = at_limit + "x";
  core::Diagnostics diags;
  Input in = ReadString(
      "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\nspec: {providerID: " + at_limit +
          "}\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: b\n" + "  annotations: {n: \"" +
          over + "\"}\n",
      diags, "big.yaml");
  EXPECT_THAT(NodeNames(in), ElementsAre("a"));
  EXPECT_THAT(Errors(diags), ElementsAre("document 2 (line 6)|line 11, column 20: a string of "
                                         "3145729 bytes exceeds berth's limit of 3145728 bytes"));
  core::Diagnostics json_diags;
  ReadString(R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + over + "\"}}",
             json_diags, "big.json");
  EXPECT_THAT(Errors(json_diags),
              ElementsAre("|line 1, column 59: a string of 3145729 bytes exceeds berth's limit "
                          "of 3145728 bytes"));
}

// --- per file -------------------------------------------------------------------------

TEST(FileLimitTest, ObjectsPastTheLimitAreNotRead) {
  // Unknown kinds: cheap to read, counted all the same.
  std::string text = "[";
  for (int64_t i = 0; i <= kMaxObjectsPerFile; ++i) {
    text += i > 0 ? ",\n" : "\n";
    text += R"({"apiVersion": "example.com/v1", "kind": "Thing"})";
  }
  text += "]";
  core::Diagnostics diags;
  ReadString(text, diags, "many.json");
  EXPECT_THAT(Errors(diags),
              ElementsAre("item 1000000|more than 1000000 documents and List items in one file "
                          "(berth's limit); this one and the rest of the file are not read"));
}

TEST(FileLimitTest, AFileOverTheByteLimitIsRefusedUnread) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("berth_limits_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path big = dir / "huge.yaml";
  { std::ofstream(big) << NodeYaml("never"); }
  fs::resize_file(big, static_cast<uintmax_t>(kMaxFileBytes) + 1);  // sparse: no disk used
  { std::ofstream(dir / "ok.yaml") << NodeYaml("ok"); }
  core::Diagnostics diags;
  Reader reader(diags);
  ASSERT_TRUE(reader.ReadPath(dir.string()).ok());
  Input in = reader.Finish();
  fs::remove_all(dir);
  EXPECT_THAT(NodeNames(in), ElementsAre("ok"));
  EXPECT_THAT(Errors(diags), ElementsAre("|2147483649 bytes exceed berth's limit of 2147483648 "
                                         "bytes per file; the file is not read"));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
