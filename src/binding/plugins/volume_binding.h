// VolumeBinding: kube-scheduler's volume binding filter (pkg/scheduler/framework/plugins/
// volumebinding). PreFilter rejects a pod whose claims do not exist, a Lost claim whose
// volume is gone, or unbound claims whose class binds Immediate ("pod has unbound immediate
// PersistentVolumeClaims"); Filter checks on each node that the bound claims' volumes reach
// it (node affinity) and that every WaitForFirstConsumer claim finds an available volume
// there or can be provisioned there (the class's provisioner and allowedTopologies). Only
// for pods with claim volumes (MakeFilterPlugins); state in VolumeTracker. Made per pod
// evaluation.
#pragma once

#include <string_view>
#include <vector>

#include "binding/framework/filter_plugin.h"
#include "binding/framework/volume_tracker.h"

namespace berth::binding {

inline constexpr std::string_view kVolumeBinding = "VolumeBinding";
// Upstream reason texts (volumebinding/binder.go).
inline constexpr std::string_view kReasonVolumeNodeConflict =
    "node(s) had volume node affinity conflict";
inline constexpr std::string_view kReasonVolumeBindConflict =
    "node(s) didn't find available persistent volumes to bind";
inline constexpr std::string_view kReasonVolumePVNotExist =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
inline constexpr std::string_view kReasonUnboundImmediate =
    "pod has unbound immediate PersistentVolumeClaims";

class VolumeBindingFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override { return kVolumeBinding; }
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;

 private:
  PodVolumeClaims claims_;  // set by PreFilter
};

}  // namespace berth::binding
