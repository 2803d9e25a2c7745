// GpuSharing: the filter for fractional GPUs the way KAI Scheduler expresses them (pod
// annotations gpu-fraction / gpu-memory / gpu-fraction-num-devices, devices/
// fraction_request.h). A node passes when its GPUs can hold the request: each portion on a
// GPU already reserved for sharing with enough free milli-GPU and memory, or on a free
// nvidia.com/gpu device, which the bind then reserves whole (KAI's reservation pod; see
// ClusterState::AddPod). Not an upstream kube-scheduler plugin: it joins the filters only
// for pods that carry the annotations (MakeFilterPlugins), so no other pod's verdicts
// change, and such pods take the reference path (IndexedPath::Eligible). Made per pod.
#pragma once

#include <string_view>
#include <vector>

#include "binding/framework/filter_plugin.h"

namespace berth::binding {

inline constexpr std::string_view kGpuSharing = "GpuSharing";
inline constexpr std::string_view kReasonGpuFraction =
    "node(s) didn't have a GPU with enough free fraction";
inline constexpr std::string_view kReasonGpuMemory =
    "node(s) didn't have a GPU with enough free memory";
// PreFilter rejection of malformed annotations: the prefix, then the parse error.
inline constexpr std::string_view kReasonGpuFractionInvalidPrefix =
    "invalid GPU fraction request: ";

class GpuSharingFilter : public FilterPlugin {
 public:
  std::string_view Name() const override;
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;

 private:
  ReasonId reason_;
  model::ResourceId gpu_;
  bool has_gpu_ = false;  // false when no object names nvidia.com/gpu: no node has a GPU
};

}  // namespace berth::binding
