// ReferenceEvaluator: kube-scheduler's scheduling cycle for one pod, node by node, exactly
// as the framework runs it: PreFilter (a plugin may narrow the nodes or reject them all),
// Filter (a node's status is the first failing filter's reasons), PreScore / Score /
// NormalizeScore on the feasible nodes, weighted sum, highest total wins and ties go to the
// node whose name sorts first. Decide() is the decision; Explain() also evaluates every
// filter on every node, for the user and as the oracle the index is tested against.
// Linear in nodes. One object per pod evaluation; borrows the context.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "binding/framework/cycle_context.h"
#include "binding/framework/filter_plugin.h"
#include "binding/framework/fit_error.h"
#include "binding/framework/plugin_registry.h"
#include "binding/scheduler.h"
#include "model/decision.h"

namespace berth::binding {

class ReferenceEvaluator {
 public:
  explicit ReferenceEvaluator(const CycleContext& ctx);

  model::PodDecision Decide();
  PodExplanation Explain();
  // Decide() for a pod whose totals do not depend on which nodes are feasible (the
  // conditions of Scheduler's TryDecideWithClaims, docs/binding.md) and whose last filter
  // is DynamicResources: the other filters run on every node, the scores on the nodes they
  // pass, and DynamicResources on those nodes in decreasing total order (ties by name) until
  // one passes, which is then the best feasible node. The same decision as Decide(), with
  // one allocator call per node only when no node can take the claims.
  model::PodDecision DecideLastFilterLazily();

  // Node-at-a-time use, for DefaultPreemption and the nominated node: Prepare() runs
  // PreFilter once; FirstFailure(node) then gives the first failing filter on the node and
  // its reasons (a PreFilter rejection or a node a PreFilter node set left out counts as
  // the node's failure, plugin "PreFilter"), or nullopt when every filter passes. The state
  // read is the context's as it is at each call.
  struct NodeFailure {
    std::string_view plugin;
    std::vector<ReasonId> reasons;
  };
  void Prepare();
  std::optional<NodeFailure> FirstFailure(model::NodeIndex node);

 private:
  struct PreFilterOutcome {
    std::vector<bool> skipped;          // per filter plugin
    // Per filter plugin: the reason its PreFilter rejected every node with. Such a plugin's
    // Filter is never called (upstream stops at the rejection, so the plugin never set up
    // what Filter reads); Explain shows this reason as its verdict on every node.
    std::vector<std::optional<ReasonId>> rejected;
    std::vector<bool> candidate;        // per node; false when a PreFilter node set left it out
    std::optional<ReasonId> rejection;  // a PreFilter rejected every node
    std::optional<ReasonId> absent;     // status of the nodes left out
    int64_t absent_nodes = 0;
  };
  struct Scored {
    std::vector<std::vector<PluginScore>> per_node;  // parallel to the feasible nodes
    std::vector<int64_t> totals;
  };

  PreFilterOutcome RunPreFilter();
  // Runs the filters on `node`; stops at the first failure unless `all`. Returns the index
  // of the first failing filter (-1 when every filter passes) with each filter's reasons.
  int RunFilters(model::NodeIndex node, const PreFilterOutcome& pre, bool all,
                 std::vector<std::vector<ReasonId>>* reasons);
  Scored RunScores(const std::vector<model::NodeIndex>& feasible);
  // Fills the decision from the feasible nodes and their totals, or the histogram.
  void Conclude(const std::vector<model::NodeIndex>& feasible, const std::vector<int64_t>& totals,
                const ReasonHistogram& histogram, model::PodDecision* decision) const;

  const CycleContext& ctx_;
  std::optional<PreFilterOutcome> prepared_;  // Prepare()'s
  std::vector<std::vector<ReasonId>> scratch_reasons_;
  std::vector<std::unique_ptr<FilterPlugin>> filters_;
  std::vector<WeightedScorePlugin> scores_;
};

}  // namespace berth::binding
