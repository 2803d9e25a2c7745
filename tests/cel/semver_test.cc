// Semver parsing and precedence, against semver.org 2.0.0 and blang/semver's messages.
#include "cel/semver.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace berth::cel {
namespace BERTH_UNITY_ID {

std::string ParseError(std::string_view text) {
  core::Result<Semver> v = Semver::Parse(text);
  return v.has_value() ? "<ok>" : v.error().message();
}

TEST(SemverTest, ParsesParts) {
  Semver v = Semver::Parse("1.22.333-rc.1.x-y+build.7").value();
  EXPECT_EQ(v.major(), 1u);
  EXPECT_EQ(v.minor(), 22u);
  EXPECT_EQ(v.patch(), 333u);
  EXPECT_EQ(v.prerelease(), (std::vector<std::string>{"rc", "1", "x-y"}));
  EXPECT_EQ(v.build(), (std::vector<std::string>{"build", "7"}));
  EXPECT_EQ(v.ToString(), "1.22.333-rc.1.x-y+build.7");
  EXPECT_EQ(Semver::Parse("0.0.0").value().ToString(), "0.0.0");
  EXPECT_EQ(Semver::Parse("1.2.3+a-b").value().build(), (std::vector<std::string>{"a-b"}));
}

TEST(SemverTest, RejectsWithUpstreamMessages) {
  EXPECT_EQ(ParseError(""), "Version string empty");
  EXPECT_EQ(ParseError("1.2"), "No Major.Minor.Patch elements found");
  EXPECT_EQ(ParseError("v1.2.3"), "Invalid character(s) found in major number \"v1\"");
  EXPECT_EQ(ParseError("01.2.3"), "Major number must not contain leading zeroes \"01\"");
  EXPECT_EQ(ParseError("1.02.3"), "Minor number must not contain leading zeroes \"02\"");
  EXPECT_EQ(ParseError("1.2.03"), "Patch number must not contain leading zeroes \"03\"");
  EXPECT_EQ(ParseError("1.2.x"), "Invalid character(s) found in patch number \"x\"");
  EXPECT_EQ(ParseError("1.2.3-"), "Prerelease is empty");
  EXPECT_EQ(ParseError("1.2.3-a..b"), "Prerelease is empty");
  EXPECT_EQ(ParseError("1.2.3-01"),
            "Numeric PreRelease version must not contain leading zeroes \"01\"");
  EXPECT_EQ(ParseError("1.2.3-a_b"), "Invalid character(s) found in prerelease \"a_b\"");
  EXPECT_EQ(ParseError("1.2.3+"), "Build meta data is empty");
  EXPECT_EQ(ParseError("1.2.3+a$"), "Invalid character(s) found in build meta data \"a$\"");
  EXPECT_EQ(ParseError("1..3"), "strconv.ParseUint: parsing \"\": invalid syntax");
  EXPECT_EQ(ParseError("18446744073709551616.0.0"),
            "strconv.ParseUint: parsing \"18446744073709551616\": value out of range");
  EXPECT_EQ(ParseError(" 1.2.3"), "Invalid character(s) found in major number \" 1\"");
}

// semver.org section 11: 1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-alpha.beta < 1.0.0-beta <
// 1.0.0-beta.2 < 1.0.0-beta.11 < 1.0.0-rc.1 < 1.0.0 < 1.0.1 < 1.1.0 < 2.0.0.
TEST(SemverTest, PrecedenceFollowsTheSpec) {
  const std::vector<std::string> ordered = {"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta",
                                            "1.0.0-beta",  "1.0.0-beta.2",  "1.0.0-beta.11",
                                            "1.0.0-rc.1",  "1.0.0",         "1.0.1",
                                            "1.1.0",       "2.0.0",         "10.0.0"};
  for (size_t i = 0; i < ordered.size(); ++i) {
    for (size_t j = 0; j < ordered.size(); ++j) {
      Semver a = Semver::Parse(ordered[i]).value();
      Semver b = Semver::Parse(ordered[j]).value();
      int want = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(a.Compare(b), want) << ordered[i] << " vs " << ordered[j];
    }
  }
  EXPECT_EQ(Semver::Parse("1.0.0+a").value().Compare(Semver::Parse("1.0.0+b").value()), 0);
  EXPECT_TRUE(Semver::Parse("1.0.0+a").value() == Semver::Parse("1.0.0").value());
  EXPECT_EQ(Semver::Parse("1.0.0-2").value().Compare(Semver::Parse("1.0.0-10").value()), -1);
  EXPECT_EQ(Semver::Parse("1.0.0-a10").value().Compare(Semver::Parse("1.0.0-a2").value()), -1);
}

TEST(SemverTest, Normalization) {
  EXPECT_EQ(Semver::ParseNormalized("v1.2.3").value().ToString(), "1.2.3");
  EXPECT_EQ(Semver::ParseNormalized("1").value().ToString(), "1.0.0");
  EXPECT_EQ(Semver::ParseNormalized("v1.5").value().ToString(), "1.5.0");
  EXPECT_EQ(Semver::ParseNormalized("01.01.01").value().ToString(), "1.1.1");
  EXPECT_EQ(Semver::ParseNormalized("1.0.0-rc.1").value().ToString(), "1.0.0-rc.1");
  EXPECT_EQ(Semver::ParseNormalized("1.00.0").value().ToString(), "1.0.0");
  EXPECT_FALSE(Semver::ParseNormalized("1-rc").has_value());
  EXPECT_FALSE(Semver::ParseNormalized("vv1.0.0").has_value());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cel
