// FilterPlugin: one kube-scheduler filter (PreFilter + Filter). A plugin object lives for one
// pod's evaluation: PreFilter computes the per-pod state (upstream CycleState), then Filter
// runs per node. Made by MakeFilterPlugins (plugin_registry.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "binding/framework/cycle_context.h"
#include "binding/framework/reason_table.h"
#include "model/node.h"

namespace berth::binding {

struct PreFilterResult {
  enum class Kind {
    kAllNodes,  // filter every node
    kNodeSet,   // only `nodes` can pass; the others get the "didn't satisfy plugin(s)" status
    kReject,    // no node can pass: `reason` for all (upstream UnschedulableAndUnresolvable)
    kSkip,      // the plugin has nothing to check for this pod: Filter is not called
  };
  Kind kind = Kind::kAllNodes;
  std::vector<model::NodeIndex> nodes;  // kNodeSet, existing nodes only
  ReasonId reason;                      // kReject
};

class FilterPlugin {
 public:
  virtual ~FilterPlugin() = default;
  virtual std::string_view Name() const = 0;
  virtual PreFilterResult PreFilter(const CycleContext& ctx) { return {}; }
  // Appends why `node` cannot take the pod; appends nothing when it can. Several reasons
  // only from NodeResourcesFit.
  virtual void Filter(const CycleContext& ctx, model::NodeIndex node,
                      std::vector<ReasonId>* reasons) const = 0;
  // After Filter ran on `node`: what the plugin found beyond its reason text, for explain
  // (DynamicResources: the devices each request got, or which request failed and why).
  // Empty for most plugins.
  virtual std::string Detail(model::NodeIndex node) const { return {}; }
};

}  // namespace berth::binding
