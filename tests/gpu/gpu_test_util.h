// Builders for the gpu tests (and sim's gpushare tests, which include this header): pods and
// nodes of the GPU-sharing node model in one line, and a fixed-sequence RandomSource.
// Header-only so that both test binaries can use it. Test-only; not thread-safe.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "gpu/gpu_spec.h"
#include "gpu/node_state.h"
#include "gpu/random_source.h"

namespace berth::gpu::testing {

inline PodSpec Pod(int64_t cpu_milli, int32_t num_gpu, int32_t gpu_milli,
                   int64_t memory_mib = 1024) {
  PodSpec pod;
  pod.name = "pod";
  pod.cpu_milli = cpu_milli;
  pod.memory_mib = memory_mib;
  pod.num_gpu = num_gpu;
  pod.gpu_milli = gpu_milli;
  return pod;
}

inline NodeSpec Node(const std::string& name, int64_t cpu_milli, int32_t num_gpu,
                     GpuModelId model = GpuModelId{0}, int64_t memory_mib = 262144) {
  NodeSpec node;
  node.name = name;
  node.cpu_milli = cpu_milli;
  node.memory_mib = memory_mib;
  node.num_gpu = num_gpu;
  node.model = num_gpu > 0 ? model : kNoGpuModel;
  return node;
}

// An empty node of `spec`, then GPU i's free share set to free_milli[i].
inline NodeState NodeWithFree(const NodeSpec& spec, std::initializer_list<int32_t> free_milli) {
  NodeState node = NodeState::FromSpec(spec);
  int i = 0;
  for (int32_t free : free_milli) node.gpu_free_milli[i++] = free;
  return node;
}

// SplitMix64 draws reduced by remainder: deterministic, seedable, enough for tests that check
// a property over many draws.
class TestRandom final : public RandomSource {
 public:
  explicit TestRandom(uint64_t seed) : state_(seed) {}
  uint64_t UniformIntByRemainder(uint64_t n) override { return Next() % n; }
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

}  // namespace berth::gpu::testing
