// TaintToleration: the filter rejects a node with a NoSchedule or NoExecute taint the pod
// does not tolerate (reason names the first such taint); the score counts the node's
// PreferNoSchedule taints the pod does not tolerate, normalized reversed (fewest wins).
#pragma once

#include "binding/framework/filter_plugin.h"
#include "binding/framework/score_plugin.h"

namespace berth::binding {

class TaintTolerationFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;
};

class TaintTolerationScore final : public ScorePlugin {
 public:
  std::string_view Name() const override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
  void NormalizeScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible,
                      std::span<int64_t> scores) const override;
};

// The filter's reason for a node with `taints`, or nullopt when it passes.
std::optional<ReasonId> UntoleratedTaintReason(const model::Pod& pod,
                                               const std::vector<core::Taint>& taints,
                                               ReasonTable& reasons);

}  // namespace berth::binding
