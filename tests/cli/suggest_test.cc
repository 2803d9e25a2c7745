// Closest: the "did you mean" of a mistyped command or flag, and the distance it rests on.
#include <gtest/gtest.h>

#include "cli/suggest.h"

namespace berth::cli {
namespace BERTH_UNITY_ID {

TEST(SuggestTest, EditDistanceCountsASwapOnce) {
  EXPECT_EQ(EditDistance("plan", "plan"), 0u);
  EXPECT_EQ(EditDistance("plna", "plan"), 1u);
  EXPECT_EQ(EditDistance("pln", "plan"), 1u);
  EXPECT_EQ(EditDistance("scorng", "scoring"), 1u);
  EXPECT_EQ(EditDistance("", "up"), 2u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
}

TEST(SuggestTest, ClosestWithinTwoEditsOrAUniquePrefix) {
  const std::vector<std::string> commands{"plan", "explain", "demo", "inventory", "simulate", "serve", "up"};
  EXPECT_EQ(Closest("plna", commands), "plan");
  EXPECT_EQ(Closest("simulat", commands), "simulate");
  EXPECT_EQ(Closest("inventroy", commands), "inventory");
  EXPECT_EQ(Closest("inv", commands), "inventory");  // a unique prefix
  EXPECT_EQ(Closest("s", commands), std::nullopt);   // "simulate" and "serve": ambiguous
  EXPECT_EQ(Closest("ps", commands), std::nullopt);  // short words allow one edit: not "up"
  EXPECT_EQ(Closest("frobnicate", commands), std::nullopt);
  EXPECT_EQ(Closest("", commands), std::nullopt);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
