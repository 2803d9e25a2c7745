// VolumeZone: kube-scheduler's volume zone filter (pkg/scheduler/framework/plugins/
// volumezone): the zone and region labels (topology.kubernetes.io/{zone,region} and their
// failure-domain.beta forms, "__"-joined value sets) of the volumes bound to the pod's
// claims must hold the node's values; a node with none of those labels passes. PreFilter
// rejects unbound claims that are not WaitForFirstConsumer with upstream's texts. Only for
// pods with claim volumes (MakeFilterPlugins). Made per pod evaluation.
#pragma once

#include <string_view>
#include <vector>

#include "binding/framework/filter_plugin.h"
#include "binding/framework/volume_tracker.h"

namespace berth::binding {

inline constexpr std::string_view kVolumeZone = "VolumeZone";
inline constexpr std::string_view kReasonVolumeZoneConflict =
    "node(s) had no available volume zone";

class VolumeZoneFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override { return kVolumeZone; }
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;

 private:
  PodVolumeClaims claims_;  // set by PreFilter
};

}  // namespace berth::binding
