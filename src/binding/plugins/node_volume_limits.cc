#include "binding/plugins/node_volume_limits.h"

namespace berth::binding {

PreFilterResult NodeVolumeLimitsFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult out;
  if (ctx.volumes == nullptr || !VolumeTracker::HasClaimVolumes(ctx.pod)) {
    out.kind = PreFilterResult::Kind::kSkip;
    return out;
  }
  // A missing claim is VolumeRestrictions' and VolumeBinding's rejection; here it counts
  // for nothing.
  claims_ = ctx.volumes->Resolve(ctx.pod);
  if (claims_.claims.empty()) out.kind = PreFilterResult::Kind::kSkip;
  return out;
}

void NodeVolumeLimitsFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                                    std::vector<ReasonId>* reasons) const {
  if (!ctx.volumes->WithinVolumeLimits(claims_, node)) {
    reasons->push_back(ctx.reasons.Intern(kNodeVolumeLimits, kReasonMaxVolumeCount));
  }
}

}  // namespace berth::binding
