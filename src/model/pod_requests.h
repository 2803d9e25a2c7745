// PodRequests: the one rule for what a pod asks of a node, used by every stage (binding's
// PodInfo, queueing's Workload usage and TAS free capacity, the GPU occupancy of bound pods).
// It follows k8s.io/component-helpers resource.PodRequests (AggregateContainerRequests):
//
//   requests = max(sum(app containers) + sum(sidecars),
//                  max over init containers i of (init i + sidecars declared before i))
//              + overhead
//
// where sidecars are init containers with restartPolicy Always (Container::restartable).
// Options cover where callers truly differ: kube-scheduler's NonMissingContainerRequests
// (100m cpu / 200Mi memory for a container that names none, used for scoring) and Kueue's
// limits standing in for missing requests. Sums saturate at INT64_MAX (INT64_MIN) instead of
// overflowing, as core::Quantity does; readers refuse a pod whose sums would need that
// (CheckPodRequestsInRange), so saturation is only a backstop. Pure functions on values;
// thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/result.h"
#include "model/pod.h"
#include "model/resources.h"

namespace berth::model {

struct PodRequestsOptions {
  // Kueue (pkg/util/limitrange, the job integrations' defaulting): a container whose request
  // for a resource is 0 or missing and whose limit is positive requests the limit. The API
  // server applies the same defaulting to Pods when they are created, so kube-scheduler's
  // rule (this option off) sees requests already filled in; Workload pod templates are not
  // defaulted that way, hence the option. Off by default (upstream PodRequests).
  bool limits_for_missing_requests = false;
  // upstream PodResourcesOptions.ExcludeOverhead.
  bool exclude_overhead = false;
  // upstream NonMissingContainerRequests for cpu (milli-cores) and memory (bytes): a
  // container that does not name the resource (Container::cpu_request_named /
  // memory_request_named false, and no non-zero request) counts as requesting this amount;
  // an explicit 0 stays 0.
  std::optional<int64_t> non_missing_cpu_milli;
  std::optional<int64_t> non_missing_memory;
};

// Writes the pod's requests for resource ids [0, out.size()) into `out` (ids the pod's
// vectors do not reach count as 0). O(containers x out.size()); allocates two scratch
// vectors of out.size().
void PodRequestsInto(const Pod& pod, const PodRequestsOptions& options, std::span<int64_t> out);

// The same over every id any of the pod's containers or its overhead names; the result's
// size() is at most the largest of those vectors' sizes (trailing zeros are not stored).
ResourceVector PodRequests(const Pod& pod, const PodRequestsOptions& options = {});

// OutOfRange when some resource's requests of `pod` add up past INT64_MAX under either rule
// (a container's amount is its request, or its limit where the request is 0 or missing, so
// the check holds with and without limits_for_missing_requests). The error's field names the
// first container (or the overhead) whose amount takes a sum past the bound, relative to the
// pod spec: "containers[1].resources.requests[nvidia.com/gpu]", "overhead.memory". Readers
// call it once per decoded pod spec (Pods and pod templates), so that every later sum starts
// from amounts that fit. O(containers x resources).
core::Status CheckPodRequestsInRange(const Pod& pod, const ResourceCatalog& catalog);


}  // namespace berth::model
