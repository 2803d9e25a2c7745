// NodeSpec and PodSpec: the node and pod GPU shapes of the GPU-sharing node model, as the
// Alibaba OpenB trace describes them (shared/reference/traces.md §1): per node CPU, memory,
// GPU count and model; per pod CPU, memory, GPU count, the share of each GPU in thousandths
// and the allowed GPU models. Written by sim's OpenB reader and binding's GpuShare plugin,
// read by the node model (node_state.h) and the policies. Plain values.
#pragma once

#include <cstdint>
#include <string>

#include "gpu/gpu_model_table.h"

namespace berth::gpu {

inline constexpr int32_t kMilliPerGpu = 1000;
// Nodes carry at most this many GPUs (OpenB has 8); node state is a fixed array of them.
inline constexpr int kMaxGpusPerNode = 16;

struct NodeSpec {
  std::string name;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int32_t num_gpu = 0;
  GpuModelId model = kNoGpuModel;
};

struct PodSpec {
  std::string name;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int32_t num_gpu = 0;
  // Thousandths of each of its num_gpu GPUs: 1..1000 when num_gpu > 0, below 1000 only for a
  // single-GPU sharing pod; 0 for a CPU-only pod.
  int32_t gpu_milli = 0;
  // The allowed models as written ('|'-joined, empty parts dropped), "" for any. Typical-pod
  // grouping keys on this text, as upstream does; allowed_models is the same as ids.
  std::string gpu_spec;
  ModelSet allowed_models;

  int64_t TotalGpuMilli() const { return int64_t{gpu_milli} * num_gpu; }
  bool IsGpuShare() const { return num_gpu == 1 && gpu_milli < kMilliPerGpu; }
};

}  // namespace berth::gpu
