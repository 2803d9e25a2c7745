#include "binding/framework/reference_evaluator.h"

#include <algorithm>
#include <string>

#include "binding/framework/plugin_names.h"
#include "binding/framework/volume_tracker.h"
#include "binding/plugins/dynamic_resources.h"

namespace berth::binding {

ReferenceEvaluator::ReferenceEvaluator(const CycleContext& ctx)
    : ctx_(ctx),
      filters_(MakeFilterPlugins(
          ctx.profile,
          {.gpu_sharing = ctx.info.RequestsGpuFraction(),
           .dynamic_resources = !ctx.pod.resource_claims.empty(),
           .volumes = ctx.volumes != nullptr && VolumeTracker::HasClaimVolumes(ctx.pod),
           .node_ports = !ctx.info.host_ports.empty()})),
      scores_(MakeScorePlugins(ctx.profile, ctx.resources)) {}

ReferenceEvaluator::PreFilterOutcome ReferenceEvaluator::RunPreFilter() {
  PreFilterOutcome out;
  out.skipped.assign(filters_.size(), false);
  out.rejected.assign(filters_.size(), std::nullopt);
  out.candidate.assign(static_cast<size_t>(ctx_.state.num_nodes()), true);
  std::string narrowing;  // plugins that returned a node set, as Go prints a []string
  for (size_t i = 0; i < filters_.size(); ++i) {
    PreFilterResult r = filters_[i]->PreFilter(ctx_);
    switch (r.kind) {
      case PreFilterResult::Kind::kAllNodes:
        break;
      case PreFilterResult::Kind::kSkip:
        out.skipped[i] = true;
        break;
      case PreFilterResult::Kind::kReject:
        // Upstream stops at the first rejecting PreFilter plugin. The rest still run here so
        // that Explain can show their filters; the decision only reads the first rejection.
        if (!out.rejection.has_value()) out.rejection = r.reason;
        out.rejected[i] = r.reason;
        break;
      case PreFilterResult::Kind::kNodeSet: {
        std::vector<bool> in_set(out.candidate.size(), false);
        for (model::NodeIndex n : r.nodes) in_set[static_cast<size_t>(n.v)] = true;
        for (size_t n = 0; n < in_set.size(); ++n) out.candidate[n] = out.candidate[n] && in_set[n];
        if (!narrowing.empty()) narrowing += " ";
        narrowing += filters_[i]->Name();
        break;
      }
    }
  }
  if (!narrowing.empty()) {
    std::string text(kReasonPreFilterPrefix);
    text += "[";
    text += narrowing;
    text += "]";
    out.absent = ctx_.reasons.Intern(kNodeAffinity, text);
    for (bool c : out.candidate) out.absent_nodes += c ? 0 : 1;
  }
  return out;
}

int ReferenceEvaluator::RunFilters(model::NodeIndex node, const PreFilterOutcome& pre, bool all,
                                   std::vector<std::vector<ReasonId>>* reasons) {
  reasons->assign(filters_.size(), {});
  int first_failed = -1;
  for (size_t i = 0; i < filters_.size(); ++i) {
    if (pre.skipped[i]) continue;
    if (pre.rejected[i].has_value()) {
      // Only Explain gets here (Decide stops at a rejection): the plugin's state is what its
      // PreFilter left after rejecting, which Filter must not read (a GPU-fraction pod with
      // an invalid annotation has no parsed request and no reason interned for Filter).
      (*reasons)[i].push_back(*pre.rejected[i]);
    } else {
      filters_[i]->Filter(ctx_, node, &(*reasons)[i]);
    }
    if (!(*reasons)[i].empty() && first_failed < 0) {
      first_failed = static_cast<int>(i);
      if (!all) break;
    }
  }
  return first_failed;
}

ReferenceEvaluator::Scored ReferenceEvaluator::RunScores(
    const std::vector<model::NodeIndex>& feasible) {
  Scored out;
  out.per_node.assign(feasible.size(), {});
  out.totals.assign(feasible.size(), 0);
  std::vector<int64_t> raw(feasible.size());
  std::vector<int64_t> normalized(feasible.size());
  for (auto& [plugin, weight] : scores_) {
    if (!plugin->PreScore(ctx_, feasible)) continue;
    for (size_t i = 0; i < feasible.size(); ++i) raw[i] = plugin->Score(ctx_, feasible[i]);
    normalized = raw;
    plugin->NormalizeScore(ctx_, feasible, normalized);
    for (size_t i = 0; i < feasible.size(); ++i) {
      out.per_node[i].push_back(
          PluginScore{std::string(plugin->Name()), raw[i], normalized[i], weight});
      out.totals[i] += normalized[i] * weight;
    }
  }
  return out;
}

void ReferenceEvaluator::Conclude(const std::vector<model::NodeIndex>& feasible,
                                  const std::vector<int64_t>& totals,
                                  const ReasonHistogram& histogram,
                                  model::PodDecision* decision) const {
  if (feasible.empty()) {
    histogram.Render(ctx_.reasons, ctx_.state.num_nodes(), decision);
    return;
  }
  size_t best = 0;
  for (size_t i = 1; i < feasible.size(); ++i) {
    if (totals[i] > totals[best] ||
        (totals[i] == totals[best] &&
         ctx_.state.rank(feasible[i]) < ctx_.state.rank(feasible[best]))) {
      best = i;
    }
  }
  decision->node = feasible[best];
}

void ReferenceEvaluator::Prepare() { prepared_ = RunPreFilter(); }

std::optional<ReferenceEvaluator::NodeFailure> ReferenceEvaluator::FirstFailure(
    model::NodeIndex node) {
  if (!prepared_.has_value()) Prepare();
  const PreFilterOutcome& pre = *prepared_;
  if (pre.rejection.has_value()) return NodeFailure{"PreFilter", {*pre.rejection}};
  if (!pre.candidate[static_cast<size_t>(node.v)]) {
    return NodeFailure{"PreFilter", {*pre.absent}};
  }
  const int failed = RunFilters(node, pre, /*all=*/false, &scratch_reasons_);
  if (failed < 0) return std::nullopt;
  return NodeFailure{filters_[static_cast<size_t>(failed)]->Name(),
                     scratch_reasons_[static_cast<size_t>(failed)]};
}

model::PodDecision ReferenceEvaluator::Decide() {
  model::PodDecision decision;
  ReasonHistogram histogram;
  PreFilterOutcome pre = RunPreFilter();
  std::vector<model::NodeIndex> feasible;
  if (pre.rejection.has_value()) {
    histogram.SetPreFilterRejection(*pre.rejection, ctx_.state.num_nodes());
  } else {
    if (pre.absent.has_value()) histogram.Add(*pre.absent, pre.absent_nodes);
    std::vector<std::vector<ReasonId>> reasons;
    for (model::NodeIndex n : ctx_.state.by_name()) {
      if (!pre.candidate[static_cast<size_t>(n.v)]) continue;
      int failed = RunFilters(n, pre, /*all=*/false, &reasons);
      if (failed < 0) {
        feasible.push_back(n);
      } else {
        for (ReasonId r : reasons[static_cast<size_t>(failed)]) histogram.Add(r);
      }
    }
  }
  std::vector<int64_t> totals;
  // Upstream skips scoring when a single node is feasible; the choice is the same.
  if (feasible.size() > 1) totals = RunScores(feasible).totals;
  totals.resize(feasible.size(), 0);
  Conclude(feasible, totals, histogram, &decision);
  return decision;
}

model::PodDecision ReferenceEvaluator::DecideLastFilterLazily() {
  PreFilterOutcome pre = RunPreFilter();
  if (filters_.empty() || filters_.back()->Name() != kDynamicResources || pre.skipped.back() ||
      pre.rejection.has_value()) {
    return Decide();
  }
  const size_t last = filters_.size() - 1;
  model::PodDecision decision;
  ReasonHistogram histogram;
  if (pre.absent.has_value()) histogram.Add(*pre.absent, pre.absent_nodes);
  std::vector<model::NodeIndex> passing;
  std::vector<ReasonId> reasons;
  for (model::NodeIndex n : ctx_.state.by_name()) {
    if (!pre.candidate[static_cast<size_t>(n.v)]) continue;
    bool failed = false;
    for (size_t i = 0; i < last && !failed; ++i) {
      if (pre.skipped[i]) continue;
      reasons.clear();
      filters_[i]->Filter(ctx_, n, &reasons);
      if (reasons.empty()) continue;
      failed = true;
      for (ReasonId r : reasons) histogram.Add(r);
    }
    if (!failed) passing.push_back(n);
  }
  std::vector<int64_t> totals;
  if (passing.size() > 1) totals = RunScores(passing).totals;
  totals.resize(passing.size(), 0);
  std::vector<size_t> order(passing.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (totals[a] != totals[b]) return totals[a] > totals[b];
    return ctx_.state.rank(passing[a]) < ctx_.state.rank(passing[b]);
  });
  for (size_t i : order) {
    reasons.clear();
    filters_[last]->Filter(ctx_, passing[i], &reasons);
    if (reasons.empty()) {
      decision.node = passing[i];
      return decision;
    }
    for (ReasonId r : reasons) histogram.Add(r);
  }
  Conclude({}, {}, histogram, &decision);
  return decision;
}

PodExplanation ReferenceEvaluator::Explain() {
  PodExplanation out;
  ReasonHistogram histogram;
  PreFilterOutcome pre = RunPreFilter();
  if (pre.rejection.has_value()) {
    histogram.SetPreFilterRejection(*pre.rejection, ctx_.state.num_nodes());
  } else if (pre.absent.has_value()) {
    histogram.Add(*pre.absent, pre.absent_nodes);
  }
  std::vector<model::NodeIndex> feasible;
  std::vector<size_t> feasible_verdict;  // index into out.nodes
  std::vector<std::vector<ReasonId>> reasons;
  for (model::NodeIndex n : ctx_.state.by_name()) {
    NodeVerdict v;
    v.node = n;
    int failed = RunFilters(n, pre, /*all=*/true, &reasons);
    for (size_t i = 0; i < filters_.size(); ++i) {
      FilterVerdict f;
      f.plugin = std::string(filters_[i]->Name());
      f.passed = reasons[i].empty();
      for (size_t k = 0; k < reasons[i].size(); ++k) {
        if (k > 0) f.reason += ", ";
        f.reason += ctx_.reasons.Text(reasons[i][k]);
      }
      if (!pre.skipped[i] && !pre.rejected[i].has_value()) f.detail = filters_[i]->Detail(n);
      v.filters.push_back(std::move(f));
    }
    bool candidate = !pre.rejection.has_value() && pre.candidate[static_cast<size_t>(n.v)];
    v.feasible = candidate && failed < 0;
    if (v.feasible) {
      feasible.push_back(n);
      feasible_verdict.push_back(out.nodes.size());
    } else if (candidate) {
      for (ReasonId r : reasons[static_cast<size_t>(failed)]) histogram.Add(r);
    }
    out.nodes.push_back(std::move(v));
  }
  Scored scored = RunScores(feasible);
  for (size_t i = 0; i < feasible.size(); ++i) {
    NodeVerdict& v = out.nodes[feasible_verdict[i]];
    v.scores = std::move(scored.per_node[i]);
    v.total_score = scored.totals[i];
  }
  Conclude(feasible, scored.totals, histogram, &out.decision);
  return out;
}

}  // namespace berth::binding
