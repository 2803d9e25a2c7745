// A Scheduler that borrows its nodes (SchedulerOptions::node_source, as a fleet's member
// cluster reads them in the whole input) decides exactly as one on a snapshot holding
// copies of the same nodes: seeded random clusters, the nodes scattered among other
// clusters' nodes in the borrowed store.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "binding/scheduler.h"
#include "random_cluster.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using testing::ClusterFeatures;
using testing::RandomCluster;

// `own` without its nodes, and a store holding them among decoys: node i of `own` is
// store[indices[i]].
struct Borrowed {
  model::Snapshot snapshot;
  std::vector<model::Node> store;
  std::vector<model::NodeIndex> indices;
};

Borrowed Scatter(const model::Snapshot& own) {
  Borrowed b;
  b.snapshot = own;
  b.snapshot.nodes.clear();
  for (const model::Node& node : own.nodes) {
    model::Node decoy = node;
    decoy.meta.name = "other-" + node.meta.name;
    decoy.cluster = "other";
    b.store.push_back(std::move(decoy));
    b.indices.push_back(model::NodeIndex{static_cast<int32_t>(b.store.size())});
    b.store.push_back(node);
  }
  return b;
}

TEST(BorrowedNodesTest, DecidesAsOnOwnNodes) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const model::Snapshot own = RandomCluster(seed, ClusterFeatures{});
    ASSERT_TRUE(CanBorrowNodes(own)) << seed;
    const Borrowed b = Scatter(own);
    SchedulerOptions options;
    options.node_source = &b.store;
    options.node_indices = b.indices;
    Scheduler on_own(own, model::SchedulerConfig{});
    Scheduler borrowing(b.snapshot, model::SchedulerConfig{}, options);
    ASSERT_EQ(on_own.QueueOrder(), borrowing.QueueOrder()) << seed;
    for (model::PodIndex pod : on_own.QueueOrder()) {
      const PodExplanation want = on_own.Explain(pod);
      const PodExplanation got = borrowing.Explain(pod);
      ASSERT_EQ(want.nodes.size(), got.nodes.size()) << seed;
      for (size_t i = 0; i < want.nodes.size(); ++i) {
        EXPECT_EQ(want.nodes[i].node, got.nodes[i].node) << seed;
        EXPECT_EQ(want.nodes[i].total_score, got.nodes[i].total_score) << seed;
      }
      const model::PodDecision a = on_own.ScheduleOne(pod);
      const model::PodDecision c = borrowing.ScheduleOne(pod);
      EXPECT_EQ(a.node, c.node) << "seed " << seed << " pod " << pod.v;
      EXPECT_EQ(a.message, c.message) << seed;
    }
    for (int32_t n = 0; n < static_cast<int32_t>(own.nodes.size()); ++n) {
      EXPECT_EQ(on_own.NodeFree(model::NodeIndex{n}).amounts(),
                borrowing.NodeFree(model::NodeIndex{n}).amounts())
          << seed;
    }
  }
}

TEST(BorrowedNodesTest, DevicesAndFractionsNeedTheSnapshotsOwnNodes) {
  EXPECT_FALSE(CanBorrowNodes(RandomCluster(3, ClusterFeatures{.dra = true})));
  model::Snapshot fractional = RandomCluster(3, ClusterFeatures{});
  ASSERT_TRUE(CanBorrowNodes(fractional));
  ASSERT_FALSE(fractional.pods.empty());
  fractional.pods.front().meta.annotations["gpu-fraction"] = "0.5";
  EXPECT_FALSE(CanBorrowNodes(fractional));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
