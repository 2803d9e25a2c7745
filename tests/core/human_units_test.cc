#include "core/human_units.h"

#include <gtest/gtest.h>

#include <limits>

namespace berth::core {
namespace BERTH_UNITY_ID {

TEST(HumanUnitsTest, DurationTwoLargestUnits) {
  EXPECT_EQ(HumanDuration(0), "0s");
  EXPECT_EQ(HumanDuration(0.4), "0s");
  EXPECT_EQ(HumanDuration(40), "40s");
  EXPECT_EQ(HumanDuration(59.6), "1m");
  EXPECT_EQ(HumanDuration(200), "3m 20s");
  EXPECT_EQ(HumanDuration(180), "3m");
  EXPECT_EQ(HumanDuration(5 * 3600 + 4 * 60 + 59), "5h 4m");
  EXPECT_EQ(HumanDuration(7200), "2h");
  EXPECT_EQ(HumanDuration(2 * 86400 + 3 * 3600 + 120), "2d 3h");
  EXPECT_EQ(HumanDuration(-90), "-1m 30s");
}

TEST(HumanUnitsTest, DurationOddValues) {
  EXPECT_EQ(HumanDuration(std::numeric_limits<double>::quiet_NaN()), "-");
  EXPECT_EQ(HumanDuration(std::numeric_limits<double>::infinity()), "11574074074d 1h");
}

TEST(HumanUnitsTest, SecondsKeepADecimalBelowAMinute) {
  EXPECT_EQ(HumanSeconds(0), "0.0s");
  EXPECT_EQ(HumanSeconds(56.06), "56.1s");
  EXPECT_EQ(HumanSeconds(59.94), "59.9s");
  EXPECT_EQ(HumanSeconds(60), "1m");
  EXPECT_EQ(HumanSeconds(507.2), "8m 27s");
  EXPECT_EQ(HumanSeconds(std::numeric_limits<double>::quiet_NaN()), "-");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::core
