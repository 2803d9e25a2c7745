// engine's pod groups (pod_groups.h): which group a pod joins and Volcano's per-task rule,
// upstream's CheckTaskReady (volcano pkg/scheduler/api/job_info.go): every task needs its
// minTaskMember bound, unless minMember is below the sum of those minimums.
#include "engine/pod_groups.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "support/model_builders.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

PodGroupRef Ref(int32_t min_member) {
  PodGroupRef ref;
  ref.key = "ml/job";
  ref.found = true;
  ref.min_member = min_member;
  ref.min_task_member = {{"ps", 1}, {"worker", 2}};
  return ref;
}

TEST(PodGroupsTest, EveryTaskNeedsItsMinimumWhenMinMemberCoversTheirSum) {
  const PodGroupRef ref = Ref(3);
  EXPECT_EQ(TaskShortOfMinimum(ref, {{"ps", 1}, {"worker", 2}}), std::nullopt);
  const auto short_ps = TaskShortOfMinimum(ref, {{"worker", 3}});
  ASSERT_TRUE(short_ps.has_value());
  EXPECT_EQ(short_ps->first, "ps");
  EXPECT_EQ(short_ps->second, 1);
  const auto short_worker = TaskShortOfMinimum(ref, {{"ps", 1}, {"worker", 1}});
  ASSERT_TRUE(short_worker.has_value());
  EXPECT_EQ(short_worker->first, "worker");
  // A minMember above the sum still asks each task for its minimum.
  EXPECT_TRUE(TaskShortOfMinimum(Ref(4), {{"worker", 4}}).has_value());
}

TEST(PodGroupsTest, MinMemberBelowTheTasksSumChecksOnlyTheTotal) {
  EXPECT_EQ(TaskShortOfMinimum(Ref(2), {{"worker", 2}}), std::nullopt);
  EXPECT_EQ(TaskShortOfMinimum(Ref(2), {}), std::nullopt);
}

TEST(PodGroupsTest, VolcanoPodsJoinTheirGroupAndTask) {
  berth::testing::SnapshotBuilder builder;
  builder.Add(berth::testing::PodBuilder("job-ps-0", "ml"));
  model::Snapshot snap = builder.Build();
  model::Pod& pod = snap.pods[0];
  pod.meta.annotations["scheduling.k8s.io/group-name"] = "job";
  pod.meta.annotations["volcano.sh/task-spec"] = "ps";
  model::PodGroup group;
  group.api_version = "scheduling.volcano.sh/v1beta1";
  group.meta.name = "job";
  group.meta.namespace_ = "ml";
  group.min_member = 3;
  group.min_task_member = {{"ps", 1}, {"worker", 2}};
  snap.pod_groups.push_back(group);
  const auto ref = PodGroupOf(snap, pod);
  ASSERT_TRUE(ref.has_value());
  EXPECT_TRUE(ref->found);
  EXPECT_EQ(ref->key, "ml/job");
  EXPECT_EQ(ref->min_member, 3);
  EXPECT_EQ(ref->min_task_member, group.min_task_member);
  EXPECT_EQ(VolcanoTaskOf(pod), "ps");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
