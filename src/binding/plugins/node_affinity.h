// NodeAffinity: the filter requires spec.nodeSelector and the required node affinity
// (PreFilter narrows to the nodes named by matchFields metadata.name In, and rejects every
// node when those names conflict); the score sums the weights of the preferred terms a
// node matches, normalized to 0..100 by the best feasible node.
#pragma once

#include <optional>

#include "binding/framework/filter_plugin.h"
#include "binding/framework/score_plugin.h"

namespace berth::binding {

class NodeAffinityFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override;
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;
};

class NodeAffinityScore final : public ScorePlugin {
 public:
  std::string_view Name() const override;
  bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
  void NormalizeScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible,
                      std::span<int64_t> scores) const override;
};

// nodeSelector and required node affinity together (upstream GetRequiredNodeAffinity.Match).
bool RequiredNodeAffinityMatches(const model::Pod& pod, const model::Node& node);
// Sum of the weights of the preferred terms `node` matches.
int64_t PreferredNodeAffinityScore(const model::Pod& pod, const model::Node& node);

}  // namespace berth::binding
