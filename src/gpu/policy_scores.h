// The score arithmetic of the FGD paper's policies (upstream pkg/simulator/plugin/*.go),
// written once: each scorer of policy_scorers.cc reads its two node inputs (NodeState and
// binding's KaiNode, node_scorer.h) and calls these, so the two differ only in what they read.
// Upstream's integer divisions and truncations are kept, because they decide which nodes tie.
// Pure functions, O(1) (MinMaxNormalize O(scores)); inline because FGD reproduction runs call
// them per node and pod.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>

namespace berth::gpu {

// kube-scheduler's score range.
inline constexpr int64_t kMaxNodeScore = 100;
inline constexpr int64_t kMinNodeScore = 0;

// 100 x v truncated towards zero, clamped to 0..100: the paper's float-to-score step as the
// KAI view takes it (its components are clamped to the max spec, so v is in 0..1 anyway).
inline int64_t ClampedScore(double v) {
  const auto score = static_cast<int64_t>(v * static_cast<double>(kMaxNodeScore));
  return std::clamp<int64_t>(score, kMinNodeScore, kMaxNodeScore);
}

// Min-max scaling to 0..100 (all 0 when the scores are equal): upstream BestFit's
// NormalizeScore. On scores in 0..100 it is one-to-one, so the top nodes stay the top nodes.
inline void MinMaxNormalize(std::span<int64_t> scores) {
  if (scores.empty()) return;
  const auto [lo, hi] = std::minmax_element(scores.begin(), scores.end());
  const int64_t lowest = *lo;
  const int64_t range = *hi - lowest;
  for (int64_t& s : scores) s = range == 0 ? 0 : (s - lowest) * kMaxNodeScore / range;
}

// FGD: sigmoid((F_before - F_after) / 1000) x 100, truncated as upstream truncates it.
inline int64_t FgdScore(double before_milli, double after_milli) {
  const double delta = (before_milli - after_milli) / 1000;
  const double sigmoid = 1.0 / (1.0 + std::exp(-delta));
  return static_cast<int64_t>(sigmoid * 100.0);
}

// DotProd (Tetris), before scaling: 1 - (node . pod) / 2 over (CPU, GPU), each component
// already divided by the max spec the caller uses.
inline double DotProdUnitScore(double node_cpu, double node_gpu, double pod_cpu, double pod_gpu) {
  double dot = 0;
  dot += node_cpu * pod_cpu;
  dot += node_gpu * pod_gpu;
  return 1 - dot / 2;
}

// BestFit, before scaling: 1 - sum over (CPU, GPU) of 0.5 x slack / max spec, where slack is
// free - requested (integers, so exact in double).
inline double BestFitUnitScore(const std::array<int64_t, 2>& slack,
                               const std::array<double, 2>& max_spec) {
  double left = 0;
  for (size_t i = 0; i < 2; ++i) left += static_cast<double>(slack[i]) / max_spec[i] * 0.5;
  return 1.0 - left;
}

// GpuPacking case 3, an idle node: 33 - its free GPUs, floored (oddly, but as upstream) at
// the count.
inline int64_t PackingIdleNodeScore(int64_t free_gpus) {
  return std::max<int64_t>(kMaxNodeScore / 3 - free_gpus, free_gpus);
}
// GpuPacking on a used node, given what the pod's GPUs would be: case 2, it breaks
// `fully_free_taken` fully free GPUs (50 - how many, floored at 33); case 1, only partly
// used GPUs with `free_pct_on_taken` percent free in sum (the less, the higher; floored at 50).
inline int64_t PackingUsedNodeScore(int64_t fully_free_taken, int64_t free_pct_on_taken) {
  if (fully_free_taken > 0) {
    return std::max<int64_t>(kMaxNodeScore / 2 - fully_free_taken, kMaxNodeScore / 3);
  }
  return std::max<int64_t>(kMaxNodeScore - free_pct_on_taken / 10, kMaxNodeScore / 2);
}

// GpuClustering: bands of 25 — (75,100] only the pod's own kind on the node, (50,75] its
// kind among others, (25,50] no GPU pods yet, (0,25] other kinds only; inside a band, the
// more GPU allocated (`allocated_milli` of `max_gpu_milli`, integer division), the higher.
inline int64_t ClusteringScore(int64_t allocated_milli, int64_t max_gpu_milli, bool same_kind,
                               int64_t kinds_present) {
  const int64_t used = kMaxNodeScore / 4 * allocated_milli / max_gpu_milli;
  if (same_kind) {
    return used + (kinds_present == 1 ? kMaxNodeScore * 3 / 4 : kMaxNodeScore * 2 / 4);
  }
  return used + (kinds_present == 0 ? kMaxNodeScore / 4 : 0);
}

}  // namespace berth::gpu
