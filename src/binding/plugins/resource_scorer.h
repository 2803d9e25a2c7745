// ResourceScorer: the resource arithmetic of NodeResourcesFit's score (LeastAllocated,
// MostAllocated, RequestedToCapacityRatio) and of NodeResourcesBalancedAllocation, in
// upstream's integer (and, where upstream uses float64, double) arithmetic. Shared by the
// per-node plugins and the index so both compute bit-identical scores. Pure functions of a
// NodeLoad and a pod's resources; O(scored resources).
#pragma once

#include <cstdint>

#include "binding/framework/cluster_state.h"
#include "binding/framework/plugin_names.h"
#include "binding/framework/pod_resources.h"
#include "binding/framework/resolved_profile.h"
#include "binding/framework/resource_table.h"

namespace berth::binding {

class ResourceScorer {
 public:
  ResourceScorer(const ResolvedProfile& profile, const ResourceTable& resources)
      : profile_(profile), resources_(resources) {}

  // NodeResourcesFit's raw score (0..100) of placing `pod` on a node with `load`.
  int64_t FitScore(const NodeLoad& load, const PodResources& pod) const;

  // True when every balanced resource request of the pod is 0: upstream then skips
  // NodeResourcesBalancedAllocation for the pod (best-effort pods, kubernetes#129138).
  bool BalancedSkipped(const PodResources& pod) const;
  // NodeResourcesBalancedAllocation's score (0..100).
  int64_t BalancedScore(const NodeLoad& load, const PodResources& pod) const;

 private:
  const ResolvedProfile& profile_;
  const ResourceTable& resources_;
};

// Building blocks, exposed for tests.
int64_t LeastRequestedScore(int64_t requested, int64_t capacity);
int64_t MostRequestedScore(int64_t requested, int64_t capacity);
// helper.BuildBrokenLinearFunction evaluated at p.
int64_t BrokenLinear(const std::vector<ShapePoint>& shape, int64_t p);

}  // namespace berth::binding
