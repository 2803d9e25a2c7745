// PodResources: what one pod asks of a node, computed once per pod with model's one rule
// (model/pod_requests.h, upstream resource.PodRequests). The non-zero variant that
// NodeResourcesFit scores with (NonMissingContainerRequests) first gives each container
// that requests no cpu 100m and no memory 200Mi. Pure functions; values only.
#pragma once

#include <cstdint>
#include <vector>

#include "model/pod.h"

namespace berth::binding {

// schedutil.DefaultMilliCPURequest and DefaultMemoryRequest.
inline constexpr int64_t kDefaultMilliCpuRequest = 100;
inline constexpr int64_t kDefaultMemoryRequest = 200LL * 1024 * 1024;

struct PodResources {
  // Indexed by ResourceId, `num_resources` slots (cpu in milli-cores, others in units).
  std::vector<int64_t> requests;
  // cpu and memory with the per-container defaults, for NodeResourcesFit's score and the
  // node's NonZeroRequested.
  int64_t nonzero_cpu = 0;
  int64_t nonzero_memory = 0;

  int64_t request(model::ResourceId id) const { return requests[id.v]; }
};

// A container whose requests name cpu (memory) as 0 keeps 0: model::Container's
// cpu_request_named / memory_request_named tell an explicit 0 from a missing request.
PodResources ComputePodResources(const model::Pod& pod, size_t num_resources);

}  // namespace berth::binding
