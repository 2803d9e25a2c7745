// DynamicResources: kube-scheduler's DRA filter (pkg/scheduler/framework/plugins/
// dynamicresources). PreFilter resolves the pod's ResourceClaims and rejects the pod on
// every node when one is missing, reserved by too many consumers, or asks for a DeviceClass
// that does not exist; Filter asks the cluster's devices::Allocator (through ClaimTracker)
// whether the pod's claims can all be allocated on the node, and says why not. Runs last,
// after InterPodAffinity, as in upstream's default profile, and only for pods with claims
// (MakeFilterPlugins), so no other pod's verdicts change; such pods take the index only
// where Scheduler::Impl::TryDecideWithClaims shows it decides as the reference path does
// (docs/binding.md, "Pods with ResourceClaims"). Made per pod evaluation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "binding/framework/filter_plugin.h"
#include "devices/allocator.h"

namespace berth::binding {

inline constexpr std::string_view kDynamicResources = "DynamicResources";
// Upstream reason texts.
inline constexpr std::string_view kReasonCannotAllocateClaims = "cannot allocate all claims";
inline constexpr std::string_view kReasonClaimNotAvailable =
    "resourceclaim not available on the node";

class DynamicResourcesFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override;
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;
  // The allocator's detail for a node Filter just ran on: the devices each request got, or
  // which claim and request could not be satisfied and why.
  std::string Detail(model::NodeIndex node) const override;

 private:
  std::vector<devices::ClaimIndex> claims_;  // set by PreFilter
  const CycleContext* ctx_ = nullptr;        // PreFilter's; outlives this plugin object
};

}  // namespace berth::binding
