#include "binding/plugins/volume_binding.h"

#include <utility>

namespace berth::binding {

PreFilterResult VolumeBindingFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult out;
  if (ctx.volumes == nullptr || !VolumeTracker::HasClaimVolumes(ctx.pod)) {
    out.kind = PreFilterResult::Kind::kSkip;
    return out;
  }
  claims_ = ctx.volumes->Resolve(ctx.pod);
  // Upstream's order: a missing claim, a Lost claim without its volume, then unbound
  // Immediate claims; each fails the pod on every node (UnschedulableAndUnresolvable).
  std::string_view rejection;
  if (!claims_.missing.empty()) {
    rejection = claims_.missing;
  } else if (!claims_.lost.empty()) {
    rejection = claims_.lost;
  } else if (!claims_.immediate.empty()) {
    rejection = kReasonUnboundImmediate;
  }
  if (!rejection.empty()) {
    out.kind = PreFilterResult::Kind::kReject;
    out.reason = ctx.reasons.Intern(kVolumeBinding, rejection);
    return out;
  }
  if (claims_.bound.empty() && claims_.delayed.empty()) out.kind = PreFilterResult::Kind::kSkip;
  return out;
}

void VolumeBindingFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                                 std::vector<ReasonId>* reasons) const {
  const VolumeFit fit = ctx.volumes->Fit(claims_, node);
  // FindPodVolumes' order of reasons.
  if (!fit.bound_satisfied) {
    reasons->push_back(ctx.reasons.Intern(kVolumeBinding, kReasonVolumeNodeConflict));
  }
  if (!fit.unbound_satisfied) {
    reasons->push_back(ctx.reasons.Intern(kVolumeBinding, kReasonVolumeBindConflict));
  }
  if (!fit.bound_pvs_found) {
    reasons->push_back(ctx.reasons.Intern(kVolumeBinding, kReasonVolumePVNotExist));
  }
}

}  // namespace berth::binding
