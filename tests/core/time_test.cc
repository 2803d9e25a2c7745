// RFC 3339 timestamps.
#include "core/time.h"

#include <gtest/gtest.h>

namespace berth::core {
namespace BERTH_UNITY_ID {

int64_t ParsedSeconds(const char* text) {
  Result<Timestamp> t = Timestamp::Parse(text);
  if (!t.has_value()) {
    ADD_FAILURE() << text << ": " << t.error().ToString();
    return -1;
  }
  return t->unix_s;
}

TEST(TimestampTest, ParsesUtc) {
  EXPECT_EQ(ParsedSeconds("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParsedSeconds("1970-01-02T00:00:00Z"), 86400);
  EXPECT_EQ(ParsedSeconds("2000-03-01T00:00:00Z"), 951868800);
  EXPECT_EQ(ParsedSeconds("2024-02-29T12:34:56Z"), 1709210096);
  EXPECT_EQ(ParsedSeconds("2026-01-02T03:04:05Z"), 1767323045);
  EXPECT_EQ(ParsedSeconds("2038-01-19T03:14:08Z"), 2147483648);
  EXPECT_EQ(ParsedSeconds("1969-12-31T23:59:59Z"), -1);
  EXPECT_EQ(ParsedSeconds("1900-01-01T00:00:00Z"), -2208988800);
  EXPECT_EQ(ParsedSeconds("9999-12-31T23:59:59Z"), 253402300799);
  EXPECT_EQ(ParsedSeconds("0000-01-01T00:00:00Z"), -62167219200);
}

TEST(TimestampTest, AppliesOffsets) {
  EXPECT_EQ(ParsedSeconds("2026-01-02T05:04:05+02:00"), 1767323045);
  EXPECT_EQ(ParsedSeconds("2026-01-01T22:04:05-05:00"), 1767323045);
  EXPECT_EQ(ParsedSeconds("2026-01-02T08:34:05+05:30"), 1767323045);
  EXPECT_EQ(ParsedSeconds("2026-01-02T03:04:05+00:00"), 1767323045);
  EXPECT_EQ(ParsedSeconds("2026-01-02T03:04:05-00:00"), 1767323045);
  // Across a year boundary.
  EXPECT_EQ(ParsedSeconds("2025-12-31T23:00:00-01:00"), ParsedSeconds("2026-01-01T00:00:00Z"));
}

TEST(TimestampTest, DropsFractionalSeconds) {
  EXPECT_EQ(ParsedSeconds("2026-01-02T03:04:05.999999999Z"), 1767323045);
  EXPECT_EQ(ParsedSeconds("2026-01-02T03:04:05.5+01:00"), 1767323045 - 3600);
  EXPECT_EQ(ParsedSeconds("1969-12-31T23:59:59.5Z"), -1);  // floor: still second -1
  EXPECT_EQ(ParsedSeconds("2026-01-02t03:04:05z"), 1767323045);
}

TEST(TimestampTest, RejectsMalformed) {
  const char* kBad[] = {
      "",
      "2026-01-02",
      "2026-01-02T03:04:05",   // no zone
      "2026-01-02 03:04:05Z",  // space
      "2026-1-02T03:04:05Z",
      "26-01-02T03:04:05Z",
      "2026-01-02T03:04Z",
      "2026-01-02T03:04:05.Z",  // fraction without digits
      "2026-01-02T03:04:05+0200",
      "2026-01-02T03:04:05+02",
      "2026-01-02T03:04:05ZZ",
      "2026-01-02T03:04:05Z ",
      "2026-13-01T00:00:00Z",
      "2026-00-01T00:00:00Z",
      "2026-02-29T00:00:00Z",  // not a leap year
      "1900-02-29T00:00:00Z",  // century, not a leap year
      "2026-04-31T00:00:00Z",
      "2026-01-00T00:00:00Z",
      "2026-01-02T24:00:00Z",
      "2026-01-02T23:60:00Z",
      "2026-01-02T23:59:60Z",  // Go rejects leap seconds too
      "2026-01-02T03:04:05+24:00",
      "2026-01-02T03:04:05+01:60",
      "+2026-01-02T03:04:05Z",
      "2026-01-02T03:04:05UTC",
  };
  for (const char* text : kBad) {
    Result<Timestamp> t = Timestamp::Parse(text);
    EXPECT_FALSE(t.has_value()) << "\"" << text << "\" parsed as " << t->unix_s;
    if (!t.has_value()) {
      EXPECT_EQ(t.error().code(), ErrorCode::kInvalidArgument);
      EXPECT_NE(t.error().message().find("RFC 3339"), std::string::npos);
    }
  }
  EXPECT_TRUE(Timestamp::Parse("2000-02-29T00:00:00Z").has_value());  // 400-year leap
}

TEST(TimestampTest, PrintsUtc) {
  EXPECT_EQ(Timestamp{0}.ToString(), "1970-01-01T00:00:00Z");
  EXPECT_EQ(Timestamp{1767323045}.ToString(), "2026-01-02T03:04:05Z");
  EXPECT_EQ(Timestamp{-1}.ToString(), "1969-12-31T23:59:59Z");
  EXPECT_EQ(Timestamp{-86400}.ToString(), "1969-12-31T00:00:00Z");
  EXPECT_EQ(Timestamp{-86401}.ToString(), "1969-12-30T23:59:59Z");
  EXPECT_EQ(Timestamp{1709210096}.ToString(), "2024-02-29T12:34:56Z");
  EXPECT_EQ(Timestamp{253402300799}.ToString(), "9999-12-31T23:59:59Z");
  EXPECT_EQ(Timestamp{-62167219200}.ToString(), "0000-01-01T00:00:00Z");
}

TEST(TimestampTest, RoundTripsEveryDayOfFourHundredYears) {
  // Every day of a full Gregorian cycle, at a time of day that varies with it.
  const int64_t start = Timestamp::Parse("1800-01-01T00:00:00Z")->unix_s;
  for (int64_t day = 0; day < 146097; ++day) {
    Timestamp t{start + day * 86400 + (day * 7919) % 86400};
    Result<Timestamp> back = Timestamp::Parse(t.ToString());
    ASSERT_TRUE(back.has_value()) << t.ToString();
    ASSERT_EQ(back->unix_s, t.unix_s) << t.ToString();
  }
}

TEST(TimestampTest, Orders) {
  EXPECT_LT(Timestamp{1}, Timestamp{2});
  EXPECT_EQ(Timestamp{5}, Timestamp{5});
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::core
