#include "gpu/gpu_choice.h"

#include "core/check.h"

namespace berth::gpu {

GpuSet FirstFreeGpus(const PodSpec& pod, const NodeState& node) {
  GpuSet gpus;
  int needed = pod.num_gpu;
  for (int i = 0; i < node.num_gpu && needed > 0; ++i) {
    if (node.gpu_free_milli[i] == kMilliPerGpu) {
      gpus.Add(i);
      --needed;
    }
  }
  // Fits() guarantees the fully free GPUs: a whole-GPU pod needs 1000 free on each.
  BERTH_CHECK(needed == 0, "not enough fully free GPUs for a whole-GPU pod");
  return gpus;
}

GpuSet BestFitGpus(const PodSpec& pod, const NodeState& node) {
  if (pod.num_gpu == 0) return {};
  if (!pod.IsGpuShare()) return FirstFreeGpus(pod, node);
  int best = -1;
  for (int i = 0; i < node.num_gpu; ++i) {
    const int32_t free = node.gpu_free_milli[i];
    if (free >= pod.gpu_milli && (best < 0 || free < node.gpu_free_milli[best])) best = i;
  }
  BERTH_CHECK(best >= 0, "no GPU fits a pod that passed the filter");
  return GpuSet::Of(best);
}

GpuSet RandomFitGpus(const PodSpec& pod, const NodeState& node, RandomSource& rng) {
  if (pod.num_gpu == 0) return {};
  if (!pod.IsGpuShare()) return FirstFreeGpus(pod, node);
  const int32_t fitting = node.GpusWithFree(pod.gpu_milli);
  BERTH_CHECK(fitting > 0, "no GPU fits a pod that passed the filter");
  auto pick = static_cast<int32_t>(rng.UniformIntByRemainder(static_cast<uint64_t>(fitting)));
  for (int i = 0; i < node.num_gpu; ++i) {
    if (node.gpu_free_milli[i] >= pod.gpu_milli && pick-- == 0) return GpuSet::Of(i);
  }
  BERTH_CHECK(false, "unreachable: the pick is below the count of fitting GPUs");
  return {};
}

}  // namespace berth::gpu
