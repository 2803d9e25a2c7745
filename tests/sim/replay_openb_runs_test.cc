// sim/replay OpenB runs: the --seeds list ParseSeedList reads ("42-51", "42,43,50", "7").
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/replay/openb_runs.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

std::vector<uint64_t> Seeds(const std::string& text) {
  auto r = ParseSeedList(text);
  EXPECT_TRUE(r.has_value()) << text << ": " << r.error().message();
  return r.has_value() ? *r : std::vector<uint64_t>{};
}

std::string ErrorOf(const std::string& text) {
  auto r = ParseSeedList(text);
  return r.has_value() ? "" : r.error().message();
}

TEST(ReplayOpenbRunsTest, ParsesSeedsRangesAndLists) {
  EXPECT_EQ(Seeds("7"), std::vector<uint64_t>{7});
  EXPECT_EQ(Seeds("0"), std::vector<uint64_t>{0});
  EXPECT_EQ(Seeds("42-51"), (std::vector<uint64_t>{42, 43, 44, 45, 46, 47, 48, 49, 50, 51}));
  EXPECT_EQ(Seeds("5-5"), std::vector<uint64_t>{5});
  // Order as given, duplicates kept.
  EXPECT_EQ(Seeds("42,43,50"), (std::vector<uint64_t>{42, 43, 50}));
  EXPECT_EQ(Seeds("9,1-3,9"), (std::vector<uint64_t>{9, 1, 2, 3, 9}));
  EXPECT_EQ(Seeds("123456789012345678"), std::vector<uint64_t>{123456789012345678ULL});
}

TEST(ReplayOpenbRunsTest, BadPartsAreNamed) {
  EXPECT_EQ(ErrorOf("x"), "--seeds: \"x\" is not a seed or a range A-B");
  EXPECT_EQ(ErrorOf(""), "--seeds: \"\" is not a seed or a range A-B");
  EXPECT_EQ(ErrorOf("42,,43"), "--seeds: \"\" is not a seed or a range A-B");
  EXPECT_EQ(ErrorOf("42,"), "--seeds: \"\" is not a seed or a range A-B");
  EXPECT_EQ(ErrorOf("1,a-3"), "--seeds: \"a-3\" is not a seed or a range A-B");
  EXPECT_EQ(ErrorOf("1-"), "--seeds: \"1-\" is not a seed or a range A-B");
  EXPECT_EQ(ErrorOf("-3"), "--seeds: \"-3\" is not a seed or a range A-B");
  EXPECT_EQ(ErrorOf("1-2-3"), "--seeds: \"1-2-3\" is not a seed or a range A-B");
  EXPECT_EQ(ErrorOf(" 4"), "--seeds: \" 4\" is not a seed or a range A-B");
  // More than 18 digits could overflow: refused.
  EXPECT_EQ(ErrorOf("1234567890123456789"),
            "--seeds: \"1234567890123456789\" is not a seed or a range A-B");
}

TEST(ReplayOpenbRunsTest, EmptyOrHugeRangesAreRefused) {
  EXPECT_EQ(ErrorOf("51-42"), "--seeds: range \"51-42\" is empty or too long");
  EXPECT_EQ(ErrorOf("0-100001"), "--seeds: range \"0-100001\" is empty or too long");
  EXPECT_EQ(Seeds("0-100000").size(), 100001u);
}

// Issue 14 (simulate --threads 0, --seeds ""): the grid refuses what would make it run
// nothing, whatever the caller checked before.
TEST(ReplayOpenbRunsTest, GridRefusesNoRunsAndNoThreads) {
  gpushare::OpenbTrace trace;
  OpenbRunOptions options;
  options.policies = {gpu::Policy::kRandom};
  options.seeds = {1};
  options.threads = 0;
  auto no_threads = RunOpenbGrid(trace, options);
  ASSERT_FALSE(no_threads.has_value());
  EXPECT_EQ(no_threads.error().message(), "threads must be at least 1, not 0");
  options.threads = 1;
  options.seeds.clear();
  auto no_seeds = RunOpenbGrid(trace, options);
  ASSERT_FALSE(no_seeds.has_value());
  EXPECT_EQ(no_seeds.error().message(), "no seed to run");
  options.seeds = {1};
  options.policies.clear();
  auto no_policies = RunOpenbGrid(trace, options);
  ASSERT_FALSE(no_policies.has_value());
  EXPECT_EQ(no_policies.error().message(), "no policy to run");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
