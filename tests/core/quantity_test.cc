// Quantity parsing and printing, against the cases of upstream's quantity_test.go
// (k8s.io/apimachinery/pkg/api/resource), restated in milli-units.
#include "core/quantity.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace berth::core {
namespace BERTH_UNITY_ID {

using Format = Quantity::Format;

// 10^n as Int128.
Int128 Pow10(int n) {
  Int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

Int128 Pow2(int n) { return static_cast<Int128>(1) << n; }

std::string Int128String(Int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  std::string out;
  while (v != 0) {
    int digit = static_cast<int>(v % 10);
    out.insert(out.begin(), static_cast<char>('0' + (digit < 0 ? -digit : digit)));
    v /= 10;
  }
  return negative ? "-" + out : out;
}

// Parses text, failing the test on error; returns its milli-units as a string so that
// failures print readably.
std::string ParsedMilli(const std::string& text) {
  Result<Quantity> q = Quantity::Parse(text);
  if (!q.has_value()) {
    ADD_FAILURE() << "Parse(\"" << text << "\"): " << q.error().ToString();
    return "<error>";
  }
  return Int128String(q->milli());
}

std::string Canonical(const std::string& text) {
  Result<Quantity> q = Quantity::Parse(text);
  if (!q.has_value()) {
    ADD_FAILURE() << "Parse(\"" << text << "\"): " << q.error().ToString();
    return "<error>";
  }
  return q->ToString();
}

struct ParseCase {
  const char* input;
  Int128 milli;
  Format format;
};

// Upstream TestQuantityParse, in milli-units. Values below a milli-unit are rounded up
// (upstream keeps nano precision, berth keeps milli).
const ParseCase kParseCases[] = {
    {"0", 0, Format::kDecimalSI},
    {"0n", 0, Format::kDecimalSI},
    {"0u", 0, Format::kDecimalSI},
    {"0m", 0, Format::kDecimalSI},
    {"0Ki", 0, Format::kBinarySI},
    {"0k", 0, Format::kDecimalSI},
    {"0Mi", 0, Format::kBinarySI},
    {"0M", 0, Format::kDecimalSI},
    {"0Gi", 0, Format::kBinarySI},
    {"0G", 0, Format::kDecimalSI},
    {"0Ti", 0, Format::kBinarySI},
    {"0T", 0, Format::kDecimalSI},
    {"1", 1000, Format::kDecimalSI},
    // Binary suffixes.
    {"1Ki", 1024 * 1000, Format::kBinarySI},
    {"8Ki", 8 * 1024 * 1000, Format::kBinarySI},
    {"7Mi", 7 * Pow2(20) * 1000, Format::kBinarySI},
    {"6Gi", 6 * Pow2(30) * 1000, Format::kBinarySI},
    {"5Ti", 5 * Pow2(40) * 1000, Format::kBinarySI},
    {"4Pi", 4 * Pow2(50) * 1000, Format::kBinarySI},
    {"3Ei", 3 * Pow2(60) * 1000, Format::kBinarySI},
    {"10Ti", 10 * Pow2(40) * 1000, Format::kBinarySI},
    {"100Ti", 100 * Pow2(40) * 1000, Format::kBinarySI},
    // Decimal suffixes.
    {"5n", 1, Format::kDecimalSI},
    {"4u", 1, Format::kDecimalSI},
    {"3m", 3, Format::kDecimalSI},
    {"9", 9000, Format::kDecimalSI},
    {"8k", 8 * Pow10(6), Format::kDecimalSI},
    {"50k", 5 * Pow10(7), Format::kDecimalSI},
    {"7M", 7 * Pow10(9), Format::kDecimalSI},
    {"6G", 6 * Pow10(12), Format::kDecimalSI},
    {"5T", 5 * Pow10(15), Format::kDecimalSI},
    {"40T", 4 * Pow10(16), Format::kDecimalSI},
    {"300T", 3 * Pow10(17), Format::kDecimalSI},
    {"2P", 2 * Pow10(18), Format::kDecimalSI},
    {"1E", Pow10(21), Format::kDecimalSI},
    // Decimal exponents.
    {"1E-3", 1, Format::kDecimalExponent},
    {"1e3", Pow10(6), Format::kDecimalExponent},
    {"1E6", Pow10(9), Format::kDecimalExponent},
    {"1e9", Pow10(12), Format::kDecimalExponent},
    {"1E12", Pow10(15), Format::kDecimalExponent},
    {"1e15", Pow10(18), Format::kDecimalExponent},
    {"1E18", Pow10(21), Format::kDecimalExponent},
    {"1e14", Pow10(17), Format::kDecimalExponent},
    {"1e13", Pow10(16), Format::kDecimalExponent},
    {"100.035k", 100035000, Format::kDecimalSI},
    // Things that look like floating point.
    {"0.001", 1, Format::kDecimalSI},
    {"0.0005k", 500, Format::kDecimalSI},
    {"0.005", 5, Format::kDecimalSI},
    {"0.05", 50, Format::kDecimalSI},
    {"0.5", 500, Format::kDecimalSI},
    {"0.00050k", 500, Format::kDecimalSI},
    {"0.00500", 5, Format::kDecimalSI},
    {"0.05000", 50, Format::kDecimalSI},
    {"0.50000", 500, Format::kDecimalSI},
    {"0.5e0", 500, Format::kDecimalExponent},
    {"0.5e-1", 50, Format::kDecimalExponent},
    {"0.5e-2", 5, Format::kDecimalExponent},
    {"10.035M", 10035 * Pow10(6), Format::kDecimalSI},
    {"1.2e3", 12 * Pow10(5), Format::kDecimalExponent},
    {"1.3E+6", 13 * Pow10(8), Format::kDecimalExponent},
    {"1.40e9", 14 * Pow10(11), Format::kDecimalExponent},
    {"1.53E12", 153 * Pow10(13), Format::kDecimalExponent},
    {"1.6e15", 16 * Pow10(17), Format::kDecimalExponent},
    {"1.7E18", 17 * Pow10(20), Format::kDecimalExponent},
    {"9.01", 9010, Format::kDecimalSI},
    {"8.1k", 8100000, Format::kDecimalSI},
    {"7.123456M", 7123456000, Format::kDecimalSI},
    {"6.987654321G", 6987654321000, Format::kDecimalSI},
    {"5.444T", 5444 * Pow10(12), Format::kDecimalSI},
    {"40.1T", 401 * Pow10(14), Format::kDecimalSI},
    {"300.2T", 3002 * Pow10(14), Format::kDecimalSI},
    {"2.5P", 25 * Pow10(17), Format::kDecimalSI},
    {"1.01E", 101 * Pow10(19), Format::kDecimalSI},
    // Things that round up to a milli-unit.
    {"3.001n", 1, Format::kDecimalSI},
    {"1.1E-9", 1, Format::kDecimalExponent},
    {"0.0000000001", 1, Format::kDecimalSI},
    {"0.0000000005", 1, Format::kDecimalSI},
    {"0.00000000050", 1, Format::kDecimalSI},
    {"0.5e-9", 1, Format::kDecimalExponent},
    {"0.9n", 1, Format::kDecimalSI},
    {"0.00000012345", 1, Format::kDecimalSI},
    {"0.0015", 2, Format::kDecimalSI},
    {"1.0001", 1001, Format::kDecimalSI},
    {"12E", 12 * Pow10(21), Format::kDecimalSI},
    // Fractional binary quantities.
    {"100.035Ki", 102435840, Format::kBinarySI},
    {"0.5Mi", 524288000, Format::kBinarySI},
    {"0.05Gi", 53687091200, Format::kBinarySI},
    {"0.025Ti", 27487790694400, Format::kBinarySI},
    // Things written by trolls. A binary quantity below one unit becomes DecimalSI.
    {"0.000000000001Ki", 1, Format::kDecimalSI},
    {".001", 1, Format::kDecimalSI},
    {".0001k", 100, Format::kDecimalSI},
    {"1.", 1000, Format::kDecimalSI},
    {"1.G", Pow10(12), Format::kDecimalSI},
    {"0.5Ki", 512000, Format::kBinarySI},
};

TEST(QuantityTest, ParsesUpstreamTable) {
  for (const ParseCase& c : kParseCases) {
    SCOPED_TRACE(c.input);
    Result<Quantity> q = Quantity::Parse(c.input);
    ASSERT_TRUE(q.has_value()) << q.error().ToString();
    EXPECT_EQ(Int128String(q->milli()), Int128String(c.milli));
    EXPECT_EQ(q->format(), c.format);
  }
}

TEST(QuantityTest, ParsesExplicitPlusSign) {
  for (const ParseCase& c : kParseCases) {
    SCOPED_TRACE(c.input);
    Result<Quantity> q = Quantity::Parse(std::string("+") + c.input);
    ASSERT_TRUE(q.has_value()) << q.error().ToString();
    EXPECT_EQ(Int128String(q->milli()), Int128String(c.milli));
    EXPECT_EQ(q->format(), c.format);
  }
}

TEST(QuantityTest, ParsesNegatives) {
  for (const ParseCase& c : kParseCases) {
    SCOPED_TRACE(c.input);
    Result<Quantity> q = Quantity::Parse(std::string("-") + c.input);
    ASSERT_TRUE(q.has_value()) << q.error().ToString();
    // Exact values negate; rounded ones (milli == 1 from a smaller input) round toward
    // +infinity, i.e. to zero.
    Result<Quantity> positive = Quantity::Parse(c.input);
    ASSERT_TRUE(positive.has_value());
    EXPECT_LE(q->milli(), 0);
    EXPECT_GE(q->milli(), -c.milli);
    EXPECT_EQ(q->format(), c.format);
  }
  EXPECT_EQ(ParsedMilli("-1"), "-1000");
  EXPECT_EQ(ParsedMilli("-1.5"), "-1500");
  EXPECT_EQ(ParsedMilli("-1Gi"), Int128String(-Pow2(30) * 1000));
  EXPECT_EQ(ParsedMilli("-9.01"), "-9010");
}

TEST(QuantityTest, NegativeValuesAreParsedNotRejected) {
  // Negativity is for callers to judge (requests must not be negative, deltas may be).
  Result<Quantity> q = Quantity::Parse("-1");
  ASSERT_TRUE(q.has_value());
  EXPECT_TRUE(q->IsNegative());
  EXPECT_FALSE(q->IsZero());
  EXPECT_EQ(q->ToString(), "-1");
}

TEST(QuantityTest, SubMilliPrecisionRoundsTowardPositiveInfinity) {
  EXPECT_EQ(ParsedMilli("1n"), "1");
  EXPECT_EQ(ParsedMilli("1u"), "1");
  EXPECT_EQ(ParsedMilli("1001u"), "2");
  EXPECT_EQ(ParsedMilli("1000u"), "1");
  EXPECT_EQ(ParsedMilli("1.5m"), "2");
  EXPECT_EQ(ParsedMilli("-1n"), "0");
  EXPECT_EQ(ParsedMilli("-1.5m"), "-1");
  EXPECT_EQ(ParsedMilli("-1001u"), "-1");
  EXPECT_EQ(ParsedMilli("1e-400"), "1");
  EXPECT_EQ(ParsedMilli("-1e-400"), "0");
  EXPECT_EQ(ParsedMilli("0.0000000000000000000000000000000000000000000001"), "1");
  EXPECT_EQ(ParsedMilli("1.000000000000000000000000000000000000000000000000001"), "1001");
}

TEST(QuantityTest, NegativeRoundingFollowsUpstreamNanoStep) {
  // Upstream first rounds the magnitude up to a nano-unit, then MilliValue takes the
  // ceiling: -0.9999999995m becomes -1n * 10^6 = -1m, while -0.999999m stays above -1m.
  EXPECT_EQ(ParsedMilli("-0.9999999995m"), "-1");
  EXPECT_EQ(ParsedMilli("-0.9999991m"), "-1");
  EXPECT_EQ(ParsedMilli("-0.999999m"), "0");
  EXPECT_EQ(ParsedMilli("-1.9999999995m"), "-2");
  EXPECT_EQ(ParsedMilli("-0.000000000001Ki"), "0");
}

TEST(QuantityTest, IgnoresRedundantZeros) {
  EXPECT_EQ(ParsedMilli("000000000000000000000000000000000000000000000001"), "1000");
  EXPECT_EQ(ParsedMilli("1.000000000000000000000000000000000000000000000000"), "1000");
  EXPECT_EQ(ParsedMilli("0000000000000000000000000000000000000000000000000e400"), "0");
  EXPECT_EQ(ParsedMilli("-0"), "0");
  EXPECT_EQ(ParsedMilli("0.0"), "0");
}

TEST(QuantityTest, AcceptsUpstreamShorthands) {
  EXPECT_EQ(ParsedMilli(".5"), "500");
  EXPECT_EQ(ParsedMilli("1."), "1000");
  EXPECT_EQ(ParsedMilli("1e+3"), "1000000");
  EXPECT_EQ(ParsedMilli("1e0"), "1000");
  EXPECT_EQ(ParsedMilli("1E"), Int128String(Pow10(21)));  // exa, not an exponent
}

TEST(QuantityTest, RejectsMalformedInput) {
  const char* kInvalid[] = {
      // Upstream's invalid list.
      "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 ",
      // More.
      "", "abc", "1.5.3", "1e", "1e+", "1e-", "1K", "1Q", "1KiB", "1Ki3", "--1", "+-1", "1,5",
      "1_000", "0x10", "1e3.5", "1Mi ", "\t1", "1e3e3",
      // No digit at all: upstream reads these as zero, berth rejects them.
      "-", "+", ".", "-.", "Ki", "m", "e3"};
  for (const char* text : kInvalid) {
    Result<Quantity> q = Quantity::Parse(text);
    EXPECT_FALSE(q.has_value()) << "\"" << text << "\" parsed as " << q->ToString();
    if (!q.has_value()) {
      EXPECT_EQ(q.error().code(), ErrorCode::kInvalidArgument) << text;
      EXPECT_NE(q.error().message().find("invalid quantity"), std::string::npos) << text;
      EXPECT_EQ(q.error().location(), Location{}) << text;
    }
  }
}

TEST(QuantityTest, OverflowIsOutOfRangeNeverAWrap) {
  const char* kTooBig[] = {
      "1e400",
      "-1e400",
      "99999999999999999999999999999999999999999E",
      "1e36",
      "2e35",
      "1e99999999999999999999999999",
      "170141183460469231731687303715884105728m",
      "-170141183460469231731687303715884105728m",
      "200000000000000000Ei",
      "1000000000000000000000000000000000000000000000000000000000000",
      "1234567890123456789012345678901234567890.5",
  };
  for (const char* text : kTooBig) {
    Result<Quantity> q = Quantity::Parse(text);
    ASSERT_FALSE(q.has_value()) << text << " parsed as " << q->ToString();
    EXPECT_EQ(q.error().code(), ErrorCode::kOutOfRange) << text;
  }
}

TEST(QuantityTest, LargestValuesFit) {
  // The Int128 bounds themselves (2^127 - 1 milli-units).
  EXPECT_EQ(ParsedMilli("170141183460469231731687303715884105727m"),
            "170141183460469231731687303715884105727");
  EXPECT_EQ(ParsedMilli("-170141183460469231731687303715884105727m"),
            "-170141183460469231731687303715884105727");
  EXPECT_EQ(ParsedMilli("1e35"), Int128String(Pow10(38)));
  EXPECT_EQ(ParsedMilli("100000000000000000Ei"), Int128String(Pow10(17) * Pow2(60) * 1000));
  // Upstream caps BinarySI at 2^63-1; berth keeps the exact value.
  EXPECT_EQ(ParsedMilli("9Ei"), Int128String(9 * Pow2(60) * 1000));
}

TEST(QuantityTest, MilliValueAndValue) {
  Result<Quantity> q = Quantity::Parse("1500m");
  ASSERT_TRUE(q.has_value());
  ASSERT_TRUE(q->MilliValue().has_value());
  EXPECT_EQ(*q->MilliValue(), 1500);
  ASSERT_TRUE(q->Value().has_value());
  EXPECT_EQ(*q->Value(), 2);  // rounded up

  struct {
    const char* text;
    int64_t value;
  } kValues[] = {{"1", 1},
                 {"1m", 1},
                 {"999m", 1},
                 {"1000m", 1},
                 {"1001m", 2},
                 {"-1m", 0},
                 {"-1500m", -1},
                 {"-1", -1},
                 {"0", 0},
                 {"1Ki", 1024},
                 {"1E", 1000000000000000000},
                 {"9223372036854775807", INT64_MAX}};
  for (const auto& c : kValues) {
    SCOPED_TRACE(c.text);
    Result<Quantity> parsed = Quantity::Parse(c.text);
    ASSERT_TRUE(parsed.has_value());
    Result<int64_t> value = parsed->Value();
    ASSERT_TRUE(value.has_value()) << value.error().ToString();
    EXPECT_EQ(*value, c.value);
  }
}

TEST(QuantityTest, MilliValueAndValueReportOutOfRange) {
  Result<Quantity> exa = Quantity::Parse("1E");
  ASSERT_TRUE(exa.has_value());
  ASSERT_FALSE(exa->MilliValue().has_value());
  EXPECT_EQ(exa->MilliValue().error().code(), ErrorCode::kOutOfRange);

  Result<Quantity> max = Quantity::Parse("9223372036854775807");
  ASSERT_TRUE(max.has_value());
  EXPECT_FALSE(max->MilliValue().has_value());
  EXPECT_TRUE(max->Value().has_value());

  Result<Quantity> ten_exa = Quantity::Parse("10E");
  ASSERT_TRUE(ten_exa.has_value());
  ASSERT_FALSE(ten_exa->Value().has_value());
  EXPECT_EQ(ten_exa->Value().error().code(), ErrorCode::kOutOfRange);

  Result<Quantity> negative = Quantity::Parse("-10E");
  ASSERT_TRUE(negative.has_value());
  EXPECT_FALSE(negative->Value().has_value());

  // Just inside and just outside the int64 milli range.
  Result<Quantity> edge = Quantity::Parse("9223372036854775807m");
  ASSERT_TRUE(edge.has_value());
  ASSERT_TRUE(edge->MilliValue().has_value());
  EXPECT_EQ(*edge->MilliValue(), INT64_MAX);
  Result<Quantity> past = Quantity::Parse("9223372036854775808m");
  ASSERT_TRUE(past.has_value());
  EXPECT_FALSE(past->MilliValue().has_value());
  Result<Quantity> low = Quantity::Parse("-9223372036854775808m");
  ASSERT_TRUE(low.has_value());
  ASSERT_TRUE(low->MilliValue().has_value());
  EXPECT_EQ(*low->MilliValue(), INT64_MIN);
}

struct StringCase {
  Int128 milli;
  Format format;
  const char* expect;
};

TEST(QuantityTest, PrintsCanonicalFormLikeUpstream) {
  // Upstream TestQuantityString, for the cases a milli-unit can hold.
  const StringCase kCases[] = {
      {Pow2(30) * 1000, Format::kBinarySI, "1Gi"},
      {300 * Pow2(20) * 1000, Format::kBinarySI, "300Mi"},
      {6 * 1024 * 1000, Format::kBinarySI, "6Ki"},
      {1001 * Pow2(30) * 1000, Format::kBinarySI, "1001Gi"},
      {Pow2(40) * 1000, Format::kBinarySI, "1Ti"},
      {5000, Format::kBinarySI, "5"},
      {500, Format::kBinarySI, "500m"},
      {Pow10(12), Format::kDecimalSI, "1G"},
      {1, Format::kDecimalSI, "1m"},
      {80, Format::kDecimalSI, "80m"},
      {1080, Format::kDecimalSI, "1080m"},
      {300 * Pow10(9), Format::kDecimalSI, "300M"},
      {Pow10(15), Format::kDecimalSI, "1T"},
      {Pow10(21), Format::kDecimalSI, "1E"},
      // DecimalSI has no suffix beyond E: exponent notation instead of a lost magnitude.
      {Pow10(24), Format::kDecimalSI, "1e21"},
      {5 * Pow10(24), Format::kDecimalSI, "5e21"},
      {Pow10(27), Format::kDecimalSI, "1e24"},
      {1234567 * Pow10(9), Format::kDecimalSI, "1234567M"},
      {1234567, Format::kBinarySI, "1234567m"},
      {3 * Pow10(6), Format::kDecimalSI, "3k"},
      {1025 * 1000, Format::kBinarySI, "1025"},
      {0, Format::kDecimalSI, "0"},
      {0, Format::kBinarySI, "0"},
      {0, Format::kDecimalExponent, "0"},
      {Pow10(12), Format::kDecimalExponent, "1e9"},
      {1, Format::kDecimalExponent, "1e-3"},
      {80, Format::kDecimalExponent, "80e-3"},
      {300 * Pow10(9), Format::kDecimalExponent, "300e6"},
      {Pow10(15), Format::kDecimalExponent, "1e12"},
      {Pow10(6), Format::kDecimalExponent, "1e3"},
      {3 * Pow10(6), Format::kDecimalExponent, "3e3"},
      {1000, Format::kDecimalExponent, "1"},
      // Upstream TestMilliNewSet / TestNewSet.
      {1, Format::kDecimalSI, "1m"},
      {1000, Format::kDecimalSI, "1"},
      {1234000, Format::kDecimalSI, "1234"},
      {1024, Format::kBinarySI, "1024m"},
      {1024 * 1024, Format::kBinarySI, "1048576m"},
      {Pow10(6), Format::kDecimalSI, "1k"},
      {1234 * Pow10(6), Format::kDecimalSI, "1234k"},
      {1024 * 1000, Format::kBinarySI, "1Ki"},
      {Pow10(9), Format::kDecimalExponent, "1e6"},
      {Pow2(20) * 1000, Format::kBinarySI, "1Mi"},
      // Beyond Ei the power stays at Ei.
      {Pow2(70) * 1000, Format::kBinarySI, "1024Ei"},
  };
  for (const StringCase& c : kCases) {
    SCOPED_TRACE(c.expect);
    Quantity q = Quantity::FromMilli(c.milli, c.format);
    EXPECT_EQ(q.ToString(), c.expect);
    if (c.milli != 0) {
      EXPECT_EQ(Quantity::FromMilli(-c.milli, c.format).ToString(), std::string("-") + c.expect);
    }
    // The canonical string parses back to the same value.
    Result<Quantity> back = Quantity::Parse(c.expect);
    ASSERT_TRUE(back.has_value()) << back.error().ToString();
    EXPECT_EQ(back->milli(), c.milli);
  }
}

TEST(QuantityTest, ParseThenPrint) {
  struct {
    const char* in;
    const char* out;
  } kCases[] = {
      {"1Ki", "1Ki"},       {"1Mi", "1Mi"},        {"1Gi", "1Gi"},       {"1024Mi", "1Gi"},
      {"1000M", "1G"},      {".001Ki", "1024m"},   {"1500m", "1500m"},   {"1000m", "1"},
      {"1500000", "1500k"}, {"2000000", "2M"},     {"100m", "100m"},     {"1.5", "1500m"},
      {"1.5Gi", "1536Mi"},  {"1.5Ki", "1536"},     {"1536", "1536"},     {"0.5Ki", "512"},
      {"1023Ki", "1023Ki"}, {"1.1Ki", "1126400m"}, {"2048Ei", "2048Ei"}, {"1e3", "1e3"},
      {"1.5e3", "1500"},    {"1.5", "1500m"},      {"1.5e0", "1500e-3"}, {"12e1", "120"},
      {"1e-3", "1e-3"},     {"1000E", "1e21"},     {"100E", "100E"},     {"-1.5Gi", "-1536Mi"},
      {"-0", "0"},          {"-0.5Ki", "-512"},    {"0Gi", "0"},         {"1n", "1m"},
      {"16Gi", "16Gi"},     {"500m", "500m"},      {"1k", "1k"},         {"1000", "1k"},
      {"0.1", "100m"},      {"10", "10"},          {"1024", "1024"},     {"4096Ki", "4Mi"},
  };
  for (const auto& c : kCases) {
    EXPECT_EQ(Canonical(c.in), c.out) << c.in;
  }
}

TEST(QuantityTest, FactoriesAndPredicates) {
  Quantity units = Quantity::FromUnits(3);
  EXPECT_EQ(units.milli(), 3000);
  EXPECT_TRUE(units.IsInteger());
  EXPECT_EQ(units.format(), Format::kDecimalSI);
  EXPECT_EQ(Quantity::FromUnits(INT64_MIN).milli(), static_cast<Int128>(INT64_MIN) * 1000);
  EXPECT_EQ(Quantity::FromUnits(2048, Format::kBinarySI).ToString(), "2Ki");

  Quantity fraction = Quantity::FromMilli(1500);
  EXPECT_FALSE(fraction.IsInteger());
  EXPECT_FALSE(fraction.IsNegative());
  EXPECT_TRUE(Quantity().IsZero());
  EXPECT_EQ(Quantity().ToString(), "0");
  EXPECT_TRUE(Quantity::FromMilli(-2000).IsInteger());
}

TEST(QuantityTest, ArithmeticAndComparison) {
  Quantity a = *Quantity::Parse("100m");
  Quantity b = *Quantity::Parse("50m");
  EXPECT_GT(a, b);
  EXPECT_LT(b, a);
  EXPECT_EQ(a + b, *Quantity::Parse("150m"));
  EXPECT_EQ((a - b).milli(), 50);
  EXPECT_EQ((b - a).ToString(), "-50m");
  EXPECT_GT(*Quantity::Parse("10000T"), *Quantity::Parse("100Gi"));
  EXPECT_EQ(*Quantity::Parse("1k"), *Quantity::Parse("1000"));
  EXPECT_EQ(*Quantity::Parse("1Ki"), *Quantity::Parse("1024"));

  // Upstream: adding or subtracting zero keeps the suffix, in either order.
  Quantity zero = *Quantity::Parse("0");
  for (const char* text : {"100m", "1Gi"}) {
    Quantity v = *Quantity::Parse(text);
    EXPECT_EQ((v + zero).ToString(), text);
    EXPECT_EQ((zero + v).ToString(), text);
    EXPECT_EQ((v - zero).ToString(), text);
    EXPECT_EQ((zero - v).ToString(), std::string("-") + text);
  }
}

TEST(QuantityTest, ArithmeticSaturatesInsteadOfWrapping) {
  const Int128 max = Quantity::Parse("170141183460469231731687303715884105727m")->milli();
  Quantity big = Quantity::FromMilli(max);
  EXPECT_EQ((big + Quantity::FromMilli(1)).milli(), max);
  EXPECT_EQ((Quantity::FromMilli(-max) - Quantity::FromMilli(2)).milli(), -max - 1);
  EXPECT_EQ((big - Quantity::FromMilli(-1)).milli(), max);
  EXPECT_GT((big + big), Quantity());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::core
