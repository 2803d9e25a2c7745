// Cell parsers of the trace readers: durations, seconds, wall clock, quantities, counts.
#include <gtest/gtest.h>

#include <string>

#include "sim/trace/internal/fields.h"
#include "sim/trace/internal/text.h"

namespace berth::sim::trace_internal {
namespace BERTH_UNITY_ID {

int64_t Duration(const std::string& text) {
  core::Result<int64_t> r = ParseDuration(text);
  EXPECT_TRUE(r.has_value()) << text << ": " << (r.has_value() ? "" : r.error().message());
  return r.has_value() ? *r : -1;
}

TEST(TraceFieldsTest, DurationAcceptsSecondsAndUnits) {
  EXPECT_EQ(Duration("90"), 90);
  EXPECT_EQ(Duration("0"), 0);
  EXPECT_EQ(Duration("90s"), 90);
  EXPECT_EQ(Duration("15m"), 900);
  EXPECT_EQ(Duration("2h"), 7200);
  EXPECT_EQ(Duration("1d"), 86400);
  EXPECT_EQ(Duration("1h30m"), 5400);
  EXPECT_EQ(Duration("1d2h3m4s"), 86400 + 7200 + 180 + 4);
  EXPECT_EQ(Duration("1.5h"), 5400);
  EXPECT_EQ(Duration(".5m"), 30);
}

TEST(TraceFieldsTest, DurationRoundsFractionsUp) {
  EXPECT_EQ(Duration("66.0"), 66);
  EXPECT_EQ(Duration("66.01"), 67);
  EXPECT_EQ(Duration("0.0000000001"), 1);  // beyond nine fraction digits still counts
  EXPECT_EQ(Duration("0.001m"), 1);        // 0.06 s
}

TEST(TraceFieldsTest, DurationRejectsMalformedText) {
  for (const char* bad : {"", "15x", "h", "1h30", "1.2.3s", "5 m", "1e3", "m5"}) {
    core::Result<int64_t> r = ParseDuration(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code(), core::ErrorCode::kInvalidArgument) << bad;
    EXPECT_NE(r.error().message().find("not a duration"), std::string::npos)
        << bad << ": " << r.error().message();
  }
  core::Result<int64_t> negative = ParseDuration("-5m");
  ASSERT_FALSE(negative.has_value());
  EXPECT_EQ(negative.error().message(), "\"-5m\" must not be negative");
}

TEST(TraceFieldsTest, DurationOverflowIsOutOfRange) {
  for (const char* huge : {"99999999999999999999", "999999999999999d", "9223372036854775807s1s"}) {
    core::Result<int64_t> r = ParseDuration(huge);
    ASSERT_FALSE(r.has_value()) << huge;
    EXPECT_EQ(r.error().code(), core::ErrorCode::kOutOfRange) << huge;
  }
}

// Issue 14: a coldStart of 9223372036854775807 seconds parsed, then wrapped when the
// scenario turned it into milliseconds. Times and durations stop at 100 years.
TEST(TraceFieldsTest, DurationAndSecondsStopAtOneHundredYears) {
  EXPECT_EQ(Duration("36525d"), kMaxDurationSeconds);
  EXPECT_EQ(ParseSeconds("3155760000").value(), kMaxDurationSeconds);
  for (const char* huge : {"9223372036854775807", "36525d1s", "106751991167d", "3155760001"}) {
    core::Result<int64_t> r = ParseDuration(huge);
    ASSERT_FALSE(r.has_value()) << huge;
    EXPECT_EQ(r.error().code(), core::ErrorCode::kOutOfRange) << huge;
    EXPECT_NE(r.error().message().find("\" is too large: at most 36525d (100 years)"),
              std::string::npos)
        << r.error().message();
  }
  core::Result<int64_t> seconds = ParseSeconds("3155760001");
  ASSERT_FALSE(seconds.has_value());
  EXPECT_EQ(seconds.error().code(), core::ErrorCode::kOutOfRange);
}

TEST(TraceFieldsTest, SecondsAreDecimalOnly) {
  EXPECT_EQ(ParseSeconds("860662.0").value(), 860662);
  EXPECT_EQ(ParseSeconds("1.25").value(), 2);
  EXPECT_FALSE(ParseSeconds("15m").has_value());
  EXPECT_FALSE(ParseSeconds("-1").has_value());
  EXPECT_FALSE(ParseSeconds("").has_value());
}

TEST(TraceFieldsTest, WallClockIsExactAndValidated) {
  // 2017-09-04 10:30:41 is 1504521041 s after 1970-01-01 00:00:00 (date -u -d ... +%s).
  EXPECT_EQ(ParseWallClock("2017-09-04 10:30:41").value(), 1504521041);
  EXPECT_EQ(ParseWallClock("1970-01-01 00:00:00").value(), 0);
  // Leap day and the day after.
  EXPECT_EQ(ParseWallClock("2016-03-01 00:00:00").value() -
                ParseWallClock("2016-02-29 00:00:00").value(),
            86400);
  for (const char* bad : {"2017-02-29 00:00:00", "2017-13-01 00:00:00", "2017-09-04 24:00:00",
                          "2017-09-04T10:30:41", "2017-09-04 10:30", "17-09-04 10:30:41",
                          "2017-09-04 10:30:4x"}) {
    EXPECT_FALSE(ParseWallClock(bad).has_value()) << bad;
  }
}

TEST(TraceFieldsTest, CpuAndMemoryAreKubernetesQuantities) {
  EXPECT_EQ(ParseCpuMilli("500m").value(), 500);
  EXPECT_EQ(ParseCpuMilli("2").value(), 2000);
  EXPECT_EQ(ParseCpuMilli("1.5").value(), 1500);
  EXPECT_EQ(ParseMemoryBytes("16Gi").value(), int64_t{16} << 30);
  EXPECT_EQ(ParseMemoryBytes("1e9").value(), 1000000000);
  EXPECT_EQ(ParseMemoryBytes("1500M").value(), 1500000000);
  EXPECT_EQ(ParseMemoryBytes("1.5").value(), 2);  // bytes round up, as upstream Value()
  EXPECT_FALSE(ParseCpuMilli("2 cores").has_value());
  EXPECT_FALSE(ParseMemoryBytes("16GB").has_value());
  core::Result<int64_t> negative = ParseMemoryBytes("-1Gi");
  ASSERT_FALSE(negative.has_value());
  EXPECT_NE(negative.error().message().find("must not be negative"), std::string::npos);
}

TEST(TraceFieldsTest, CountsAreWholeAndBounded) {
  EXPECT_EQ(ParseCount("8").value(), 8);
  EXPECT_EQ(ParseCount("+8").value(), 8);
  EXPECT_FALSE(ParseCount("1.0").has_value());
  EXPECT_FALSE(ParseCount("-1").has_value());
  EXPECT_EQ(ParseCount("2147483648").error().code(), core::ErrorCode::kOutOfRange);
  EXPECT_EQ(ParseInt32("-100").value(), -100);
  EXPECT_EQ(ParseInt64("9223372036854775808").error().code(), core::ErrorCode::kOutOfRange);
}

TEST(TraceFieldsTest, CsvSplitterHandlesQuotesAndSpaces) {
  CsvSplitter splitter;
  std::vector<std::string_view> fields;
  ASSERT_TRUE(splitter.Split(R"(a, "b,c" ,"say ""hi""",,x )", fields).ok());
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_EQ(fields[0], "a");
  EXPECT_EQ(fields[1], "b,c");
  EXPECT_EQ(fields[2], "say \"hi\"");
  EXPECT_EQ(fields[3], "");
  EXPECT_EQ(fields[4], "x");
  ASSERT_TRUE(splitter.Split("a,", fields).ok());
  EXPECT_EQ(fields.size(), 2u);
  EXPECT_FALSE(splitter.Split(R"(a,"unterminated)", fields).ok());
  EXPECT_FALSE(splitter.Split(R"(a,"b"c)", fields).ok());
  EXPECT_FALSE(splitter.Split(R"(a,b"c)", fields).ok());
}

TEST(TraceFieldsTest, LineCursorNumbersLinesAndDropsCrAndBom) {
  LineCursor lines("\xEF\xBB\xBFh1\r\nrow2\n\nrow4");
  std::string_view line;
  int64_t n = 0;
  ASSERT_TRUE(lines.Next(&line, &n));
  EXPECT_EQ(line, "h1");
  EXPECT_EQ(n, 1);
  ASSERT_TRUE(lines.Next(&line, &n));
  EXPECT_EQ(line, "row2");
  ASSERT_TRUE(lines.Next(&line, &n));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(lines.Next(&line, &n));
  EXPECT_EQ(line, "row4");
  EXPECT_EQ(n, 4);
  EXPECT_FALSE(lines.Next(&line, &n));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::trace_internal
