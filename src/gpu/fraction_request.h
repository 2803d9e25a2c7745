// FractionRequest: a pod's request for part of one physical GPU, as GPU-sharing schedulers
// express it with pod annotations (KAI Scheduler: `gpu-fraction: "0.5"`, or
// `gpu-memory: "20000"` in MiB, optionally `gpu-fraction-num-devices: "2"` for that portion
// of each of several GPUs). Parsed by binding (PodInfo) and by gpu_occupancy; accounted per
// GPU in milli-GPU and MiB by FractionLedger. Pure functions and values; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/labels.h"
#include "core/result.h"

namespace berth::gpu {

inline constexpr std::string_view kGpuFractionAnnotation = "gpu-fraction";
inline constexpr std::string_view kGpuMemoryAnnotation = "gpu-memory";
inline constexpr std::string_view kGpuFractionNumDevicesAnnotation = "gpu-fraction-num-devices";

// One GPU in milli-GPU, the unit fractions are accounted in.
inline constexpr int64_t kMilliGpu = 1000;

// What one portion of a request takes on one GPU.
struct GpuPortion {
  int64_t milli = 0;
  int64_t memory_mib = 0;
};

struct FractionRequest {
  int64_t milli = 0;        // gpu-fraction x 1000, rounded up; 0 when the request is by memory
  int64_t memory_mib = 0;   // gpu-memory; 0 when the request is by fraction
  int32_t num_devices = 1;  // gpu-fraction-num-devices: the portion is taken on this many GPUs

  bool by_memory() const { return memory_mib > 0; }

  // The portion taken on a GPU of `gpu_memory_mib` (0: unknown). A fraction takes that share
  // of the GPU's memory too (KAI's gpu-fraction is a share of device memory); a memory
  // request takes memory / gpu memory of the GPU, rounded up to a milli-GPU. nullopt for a
  // memory request on a GPU whose memory is unknown or smaller than the request.
  std::optional<GpuPortion> On(int64_t gpu_memory_mib) const;

  // "0.5 GPU", "20000 MiB", "2 x 0.25 GPU".
  std::string ToString() const;

  bool operator==(const FractionRequest&) const = default;
};

// True when `annotations` carry any of the three annotations above.
bool HasFractionAnnotations(const core::Labels& annotations);

// Parses a pod's annotations. nullopt when the pod carries none of them. InvalidArgument
// (field metadata.annotations[<key>]) with KAI's admission rules: gpu-fraction a decimal
// number in (0, 1]; gpu-memory a positive integer (MiB); not both; gpu-fraction-num-devices
// a positive integer, only with one of the others; and no fraction beside a whole-GPU
// request (`whole_gpus_requested`: the pod's nvidia.com/gpu request).
core::Result<std::optional<FractionRequest>> ParseFractionRequest(const core::Labels& annotations,
                                                                  int64_t whole_gpus_requested);

// "0.5" -> 500 (milli, rounded up); nullopt for anything that is not a plain non-negative
// decimal number ("1e-1", "500m", "-0.5", "").
std::optional<int64_t> ParseDecimalMilli(std::string_view text);

}  // namespace berth::gpu
