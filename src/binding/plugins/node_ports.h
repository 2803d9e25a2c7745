// NodePorts filter (upstream pkg/scheduler/framework/plugins/nodeports): a pod with host
// ports fits a node only when none of them conflicts with a port the node's pods use
// (ClusterState::host_ports; HostPortTable says what conflicts). PreFilter skips pods
// without host ports.
#pragma once

#include "binding/framework/filter_plugin.h"

namespace berth::binding {

class NodePortsFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override;
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;
};

// Whether every host port of `info` is free in `used` (upstream fitsPorts).
bool FitsPorts(const PodInfo& info, const HostPortTable& used);

}  // namespace berth::binding
