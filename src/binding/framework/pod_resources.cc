#include "binding/framework/pod_resources.h"

#include <array>

#include "model/pod_requests.h"

namespace berth::binding {

PodResources ComputePodResources(const model::Pod& pod, size_t num_resources) {
  PodResources out;
  out.requests.assign(num_resources, 0);
  model::PodRequestsInto(pod, {}, out.requests);
  // NodeResourcesFit scores with NonMissingContainerRequests for cpu and memory only.
  model::PodRequestsOptions nonzero_options;
  nonzero_options.non_missing_cpu_milli = kDefaultMilliCpuRequest;
  nonzero_options.non_missing_memory = kDefaultMemoryRequest;
  std::array<int64_t, 2> nonzero{};
  static_assert(model::kCpu.v == 0 && model::kMemory.v == 1);
  model::PodRequestsInto(pod, nonzero_options, nonzero);
  out.nonzero_cpu = nonzero[0];
  out.nonzero_memory = nonzero[1];
  return out;
}

}  // namespace berth::binding
