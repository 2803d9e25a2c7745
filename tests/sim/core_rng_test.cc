#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "sim/core/rng.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

// Pinned values come from an independent reference implementation (Python integers) of
// SplitMix64, xoshiro256**, Lemire's bounded integers and Durstenfeld's shuffle; the first
// SplitMix64 outputs from 0 are the published test values of the generator.
TEST(RngTest, SplitMix64PinnedValues) {
  uint64_t state = 0;
  EXPECT_EQ(SplitMix64Next(&state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(SplitMix64Next(&state), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(SplitMix64Next(&state), 0x06c45d188009454fULL);
}

TEST(RngTest, XoshiroPinnedValues) {
  Rng rng(42);
  EXPECT_EQ(rng.Next(), 0x15780b2e0c2ec716ULL);
  EXPECT_EQ(rng.Next(), 0x6104d9866d113a7eULL);
  EXPECT_EQ(rng.Next(), 0xae17533239e499a1ULL);
  EXPECT_EQ(rng.Next(), 0xecb8ad4703b360a1ULL);
  Rng zero(0);  // seed 0 is valid
  EXPECT_EQ(zero.Next(), 0x99ec5f36cb75f2b4ULL);
  EXPECT_EQ(zero.Next(), 0xbf6e1f784956452aULL);
}

TEST(RngTest, UniformIntPinnedAndInRange) {
  Rng rng(7);
  std::vector<uint64_t> got;
  for (int i = 0; i < 10; ++i) got.push_back(rng.UniformInt(10));
  EXPECT_EQ(got, (std::vector<uint64_t>{7, 2, 8, 9, 9, 8, 0, 1, 4, 1}));
  Rng big(123);
  EXPECT_EQ(big.UniformInt(3000000000ULL), 590083056u);
  EXPECT_EQ(big.UniformInt(3000000000ULL), 2908716877u);
  EXPECT_EQ(big.UniformInt(3000000000ULL), 1402320970u);
  Rng one(9);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(one.UniformInt(1), 0u);
}

TEST(RngTest, UniformInRangeCoversBothEnds) {
  Rng rng(1);
  std::array<int, 5> seen{};
  for (int i = 0; i < 1000; ++i) {
    const int64_t v = rng.UniformInRange(-2, 2);
    ASSERT_GE(v, -2);
    ASSERT_LE(v, 2);
    ++seen[static_cast<size_t>(v + 2)];
  }
  for (int c : seen) EXPECT_GT(c, 150);
  EXPECT_EQ(rng.UniformInRange(5, 5), 5);
  // The full int64 range does not overflow.
  (void)rng.UniformInRange(INT64_MIN, INT64_MAX);
}

TEST(RngTest, SameSeedSameStreamDifferentSeedDifferentStream) {
  Rng a(99), b(99), c(100);
  bool differs = false;
  for (int i = 0; i < 64; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs = differs || x != c.Next();
  }
  EXPECT_TRUE(differs);
}

TEST(RngTest, UniformDoublePinnedAndInUnitInterval) {
  Rng rng(5);
  EXPECT_DOUBLE_EQ(rng.UniformDouble(), 0.2884112281702357);
  EXPECT_DOUBLE_EQ(rng.UniformDouble(), 0.6020823331320106);
  for (int i = 0; i < 10000; ++i) {
    const double u = rng.UniformDouble();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(RngTest, BernoulliConsumesOneDrawAndHitsItsRate) {
  Rng a(11), b(11);
  (void)a.Bernoulli(0.0);
  (void)b.Next();
  EXPECT_EQ(a.Next(), b.Next());  // still in step
  Rng rng(12);
  int hits = 0;
  for (int i = 0; i < 100000; ++i) hits += rng.Bernoulli(0.3) ? 1 : 0;
  EXPECT_NEAR(hits / 100000.0, 0.3, 0.01);  // sd is 0.0014
  EXPECT_FALSE(rng.Bernoulli(0.0));
  EXPECT_TRUE(rng.Bernoulli(1.0));
}

TEST(RngTest, ExponentialHasItsMean) {
  Rng rng(13);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double x = rng.Exponential(0.5);
    ASSERT_GE(x, 0.0);
    sum += x;
  }
  EXPECT_NEAR(sum / n, 2.0, 0.03);  // mean 1/rate; sd of the mean is 0.0045
  // Inversion: the first draw is -log(1-U)/rate for the first UniformDouble of the stream.
  Rng u(5), e(5);
  EXPECT_NEAR(e.Exponential(2.0), -std::log1p(-u.UniformDouble()) / 2.0, 1e-15);
}

TEST(RngTest, ShufflePinnedAndAPermutation) {
  Rng rng(42);
  std::vector<int> v(10);
  std::iota(v.begin(), v.end(), 0);
  rng.Shuffle(v);
  EXPECT_EQ(v, (std::vector<int>{9, 1, 4, 2, 8, 7, 6, 5, 3, 0}));
  std::vector<int> empty;
  rng.Shuffle(empty);
  std::vector<int> single{5};
  rng.Shuffle(single);
  EXPECT_EQ(single, std::vector<int>{5});
}

TEST(RngTest, ShuffleIsUniformOverPermutations) {
  // 60,000 shuffles of {0,1,2}: each of the 6 orders should appear 10,000 times; the
  // chi-square statistic with 5 degrees of freedom exceeds 20.5 with probability 0.001.
  Rng rng(31337);
  std::array<int, 6> counts{};
  const int n = 60000;
  for (int i = 0; i < n; ++i) {
    std::array<int, 3> p{0, 1, 2};
    rng.Shuffle(std::span<int>(p));
    const int code = p[0] * 2 + (p[1] > p[2] ? 1 : 0);  // 6 distinct codes
    ++counts[static_cast<size_t>(code)];
  }
  double chi2 = 0;
  for (int c : counts) chi2 += (c - 10000.0) * (c - 10000.0) / 10000.0;
  EXPECT_LT(chi2, 20.5);
  // And every element lands in the first position about as often (10 elements, 50k runs).
  std::array<int, 10> first{};
  for (int i = 0; i < 50000; ++i) {
    std::vector<int> v(10);
    std::iota(v.begin(), v.end(), 0);
    rng.Shuffle(v);
    ++first[static_cast<size_t>(v[0])];
  }
  for (int c : first) EXPECT_NEAR(c, 5000, 300);  // sd 67
}

TEST(RngTest, UniformIntHasNoModuloBias) {
  // n = 3 * 2^62 makes plain "Next() % n" favour the lowest third 2:1; Lemire's rejection
  // keeps the three thirds equal.
  Rng rng(77);
  const uint64_t n = 3ULL << 62;
  std::array<int, 3> thirds{};
  for (int i = 0; i < 30000; ++i) ++thirds[rng.UniformInt(n) >> 62];
  for (int c : thirds) EXPECT_NEAR(c, 10000, 400);
}

// The OpenB replay's draws (sim/gpushare): rejection then remainder. Pinned from the same
// Python reference; a change here changes every published replay figure.
TEST(RngTest, UniformIntByRemainderPinnedAndInRange) {
  Rng rng(7);
  std::vector<uint64_t> got;
  for (int i = 0; i < 10; ++i) got.push_back(rng.UniformIntByRemainder(10));
  EXPECT_EQ(got, (std::vector<uint64_t>{4, 4, 8, 4, 4, 1, 6, 6, 8, 9}));
  Rng big(123);
  EXPECT_EQ(big.UniformIntByRemainder(3000000000ULL), 1969813497u);
  EXPECT_EQ(big.UniformIntByRemainder(3000000000ULL), 1711451998u);
  EXPECT_EQ(big.UniformIntByRemainder(3000000000ULL), 489400367u);
  Rng one(9);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(one.UniformIntByRemainder(1), 0u);
  std::array<int, 7> counts{};
  for (int i = 0; i < 7000; ++i) {
    const uint64_t r = rng.UniformIntByRemainder(7);
    ASSERT_LT(r, 7u);
    ++counts[r];
  }
  for (int c : counts) EXPECT_NEAR(c, 1000, 150);  // sd 29
}

TEST(RngTest, UniformIntByRemainderHasNoModuloBias) {
  // As UniformIntHasNoModuloBias: plain "Next() % (3 * 2^62)" would favour the lowest third.
  Rng rng(77);
  const uint64_t n = 3ULL << 62;
  std::array<int, 3> thirds{};
  for (int i = 0; i < 30000; ++i) ++thirds[rng.UniformIntByRemainder(n) >> 62];
  for (int c : thirds) EXPECT_NEAR(c, 10000, 400);
}

TEST(RngTest, ShuffleByRemainderPinnedAndAPermutation) {
  Rng rng(42);
  std::vector<int> v(10);
  std::iota(v.begin(), v.end(), 0);
  rng.ShuffleByRemainder(std::span<int>(v));
  EXPECT_EQ(v, (std::vector<int>{7, 3, 8, 9, 5, 6, 4, 1, 0, 2}));
  std::vector<int> empty;
  rng.ShuffleByRemainder(std::span<int>(empty));
  // The same draws as a hand-written Fisher-Yates over UniformIntByRemainder.
  Rng a(5), b(5);
  std::vector<int> shuffled(50), by_hand(50);
  std::iota(shuffled.begin(), shuffled.end(), 0);
  std::iota(by_hand.begin(), by_hand.end(), 0);
  a.ShuffleByRemainder(std::span<int>(shuffled));
  for (size_t i = by_hand.size(); i > 1; --i) {
    std::swap(by_hand[i - 1], by_hand[b.UniformIntByRemainder(i)]);
  }
  EXPECT_EQ(shuffled, by_hand);
}

TEST(RngTest, ForkIsDeterministicAndIndependent) {
  Rng a(3), b(3);
  Rng ca = a.Fork();
  Rng cb = b.Fork();
  EXPECT_EQ(ca.Next(), cb.Next());
  EXPECT_EQ(a.Next(), b.Next());
  Rng parent(3);
  Rng child = parent.Fork();
  EXPECT_NE(child.Next(), parent.Next());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
