#include "binding/plugins/volume_zone.h"

namespace berth::binding {

PreFilterResult VolumeZoneFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult out;
  if (ctx.volumes == nullptr || !VolumeTracker::HasClaimVolumes(ctx.pod)) {
    out.kind = PreFilterResult::Kind::kSkip;
    return out;
  }
  claims_ = ctx.volumes->Resolve(ctx.pod);
  std::string rejection = claims_.missing;
  if (rejection.empty()) rejection = ctx.volumes->ZoneRejection(claims_);
  if (!rejection.empty()) {
    out.kind = PreFilterResult::Kind::kReject;
    out.reason = ctx.reasons.Intern(kVolumeZone, rejection);
    return out;
  }
  if (claims_.bound.empty()) out.kind = PreFilterResult::Kind::kSkip;
  return out;
}

void VolumeZoneFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                              std::vector<ReasonId>* reasons) const {
  if (!ctx.volumes->ZoneFits(claims_, node)) {
    reasons->push_back(ctx.reasons.Intern(kVolumeZone, kReasonVolumeZoneConflict));
  }
}

}  // namespace berth::binding
