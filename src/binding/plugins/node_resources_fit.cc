#include "binding/plugins/node_resources_fit.h"

#include <string>

#include "binding/framework/plugin_names.h"

namespace berth::binding {

FitRequest MakeFitRequest(const PodResources& pod, const ResourceTable& resources) {
  FitRequest out;
  for (model::ResourceId id : resources.fit_checked()) {
    int64_t amount = pod.request(id);
    if (amount != 0) out.items.emplace_back(id, amount);
  }
  return out;
}

uint64_t FitFailures(const NodeLoad& load, const FitRequest& request) {
  uint64_t failures = 0;
  if (static_cast<int64_t>(load.pod_count) + 1 > load.allocatable[model::kPods.v]) failures = 1;
  for (size_t i = 0; i < request.items.size(); ++i) {
    auto [id, amount] = request.items[i];
    // Upstream skips non-positive requests; MakeFitRequest keeps only non-zero ones.
    // requested + amount > allocatable, without overflow: requested may be saturated.
    int64_t total = 0;
    if (amount > 0 && (__builtin_add_overflow(load.requested[id.v], amount, &total) ||
                       total > load.allocatable[id.v])) {
      failures |= uint64_t{1} << (i + 1);
    }
  }
  return failures;
}

ReasonId InsufficientReason(ReasonTable& reasons, const std::string& resource) {
  std::string text(kReasonInsufficientPrefix);
  text += resource;
  return reasons.Intern(kNodeResourcesFit, text);
}

std::string_view NodeResourcesFitFilter::Name() const { return kNodeResourcesFit; }

PreFilterResult NodeResourcesFitFilter::PreFilter(const CycleContext& ctx) {
  request_ = MakeFitRequest(ctx.info.resources, ctx.resources);
  item_reasons_.clear();
  for (const auto& [id, amount] : request_.items) {
    item_reasons_.push_back(InsufficientReason(ctx.reasons, ctx.resources.name(id)));
  }
  too_many_pods_ = ctx.reasons.Intern(kNodeResourcesFit, kReasonTooManyPods);
  return {};
}

void NodeResourcesFitFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                                    std::vector<ReasonId>* reasons) const {
  uint64_t failures = FitFailures(ctx.state.load(node), request_);
  if (failures == 0) return;
  if (failures & 1) reasons->push_back(too_many_pods_);
  for (size_t i = 0; i < item_reasons_.size(); ++i) {
    if (failures & (uint64_t{1} << (i + 1))) reasons->push_back(item_reasons_[i]);
  }
}

std::string_view NodeResourcesFitScore::Name() const { return kNodeResourcesFit; }

int64_t NodeResourcesFitScore::Score(const CycleContext& ctx, model::NodeIndex node) const {
  return scorer_.FitScore(ctx.state.load(node), ctx.info.resources);
}

}  // namespace berth::binding
