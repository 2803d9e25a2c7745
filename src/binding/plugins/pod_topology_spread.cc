#include "binding/plugins/pod_topology_spread.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "binding/framework/plugin_names.h"
#include "binding/plugins/node_affinity.h"
#include "core/taint.h"

namespace berth::binding {

namespace {

bool HasAllKeys(const model::Node& node, const std::vector<SpreadConstraint>& constraints) {
  return std::all_of(constraints.begin(), constraints.end(), [&](const SpreadConstraint& c) {
    return node.meta.labels.find(c.topology_key) != node.meta.labels.end();
  });
}

bool MatchesInclusionPolicies(const SpreadConstraint& c, const model::Pod& pod,
                              const model::Node& node) {
  if (c.node_affinity_policy == model::NodeInclusionPolicy::kHonor &&
      !RequiredNodeAffinityMatches(pod, node)) {
    return false;
  }
  if (c.node_taints_policy == model::NodeInclusionPolicy::kHonor &&
      core::FindUntoleratedHardTaint(node.taints, pod.tolerations) != nullptr) {
    return false;
  }
  return true;
}

// Counts the pods on nodes that a constraint's selector matches, in the incoming pod's
// namespace (upstream countPodsMatchSelector), memoizing the verdict per signature.
class SignatureCounter {
 public:
  SignatureCounter(const CycleContext& ctx, const SpreadConstraint& c)
      : ctx_(ctx), c_(c), verdict_(ctx.label_sigs.size(), -1) {}

  int64_t Count(model::NodeIndex node) {
    int64_t n = 0;
    for (const SigCount& s : ctx_.state.label_sigs(node)) {
      int8_t& v = verdict_[static_cast<size_t>(s.sig.v)];
      if (v < 0) {
        v = ctx_.label_sigs.namespace_of(s.sig) == ctx_.pod.meta.namespace_ &&
                    c_.SelectorMatches(ctx_.label_sigs.labels(s.sig))
                ? 1
                : 0;
      }
      if (v == 1) n += s.count;
    }
    return n;
  }

 private:
  const CycleContext& ctx_;
  const SpreadConstraint& c_;
  std::vector<int8_t> verdict_;
};

std::string_view LabelValue(const model::Node& node, const std::string& key) {
  return node.meta.labels.find(key)->second;
}

}  // namespace

std::string_view PodTopologySpreadFilter::Name() const { return kPodTopologySpread; }

PreFilterResult PodTopologySpreadFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult result;
  const auto& constraints = ctx.info.hard_spread;
  if (constraints.empty()) {
    result.kind = PreFilterResult::Kind::kSkip;
    return result;
  }
  counts_.assign(constraints.size(), {});
  std::vector<SignatureCounter> counters;
  counters.reserve(constraints.size());
  for (const auto& c : constraints) counters.emplace_back(ctx, c);
  for (int32_t i = 0; i < ctx.state.num_nodes(); ++i) {
    model::NodeIndex n{i};
    const model::Node& node = ctx.state.node(n);
    // A node missing any of the topology keys counts for none of the constraints.
    if (!HasAllKeys(node, constraints)) continue;
    for (size_t c = 0; c < constraints.size(); ++c) {
      if (!MatchesInclusionPolicies(constraints[c], ctx.pod, node)) continue;
      counts_[c][LabelValue(node, constraints[c].topology_key)] += counters[c].Count(n);
    }
  }
  min_.assign(constraints.size(), std::numeric_limits<int32_t>::max());
  for (size_t c = 0; c < constraints.size(); ++c) {
    for (const auto& [value, count] : counts_[c]) min_[c] = std::min(min_[c], count);
  }
  return result;
}

void PodTopologySpreadFilter::Filter(const CycleContext& ctx, model::NodeIndex n,
                                     std::vector<ReasonId>* reasons) const {
  const auto& constraints = ctx.info.hard_spread;
  const model::Node& node = ctx.state.node(n);
  for (size_t c = 0; c < constraints.size(); ++c) {
    const SpreadConstraint& sc = constraints[c];
    auto label = node.meta.labels.find(sc.topology_key);
    if (label == node.meta.labels.end()) {
      reasons->push_back(ctx.reasons.Intern(kPodTopologySpread, kReasonSpreadMissingLabel));
      return;
    }
    // Fewer eligible domains than minDomains make the global minimum 0.
    int64_t min_match = static_cast<int64_t>(counts_[c].size()) < sc.min_domains ? 0 : min_[c];
    int64_t self_match = sc.SelectorMatches(ctx.pod.meta.labels) ? 1 : 0;
    auto it = counts_[c].find(label->second);
    int64_t match = it == counts_[c].end() ? 0 : it->second;
    if (match + self_match - min_match > sc.max_skew) {
      reasons->push_back(ctx.reasons.Intern(kPodTopologySpread, kReasonSpread));
      return;
    }
  }
}

std::string_view PodTopologySpreadScore::Name() const { return kPodTopologySpread; }

bool PodTopologySpreadScore::PreScore(const CycleContext& ctx,
                                      std::span<const model::NodeIndex> feasible) {
  const auto& constraints = ctx.info.soft_spread;
  if (constraints.empty() || ctx.state.num_nodes() == 0) return false;
  ignored_.assign(static_cast<size_t>(ctx.state.num_nodes()), false);
  counts_.assign(constraints.size(), {});
  std::vector<int64_t> domains(constraints.size(), 0);
  int64_t scored_nodes = 0;
  // The pod has explicit constraints, so nodes must carry every topology key
  // (requireAllTopologies); the others score 0.
  for (model::NodeIndex n : feasible) {
    const model::Node& node = ctx.state.node(n);
    if (!HasAllKeys(node, constraints)) {
      ignored_[static_cast<size_t>(n.v)] = true;
      continue;
    }
    ++scored_nodes;
    for (size_t c = 0; c < constraints.size(); ++c) {
      if (constraints[c].topology_key == kLabelHostname) continue;  // counted per node in Score
      if (counts_[c].emplace(LabelValue(node, constraints[c].topology_key), 0).second) {
        ++domains[c];
      }
    }
  }
  weights_.assign(constraints.size(), 0);
  for (size_t c = 0; c < constraints.size(); ++c) {
    int64_t size = constraints[c].topology_key == kLabelHostname ? scored_nodes : domains[c];
    weights_[c] = std::log(static_cast<double>(size + 2));
  }
  std::vector<SignatureCounter> counters;
  counters.reserve(constraints.size());
  for (const auto& c : constraints) counters.emplace_back(ctx, c);
  // Hostname domains are single nodes: Score reads the node's own count, with no inclusion
  // policy applied (as upstream's Score does).
  host_counts_.assign(constraints.size(), {});
  for (size_t c = 0; c < constraints.size(); ++c) {
    if (constraints[c].topology_key != kLabelHostname) continue;
    host_counts_[c].assign(static_cast<size_t>(ctx.state.num_nodes()), 0);
    for (model::NodeIndex n : feasible) {
      if (!ignored_[static_cast<size_t>(n.v)]) {
        host_counts_[c][static_cast<size_t>(n.v)] = counters[c].Count(n);
      }
    }
  }
  for (int32_t i = 0; i < ctx.state.num_nodes(); ++i) {
    model::NodeIndex n{i};
    const model::Node& node = ctx.state.node(n);
    if (!HasAllKeys(node, constraints)) continue;
    for (size_t c = 0; c < constraints.size(); ++c) {
      if (constraints[c].topology_key == kLabelHostname) continue;
      if (!MatchesInclusionPolicies(constraints[c], ctx.pod, node)) continue;
      // Only domains of feasible nodes are tracked.
      auto it = counts_[c].find(LabelValue(node, constraints[c].topology_key));
      if (it == counts_[c].end()) continue;
      it->second += counters[c].Count(n);
    }
  }
  return true;
}

int64_t PodTopologySpreadScore::Score(const CycleContext& ctx, model::NodeIndex n) const {
  if (ignored_[static_cast<size_t>(n.v)]) return 0;
  const auto& constraints = ctx.info.soft_spread;
  const model::Node& node = ctx.state.node(n);
  double score = 0;
  for (size_t c = 0; c < constraints.size(); ++c) {
    const SpreadConstraint& sc = constraints[c];
    auto label = node.meta.labels.find(sc.topology_key);
    if (label == node.meta.labels.end()) continue;
    int64_t count = 0;
    if (sc.topology_key == kLabelHostname) {
      count = host_counts_[c][static_cast<size_t>(n.v)];
    } else {
      count = counts_[c].at(label->second);
    }
    // maxSkew - 1 waters down the differences between domains.
    score += static_cast<double>(count) * weights_[c] + static_cast<double>(sc.max_skew - 1);
  }
  return static_cast<int64_t>(std::round(score));
}

void PodTopologySpreadScore::NormalizeScore(const CycleContext&,
                                            std::span<const model::NodeIndex> feasible,
                                            std::span<int64_t> scores) const {
  int64_t min_score = std::numeric_limits<int64_t>::max();
  int64_t max_score = 0;
  for (size_t i = 0; i < feasible.size(); ++i) {
    if (ignored_[static_cast<size_t>(feasible[i].v)]) continue;
    min_score = std::min(min_score, scores[i]);
    max_score = std::max(max_score, scores[i]);
  }
  for (size_t i = 0; i < feasible.size(); ++i) {
    if (ignored_[static_cast<size_t>(feasible[i].v)]) {
      scores[i] = 0;
    } else if (max_score == 0) {
      scores[i] = kMaxNodeScore;
    } else {
      scores[i] = kMaxNodeScore * (max_score + min_score - scores[i]) / max_score;
    }
  }
}

}  // namespace berth::binding
