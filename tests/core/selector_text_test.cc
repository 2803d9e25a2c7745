// Cases after apimachinery's labels.Parse tests (selector_test.go): accepted forms, their
// meaning when matched, and refusals.
#include "core/selector_text.h"

#include <gtest/gtest.h>

namespace berth::core {
namespace BERTH_UNITY_ID {

std::vector<SelectorRequirement> MustParse(std::string_view text) {
  auto r = ParseLabelSelectorText(text);
  EXPECT_TRUE(r.has_value()) << text << ": " << (r ? "" : r.error().message());
  return r.has_value() ? r.value() : std::vector<SelectorRequirement>{};
}

bool Match(std::string_view text, const Labels& labels) {
  return MatchesAll(MustParse(text), labels);
}

TEST(SelectorTextTest, EmptySelectsEverything) {
  EXPECT_TRUE(MustParse("").empty());
  EXPECT_TRUE(Match("", {{"a", "b"}}));
}

TEST(SelectorTextTest, ParsesEveryOperator) {
  auto r = MustParse("x=a,y==b,z!=c,w in (b, a),v notin (d),u,!t,s>5,r<3");
  ASSERT_EQ(r.size(), 9u);
  // Sorted by key.
  EXPECT_EQ(r[0].key, "r");
  EXPECT_EQ(r[0].op, SelectorOp::kLt);
  EXPECT_EQ(r[1].key, "s");
  EXPECT_EQ(r[1].op, SelectorOp::kGt);
  EXPECT_EQ(r[2].op, SelectorOp::kDoesNotExist);
  EXPECT_EQ(r[3].op, SelectorOp::kExists);
  EXPECT_EQ(r[4].op, SelectorOp::kNotIn);
  EXPECT_EQ(r[5].key, "w");
  EXPECT_EQ(r[5].values, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r[6].key, "x");
  EXPECT_EQ(r[6].op, SelectorOp::kIn);
  EXPECT_EQ(r[7].op, SelectorOp::kIn);
  EXPECT_EQ(r[8].op, SelectorOp::kNotIn);
  EXPECT_EQ(r[8].values, (std::vector<std::string>{"c"}));
}

TEST(SelectorTextTest, MatchesAsUpstream) {
  const Labels labels{{"app", "web"}, {"tier", "front"}, {"gpu", "8"}};
  EXPECT_TRUE(Match("app=web", labels));
  EXPECT_TRUE(Match("app==web,tier=front", labels));
  EXPECT_FALSE(Match("app=db", labels));
  EXPECT_TRUE(Match("app!=db", labels));
  EXPECT_TRUE(Match("missing!=x", labels));  // != matches an object without the key
  EXPECT_TRUE(Match("app in (db,web)", labels));
  EXPECT_FALSE(Match("app notin (db,web)", labels));
  EXPECT_TRUE(Match("app", labels));
  EXPECT_FALSE(Match("!app", labels));
  EXPECT_TRUE(Match("!legacy", labels));
  EXPECT_TRUE(Match("gpu>4", labels));
  EXPECT_FALSE(Match("gpu<4", labels));
  EXPECT_TRUE(Match("  app = web ,  tier in ( front ) ", labels));
  EXPECT_TRUE(Match("example.com/team=a", {{"example.com/team", "a"}}));
  EXPECT_TRUE(Match("empty=", {{"empty", ""}}));
  EXPECT_FALSE(Match("empty=", {{"empty", "x"}}));
}

TEST(SelectorTextTest, RefusesMalformedSelectors) {
  for (std::string_view bad :
       {"app=", "=web", "app==", "app in", "app in ()", "app in (a", "app=(a)", "a,,b", "a,",
        "!", "app>x", "bad key=1", "app=a b", "x=-bad-", "k<1.5", "app in (a b)"}) {
    if (bad == "app=" || bad == "app==") continue;  // empty values are valid
    auto r = ParseLabelSelectorText(bad);
    EXPECT_FALSE(r.has_value()) << bad;
  }
  EXPECT_TRUE(ParseLabelSelectorText("app==").has_value());
  auto r = ParseLabelSelectorText("a b=c");
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("found 'b'"), std::string::npos) << r.error().message();
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::core
