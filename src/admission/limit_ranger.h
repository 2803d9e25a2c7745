// LimitRanger: the kube-apiserver admission plugin that fills in a pod's resources from its
// namespace's LimitRanges and refuses pods outside their bounds (upstream
// plugin/pkg/admission/limitranger). Called by engine's admission step on every pod berth
// creates from a workload, before it is scheduled. Pure functions; thread-compatible.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "model/pod.h"
#include "model/resources.h"
#include "model/tenancy.h"

namespace berth::admission {

// What LimitRanger did to one pod.
struct LimitRangerResult {
  // The messages of every violated bound of the first LimitRange that refused the pod, in
  // upstream's order (its items in order; per item min, max, maxLimitRequestRatio; per
  // container), worded as upstream ("maximum cpu usage per Container is 2, but limit is 4").
  // Empty: admitted.
  std::vector<std::string> errors;
  // The value of the kubernetes.io/limit-ranger annotation upstream writes ("LimitRanger
  // plugin set: cpu, memory request for container main; cpu limit for container main"),
  // empty when no default was applied.
  std::string annotation;

  bool admitted() const { return errors.empty(); }
  // The Forbidden cause as the API server prints it: the one error, or "[e1, e2]" for
  // several (upstream's aggregate).
  std::string Message() const;
};

// A LimitRange's items with upstream's API defaulting (SetDefaults_LimitRangeItem) applied:
// for a Container item, a missing default limit is the max, a missing defaultRequest is the
// default limit, else the min. Readers keep LimitRanges as written; admission defaults them.
model::LimitRange DefaultedLimitRange(const model::LimitRange& range);

// Applies `ranges` (a namespace's LimitRanges, each already DefaultedLimitRange) to `pod` in
// order, as the plugin does: for each range, containers and init containers get its default
// limits and requests where they name none, then the range's bounds are checked per
// Container and per Pod; the first range with a violation refuses the pod (later ranges are
// not applied). `catalog` interns resource names the pod did not use yet. A container
// "names" cpu or memory requests per Container::*_request_named or a non-zero amount, and
// any other request or limit by a non-zero amount (a ResourceVector keeps no explicit 0).
// O(ranges x items x containers x entries).
LimitRangerResult ApplyLimitRanges(std::span<const model::LimitRange* const> ranges,
                                   model::ResourceCatalog& catalog, model::Pod* pod);

}  // namespace berth::admission
