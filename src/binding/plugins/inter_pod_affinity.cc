#include "binding/plugins/inter_pod_affinity.h"

#include <limits>

#include "binding/framework/plugin_names.h"

namespace berth::binding {

namespace {

// Adds `delta` to counts[key][node's value of key] when the node has the key.
void AddAt(TopologyCounts* counts, const model::Node& node, const std::string& key, int64_t delta) {
  auto it = node.meta.labels.find(key);
  if (it == node.meta.labels.end()) return;
  (*counts)[key][it->second] += delta;
}

int64_t CountAt(const TopologyCounts& counts, std::string_view key, std::string_view value) {
  auto k = counts.find(key);
  if (k == counts.end()) return 0;
  auto v = k->second.find(value);
  return v == k->second.end() ? 0 : v->second;
}

bool TermMatchesPod(const AffinityTerm& t, const CycleContext& ctx, const model::Pod& target,
                    TermOwner owner) {
  return t.Matches(target.meta.namespace_, target.meta.labels, ctx.namespaces, owner);
}

bool TermMatchesSig(const AffinityTerm& t, const CycleContext& ctx, LabelSigId sig) {
  return t.Matches(ctx.label_sigs.namespace_of(sig), ctx.label_sigs.labels(sig), ctx.namespaces,
                   TermOwner::kIncoming);
}

bool AllTermsMatchSig(const std::vector<AffinityTerm>& terms, const CycleContext& ctx,
                      LabelSigId sig) {
  if (terms.empty()) return false;
  for (const auto& t : terms) {
    if (!TermMatchesSig(t, ctx, sig)) return false;
  }
  return true;
}

}  // namespace

bool PlacedTermSelects(const CycleContext& ctx, const PodInfo& placed, const model::Pod& pod) {
  for (const auto* terms : {&placed.required_affinity, &placed.required_anti_affinity,
                            &placed.preferred_affinity, &placed.preferred_anti_affinity}) {
    for (const auto& t : *terms) {
      if (TermMatchesPod(t, ctx, pod, TermOwner::kExisting)) return true;
    }
  }
  return false;
}

std::string_view InterPodAffinityFilter::Name() const { return kInterPodAffinity; }

PreFilterResult InterPodAffinityFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult result;
  existing_anti_.clear();
  affinity_.clear();
  anti_.clear();
  for (const PlacedPod& placed : ctx.state.affinity_pods()) {
    const PodInfo& info = ctx.pod_infos.Get(placed.pod);
    const model::Node& node = ctx.state.node(placed.node);
    for (const auto& t : info.required_anti_affinity) {
      if (TermMatchesPod(t, ctx, ctx.pod, TermOwner::kExisting)) {
        AddAt(&existing_anti_, node, t.topology_key(), 1);
      }
    }
  }
  const auto& affinity = ctx.info.required_affinity;
  const auto& anti = ctx.info.required_anti_affinity;
  if (!affinity.empty() || !anti.empty()) {
    for (int32_t i = 0; i < ctx.state.num_nodes(); ++i) {
      model::NodeIndex n{i};
      const model::Node& node = ctx.state.node(n);
      for (const SigCount& s : ctx.state.label_sigs(n)) {
        if (AllTermsMatchSig(affinity, ctx, s.sig)) {
          for (const auto& t : affinity) AddAt(&affinity_, node, t.topology_key(), s.count);
        }
        for (const auto& t : anti) {
          if (TermMatchesSig(t, ctx, s.sig)) AddAt(&anti_, node, t.topology_key(), s.count);
        }
      }
    }
  }
  if (existing_anti_.empty() && affinity.empty() && anti.empty()) {
    result.kind = PreFilterResult::Kind::kSkip;
    return result;
  }
  matches_own_terms_ = !affinity.empty();
  for (const auto& t : affinity) {
    if (!TermMatchesPod(t, ctx, ctx.pod, TermOwner::kIncoming)) matches_own_terms_ = false;
  }
  return result;
}

void InterPodAffinityFilter::Filter(const CycleContext& ctx, model::NodeIndex n,
                                    std::vector<ReasonId>* reasons) const {
  const core::Labels& labels = ctx.state.node(n).meta.labels;
  bool pods_exist = true;
  for (const auto& t : ctx.info.required_affinity) {
    auto it = labels.find(t.topology_key());
    if (it == labels.end()) {
      // Every topology key must be on the node.
      reasons->push_back(ctx.reasons.Intern(kInterPodAffinity, kReasonPodAffinity));
      return;
    }
    if (CountAt(affinity_, t.topology_key(), it->second) <= 0) pods_exist = false;
  }
  // The first pod of a group with affinity to itself may go anywhere its keys exist.
  if (!pods_exist && !(affinity_.empty() && matches_own_terms_)) {
    reasons->push_back(ctx.reasons.Intern(kInterPodAffinity, kReasonPodAffinity));
    return;
  }
  if (!anti_.empty()) {
    for (const auto& t : ctx.info.required_anti_affinity) {
      auto it = labels.find(t.topology_key());
      if (it != labels.end() && CountAt(anti_, t.topology_key(), it->second) > 0) {
        reasons->push_back(ctx.reasons.Intern(kInterPodAffinity, kReasonPodAntiAffinity));
        return;
      }
    }
  }
  for (const auto& [key, values] : existing_anti_) {
    auto it = labels.find(key);
    if (it == labels.end()) continue;
    auto v = values.find(it->second);
    if (v != values.end() && v->second > 0) {
      reasons->push_back(ctx.reasons.Intern(kInterPodAffinity, kReasonExistingAntiAffinity));
      return;
    }
  }
}

std::string_view InterPodAffinityScore::Name() const { return kInterPodAffinity; }

bool InterPodAffinityScore::PreScore(const CycleContext& ctx,
                                     std::span<const model::NodeIndex> feasible) {
  topology_score_.clear();
  if (feasible.empty()) return false;
  const auto& preferred = ctx.info.preferred_affinity;
  const auto& preferred_anti = ctx.info.preferred_anti_affinity;
  if (!preferred.empty() || !preferred_anti.empty()) {
    for (int32_t i = 0; i < ctx.state.num_nodes(); ++i) {
      model::NodeIndex n{i};
      const model::Node& node = ctx.state.node(n);
      if (node.meta.labels.empty()) continue;
      for (const SigCount& s : ctx.state.label_sigs(n)) {
        for (const auto& t : preferred) {
          if (TermMatchesSig(t, ctx, s.sig)) {
            AddAt(&topology_score_, node, t.topology_key(), int64_t{t.weight()} * s.count);
          }
        }
        for (const auto& t : preferred_anti) {
          if (TermMatchesSig(t, ctx, s.sig)) {
            AddAt(&topology_score_, node, t.topology_key(), -int64_t{t.weight()} * s.count);
          }
        }
      }
    }
  }
  // Terms of placed pods towards this pod; required affinity counts with
  // hardPodAffinityWeight, 1 by default.
  constexpr int64_t kHardPodAffinityWeight = 1;
  for (const PlacedPod& placed : ctx.state.affinity_pods()) {
    const model::Node& node = ctx.state.node(placed.node);
    if (node.meta.labels.empty()) continue;
    const PodInfo& info = ctx.pod_infos.Get(placed.pod);
    for (const auto& t : info.required_affinity) {
      if (TermMatchesPod(t, ctx, ctx.pod, TermOwner::kExisting)) {
        AddAt(&topology_score_, node, t.topology_key(), kHardPodAffinityWeight);
      }
    }
    for (const auto& t : info.preferred_affinity) {
      if (TermMatchesPod(t, ctx, ctx.pod, TermOwner::kExisting)) {
        AddAt(&topology_score_, node, t.topology_key(), t.weight());
      }
    }
    for (const auto& t : info.preferred_anti_affinity) {
      if (TermMatchesPod(t, ctx, ctx.pod, TermOwner::kExisting)) {
        AddAt(&topology_score_, node, t.topology_key(), -int64_t{t.weight()});
      }
    }
  }
  return !topology_score_.empty();
}

int64_t InterPodAffinityScore::Score(const CycleContext& ctx, model::NodeIndex n) const {
  const core::Labels& labels = ctx.state.node(n).meta.labels;
  int64_t score = 0;
  for (const auto& [key, values] : topology_score_) {
    auto it = labels.find(key);
    if (it == labels.end()) continue;
    auto v = values.find(it->second);
    if (v != values.end()) score += v->second;
  }
  return score;
}

void InterPodAffinityScore::NormalizeScore(const CycleContext&, std::span<const model::NodeIndex>,
                                           std::span<int64_t> scores) const {
  int64_t min_count = std::numeric_limits<int64_t>::max();
  int64_t max_count = std::numeric_limits<int64_t>::min();
  for (int64_t s : scores) {
    min_count = std::min(min_count, s);
    max_count = std::max(max_count, s);
  }
  int64_t diff = max_count - min_count;
  for (int64_t& s : scores) {
    double f = 0;
    if (diff > 0) {
      f = static_cast<double>(kMaxNodeScore) *
          (static_cast<double>(s - min_count) / static_cast<double>(diff));
    }
    s = static_cast<int64_t>(f);
  }
}

}  // namespace berth::binding
