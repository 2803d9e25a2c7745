#include "diag/why.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "diag/why_chain.h"
#include "diag/why_context.h"
#include "diag/why_fixes.h"
#include "diag/why_target.h"
#include "model/pod_requests.h"

namespace berth::diag {
namespace {

// kube-scheduler counts a node under its first failing filter; so does why.
std::vector<NodeGroup> GroupNodes(const engine::PodExplanation& explanation) {
  std::map<std::pair<std::string, std::string>, NodeGroup> by_reason;
  for (const engine::NodeVerdict& verdict : explanation.nodes) {
    if (verdict.feasible) continue;
    for (const engine::NodeFilterVerdict& filter : verdict.filters) {
      if (filter.passed) continue;
      NodeGroup& g = by_reason[{filter.plugin, filter.reason}];
      g.plugin = filter.plugin;
      g.reason = filter.reason;
      g.layer = LayerOfFilter(filter.plugin, filter.reason);
      if (g.nodes.empty() && filter.detail != filter.reason) g.detail = filter.detail;
      g.nodes.push_back(verdict.node.v);
      break;
    }
  }
  std::vector<NodeGroup> out;
  for (auto& [key, group] : by_reason) out.push_back(std::move(group));
  std::stable_sort(out.begin(), out.end(), [](const NodeGroup& a, const NodeGroup& b) {
    if (a.layer != b.layer) return a.layer < b.layer;
    return a.nodes.size() > b.nodes.size();
  });
  return out;
}

// Each node's free capacity when `pod` met it: allocatable, minus pods bound in the input,
// minus pods the plan bound before it (Plan::pod_decisions is in scheduling order).
std::vector<model::ResourceVector> FreeAtTurn(const model::Snapshot& input,
                                              const engine::Plan& plan, int32_t pod) {
  std::vector<model::ResourceVector> free;
  free.reserve(input.nodes.size());
  std::unordered_map<std::string, int32_t> node_index;
  for (size_t i = 0; i < input.nodes.size(); ++i) {
    free.push_back(input.nodes[i].allocatable);
    node_index[input.nodes[i].cluster + "/" + input.nodes[i].meta.name] = static_cast<int32_t>(i);
  }
  for (const model::Pod& p : input.pods) {
    if (!p.IsBound() || p.IsTerminal()) continue;
    auto it = node_index.find(p.cluster + "/" + p.node_name);
    if (it != node_index.end())
      free[static_cast<size_t>(it->second)].Subtract(model::PodRequests(p));
  }
  for (const model::PodDecision& d : plan.pod_decisions) {
    if (d.pod.v == pod) break;
    if (!d.node || static_cast<size_t>(d.node->v) >= free.size()) continue;
    if (static_cast<size_t>(d.pod.v) < input.pods.size() &&
        input.pods[static_cast<size_t>(d.pod.v)].IsBound())
      continue;
    free[static_cast<size_t>(d.node->v)].Subtract(
        model::PodRequests(plan.planned.pods[static_cast<size_t>(d.pod.v)]));
  }
  return free;
}

// The pod whose nodes explain the wait: the target pod, or the first pod of the target the
// plan left unbound (for a Kueue Workload only once it is admitted: before, its pods do not
// exist yet).
int32_t RepresentativePod(const WhyContext& ctx) {
  if (ctx.target.kind == ResolvedTarget::Kind::kKueue) {
    const engine::WorkloadDecision* d = ctx.decision;
    const bool admitted = d != nullptr && (d->outcome == engine::WorkloadOutcome::kAdmitted ||
                                           d->outcome == engine::WorkloadOutcome::kAlreadyAdmitted);
    if (!admitted || ctx.dispatch != nullptr) return -1;
  }
  for (int32_t p : ctx.target.pods) {
    const model::Pod& planned = ctx.base.planned.pods[static_cast<size_t>(p)];
    if (!planned.IsBound() && !planned.IsTerminal()) return p;
  }
  return -1;
}

}  // namespace

const char* WhyLayerName(WhyLayer layer) {
  switch (layer) {
    case WhyLayer::kQueue:
      return "queue";
    case WhyLayer::kQuota:
      return "quota";
    case WhyLayer::kCluster:
      return "cluster";
    case WhyLayer::kPlacement:
      return "placement";
    case WhyLayer::kNode:
      return "node";
    case WhyLayer::kDevice:
      return "device";
    case WhyLayer::kTopology:
      return "topology";
    case WhyLayer::kData:
      return "data";
  }
  return "node";
}

const char* WhyStateName(WhyState state) {
  switch (state) {
    case WhyState::kPending:
      return "pending";
    case WhyState::kAdmitted:
      return "admitted";
    case WhyState::kRunning:
      return "running";
    case WhyState::kBound:
      return "bound";
  }
  return "pending";
}

core::Result<WhyAnswer> AnswerWhy(const model::Snapshot& snapshot, const WhyTarget& target,
                                  const WhyOptions& options) {
  BERTH_ASSIGN_OR_RETURN(ResolvedTarget resolved, ResolveWhyTarget(snapshot, target));
  WhyContext ctx;
  ctx.input = &snapshot;
  ctx.options = &options;
  ctx.target = std::move(resolved);
  ctx.base = engine::RunPlan(snapshot, options.plan);

  WhyAnswer answer;
  answer.target = ctx.target.display;
  answer.diagnostics = ctx.base.diagnostics;
  bool runs = false;
  answer.state = StateIn(ctx.base, snapshot, ctx.target, &runs);

  if (ctx.target.kind == ResolvedTarget::Kind::kKueue) {
    ctx.decision = DecisionIn(ctx.base, snapshot, ctx.target.workload);
    if (auto it = ctx.base.dispatches.find(ctx.target.workload); it != ctx.base.dispatches.end()) {
      ctx.dispatch = &it->second;
    }
  }
  if (!runs) {
    ctx.pod = RepresentativePod(ctx);
    if (ctx.pod >= 0) {
      for (const model::PodDecision& d : ctx.base.pod_decisions) {
        if (d.pod.v == ctx.pod) ctx.pod_decision = d;
      }
      // The engine's own per-node verdicts, as `berth explain pod` prints them.
      auto explanation = engine::ExplainPod(
          snapshot, engine::PodKey(snapshot.pods[static_cast<size_t>(ctx.pod)]), options.plan);
      if (explanation.has_value()) {
        ctx.groups = GroupNodes(explanation.value().pod);
        ctx.free_at_turn = FreeAtTurn(snapshot, ctx.base, ctx.pod);
      }
    }
  }
  answer.chain = BuildChain(ctx, runs);
  if (!runs) {
    answer.fixes =
        ComputeFixes(ctx, &answer.fix_runs, &answer.fix_candidates, &answer.rejected_fixes);
    for (const WhyReason& r : answer.chain) {
      if (r.blocking && !r.runbook.empty()) {
        answer.runbook = r.runbook;
        break;
      }
    }
  }
  return answer;
}

}  // namespace berth::diag
