#include "binding/plugins/volume_restrictions.h"

#include "binding/framework/volume_tracker.h"

namespace berth::binding {

PreFilterResult VolumeRestrictionsFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult out;
  if (ctx.volumes == nullptr || !VolumeTracker::HasClaimVolumes(ctx.pod)) {
    out.kind = PreFilterResult::Kind::kSkip;
    return out;
  }
  const PodVolumeClaims claims = ctx.volumes->Resolve(ctx.pod);
  if (!claims.missing.empty()) {
    out.kind = PreFilterResult::Kind::kReject;
    out.reason = ctx.reasons.Intern(kVolumeRestrictions, claims.missing);
    return out;
  }
  // The placed pods using the pod's ReadWriteOncePod claims sit on some node each; upstream
  // counts them cluster-wide in PreFilter and fails every node when there is one.
  conflict_ = ctx.volumes->ReadWriteOncePodConflict(claims);
  return out;
}

void VolumeRestrictionsFilter::Filter(const CycleContext& ctx, model::NodeIndex,
                                      std::vector<ReasonId>* reasons) const {
  if (conflict_) {
    reasons->push_back(ctx.reasons.Intern(kVolumeRestrictions, kReasonReadWriteOncePodConflict));
  }
}

}  // namespace berth::binding
