// InterPodAffinity (upstream interpodaffinity): the filter enforces the pod's required
// affinity (some pod matching all terms in the node's topology domain, or, for the first pod
// of a group that matches its own terms, no such pod anywhere), its required anti-affinity,
// and the required anti-affinity of pods already placed against this pod, on any topology
// key. The score sums, per topology domain, the preferred term weights of the pod towards
// existing pods and of existing pods towards the pod (required affinity of existing pods
// with hardPodAffinityWeight 1), normalized min-max to 0..100. Pods are counted per
// (namespace, labels) signature.
#pragma once

#include <map>
#include <string_view>

#include "binding/framework/filter_plugin.h"
#include "binding/framework/score_plugin.h"

namespace berth::binding {

// Matching pods per (topology key, topology value).
using TopologyCounts = std::map<std::string_view, std::map<std::string_view, int64_t>>;

class InterPodAffinityFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override;
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;

 private:
  TopologyCounts existing_anti_;  // existing pods whose anti-affinity selects this pod
  TopologyCounts affinity_;       // pods matching all of this pod's affinity terms
  TopologyCounts anti_;           // pods matching one of this pod's anti-affinity terms
  bool matches_own_terms_ = false;
};

class InterPodAffinityScore final : public ScorePlugin {
 public:
  std::string_view Name() const override;
  bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
  void NormalizeScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible,
                      std::span<int64_t> scores) const override;

 private:
  TopologyCounts topology_score_;
};

// True when some term of a placed pod (any kind) could select `pod`: then InterPodAffinity
// may filter or score it. Used by the index to send such pods to the per-node path.
bool PlacedTermSelects(const CycleContext& ctx, const PodInfo& placed, const model::Pod& pod);

}  // namespace berth::binding
