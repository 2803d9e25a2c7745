#include "cli/explain_groups.h"

#include <gtest/gtest.h>

#include "cli/human_amount.h"

namespace berth::cli {
namespace BERTH_UNITY_ID {

// Five nodes: two classes rejected for GPUs, one tainted, one feasible; given out of name order.
struct GroupFixture {
  model::Snapshot snapshot;
  engine::Explanation explanation;

  GroupFixture() {
    const char* names[] = {"h100-2", "cpu-1", "h100-1", "a100-1", "cpu-2"};
    const int32_t classes[] = {1, 0, 1, 2, 0};
    for (int i = 0; i < 5; ++i) {
      model::Node node;
      node.meta.name = names[i];
      snapshot.nodes.push_back(node);
      binding::NodeVerdict v;
      v.node = model::NodeIndex{i};
      engine::NodeAtTurn at;
      at.node_class = classes[i];
      if (classes[i] == 2) {
        v.feasible = true;
      } else if (classes[i] == 1) {
        v.filters = {{"TaintToleration", true, ""},
                     {"NodeResourcesFit", false, "Insufficient nvidia.com/gpu"}};
      } else {
        v.filters = {{"TaintToleration", false, "untolerated taint"},
                     {"NodeResourcesFit", false, "Insufficient nvidia.com/gpu"}};
      }
      explanation.pod.nodes.push_back(v);
      explanation.nodes.push_back(at);
    }
  }
};

TEST(ExplainGroupsTest, ByVerdictMostNodesFirstWithMembersInNameOrder) {
  GroupFixture f;
  const std::vector<NodeGroup> groups = GroupNodesByVerdict(f.snapshot, f.explanation);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].plugin, "NodeResourcesFit");
  EXPECT_EQ(groups[0].members, (std::vector<size_t>{2, 0}));  // h100-1, h100-2
  EXPECT_EQ(groups[1].plugin, "TaintToleration");             // first failing filter counts
  EXPECT_EQ(groups[1].members, (std::vector<size_t>{1, 4}));
  EXPECT_TRUE(groups[2].feasible);
  EXPECT_EQ(groups[2].members, (std::vector<size_t>{3}));
}

TEST(ExplainGroupsTest, ByClassSplitsAVerdictByClassInNameOrder) {
  GroupFixture f;
  f.explanation.nodes[0].node_class = 3;  // h100-2 now differs from h100-1
  const std::vector<NodeGroup> groups = GroupNodesByClass(f.snapshot, f.explanation);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_TRUE(groups[0].feasible);  // a100-1
  EXPECT_EQ(groups[1].members, (std::vector<size_t>{1, 4}));  // cpu-1, cpu-2
  EXPECT_EQ(groups[2].members, (std::vector<size_t>{2}));     // h100-1
  EXPECT_EQ(groups[2].node_class, 1);
  EXPECT_EQ(groups[3].members, (std::vector<size_t>{0}));     // h100-2
}

TEST(ExplainGroupsTest, WithoutNumbersAVerdictIsOneGroup) {
  GroupFixture f;
  f.explanation.nodes.clear();
  EXPECT_EQ(GroupNodesByClass(f.snapshot, f.explanation).size(), 3u);
}

TEST(ExplainGroupsTest, NameSampleAndRange) {
  EXPECT_EQ(NameSample({"a", "b"}), "a, b");
  EXPECT_EQ(NameSample({"a", "b", "c", "d", "e"}), "a, b, c, +2 more");
  EXPECT_EQ(NameSample({"a", "b", "c"}, 1), "a, +2 more");
  EXPECT_EQ(RangeText(4, 4, "4", "4"), "4");
  EXPECT_EQ(RangeText(2, 8, "2", "8"), "2..8");
}

TEST(HumanAmountTest, CoresBinaryUnitsAndCounts) {
  constexpr int64_t kMi = int64_t{1} << 20;
  constexpr int64_t kGi = int64_t{1} << 30;
  EXPECT_EQ(HumanAmount("cpu", 96000), "96");
  EXPECT_EQ(HumanAmount("cpu", 31750), "31.75");
  EXPECT_EQ(HumanAmount("cpu", 95200), "95.2");
  EXPECT_EQ(HumanAmount("cpu", 500), "500m");
  EXPECT_EQ(HumanAmount("cpu", -1500), "-1.5");
  EXPECT_EQ(HumanAmount("memory", 126906 * kMi), "123.9Gi");
  EXPECT_EQ(HumanAmount("memory", 1990 * kGi), "1990Gi");
  EXPECT_EQ(HumanAmount("memory", 1024 * kGi), "1Ti");
  EXPECT_EQ(HumanAmount("memory", 1146304 * kMi), "1119.4Gi");
  EXPECT_EQ(HumanAmount("memory", 512 * kMi), "512Mi");
  EXPECT_EQ(HumanAmount("memory", 100), "100");
  EXPECT_EQ(HumanAmount("memory", 0), "0");
  EXPECT_EQ(HumanAmount("nvidia.com/gpu", 8), "8");
  // The limits of int64 (an overflowing request, an overcommitted node) print, without UB.
  EXPECT_EQ(HumanAmount("memory", INT64_MAX), "8192Pi");
  EXPECT_EQ(HumanAmount("memory", INT64_MIN), "-8192Pi");
  EXPECT_EQ(HumanAmount("nvidia.com/gpu", INT64_MIN), "-9223372036854775807");
  EXPECT_EQ(HumanAmount("cpu", INT64_MAX), "9223372036854776");  // through a double
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
