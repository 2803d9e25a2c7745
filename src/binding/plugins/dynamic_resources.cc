#include "binding/plugins/dynamic_resources.h"

#include <utility>

#include "binding/framework/claim_tracker.h"

namespace berth::binding {

namespace {

PreFilterResult Reject(const CycleContext& ctx, std::string_view text) {
  PreFilterResult out;
  out.kind = PreFilterResult::Kind::kReject;
  out.reason = ctx.reasons.Intern(kDynamicResources, text);
  return out;
}

}  // namespace

std::string_view DynamicResourcesFilter::Name() const { return kDynamicResources; }

PreFilterResult DynamicResourcesFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult out;
  if (ctx.pod.resource_claims.empty()) {
    out.kind = PreFilterResult::Kind::kSkip;
    return out;
  }
  if (ctx.claims == nullptr) {
    // The scheduler builds a tracker whenever a pod has claims; without one no claim exists.
    const model::PodResourceClaim& ref = ctx.pod.resource_claims.front();
    const std::string ns = ctx.pod.meta.namespace_.empty() ? "default" : ctx.pod.meta.namespace_;
    return Reject(
        ctx, ref.template_name.empty()
                 ? "could not find ResourceClaim \"" + ns + "/" + ref.claim_name + "\""
                 : "pod \"" + ns + "/" + ctx.pod.meta.name + "\": ResourceClaim not created yet");
  }
  PodClaims resolved = ctx.claims->Resolve(ctx.pod);
  if (!resolved.rejection.empty()) return Reject(ctx, resolved.rejection);
  claims_ = std::move(resolved.claims);
  ctx_ = &ctx;
  return out;
}

void DynamicResourcesFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                                    std::vector<ReasonId>* reasons) const {
  devices::AllocationOutcome outcome = ctx.claims->allocator().Allocate(claims_, node);
  if (outcome.ok()) return;
  const std::string& reason = outcome.failure->reason;
  reasons->push_back(ctx.reasons.Intern(
      kDynamicResources, reason.empty() ? kReasonCannotAllocateClaims : std::string_view(reason)));
}

std::string DynamicResourcesFilter::Detail(model::NodeIndex node) const {
  // Explain asks right after Filter ran on the node, so the allocator's state is the one
  // Filter saw: allocating again gives the same outcome, and decisions never pay for text.
  if (ctx_ == nullptr) return "";
  devices::AllocationOutcome outcome = ctx_->claims->allocator().Allocate(claims_, node);
  if (outcome.ok()) return DescribeAllocations(ctx_->snapshot, claims_, outcome.allocations);
  const devices::AllocationFailure& failure = *outcome.failure;
  std::string detail = failure.detail.empty() ? failure.reason : failure.detail;
  if (failure.claim.has_value()) {
    // Name the claim (and request) the detail is about unless the allocator already did.
    const model::ResourceClaim& c = ctx_->claims->claim(*failure.claim);
    if (detail.find(c.meta.name) == std::string::npos) {
      std::string prefix = "claim " + c.meta.namespace_ + "/" + c.meta.name;
      if (!failure.request.empty()) prefix += ", request " + failure.request;
      detail = prefix + ": " + detail;
    }
  }
  return detail;
}

}  // namespace berth::binding
