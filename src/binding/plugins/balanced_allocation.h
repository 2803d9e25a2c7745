// NodeResourcesBalancedAllocation score: favours nodes whose cpu and memory (the profile's
// balanced resources) would be used in equal fractions: 100 * (1 - standard deviation of
// the fractions), from the pods' actual requests. Skipped for pods that request none of
// those resources.
#pragma once

#include "binding/framework/score_plugin.h"
#include "binding/plugins/resource_scorer.h"

namespace berth::binding {

class BalancedAllocationScore final : public ScorePlugin {
 public:
  BalancedAllocationScore(const ResolvedProfile& profile, const ResourceTable& resources)
      : scorer_(profile, resources) {}
  std::string_view Name() const override;
  bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;

 private:
  ResourceScorer scorer_;
};

}  // namespace berth::binding
