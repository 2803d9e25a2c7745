#include "binding/plugins/gpu_sharing.h"

#include <string>

#include "gpu/fraction_ledger.h"
#include "gpu/gpu_inventory.h"

namespace berth::binding {

std::string_view GpuSharingFilter::Name() const { return kGpuSharing; }

PreFilterResult GpuSharingFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult out;
  if (!ctx.info.RequestsGpuFraction()) {
    out.kind = PreFilterResult::Kind::kSkip;
    return out;
  }
  if (!ctx.info.gpu_fraction.has_value()) {
    // KAI's admission webhook refuses such a pod; no node can change that.
    out.kind = PreFilterResult::Kind::kReject;
    std::string text(kReasonGpuFractionInvalidPrefix);
    text += ctx.info.gpu_fraction_error;
    out.reason = ctx.reasons.Intern(kGpuSharing, text);
    return out;
  }
  reason_ = ctx.reasons.Intern(
      kGpuSharing, ctx.info.gpu_fraction->by_memory() ? kReasonGpuMemory : kReasonGpuFraction);
  has_gpu_ = ctx.resources.Find(gpu::kResourceGpu, &gpu_);
  return out;
}

void GpuSharingFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                              std::vector<ReasonId>* reasons) const {
  const gpu::FractionBook& book = ctx.state.gpu_fractions();
  // The book is active whenever a pod of the snapshot carries the annotations, as this one
  // does; it stays inactive only for a snapshot without nodes.
  if (!has_gpu_ || !book.active()) {
    reasons->push_back(reason_);
    return;
  }
  NodeLoad load = ctx.state.load(node);
  int64_t free_whole = load.allocatable[gpu_.v] - load.requested[gpu_.v];
  if (!book.ledger(node).Choose(*ctx.info.gpu_fraction, free_whole).has_value()) {
    reasons->push_back(reason_);
  }
}

}  // namespace berth::binding
