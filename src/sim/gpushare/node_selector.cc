#include "sim/gpushare/node_selector.h"

#include <limits>

namespace berth::sim::gpushare {

NodeSelector::NodeSelector(std::vector<int32_t> ranks, TieBreak tie_break)
    : ranks_(std::move(ranks)), tie_break_(tie_break) {}

int NodeSelector::Select(const gpu::NodeScorer& scorer, const gpu::PodSpec& pod,
                         const gpu::GpuCluster& cluster, Rng& rng) {
  BERTH_CHECK(ranks_.size() == static_cast<size_t>(cluster.size()), "one rank per node");
  // Upstream samples a reservoir over the ties; one uniform draw over them is the same
  // distribution, and the ranked rule needs no list at all.
  const bool uniform = scorer.always_uniform() || tie_break_ == TieBreak::kUniform;
  ties_.clear();
  int64_t best = std::numeric_limits<int64_t>::min();
  int chosen = -1;
  for (int i = 0; i < cluster.size(); ++i) {
    const gpu::NodeState& node = cluster.node(i);
    if (!Fits(pod, node)) continue;
    const int64_t score = scorer.Score(pod, node, cluster.node_fragment_milli(i));
    if (score < best) continue;
    if (score > best) {
      best = score;
      chosen = i;
      ties_.clear();
    } else if (!uniform && ranks_[i] < ranks_[chosen]) {
      chosen = i;
    }
    if (uniform) ties_.push_back(i);
  }
  if (!uniform || ties_.size() <= 1) return chosen;
  return ties_[static_cast<size_t>(rng.UniformIntByRemainder(ties_.size()))];
}

}  // namespace berth::sim::gpushare
