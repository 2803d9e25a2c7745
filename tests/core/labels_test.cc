// Label key and value syntax (apimachinery util/validation).
#include "core/labels.h"

#include <gtest/gtest.h>

#include <string>

#include "core/excerpt.h"

namespace berth::core {
namespace BERTH_UNITY_ID {

TEST(LabelsTest, Dns1123Subdomain) {
  for (const char* ok : {"a", "example.com", "nvidia.com", "a-b.c-d", "0.1", "k8s.io"}) {
    EXPECT_TRUE(IsDns1123Subdomain(ok)) << ok;
  }
  for (const char* bad :
       {"", "Example.com", "a..b", ".a", "a.", "-a", "a-", "a.-b", "a_b", "a/b"}) {
    EXPECT_FALSE(IsDns1123Subdomain(bad)) << bad;
  }
  std::string long_label(63, 'a');
  std::string at_limit =
      long_label + "." + long_label + "." + long_label + "." + std::string(61, 'a');
  ASSERT_EQ(at_limit.size(), 253u);
  EXPECT_TRUE(IsDns1123Subdomain(at_limit));
  EXPECT_FALSE(IsDns1123Subdomain(at_limit + "a"));
}

TEST(LabelsTest, QualifiedName) {
  for (const char* ok :
       {"a", "app", "app.kubernetes.io/name", "nvidia.com/gpu.product", "A_b-C.d", "x/Y", "1"}) {
    EXPECT_TRUE(IsQualifiedName(ok)) << ok;
  }
  for (const char* bad :
       {"", "/a", "a/", "a/b/c", "Upper.com/a", "-a", "a-", "_a", "a b", "a..b/c", "a/-b"}) {
    EXPECT_FALSE(IsQualifiedName(bad)) << bad;
  }
  EXPECT_TRUE(IsQualifiedName(std::string(63, 'z')));
  EXPECT_FALSE(IsQualifiedName(std::string(64, 'z')));
  EXPECT_TRUE(IsQualifiedName("example.com/" + std::string(63, 'z')));
}

TEST(LabelsTest, LabelValue) {
  for (const char* ok : {"", "a", "H100", "x-y_z.1", "8"}) {
    EXPECT_TRUE(IsValidLabelValue(ok)) << ok;
  }
  for (const char* bad : {"-a", "a-", "a b", "a/b", ".a", "a!"}) {
    EXPECT_FALSE(IsValidLabelValue(bad)) << bad;
  }
  EXPECT_TRUE(IsValidLabelValue(std::string(63, 'v')));
  EXPECT_FALSE(IsValidLabelValue(std::string(64, 'v')));
}

TEST(LabelsTest, LabelsAreOrderedByKey) {
  Labels labels = {{"b", "2"}, {"a", "1"}, {"c", "3"}};
  std::string keys;
  for (const auto& [key, value] : labels) keys += key;
  EXPECT_EQ(keys, "abc");
  // Heterogeneous lookup with string_view.
  EXPECT_NE(labels.find(std::string_view("b")), labels.end());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::core

namespace berth::core {
namespace BERTH_UNITY_ID {

// The reasons are apimachinery's, first one only, the length checked first.
TEST(LabelsTest, ProblemsAreWordedAsTheApiServerWordsThem) {
  EXPECT_EQ(Dns1123SubdomainProblem("a.b-c"), "");
  EXPECT_EQ(Dns1123SubdomainProblem(std::string(254, 'a')), "must be no more than 253 characters");
  EXPECT_EQ(Dns1123SubdomainProblem("UPPER_case").rfind("a lowercase RFC 1123 subdomain must", 0),
            0u);
  EXPECT_NE(Dns1123SubdomainProblem(std::string("nul\0byte", 8)), "");
  EXPECT_EQ(Dns1123LabelProblem("team-a"), "");
  EXPECT_EQ(Dns1123LabelProblem("a.b"), "must not contain dots");
  EXPECT_EQ(Dns1123LabelProblem(std::string(64, 'a')), "must be no more than 63 characters");
  EXPECT_EQ(Dns1123LabelProblem("Team_A").rfind("a lowercase RFC 1123 label must", 0), 0u);
  EXPECT_TRUE(IsDns1123Label("a-1"));
  EXPECT_FALSE(IsDns1123Label("a.b"));

  EXPECT_EQ(QualifiedNameProblem("example.com/My_Name"), "");
  EXPECT_EQ(QualifiedNameProblem("/x"), "prefix part must be non-empty");
  EXPECT_EQ(QualifiedNameProblem("example.com/"), "name part must be non-empty");
  EXPECT_EQ(QualifiedNameProblem("Example.com/x").rfind("prefix part a lowercase RFC 1123", 0), 0u);
  EXPECT_EQ(QualifiedNameProblem(std::string(64, 'a')),
            "name part must be no more than 63 characters");
  EXPECT_EQ(QualifiedNameProblem("a b").rfind("name part must consist of alphanumeric", 0), 0u);
  EXPECT_EQ(QualifiedNameProblem("a b/c/d").rfind("a qualified name must consist of", 0), 0u);

  EXPECT_EQ(LabelValueProblem(""), "");
  EXPECT_EQ(LabelValueProblem(std::string(10 << 20, 'v')), "must be no more than 63 characters");
  EXPECT_EQ(LabelValueProblem("-x").rfind("a valid label must be an empty string", 0), 0u);
}

TEST(QuoteTest, QuotesEscapesAndBounds) {
  EXPECT_EQ(Quote("abc"), "\"abc\"");
  EXPECT_EQ(Quote(std::string("a\0b\"c\\\n", 7)), "\"a\\x00b\\\"c\\\\\\n\"");
  const std::string huge(10 << 20, 'x');
  const std::string q = Quote(huge);
  EXPECT_EQ(q, "\"" + std::string(kMaxQuotedBytes, 'x') + "...\" (10485760 bytes)");
  // Never cut inside a UTF-8 character: 63 ASCII bytes, then a 2-byte 'é' across the cut.
  const std::string utf8 = std::string(63, 'a') + "\xc3\xa9" + std::string(10, 'b');
  EXPECT_EQ(Quote(utf8), "\"" + std::string(63, 'a') + "...\" (75 bytes)");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::core
