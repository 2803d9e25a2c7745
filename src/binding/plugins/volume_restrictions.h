// VolumeRestrictions: kube-scheduler's volume restrictions filter (pkg/scheduler/framework/
// plugins/volumerestrictions), for claim volumes: PreFilter rejects a pod whose claims do
// not exist; a ReadWriteOncePod claim that a placed pod already uses fails the pod on every
// node (Unschedulable: preemption may free it). ReadWriteOnce claims used on another node
// are not refused, as upstream does not (the attach fails at the kubelet; berth doctor
// reports such claims). Inline in-tree disks (GCE PD, EBS, RBD, iSCSI) are not modelled.
// Only for pods with claim volumes (MakeFilterPlugins). Made per pod evaluation.
#pragma once

#include <string_view>
#include <vector>

#include "binding/framework/filter_plugin.h"

namespace berth::binding {

inline constexpr std::string_view kVolumeRestrictions = "VolumeRestrictions";
inline constexpr std::string_view kReasonReadWriteOncePodConflict =
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";

class VolumeRestrictionsFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override { return kVolumeRestrictions; }
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;

 private:
  bool conflict_ = false;  // set by PreFilter
};

}  // namespace berth::binding
