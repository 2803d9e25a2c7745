// In-node GPU choice shared by the policies (upstream's Open-Gpu-Share "gpuSelMethod"):
// whole-GPU pods take the lowest-numbered fully free GPUs (AllocateExclusiveGpuId); a sharing
// pod takes the tightest GPU with room (best), or a uniformly random one with room (random).
// CPU-only pods take no GPU. Called by the scorers on the chosen node. O(GPUs on the node).
#pragma once

#include "gpu/node_state.h"
#include "gpu/random_source.h"

namespace berth::gpu {

// The pod's num_gpu lowest-numbered GPUs with all 1000 thousandths free. Precondition: enough.
GpuSet FirstFreeGpus(const PodSpec& pod, const NodeState& node);

// A sharing pod: the GPU with the least free share that still fits it, the lowest index among
// equals; other pods as FirstFreeGpus. Precondition: Fits(pod, node).
GpuSet BestFitGpus(const PodSpec& pod, const NodeState& node);

// A sharing pod: one of the GPUs that fit it, uniformly; other pods as FirstFreeGpus.
// Precondition: Fits(pod, node).
GpuSet RandomFitGpus(const PodSpec& pod, const NodeState& node, RandomSource& rng);

}  // namespace berth::gpu
