#include "binding/plugins/node_affinity.h"

#include <algorithm>
#include <set>
#include <string>

#include "binding/framework/normalize_score.h"
#include "binding/framework/plugin_names.h"

namespace berth::binding {

bool RequiredNodeAffinityMatches(const model::Pod& pod, const model::Node& node) {
  for (const auto& [key, value] : pod.node_selector) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) return false;
  }
  const auto& required = pod.node_affinity.required;
  return !required.has_value() || required->Matches(node.meta.labels, node.meta.name);
}

int64_t PreferredNodeAffinityScore(const model::Pod& pod, const model::Node& node) {
  int64_t score = 0;
  for (const auto& term : pod.node_affinity.preferred) {
    if (term.weight == 0) continue;
    if (term.preference.Matches(node.meta.labels, node.meta.name)) score += term.weight;
  }
  return score;
}

std::string_view NodeAffinityFilter::Name() const { return kNodeAffinity; }

PreFilterResult NodeAffinityFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult result;
  const auto& required = ctx.pod.node_affinity.required;
  if (!required.has_value() && ctx.pod.node_selector.empty()) {
    result.kind = PreFilterResult::Kind::kSkip;
    return result;
  }
  if (!required.has_value() || required->terms.empty()) return result;
  // Terms are ORed, so one term without a metadata.name In requirement admits every node;
  // within a term the In requirements are ANDed.
  std::set<std::string> names;
  for (const auto& term : required->terms) {
    std::optional<std::set<std::string>> term_names;
    for (const auto& r : term.match_fields) {
      if (r.key != kFieldNodeName || r.op != core::SelectorOp::kIn) continue;
      std::set<std::string> values(r.values.begin(), r.values.end());
      if (!term_names.has_value()) {
        term_names = std::move(values);
      } else {
        std::set<std::string> both;
        std::set_intersection(term_names->begin(), term_names->end(), values.begin(), values.end(),
                              std::inserter(both, both.begin()));
        term_names = std::move(both);
      }
    }
    if (!term_names.has_value()) return result;
    names.insert(term_names->begin(), term_names->end());
  }
  if (names.empty()) {
    result.kind = PreFilterResult::Kind::kReject;
    result.reason = ctx.reasons.Intern(kNodeAffinity, kReasonAffinityConflict);
    return result;
  }
  result.kind = PreFilterResult::Kind::kNodeSet;
  for (const std::string& name : names) {
    if (auto n = ctx.state.FindNode(name)) result.nodes.push_back(*n);
  }
  return result;
}

void NodeAffinityFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                                std::vector<ReasonId>* reasons) const {
  if (RequiredNodeAffinityMatches(ctx.pod, ctx.state.node(node))) return;
  reasons->push_back(ctx.reasons.Intern(kNodeAffinity, kReasonNodeAffinity));
}

std::string_view NodeAffinityScore::Name() const { return kNodeAffinity; }

bool NodeAffinityScore::PreScore(const CycleContext& ctx, std::span<const model::NodeIndex>) {
  return !ctx.pod.node_affinity.preferred.empty();
}

int64_t NodeAffinityScore::Score(const CycleContext& ctx, model::NodeIndex node) const {
  return PreferredNodeAffinityScore(ctx.pod, ctx.state.node(node));
}

void NodeAffinityScore::NormalizeScore(const CycleContext&, std::span<const model::NodeIndex>,
                                       std::span<int64_t> scores) const {
  DefaultNormalizeScore(/*reverse=*/false, scores);
}

}  // namespace berth::binding
