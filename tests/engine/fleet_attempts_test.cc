// AttemptList (fleet_dispatcher.h): a Dispatch's attempts read like a vector; equal runs of
// failed attempts are shared between dispatches instead of held once per workload, and a
// different run is kept on its own.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/fleet_dispatcher.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

ClusterAttempt Failed(const std::string& cluster, const std::string& reason) {
  ClusterAttempt a;
  a.cluster = cluster;
  a.score = 7;
  a.reason = reason;
  return a;
}

ClusterAttempt Fits(const std::string& cluster) {
  ClusterAttempt a;
  a.cluster = cluster;
  a.fits = true;
  a.pods = {{"w-0", "n1"}};
  return a;
}

AttemptList Make(const std::string& second_reason, const std::string& chosen,
                 std::vector<std::shared_ptr<const std::vector<ClusterAttempt>>>& recent) {
  AttemptList list;
  list.push_back(Failed("a", "insufficient nvidia.com/gpu: needs 8, 0 free in the cluster"));
  list.push_back(Failed("b", second_reason));
  list.ShareFailed(recent, 2);
  list.push_back(Fits(chosen));
  return list;
}

TEST(AttemptListTest, EqualFailedRunsAreSharedAndReadInOrder) {
  std::vector<std::shared_ptr<const std::vector<ClusterAttempt>>> recent;
  const AttemptList first = Make("full", "c", recent);
  const AttemptList second = Make("full", "d", recent);
  ASSERT_EQ(first.size(), 3u);
  ASSERT_EQ(second.size(), 3u);
  EXPECT_EQ(&first[0], &second[0]);  // one run for both
  EXPECT_EQ(recent.size(), 1u);
  std::vector<std::string> seen;
  for (const ClusterAttempt& a : second) seen.push_back(a.cluster + (a.fits ? "+" : "-"));
  EXPECT_EQ(seen, (std::vector<std::string>{"a-", "b-", "d+"}));
  EXPECT_EQ(second.back().pods.size(), 1u);
  EXPECT_EQ(first.back().cluster, "c");

  // A different reason is a run of its own; the oldest of more than `keep` runs is dropped.
  const AttemptList third = Make("busy", "e", recent);
  EXPECT_NE(&third[0], &first[0]);
  EXPECT_EQ(third[1].reason, "busy");
  const AttemptList fourth = Make("gone", "f", recent);
  EXPECT_EQ(recent.size(), 2u);
  EXPECT_EQ(first[1].reason, "full");  // still held by the dispatches that share it
}

TEST(AttemptListTest, EmptyAndUnsharedListsBehaveLikeVectors) {
  std::vector<std::shared_ptr<const std::vector<ClusterAttempt>>> recent;
  AttemptList list;
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.begin(), list.end());
  list.ShareFailed(recent, 2);  // nothing to share
  EXPECT_TRUE(recent.empty());
  list.push_back(Fits("a"));
  EXPECT_FALSE(list.empty());
  EXPECT_EQ(list.size(), 1u);
  EXPECT_TRUE(list[0].fits);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
