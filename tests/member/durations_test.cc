// Go duration text and the default duration distributions. The ParseGoDuration and
// FormatGoDuration tables are ported from Go's src/time/time_test.go (parseDurationTests,
// parseDurationErrorTests, durationTests).
#include "server/member/durations.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>

namespace berth::server::member {
namespace BERTH_UNITY_ID {

constexpr int64_t kNs = 1;
constexpr int64_t kUs = 1000 * kNs;
constexpr int64_t kMs = 1000 * kUs;
constexpr int64_t kS = 1000 * kMs;
constexpr int64_t kMin = 60 * kS;
constexpr int64_t kH = 60 * kMin;

TEST(DurationsTest, ParsesGoDurations) {
  struct Case {
    const char* text;
    int64_t want;
  };
  const Case cases[] = {
      // simple
      {"0", 0},
      {"5s", 5 * kS},
      {"30s", 30 * kS},
      {"1478s", 1478 * kS},
      // sign
      {"-5s", -5 * kS},
      {"+5s", 5 * kS},
      {"-0", 0},
      {"+0", 0},
      // decimal
      {"5.0s", 5 * kS},
      {"5.6s", 5 * kS + 600 * kMs},
      {"5.s", 5 * kS},
      {".5s", 500 * kMs},
      {"1.0s", 1 * kS},
      {"1.00s", 1 * kS},
      {"1.004s", 1 * kS + 4 * kMs},
      {"1.0040s", 1 * kS + 4 * kMs},
      {"100.00100s", 100 * kS + 1 * kMs},
      // different units
      {"10ns", 10 * kNs},
      {"11us", 11 * kUs},
      {"12\xc2\xb5s", 12 * kUs},  // U+00B5
      {"12\xce\xbcs", 12 * kUs},  // U+03BC
      {"13ms", 13 * kMs},
      {"14s", 14 * kS},
      {"15m", 15 * kMin},
      {"16h", 16 * kH},
      // composite durations
      {"3h30m", 3 * kH + 30 * kMin},
      {"10.5s4m", 4 * kMin + 10 * kS + 500 * kMs},
      {"-2m3.4s", -(2 * kMin + 3 * kS + 400 * kMs)},
      {"1h2m3s4ms5us6ns", 1 * kH + 2 * kMin + 3 * kS + 4 * kMs + 5 * kUs + 6 * kNs},
      {"39h9m14.425s", 39 * kH + 9 * kMin + 14 * kS + 425 * kMs},
      // large value
      {"52763797000ns", 52763797000 * kNs},
      // more than 9 digits after decimal point, see https://golang.org/issue/6617
      {"0.3333333333333333333h", 20 * kMin},
      // 9007199254740993 = 1<<53+1 cannot be stored precisely in a float64
      {"9007199254740993ns", (int64_t{1} << 53) + 1},
      // largest duration that can be represented by int64 in nanoseconds
      {"9223372036854775807ns", std::numeric_limits<int64_t>::max()},
      {"9223372036854775.807us", std::numeric_limits<int64_t>::max()},
      {"9223372036s854ms775us807ns", std::numeric_limits<int64_t>::max()},
      {"-9223372036854775808ns", std::numeric_limits<int64_t>::min()},
      {"-9223372036854775.808us", std::numeric_limits<int64_t>::min()},
      {"-9223372036s854ms775us808ns", std::numeric_limits<int64_t>::min()},
      // largest negative value
      {"-9223372036854775808ns", std::numeric_limits<int64_t>::min()},
      // huge string; issue 15011.
      {"0.100000000000000000000h", 6 * kMin},
      // This value tests the first overflow check in leadingFraction.
      {"0.830103483285477580700h", 49 * kMin + 48 * kS + 372539827 * kNs},
  };
  for (const Case& c : cases) {
    core::Result<int64_t> got = ParseGoDuration(c.text);
    ASSERT_TRUE(got.has_value()) << c.text << ": " << got.error().message();
    EXPECT_EQ(*got, c.want) << c.text;
  }
}

TEST(DurationsTest, RefusesWhatGoRefuses) {
  const char* const cases[] = {
      // invalid
      "",
      "3",
      "-",
      "s",
      ".",
      "-.",
      ".s",
      "+.s",
      "1d",
      "\x85\x85",
      "\xff\xff",
      "hello \xff\xff world",
      // overflow
      "9223372036854775810ns",
      "9223372036854775808ns",
      "-9223372036854775809ns",
      "9223372036854776us",
      "3000000h",
      "9223372036854775.808us",
      "9223372036854ms775us808ns",
  };
  for (const char* text : cases) {
    EXPECT_FALSE(ParseGoDuration(text).has_value()) << text;
  }
  EXPECT_EQ(ParseGoDuration("5").error().message(), "time: missing unit in duration \"5\"");
  EXPECT_EQ(ParseGoDuration("1d").error().message(), "time: unknown unit \"d\" in duration \"1d\"");
}

TEST(DurationsTest, FormatsAsGoDoes) {
  struct Case {
    const char* want;
    int64_t ns;
  };
  const Case cases[] = {
      {"0s", 0},
      {"1ns", 1 * kNs},
      {"1.1\xc2\xb5s", 1100 * kNs},
      {"2.2ms", 2200 * kUs},
      {"3.3s", 3300 * kMs},
      {"4m5s", 4 * kMin + 5 * kS},
      {"4m5.001s", 4 * kMin + 5001 * kMs},
      {"5h6m7.001s", 5 * kH + 6 * kMin + 7001 * kMs},
      {"8m0.000000001s", 8 * kMin + 1 * kNs},
      {"2562047h47m16.854775807s", std::numeric_limits<int64_t>::max()},
      {"-2562047h47m16.854775808s", std::numeric_limits<int64_t>::min()},
  };
  for (const Case& c : cases) EXPECT_EQ(FormatGoDuration(c.ns), c.want) << c.ns;
}

TEST(DurationsTest, ParsesDistributions) {
  struct Case {
    const char* text;
    DurationDistribution::Shape shape;
    const char* canonical;
  };
  const Case cases[] = {
      {"none", DurationDistribution::Shape::kNone, "none"},
      {"fixed:30s", DurationDistribution::Shape::kFixed, "fixed:30s"},
      {"fixed:1m30s", DurationDistribution::Shape::kFixed, "fixed:1m30s"},
      {"uniform:10s-60s", DurationDistribution::Shape::kUniform, "uniform:10s-1m0s"},
      {"uniform:5s-5s", DurationDistribution::Shape::kUniform, "uniform:5s-5s"},
      {"exp:30s", DurationDistribution::Shape::kExponential, "exp:30s"},
  };
  for (const Case& c : cases) {
    core::Result<DurationDistribution> d = DurationDistribution::Parse(c.text);
    ASSERT_TRUE(d.has_value()) << c.text << ": " << d.error().message();
    EXPECT_EQ(d->shape(), c.shape) << c.text;
    EXPECT_EQ(d->ToString(), c.canonical);
    EXPECT_EQ(DurationDistribution::Parse(d->ToString())->ToString(), c.canonical);
  }
  for (const char* bad : {"", "fixed", "fixed:", "fixed:-5s", "fixed:5", "uniform:10s",
                          "uniform:60s-10s", "uniform:-1s-5s", "exp:", "gauss:5s", "NONE"}) {
    EXPECT_FALSE(DurationDistribution::Parse(bad).has_value()) << bad;
  }
}

TEST(DurationsTest, SamplesWithinBoundsAndDeterministically) {
  const DurationDistribution none = *DurationDistribution::Parse("none");
  EXPECT_FALSE(none.Sample(0.5).has_value());
  EXPECT_EQ(DurationDistribution::Parse("fixed:30s")->Sample(0.9), 30 * kS);
  const DurationDistribution uniform = *DurationDistribution::Parse("uniform:10s-60s");
  EXPECT_EQ(uniform.Sample(0.0), 10 * kS);
  EXPECT_EQ(uniform.Sample(0.5), 35 * kS);
  EXPECT_LE(*uniform.Sample(0.999999999), 60 * kS);
  const DurationDistribution exp = *DurationDistribution::Parse("exp:30s");
  EXPECT_EQ(exp.Sample(0.0), 0);
  // The median of an exponential is mean * ln 2.
  EXPECT_NEAR(static_cast<double>(*exp.Sample(0.5)), 30.0 * kS * 0.6931471805599453, 1e3);
  EXPECT_LE(*exp.Sample(0.9999999999999), 100 * 30 * kS);
  double sum = 0;
  std::set<int64_t> distinct;
  for (uint64_t i = 0; i < 2000; ++i) {
    const double u = UnitInterval(i * 0x9e3779b97f4a7c15ULL);
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    const int64_t v = *exp.Sample(u);
    sum += static_cast<double>(v);
    distinct.insert(v);
  }
  EXPECT_NEAR(sum / 2000 / kS, 30.0, 3.0);
  EXPECT_GT(distinct.size(), 1900u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::member
