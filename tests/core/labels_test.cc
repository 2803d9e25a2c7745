// Label key and value syntax (apimachinery util/validation).
#include "core/labels.h"

#include <gtest/gtest.h>

#include <string>

namespace berth::core {
namespace {

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

}  // namespace
}  // namespace berth::core
