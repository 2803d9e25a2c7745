// NodeVolumeLimits: kube-scheduler's CSI volume limits filter (pkg/scheduler/framework/
// plugins/nodevolumelimits/csi.go): the pod's CSI volumes not yet attached to the node (a
// bound claim's spec.csi driver and volumeHandle; an unbound claim's class provisioner),
// added to those the node's placed pods attach, must stay within the node's CSINode
// allocatable count per driver. A node without a CSINode, or a driver without a count, has
// no limit. Unschedulable (preemption may free attachments). Only for pods with claim
// volumes (MakeFilterPlugins). Made per pod evaluation.
#pragma once

#include <string_view>
#include <vector>

#include "binding/framework/filter_plugin.h"
#include "binding/framework/volume_tracker.h"

namespace berth::binding {

inline constexpr std::string_view kNodeVolumeLimits = "NodeVolumeLimits";
inline constexpr std::string_view kReasonMaxVolumeCount = "node(s) exceed max volume count";

class NodeVolumeLimitsFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override { return kNodeVolumeLimits; }
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;

 private:
  PodVolumeClaims claims_;  // set by PreFilter
};

}  // namespace berth::binding
