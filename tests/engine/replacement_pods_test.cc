// The pods a re-admitted workload's job creates in place of the deleted ones: their names
// never collide with a deleted pod's or any other pod's, and they carry the template's
// scheduling constraints, not the old flavor's.
#include "engine/replacement_pods.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace berth::engine {
namespace BERTH_UNITY_ID {

TEST(ReplacementPodNameTest, SuffixesTheDeletedPodsName) {
  const std::set<std::string> taken = {"team/train-0", "team/train-1"};
  EXPECT_EQ(ReplacementPodName("team", "train-0", taken), "train-0-r1");
  EXPECT_EQ(ReplacementPodName("", "solo", {"default/solo"}), "solo-r1");
}

TEST(ReplacementPodNameTest, SkipsNamesTaken) {
  const std::set<std::string> taken = {"team/train-0", "team/train-0-r1", "team/train-0-r2"};
  EXPECT_EQ(ReplacementPodName("team", "train-0", taken), "train-0-r3");
  // Another namespace's pods do not take a name.
  EXPECT_EQ(ReplacementPodName("other", "train-0", taken), "train-0-r1");
}

TEST(ReplacementPodNameTest, ContinuesTheGenerationOfAPodAnEarlierPlanCreated) {
  EXPECT_EQ(ReplacementPodName("team", "train-0-r1", {"team/train-0-r1"}), "train-0-r2");
  EXPECT_EQ(ReplacementPodName("team", "train-0-r9", {"team/train-0-r10"}), "train-0-r11");
  // Not a generation: no digits, a leading zero, or no "-r" before the digits.
  EXPECT_EQ(ReplacementPodName("team", "train-r", {}), "train-r-r1");
  EXPECT_EQ(ReplacementPodName("team", "train-r01", {}), "train-r01-r1");
  EXPECT_EQ(ReplacementPodName("team", "worker-12", {}), "worker-12-r1");
  EXPECT_EQ(ReplacementPodName("team", "r1", {}), "r1-r1");
}

TEST(ReplacementPodTest, IsANewPendingPodWithTheTemplatesConstraints) {
  model::Pod deleted;
  deleted.meta.name = "train-0";
  deleted.meta.namespace_ = "team";
  deleted.meta.uid = "uid-train-0";
  deleted.meta.labels["batch.kubernetes.io/job-name"] = "train";
  deleted.node_name = "h100-1";
  deleted.phase = model::PodPhase::kRunning;
  deleted.conditions.push_back({"PodScheduled", "True", "", ""});
  deleted.node_selector["gpu.product"] = "H100";
  core::Toleration h100;
  h100.key = "h100";
  h100.op = core::TolerationOp::kExists;
  deleted.tolerations.push_back(h100);
  model::KueuePodSet set;
  set.pod_template.node_selector["zone"] = "a";

  const model::Pod pod = ReplacementPod(deleted, set, "train-0-r1", core::Timestamp{1000});
  EXPECT_EQ(pod.meta.name, "train-0-r1");
  EXPECT_EQ(pod.meta.namespace_, "team");
  EXPECT_EQ(pod.meta.uid, "");
  EXPECT_EQ(pod.meta.creation_timestamp.unix_s, 1000);
  EXPECT_EQ(pod.meta.labels.at("batch.kubernetes.io/job-name"), "train");
  EXPECT_EQ(pod.node_name, "");
  EXPECT_EQ(pod.phase, model::PodPhase::kPending);
  EXPECT_TRUE(pod.conditions.empty());
  EXPECT_EQ(pod.node_selector, (core::Labels{{"zone", "a"}}));
  EXPECT_TRUE(pod.tolerations.empty());
  EXPECT_EQ(pod.replaces, "train-0");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
