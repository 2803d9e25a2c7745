// SharedEgress: max-min fair shares of an origin's egress, checked by hand.
#include "data/internal/shared_egress.h"

#include <gtest/gtest.h>

#include <vector>

namespace berth::data::internal {
namespace BERTH_UNITY_ID {

TEST(SharedEgressTest, CappedPullKeepsItsCapOthersSplitTheRest) {
  SharedEgress e(1.0);    // 1 byte/s
  e.Add(0, 1.0, 0.2, 0);  // capped at 0.2
  e.Add(1, 2.4, 5.0, 0);  // gets 1 − 0.2 = 0.8
  EXPECT_EQ(e.active(), 2);
  EXPECT_DOUBLE_EQ(e.NextCompletion(), 3.0);  // 2.4 / 0.8
  std::vector<int32_t> done;
  e.PopCompleted(3.0, &done);
  EXPECT_EQ(done, std::vector<int32_t>{1});
  // Pull 0 served 0.6 by t=3; 0.4 left at its cap 0.2 → 2 s more.
  EXPECT_DOUBLE_EQ(e.NextCompletion(), 5.0);
  done.clear();
  e.PopCompleted(5.0, &done);
  EXPECT_EQ(done, std::vector<int32_t>{0});
  EXPECT_EQ(e.active(), 0);
}

TEST(SharedEgressTest, EqualPullsFinishTogether) {
  SharedEgress e(4.0);
  for (int32_t i = 0; i < 8; ++i) e.Add(i, 1.0, 10.0, 0);  // 0.5 each
  EXPECT_DOUBLE_EQ(e.NextCompletion(), 2.0);
  std::vector<int32_t> done;
  e.PopCompleted(2.0, &done);
  EXPECT_EQ(done.size(), 8u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::data::internal
