// The rules the gpu module's scorers and binding's berth.dev/GpuShare* plugins share: the
// score arithmetic (policy_scores.h) and the fragmentation measure on both node shapes
// (fragmentation.h: NodeState and binding's KAI view give the same bits for the same node).
#include "gpu/policy_scores.h"

#include <gtest/gtest.h>

#include <vector>

#include "gpu/fragmentation.h"
#include "gpu/gpu_node_view.h"
#include "gpu/gpu_test_util.h"
#include "gpu/typical_pods.h"

namespace berth::gpu {
namespace BERTH_UNITY_ID {

TEST(PolicyScoresTest, FgdIsTheTruncatedSigmoidOfTheFragmentDrop) {
  EXPECT_EQ(FgdScore(0, 0), 50);
  EXPECT_EQ(FgdScore(1000, 2000), 26);  // sigmoid(-1) = 0.2689
  EXPECT_EQ(FgdScore(2000, 1000), 73);  // sigmoid(1) = 0.7311
  EXPECT_EQ(FgdScore(1e9, 0), 100);
}

TEST(PolicyScoresTest, PackingBands) {
  EXPECT_EQ(PackingIdleNodeScore(8), 25);
  EXPECT_EQ(PackingIdleNodeScore(20), 20);      // upstream's floor at the count
  EXPECT_EQ(PackingUsedNodeScore(2, 0), 48);    // breaks two free GPUs
  EXPECT_EQ(PackingUsedNodeScore(30, 0), 33);   // floored at 33
  EXPECT_EQ(PackingUsedNodeScore(0, 40), 96);   // partly used GPUs, 40% free on them
  EXPECT_EQ(PackingUsedNodeScore(0, 900), 50);  // floored at 50
}

TEST(PolicyScoresTest, ClusteringBands) {
  EXPECT_EQ(ClusteringScore(4000, 8000, true, 1), 12 + 75);
  EXPECT_EQ(ClusteringScore(4000, 8000, true, 2), 12 + 50);
  EXPECT_EQ(ClusteringScore(0, 8000, false, 0), 25);
  EXPECT_EQ(ClusteringScore(8000, 8000, false, 2), 25);
}

TEST(PolicyScoresTest, DotProdAndBestFitUnits) {
  EXPECT_DOUBLE_EQ(DotProdUnitScore(1, 1, 1, 1), 0);
  EXPECT_DOUBLE_EQ(DotProdUnitScore(0.5, 0.5, 0.5, 0), 0.875);
  EXPECT_DOUBLE_EQ(BestFitUnitScore({0, 0}, {128000, 8000}), 1);
  EXPECT_DOUBLE_EQ(BestFitUnitScore({64000, 4000}, {128000, 8000}), 0.5);
}

TypicalPod Typical(int64_t cpu_milli, int32_t num_gpu, int32_t gpu_milli, double frequency) {
  TypicalPod pod;
  pod.cpu_milli = cpu_milli;
  pod.num_gpu = num_gpu;
  pod.gpu_milli = gpu_milli;
  pod.frequency = frequency;
  return pod;
}

TypicalGpuPod TypicalOnView(int64_t cpu_milli, int32_t num_gpu, int32_t gpu_milli,
                            double frequency) {
  TypicalGpuPod pod;
  pod.request.cpu_milli = cpu_milli;
  if (gpu_milli == kMilliPerGpu) {
    pod.request.whole = num_gpu;
  } else if (gpu_milli > 0) {
    pod.request.fraction = FractionRequest{gpu_milli, 0, num_gpu};
  }
  pod.frequency = frequency;
  return pod;
}

// One rule, two node shapes: a node whose partly used GPUs are the view's shared ones and
// whose fully free GPUs are its free whole ones has the same classes and the same F, bit
// for bit, whichever model evaluates it.
TEST(PolicyScoresTest, FragmentationIsTheSameOnBothNodeShapes) {
  const std::vector<std::vector<int32_t>> shapes = {
      {1000, 1000, 1000, 1000}, {1000, 300, 700, 0}, {250, 500, 0, 1000}, {0, 0, 0, 0}};
  const std::vector<int64_t> cpus = {0, 3000, 64000};
  const int32_t kinds[][2] = {{1, 500}, {2, 1000}, {0, 0}, {1, 1000}, {2, 250}, {1, 700}};
  const double freqs[] = {0.3, 0.2, 0.15, 0.15, 0.1, 0.1};
  std::vector<TypicalPod> on_state;
  std::vector<TypicalGpuPod> on_view;
  for (int k = 0; k < 6; ++k) {
    on_state.push_back(Typical(2000 * (k + 1), kinds[k][0], kinds[k][1], freqs[k]));
    on_view.push_back(TypicalOnView(2000 * (k + 1), kinds[k][0], kinds[k][1], freqs[k]));
  }
  const FragmentationModel state_model(on_state);
  const GpuFragmentModel view_model(on_view);
  for (const std::vector<int32_t>& free : shapes) {
    for (int64_t cpu : cpus) {
      NodeState node = NodeState::FromSpec(testing::Node("n", 64000, 4));
      node.cpu_free_milli = cpu;
      GpuNodeView view;
      view.cpu_free_milli = cpu;
      view.gpus = 4;
      view.shareable = true;
      for (size_t i = 0; i < free.size(); ++i) {
        node.gpu_free_milli[i] = free[i];
        if (free[i] == kMilliPerGpu) {
          ++view.free_whole;
        } else {
          view.shared.push_back(SharedGpuFree{free[i], 0});
        }
      }
      for (size_t k = 0; k < on_state.size(); ++k) {
        EXPECT_EQ(ClassifyNode(node, on_state[k]), GpuFragmentModel::Classify(view, on_view[k]));
      }
      const FragBreakdown a = state_model.Breakdown(node);
      const FragBreakdown b = view_model.Breakdown(view);
      for (int c = 0; c < kFragClasses; ++c) EXPECT_EQ(a.milli[c], b.milli[c]) << c;
      EXPECT_EQ(state_model.NodeFragmentMilli(node), view_model.FragmentMilli(view));
    }
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::gpu
