// berth's GPU-sharing policy ("berth", Policy::kBerth; docs/simulate.md "The berth policy").
// A node's key, compared in this order (higher wins, then the run's tie-break):
//   1. model pressure, GPU pods only: the pod goes to the GPU model whose free GPUs are least
//      claimed by the pods that can run only on some models. Pressure of model m =
//      share(m) x free GPUs of the cluster / free GPUs of m, where share(m) is the part of the
//      typical pods' GPU demand that is restricted to a model list and falls on m (split over
//      the listed models by capacity); compared in thirds (floor(3 x pressure), lower first).
//   2. FGD's score (fgd_whatif.h); among a sharing pod's GPUs of equal score the one leaving
//      the least fragment, then the tightest.
//   3. sharing and CPU-only pods: how well the pod's (CPU, GPU) request lines up with the
//      node's free (CPU, GPU), both as fractions of the node's capacity, in tenths of the
//      cosine. Whole-GPU pods skip this and keep the seeded node order.
// It knows of the trace only the typical-pod distribution FGD already uses, and of the
// cluster only its current state. Called by MakeScorer (policy.h). One scorer per run (it
// keeps FGD's memo and reads one GpuCluster); not thread-safe. Score is FGD's cost plus O(1).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu/fragmentation.h"
#include "gpu/gpu_cluster.h"
#include "gpu/node_state.h"
#include "gpu/policy.h"
#include "gpu/typical_pods.h"

namespace berth::gpu {

// share(m) per model, from the typical pods and the capacity per model of `cluster`.
class ModelPressure {
 public:
  ModelPressure(const std::vector<TypicalPod>& typical_pods, const GpuCluster& cluster);

  // The fraction of all typical GPU demand that only models including m can take, booked on m
  // in proportion to m's share of the listed models' GPUs. 0 for kNoGpuModel.
  double share(GpuModelId model) const;
  // share(m) x cluster.gpu_idle_milli() / cluster.gpu_free_milli(m), capped at kMaxPressure
  // (also when m has nothing free). 0 when share(m) is 0.
  double Pressure(GpuModelId model, const GpuCluster& cluster) const;

  static constexpr double kMaxPressure = 100;

 private:
  std::array<double, kMaxGpuModels> share_{};
};

// floor(3 x pressure): the pressure levels that count as different (0..300).
int64_t PressureLevel(double pressure);
// Cosine between the pod's request and the node's free resources, CPU and GPU each divided by
// the node's capacity; 0 when either vector is zero. In [0, 1].
double Alignment(const PodSpec& pod, const NodeState& node);
// floor(10 x alignment) for sharing and CPU-only pods, 0 for whole-GPU pods (0..10).
int64_t AlignmentLevel(const PodSpec& pod, const NodeState& node);

// The three criteria as one integer, higher better: lower pressure level first, then higher
// FGD score (0..100), then higher alignment level.
int64_t BerthNodeScore(int64_t pressure_level, int64_t fgd_score, int64_t alignment_level);

// The scorer; borrows both arguments, which must outlive it.
std::unique_ptr<NodeScorer> MakeBerthScorer(const FragmentationModel& fragmentation,
                                            const GpuCluster& cluster);

}  // namespace berth::gpu
