// ResolvedProfile: one SchedulerProfile with names resolved against the snapshot's resource
// catalog and kube-scheduler's defaulting applied (a score weight of 0 means 1, a resource
// weight of 0 means 1, RequestedToCapacityRatio without a shape gets {0:10, 100:0}, shape
// scores scaled x10 to 0..100). Immutable after construction.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "binding/framework/resource_table.h"
#include "model/scheduler_config.h"

namespace berth::binding {

struct ScoredResource {
  model::ResourceId id;
  bool present = false;  // false: no object names it, so every amount is 0 and it is skipped
  int64_t weight = 1;
};

struct ShapePoint {
  int64_t utilization = 0;  // 0..100
  int64_t score = 0;        // 0..100 (the configured 0..10 times 10)
};

class ResolvedProfile {
 public:
  ResolvedProfile(const model::SchedulerProfile& profile, int32_t index,
                  const ResourceTable& resources);

  const model::SchedulerProfile& source() const { return *source_; }
  int32_t index() const { return index_; }
  bool FilterEnabled(std::string_view plugin) const;
  // 0 when the plugin does not score in this profile.
  int32_t Weight(std::string_view plugin) const;

  model::ScoringStrategyType strategy() const { return strategy_; }
  const std::vector<ScoredResource>& fit_resources() const { return fit_resources_; }
  const std::vector<ShapePoint>& shape() const { return shape_; }
  const std::vector<ScoredResource>& balanced_resources() const { return balanced_resources_; }
  // Whether the profile weighs any GPU-sharing score plugin (gpu_share_names.h).
  bool gpu_share_scoring() const { return gpu_share_scoring_; }

 private:
  const model::SchedulerProfile* source_;
  int32_t index_;
  model::ScoringStrategyType strategy_;
  std::vector<ScoredResource> fit_resources_;
  std::vector<ShapePoint> shape_;
  std::vector<ScoredResource> balanced_resources_;
  bool gpu_share_scoring_ = false;
};

}  // namespace berth::binding
