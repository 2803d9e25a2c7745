// Label and node selectors: upstream matching rules and validation field paths.
#include "core/selector.h"

#include <gtest/gtest.h>

namespace berth::core {
namespace BERTH_UNITY_ID {

SelectorRequirement Req(std::string key, SelectorOp op, std::vector<std::string> values = {}) {
  return SelectorRequirement{std::move(key), op, std::move(values)};
}

const Labels kGpuNode = {{"kubernetes.io/hostname", "node-1"},
                         {"nvidia.com/gpu.product", "H100"},
                         {"nvidia.com/gpu.count", "8"},
                         {"zone", "a"}};

TEST(SelectorOpTest, ParsesNamesAndGatesGtLt) {
  EXPECT_EQ(*ParseSelectorOp("In", false), SelectorOp::kIn);
  EXPECT_EQ(*ParseSelectorOp("NotIn", false), SelectorOp::kNotIn);
  EXPECT_EQ(*ParseSelectorOp("Exists", false), SelectorOp::kExists);
  EXPECT_EQ(*ParseSelectorOp("DoesNotExist", false), SelectorOp::kDoesNotExist);
  EXPECT_EQ(*ParseSelectorOp("Gt", true), SelectorOp::kGt);
  EXPECT_EQ(*ParseSelectorOp("Lt", true), SelectorOp::kLt);
  EXPECT_FALSE(ParseSelectorOp("Gt", false).has_value());
  EXPECT_FALSE(ParseSelectorOp("Lt", false).has_value());
  Result<SelectorOp> bad = ParseSelectorOp("in", true);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(ParseSelectorOp("", true).has_value());
  for (SelectorOp op : {SelectorOp::kIn, SelectorOp::kNotIn, SelectorOp::kExists,
                        SelectorOp::kDoesNotExist, SelectorOp::kGt, SelectorOp::kLt}) {
    EXPECT_EQ(*ParseSelectorOp(SelectorOpName(op), true), op);
  }
}

TEST(SelectorRequirementTest, In) {
  EXPECT_TRUE(Req("zone", SelectorOp::kIn, {"a", "b"}).Matches(kGpuNode));
  EXPECT_FALSE(Req("zone", SelectorOp::kIn, {"b"}).Matches(kGpuNode));
  EXPECT_FALSE(Req("missing", SelectorOp::kIn, {"a"}).Matches(kGpuNode));
}

TEST(SelectorRequirementTest, NotInMatchesMissingLabel) {
  EXPECT_FALSE(Req("zone", SelectorOp::kNotIn, {"a"}).Matches(kGpuNode));
  EXPECT_TRUE(Req("zone", SelectorOp::kNotIn, {"b"}).Matches(kGpuNode));
  EXPECT_TRUE(Req("missing", SelectorOp::kNotIn, {"a"}).Matches(kGpuNode));
}

TEST(SelectorRequirementTest, ExistsAndDoesNotExist) {
  EXPECT_TRUE(Req("zone", SelectorOp::kExists).Matches(kGpuNode));
  EXPECT_FALSE(Req("missing", SelectorOp::kExists).Matches(kGpuNode));
  EXPECT_FALSE(Req("zone", SelectorOp::kDoesNotExist).Matches(kGpuNode));
  EXPECT_TRUE(Req("missing", SelectorOp::kDoesNotExist).Matches(kGpuNode));
  // An empty label value still exists.
  EXPECT_TRUE(Req("k", SelectorOp::kExists).Matches(Labels{{"k", ""}}));
}

TEST(SelectorRequirementTest, GtAndLtCompareIntegers) {
  EXPECT_TRUE(Req("nvidia.com/gpu.count", SelectorOp::kGt, {"4"}).Matches(kGpuNode));
  EXPECT_FALSE(Req("nvidia.com/gpu.count", SelectorOp::kGt, {"8"}).Matches(kGpuNode));
  EXPECT_TRUE(Req("nvidia.com/gpu.count", SelectorOp::kLt, {"9"}).Matches(kGpuNode));
  EXPECT_FALSE(Req("nvidia.com/gpu.count", SelectorOp::kLt, {"8"}).Matches(kGpuNode));
  EXPECT_TRUE(Req("n", SelectorOp::kGt, {"-5"}).Matches(Labels{{"n", "-4"}}));
  EXPECT_TRUE(Req("n", SelectorOp::kLt, {"+5"}).Matches(Labels{{"n", "4"}}));
  // Numbers compare as numbers, not strings.
  EXPECT_TRUE(Req("n", SelectorOp::kGt, {"9"}).Matches(Labels{{"n", "10"}}));
  // Missing label, non-integer label or bound: no match.
  EXPECT_FALSE(Req("missing", SelectorOp::kGt, {"1"}).Matches(kGpuNode));
  EXPECT_FALSE(Req("zone", SelectorOp::kGt, {"1"}).Matches(kGpuNode));
  EXPECT_FALSE(Req("n", SelectorOp::kGt, {"1.5"}).Matches(Labels{{"n", "4"}}));
  EXPECT_FALSE(Req("n", SelectorOp::kGt, {"1"}).Matches(Labels{{"n", "4.0"}}));
  EXPECT_FALSE(Req("n", SelectorOp::kGt, {"1"}).Matches(Labels{{"n", "99999999999999999999"}}));
  EXPECT_FALSE(Req("n", SelectorOp::kGt, {"1", "2"}).Matches(Labels{{"n", "4"}}));
  EXPECT_FALSE(Req("n", SelectorOp::kGt, {}).Matches(Labels{{"n", "4"}}));
}

TEST(SelectorRequirementTest, MalformedRequirementsMatchNothing) {
  // Upstream refuses to build these requirements; they select nothing.
  EXPECT_FALSE(Req("zone", SelectorOp::kNotIn, {}).Matches(kGpuNode));
  EXPECT_FALSE(Req("missing", SelectorOp::kNotIn, {}).Matches(kGpuNode));
  EXPECT_FALSE(Req("zone", SelectorOp::kExists, {"a"}).Matches(kGpuNode));
  EXPECT_FALSE(Req("missing", SelectorOp::kDoesNotExist, {"a"}).Matches(kGpuNode));
}

TEST(LabelSelectorTest, EmptyMatchesEverything) {
  LabelSelector empty;
  EXPECT_TRUE(empty.Empty());
  EXPECT_TRUE(empty.Matches(kGpuNode));
  EXPECT_TRUE(empty.Matches(Labels{}));
}

TEST(LabelSelectorTest, MatchLabelsAndExpressionsAreAnded) {
  LabelSelector s;
  s.match_labels = {{"zone", "a"}};
  s.match_expressions = {Req("nvidia.com/gpu.product", SelectorOp::kIn, {"H100", "A100"})};
  EXPECT_FALSE(s.Empty());
  EXPECT_TRUE(s.Matches(kGpuNode));
  Labels other_zone = kGpuNode;
  other_zone["zone"] = "b";
  EXPECT_FALSE(s.Matches(other_zone));
  Labels other_gpu = kGpuNode;
  other_gpu["nvidia.com/gpu.product"] = "L4";
  EXPECT_FALSE(s.Matches(other_gpu));
  Labels no_zone = kGpuNode;
  no_zone.erase("zone");
  EXPECT_FALSE(s.Matches(no_zone));
}

TEST(LabelSelectorTest, GtLtAreNotLabelSelectorOperators) {
  LabelSelector s;
  s.match_expressions = {Req("nvidia.com/gpu.count", SelectorOp::kGt, {"1"})};
  EXPECT_FALSE(s.Matches(kGpuNode));
  Status status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().location().field, "matchExpressions[0].operator");
}

TEST(LabelSelectorTest, ValidateNamesTheField) {
  LabelSelector s;
  s.match_expressions = {Req("zone", SelectorOp::kIn, {"a"}), Req("tier", SelectorOp::kIn, {})};
  Status status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.error().location().field, "matchExpressions[1].values");
  EXPECT_NE(status.error().message().find("must be specified"), std::string::npos);

  s.match_expressions = {Req("zone", SelectorOp::kExists, {"a"})};
  status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().location().field, "matchExpressions[0].values");

  s.match_expressions = {Req("bad key!", SelectorOp::kExists)};
  status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().location().field, "matchExpressions[0].key");

  s.match_expressions = {};
  s.match_labels = {{"app", "bad value!"}};
  status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().location().field, "matchLabels");

  s.match_labels = {{"-app", "web"}};
  EXPECT_FALSE(s.Validate().ok());
}

TEST(LabelSelectorTest, ValidateAcceptsWellFormedSelectors) {
  LabelSelector s;
  s.match_labels = {{"app.kubernetes.io/name", "web"}, {"tier", ""}, {"a", "x-y_z.1"}};
  s.match_expressions = {Req("zone", SelectorOp::kNotIn, {"a"}),
                         Req("example.com/x", SelectorOp::kExists),
                         Req("y", SelectorOp::kDoesNotExist)};
  Status status = s.Validate();
  EXPECT_TRUE(status.ok()) << status.error().ToString();
  EXPECT_TRUE(LabelSelector{}.Validate().ok());
}

TEST(LabelSelectorTest, ValidatesLabelKeyShapes) {
  auto key_ok = [](std::string key) {
    LabelSelector s;
    s.match_expressions = {Req(std::move(key), SelectorOp::kExists)};
    return s.Validate().ok();
  };
  EXPECT_TRUE(key_ok("a"));
  EXPECT_TRUE(key_ok("nvidia.com/gpu.product"));
  EXPECT_TRUE(key_ok("A_b-C.d"));
  EXPECT_TRUE(key_ok(std::string(63, 'a')));
  EXPECT_FALSE(key_ok(std::string(64, 'a')));
  EXPECT_FALSE(key_ok(""));
  EXPECT_FALSE(key_ok("/name"));
  EXPECT_FALSE(key_ok("prefix/"));
  EXPECT_FALSE(key_ok("Upper.com/name"));
  EXPECT_FALSE(key_ok("a/b/c"));
  EXPECT_FALSE(key_ok("name-"));
}

TEST(NodeSelectorTest, TermsAreOredAndRequirementsAnded) {
  NodeSelectorTerm h100{{Req("nvidia.com/gpu.product", SelectorOp::kIn, {"H100"}),
                         Req("zone", SelectorOp::kIn, {"b"})},
                        {}};
  NodeSelectorTerm big{{Req("nvidia.com/gpu.count", SelectorOp::kGt, {"4"})}, {}};
  EXPECT_FALSE(h100.Matches(kGpuNode, "node-1"));
  EXPECT_TRUE(big.Matches(kGpuNode, "node-1"));
  EXPECT_TRUE((NodeSelector{{h100, big}}).Matches(kGpuNode, "node-1"));
  EXPECT_FALSE((NodeSelector{{h100}}).Matches(kGpuNode, "node-1"));
}

TEST(NodeSelectorTest, EmptyTermsAndSelectorsMatchNothing) {
  EXPECT_FALSE(NodeSelectorTerm{}.Matches(kGpuNode, "node-1"));
  EXPECT_FALSE(NodeSelector{}.Matches(kGpuNode, "node-1"));
  EXPECT_FALSE((NodeSelector{{NodeSelectorTerm{}}}).Matches(kGpuNode, "node-1"));
  // An empty term next to a matching one does not hide it.
  NodeSelectorTerm zone{{Req("zone", SelectorOp::kIn, {"a"})}, {}};
  EXPECT_TRUE((NodeSelector{{NodeSelectorTerm{}, zone}}).Matches(kGpuNode, "node-1"));
}

TEST(NodeSelectorTest, MatchFieldsSeeOnlyTheNodeName) {
  NodeSelectorTerm by_name{{}, {Req("metadata.name", SelectorOp::kIn, {"node-1"})}};
  EXPECT_TRUE(by_name.Matches(kGpuNode, "node-1"));
  EXPECT_FALSE(by_name.Matches(kGpuNode, "node-2"));
  NodeSelectorTerm not_name{{}, {Req("metadata.name", SelectorOp::kNotIn, {"node-1"})}};
  EXPECT_FALSE(not_name.Matches(kGpuNode, "node-1"));
  EXPECT_TRUE(not_name.Matches(kGpuNode, "node-2"));
  // Field selectors take exactly one value.
  NodeSelectorTerm two{{}, {Req("metadata.name", SelectorOp::kIn, {"node-1", "node-2"})}};
  EXPECT_FALSE(two.Matches(kGpuNode, "node-1"));
  // Other fields read as empty; labels are not fields.
  NodeSelectorTerm zone_field{{}, {Req("zone", SelectorOp::kIn, {"a"})}};
  EXPECT_FALSE(zone_field.Matches(kGpuNode, "node-1"));
  // Expressions and fields are ANDed.
  NodeSelectorTerm both{{Req("zone", SelectorOp::kIn, {"a"})},
                        {Req("metadata.name", SelectorOp::kIn, {"node-2"})}};
  EXPECT_FALSE(both.Matches(kGpuNode, "node-1"));
  EXPECT_TRUE(both.Matches(kGpuNode, "node-2"));
}

TEST(NodeSelectorTest, ValidateNamesTheField) {
  NodeSelector s;
  Status status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().location().field, "nodeSelectorTerms");

  NodeSelectorTerm ok{{Req("zone", SelectorOp::kIn, {"a"})}, {}};
  NodeSelectorTerm bad_gt{
      {Req("zone", SelectorOp::kExists), Req("nvidia.com/gpu.count", SelectorOp::kGt, {"1", "2"})},
      {}};
  s.terms = {ok, bad_gt};
  status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().location().field, "nodeSelectorTerms[1].matchExpressions[1].values");

  s.terms = {NodeSelectorTerm{{Req("n", SelectorOp::kLt, {"ten"})}, {}}};
  status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().location().field, "nodeSelectorTerms[0].matchExpressions[0].values[0]");

  s.terms = {NodeSelectorTerm{{}, {Req("metadata.uid", SelectorOp::kIn, {"x"})}}};
  status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().location().field, "nodeSelectorTerms[0].matchFields[0].key");

  s.terms = {NodeSelectorTerm{{}, {Req("metadata.name", SelectorOp::kExists)}}};
  status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().location().field, "nodeSelectorTerms[0].matchFields[0].operator");

  s.terms = {NodeSelectorTerm{{}, {Req("metadata.name", SelectorOp::kIn, {"a", "b"})}}};
  status = s.Validate();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().location().field, "nodeSelectorTerms[0].matchFields[0].values");
}

TEST(NodeSelectorTest, ValidateAcceptsWellFormedSelectors) {
  NodeSelector s{{NodeSelectorTerm{{Req("nvidia.com/gpu.count", SelectorOp::kGt, {"4"}),
                                    Req("zone", SelectorOp::kNotIn, {"c"})},
                                   {Req("metadata.name", SelectorOp::kNotIn, {"node-9"})}},
                  NodeSelectorTerm{{Req("zone", SelectorOp::kDoesNotExist)}, {}}}};
  Status status = s.Validate();
  EXPECT_TRUE(status.ok()) << status.error().ToString();
  // An empty term is valid (it just matches nothing).
  EXPECT_TRUE((NodeSelector{{NodeSelectorTerm{}}}).Validate().ok());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::core
