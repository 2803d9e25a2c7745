#include "binding/pod_resources.h"

#include <algorithm>

namespace berth::binding {

namespace {

// Aggregates per-container amounts the way AggregateContainerRequests does, for any number
// of dimensions; `amounts(c)` gives container c's amounts (size `dims`).
template <typename AmountsFn>
std::vector<int64_t> Aggregate(const model::Pod& pod, size_t dims, AmountsFn amounts) {
  std::vector<int64_t> total(dims, 0);
  std::vector<int64_t> sidecars(dims, 0);  // sidecars declared so far
  std::vector<int64_t> init_peak(dims, 0);
  std::vector<int64_t> scratch(dims, 0);
  for (const model::Container& c : pod.containers) {
    amounts(c, &scratch);
    for (size_t i = 0; i < dims; ++i) total[i] += scratch[i];
  }
  for (const model::Container& c : pod.init_containers) {
    amounts(c, &scratch);
    if (c.restartable) {
      // A sidecar keeps running: it adds to the steady state and to every later init step.
      for (size_t i = 0; i < dims; ++i) {
        total[i] += scratch[i];
        sidecars[i] += scratch[i];
        init_peak[i] = std::max(init_peak[i], sidecars[i]);
      }
    } else {
      for (size_t i = 0; i < dims; ++i) {
        init_peak[i] = std::max(init_peak[i], scratch[i] + sidecars[i]);
      }
    }
  }
  for (size_t i = 0; i < dims; ++i) total[i] = std::max(total[i], init_peak[i]);
  return total;
}

}  // namespace

PodResources ComputePodResources(const model::Pod& pod, size_t num_resources) {
  PodResources out;
  out.requests = Aggregate(
      pod, num_resources, [num_resources](const model::Container& c, std::vector<int64_t>* v) {
        const auto& a = c.requests.amounts();
        size_t n = std::min(a.size(), num_resources);
        std::fill(v->begin(), v->end(), 0);
        std::copy(a.begin(), a.begin() + static_cast<ptrdiff_t>(n), v->begin());
      });
  std::vector<int64_t> nonzero =
      Aggregate(pod, 2, [](const model::Container& c, std::vector<int64_t>* v) {
        int64_t cpu = c.requests.Get(model::kCpu);
        int64_t mem = c.requests.Get(model::kMemory);
        (*v)[0] = cpu == 0 && !c.cpu_request_named ? kDefaultMilliCpuRequest : cpu;
        (*v)[1] = mem == 0 && !c.memory_request_named ? kDefaultMemoryRequest : mem;
      });
  const auto& overhead = pod.overhead.amounts();
  for (size_t i = 0; i < overhead.size() && i < num_resources; ++i) out.requests[i] += overhead[i];
  out.nonzero_cpu = nonzero[0] + pod.overhead.Get(model::kCpu);
  out.nonzero_memory = nonzero[1] + pod.overhead.Get(model::kMemory);
  return out;
}

}  // namespace berth::binding
