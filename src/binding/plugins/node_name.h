// NodeName filter: a pod that names a node (spec.nodeName) fits only that node.
#pragma once

#include "binding/framework/filter_plugin.h"

namespace berth::binding {

class NodeNameFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override;
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;
};

}  // namespace berth::binding
