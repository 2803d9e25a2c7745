#include "queueing/quota_tree.h"

#include <gtest/gtest.h>

namespace berth::queueing {
namespace BERTH_UNITY_ID {

// Nodes 0 and 1 are ClusterQueues under cohort 2 (the root); one FR.
QuotaTree Flat(int64_t q0, int64_t q1, std::optional<int64_t> borrow0 = std::nullopt,
               std::optional<int64_t> lend0 = std::nullopt) {
  QuotaTree t(3, 1);
  t.SetParent(0, 2);
  t.SetParent(1, 2);
  t.SetQuota(0, 0, q0, borrow0, lend0);
  t.SetQuota(1, 0, q1, std::nullopt, std::nullopt);
  t.Finalize();
  return t;
}

TEST(QuotaTreeTest, SubtreeQuotaSumsChildren) {
  QuotaTree t = Flat(4, 6);
  EXPECT_EQ(t.SubtreeQuota(2, 0), 10);
  EXPECT_EQ(t.Height(2), 1);
  EXPECT_EQ(t.Height(0), 0);
  EXPECT_EQ(t.Available(0, 0), 10);  // all of the cohort may be borrowed
  EXPECT_EQ(t.PotentialAvailable(0, 0), 10);
}

TEST(QuotaTreeTest, LendingLimitKeepsLocalQuota) {
  QuotaTree t = Flat(4, 6, std::nullopt, 1);  // cq0 lends only 1 of its 4
  EXPECT_EQ(t.LocalQuota(0, 0), 3);
  EXPECT_EQ(t.SubtreeQuota(2, 0), 7);
  EXPECT_EQ(t.Available(0, 0), 10);
  EXPECT_EQ(t.Available(1, 0), 7);
  t.AddUsage(1, 0, 7);
  EXPECT_EQ(t.Available(0, 0), 3);  // only its guaranteed part is left
  EXPECT_EQ(t.Available(1, 0), 0);
}

TEST(QuotaTreeTest, BorrowingLimitCapsAvailable) {
  QuotaTree t = Flat(4, 6, 2);
  EXPECT_EQ(t.Available(0, 0), 6);
  EXPECT_EQ(t.PotentialAvailable(0, 0), 6);
  t.AddUsage(0, 0, 5);
  EXPECT_EQ(t.Available(0, 0), 1);
  EXPECT_TRUE(t.IsBorrowing(0, 0));
}

TEST(QuotaTreeTest, UsageBubblesBeyondLocalHeadroomAndRemovesBack) {
  QuotaTree t = Flat(4, 6, std::nullopt, 1);  // local quota 3
  t.AddUsage(0, 0, 5);
  EXPECT_EQ(t.Usage(0, 0), 5);
  EXPECT_EQ(t.Usage(2, 0), 2);  // 3 stayed local
  t.RemoveUsage(0, 0, 1);
  EXPECT_EQ(t.Usage(2, 0), 1);
  t.RemoveUsage(0, 0, 4);
  EXPECT_EQ(t.Usage(0, 0), 0);
  EXPECT_EQ(t.Usage(2, 0), 0);
}

TEST(QuotaTreeTest, RootWithoutParentUsesItsOwnQuota) {
  QuotaTree t(1, 1);
  t.SetQuota(0, 0, 5, std::nullopt, std::nullopt);
  t.Finalize();
  t.AddUsage(0, 0, 2);
  EXPECT_EQ(t.Available(0, 0), 3);
  EXPECT_EQ(t.LowestSubtreeThatFits(0, 0, 9), std::make_pair(0, false));
}

TEST(QuotaTreeTest, LowestSubtreeThatFitsWalksHierarchy) {
  // cq0 and cq1 under cohort 3 (with 2 more of its own), cq2 under root 4 with cohort 3.
  QuotaTree t(5, 1);
  t.SetParent(0, 3);
  t.SetParent(1, 3);
  t.SetParent(2, 4);
  t.SetParent(3, 4);
  t.SetQuota(0, 0, 2, std::nullopt, std::nullopt);
  t.SetQuota(1, 0, 2, std::nullopt, std::nullopt);
  t.SetQuota(2, 0, 10, std::nullopt, std::nullopt);
  t.Finalize();
  EXPECT_EQ(t.Height(3), 1);
  EXPECT_EQ(t.Height(4), 2);
  EXPECT_EQ(t.LowestSubtreeThatFits(0, 0, 2), std::make_pair(0, true));
  EXPECT_EQ(t.LowestSubtreeThatFits(0, 0, 4), std::make_pair(1, true));   // cohort 3 holds it
  EXPECT_EQ(t.LowestSubtreeThatFits(0, 0, 8), std::make_pair(2, false));  // only the root
  EXPECT_EQ(t.CommonAncestor(0, 1), 3);
  EXPECT_EQ(t.CommonAncestor(0, 2), 4);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
