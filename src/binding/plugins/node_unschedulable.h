// NodeUnschedulable filter: a cordoned node (spec.unschedulable) takes only pods that
// tolerate the node.kubernetes.io/unschedulable:NoSchedule taint.
#pragma once

#include "binding/framework/filter_plugin.h"

namespace berth::binding {

class NodeUnschedulableFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;
};

}  // namespace berth::binding
