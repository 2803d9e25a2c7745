// PodTopologySpread (upstream podtopologyspread): the filter enforces the DoNotSchedule
// constraints (matching pods per topology domain + 1 for the pod itself - the global
// minimum <= maxSkew, minDomains, nodeAffinityPolicy / nodeTaintsPolicy, nodes missing a
// topology key rejected); the score prefers domains with fewer matching pods for the
// ScheduleAnyway constraints, weighted by log(domain count + 2) and normalized upstream's
// way. Counting matches (namespace, labels) signatures, not pods, so a PreFilter costs
// O(nodes x signatures per node). System default constraints are not applied: they select
// through Services / ReplicaSets / StatefulSets, which the model does not carry.
#pragma once

#include <string_view>
#include <unordered_map>
#include <vector>

#include "binding/framework/filter_plugin.h"
#include "binding/framework/score_plugin.h"

namespace berth::binding {

class PodTopologySpreadFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override;
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;

 private:
  // Per constraint: matching pods per topology value, the minimum, the domain count.
  std::vector<std::unordered_map<std::string_view, int64_t>> counts_;
  std::vector<int64_t> min_;
};

class PodTopologySpreadScore final : public ScorePlugin {
 public:
  std::string_view Name() const override;
  bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
  void NormalizeScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible,
                      std::span<int64_t> scores) const override;

 private:
  std::vector<bool> ignored_;  // per node: feasible but missing a topology key
  std::vector<std::unordered_map<std::string_view, int64_t>> counts_;
  std::vector<double> weights_;
  std::vector<std::vector<int64_t>> host_counts_;  // per hostname constraint, per node
};

}  // namespace berth::binding
