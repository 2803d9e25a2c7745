#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/core/stats.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

TEST(StatsTest, NearestRankPercentileHandCases) {
  const std::vector<double> four{1, 2, 3, 4};
  EXPECT_EQ(NearestRankPercentile(four, 50), 2);  // ceil(0.5*4) = 2nd
  EXPECT_EQ(NearestRankPercentile(four, 51), 3);  // ceil(2.04) = 3rd
  EXPECT_EQ(NearestRankPercentile(four, 0), 1);   // smallest
  EXPECT_EQ(NearestRankPercentile(four, 100), 4);
  EXPECT_EQ(NearestRankPercentile(four, 25), 1);  // exactly 1 rank
  EXPECT_EQ(NearestRankPercentile(four, 25.1), 2);
  // The classic example: {15, 20, 35, 40, 50}: p30 = 20, p40 = 20, p50 = 35, p100 = 50.
  const std::vector<double> five{15, 20, 35, 40, 50};
  EXPECT_EQ(NearestRankPercentile(five, 30), 20);
  EXPECT_EQ(NearestRankPercentile(five, 40), 20);
  EXPECT_EQ(NearestRankPercentile(five, 50), 35);
  EXPECT_EQ(NearestRankPercentile(five, 100), 50);
}

TEST(StatsTest, WholePercentRanksAreExact) {
  // 0.95 * 20 = 19 exactly: p95 of 1..20 is 19, not 20 (no floating-point round-up).
  std::vector<double> v;
  for (int i = 1; i <= 20; ++i) v.push_back(i);
  EXPECT_EQ(NearestRankPercentile(v, 95), 19);
  std::vector<double> hundred;
  for (int i = 1; i <= 100; ++i) hundred.push_back(i);
  EXPECT_EQ(NearestRankPercentile(hundred, 99), 99);
  EXPECT_EQ(NearestRankPercentile(hundred, 1), 1);
  EXPECT_EQ(NearestRankPercentile(hundred, 99.5), 100);
}

TEST(StatsTest, SummarizeSortsAndSummarizes) {
  DistributionSummary s = Summarize({9, 1, 5, 3, 7});
  EXPECT_EQ(s.count, 5);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_EQ(s.p50, 5);
  EXPECT_EQ(s.p95, 9);
  EXPECT_EQ(s.p99, 9);
  EXPECT_EQ(s.max, 9);
  DistributionSummary empty = Summarize({});
  EXPECT_EQ(empty.count, 0);
  EXPECT_EQ(empty.mean, 0);
}

TEST(StatsTest, MeanAndSampleSd) {
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
  MeanSd m = ComputeMeanSd(v);
  EXPECT_EQ(m.n, 8);
  EXPECT_DOUBLE_EQ(m.mean, 5);
  EXPECT_DOUBLE_EQ(m.sd, std::sqrt(32.0 / 7.0));  // sum of squared deviations 32, n-1 = 7
  EXPECT_EQ(ComputeMeanSd(std::vector<double>{3}).sd, 0);
  EXPECT_EQ(ComputeMeanSd(std::vector<double>{}).n, 0);
}

TEST(StatsTest, JainIndexHandCases) {
  EXPECT_DOUBLE_EQ(JainIndex(std::vector<double>{1, 1, 1, 1}), 1.0);
  EXPECT_DOUBLE_EQ(JainIndex(std::vector<double>{1, 0, 0, 0}), 0.25);  // 1/n: one takes all
  // (1+2+3)^2 / (3 * (1+4+9)) = 36/42
  EXPECT_DOUBLE_EQ(JainIndex(std::vector<double>{1, 2, 3}), 36.0 / 42.0);
  EXPECT_DOUBLE_EQ(JainIndex(std::vector<double>{}), 1.0);
  EXPECT_DOUBLE_EQ(JainIndex(std::vector<double>{0, 0}), 1.0);
  // Scale-free.
  EXPECT_DOUBLE_EQ(JainIndex(std::vector<double>{10, 20, 30}), 36.0 / 42.0);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
