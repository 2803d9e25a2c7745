#include "model/pod_requests.h"

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace berth::model {

namespace {

// One container's amount of resource `i` under the options. Kept a per-element function
// rather than a materialised vector so the hot path (binding builds a PodInfo per pod)
// allocates nothing per container.
int64_t ContainerAmount(const Container& c, size_t i, const PodRequestsOptions& options) {
  const ResourceId id{static_cast<uint16_t>(i)};
  int64_t amount = c.requests.Get(id);
  if (options.limits_for_missing_requests && amount == 0) {
    const int64_t limit = c.limits.Get(id);
    if (limit > 0) amount = limit;
  }
  // NonMissingContainerRequests replaces only a request the container does not name; a
  // non-zero request is named whatever the flags say (see model::Container).
  if (id == kCpu && options.non_missing_cpu_milli && amount == 0 && !c.cpu_request_named) {
    amount = *options.non_missing_cpu_milli;
  } else if (id == kMemory && options.non_missing_memory && amount == 0 &&
             !c.memory_request_named) {
    amount = *options.non_missing_memory;
  }
  return amount;
}

}  // namespace

void PodRequestsInto(const Pod& pod, const PodRequestsOptions& options, std::span<int64_t> out) {
  const size_t dims = out.size();
  std::fill(out.begin(), out.end(), 0);
  for (const Container& c : pod.containers) {
    for (size_t i = 0; i < dims; ++i)
      out[i] = SaturatingAdd(out[i], ContainerAmount(c, i, options));
  }
  if (!pod.init_containers.empty()) {
    // KEP-753: while init container i runs, the sidecars declared before it run too; a
    // sidecar keeps running, so it also adds to the steady state (`out`).
    std::vector<int64_t> sidecars(dims, 0);
    std::vector<int64_t> init_peak(dims, 0);
    for (const Container& c : pod.init_containers) {
      for (size_t i = 0; i < dims; ++i) {
        const int64_t amount = ContainerAmount(c, i, options);
        if (c.restartable) {
          out[i] = SaturatingAdd(out[i], amount);
          sidecars[i] = SaturatingAdd(sidecars[i], amount);
          init_peak[i] = std::max(init_peak[i], sidecars[i]);
        } else {
          init_peak[i] = std::max(init_peak[i], SaturatingAdd(amount, sidecars[i]));
        }
      }
    }
    for (size_t i = 0; i < dims; ++i) out[i] = std::max(out[i], init_peak[i]);
  }
  if (!options.exclude_overhead) {
    for (size_t i = 0; i < dims; ++i) {
      out[i] = SaturatingAdd(out[i], pod.overhead.Get(ResourceId{static_cast<uint16_t>(i)}));
    }
  }
}

ResourceVector PodRequests(const Pod& pod, const PodRequestsOptions& options) {
  size_t dims = options.exclude_overhead ? 0 : pod.overhead.size();
  auto widen = [&](const std::vector<Container>& containers) {
    for (const Container& c : containers) {
      dims = std::max(dims, c.requests.size());
      if (options.limits_for_missing_requests) dims = std::max(dims, c.limits.size());
    }
  };
  widen(pod.containers);
  widen(pod.init_containers);
  if (options.non_missing_cpu_milli) dims = std::max<size_t>(dims, kCpu.v + 1);
  if (options.non_missing_memory) dims = std::max<size_t>(dims, kMemory.v + 1);
  std::vector<int64_t> amounts(dims, 0);
  PodRequestsInto(pod, options, amounts);
  ResourceVector out;
  // From the highest id down, so the vector grows once.
  for (size_t i = dims; i-- > 0;) out.Set(ResourceId{static_cast<uint16_t>(i)}, amounts[i]);
  return out;
}

namespace {

// The field of resource `name` under `prefix`, spelled as the readers spell it: a name with
// '.' or '/' in brackets ("requests[nvidia.com/gpu]"), others after a dot ("requests.cpu").
std::string ResourceField(std::string prefix, std::string_view name) {
  if (name.find_first_of("./") != std::string_view::npos) {
    prefix += '[';
    prefix += name;
    prefix += ']';
  } else {
    prefix += '.';
    prefix += name;
  }
  return prefix;
}

// The container's amount for the check, and whether it came from its limit.
int64_t CheckedAmount(const Container& c, ResourceId id, bool* from_limit) {
  const int64_t request = c.requests.Get(id);
  const int64_t limit = c.limits.Get(id);
  *from_limit = request == 0 && limit > 0;
  return *from_limit ? limit : request;
}

core::Error TooLarge(const ResourceCatalog& catalog, ResourceId id, std::string field) {
  const std::string& name = catalog.Name(id);
  return core::OutOfRange("the pod's " + name + " requests add up to more than " +
                              std::to_string(std::numeric_limits<int64_t>::max()) +
                              (id == kCpu ? " milli-cores" : "") +
                              ", the most one pod can request",
                          {"", "", std::move(field)});
}

}  // namespace

core::Status CheckPodRequestsInRange(const Pod& pod, const ResourceCatalog& catalog) {
  size_t dims = pod.overhead.size();
  for (const auto* list : {&pod.containers, &pod.init_containers}) {
    for (const Container& c : *list) dims = std::max({dims, c.requests.size(), c.limits.size()});
  }
  for (size_t i = 0; i < dims && i < catalog.size(); ++i) {
    const ResourceId id{static_cast<uint16_t>(i)};
    // The same sums as PodRequestsInto, each checked: the steady state (app containers and
    // sidecars) and each init container's peak (itself and the sidecars before it), then the
    // overhead on the larger.
    int64_t steady = 0;
    int64_t sidecars = 0;
    int64_t peak = 0;
    for (size_t j = 0; j < pod.containers.size(); ++j) {
      bool from_limit = false;
      const int64_t amount = CheckedAmount(pod.containers[j], id, &from_limit);
      if (__builtin_add_overflow(steady, amount, &steady)) {
        return TooLarge(catalog, id,
                        ResourceField("containers[" + std::to_string(j) + "].resources." +
                                          (from_limit ? "limits" : "requests"),
                                      catalog.Name(id)));
      }
    }
    for (size_t j = 0; j < pod.init_containers.size(); ++j) {
      const Container& c = pod.init_containers[j];
      bool from_limit = false;
      const int64_t amount = CheckedAmount(c, id, &from_limit);
      int64_t running = 0;
      const bool overflow =
          c.restartable ? (__builtin_add_overflow(steady, amount, &steady) ||
                           __builtin_add_overflow(sidecars, amount, &sidecars))
                        : __builtin_add_overflow(sidecars, amount, &running);
      if (overflow) {
        return TooLarge(catalog, id,
                        ResourceField("initContainers[" + std::to_string(j) + "].resources." +
                                          (from_limit ? "limits" : "requests"),
                                      catalog.Name(id)));
      }
      peak = std::max(peak, c.restartable ? sidecars : running);
    }
    int64_t total = 0;
    if (__builtin_add_overflow(std::max(steady, peak), pod.overhead.Get(id), &total)) {
      return TooLarge(catalog, id, ResourceField("overhead", catalog.Name(id)));
    }
  }
  return core::OkStatus();
}

}  // namespace berth::model
