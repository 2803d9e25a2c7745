#include "binding/plugins/taint_toleration.h"

#include <string>

#include "binding/framework/normalize_score.h"
#include "binding/framework/plugin_names.h"
#include "core/taint.h"

namespace berth::binding {

std::optional<ReasonId> UntoleratedTaintReason(const model::Pod& pod,
                                               const std::vector<core::Taint>& taints,
                                               ReasonTable& reasons) {
  const core::Taint* taint = core::FindUntoleratedHardTaint(taints, pod.tolerations);
  if (taint == nullptr) return std::nullopt;
  std::string text(kReasonUntoleratedTaintPrefix);
  text += taint->ToString();
  return reasons.Intern(kTaintToleration, text);
}

std::string_view TaintTolerationFilter::Name() const { return kTaintToleration; }

void TaintTolerationFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                                   std::vector<ReasonId>* reasons) const {
  auto reason = UntoleratedTaintReason(ctx.pod, ctx.state.node(node).taints, ctx.reasons);
  if (reason.has_value()) reasons->push_back(*reason);
}

std::string_view TaintTolerationScore::Name() const { return kTaintToleration; }

int64_t TaintTolerationScore::Score(const CycleContext& ctx, model::NodeIndex node) const {
  return core::CountIntolerablePreferNoSchedule(ctx.state.node(node).taints, ctx.pod.tolerations);
}

void TaintTolerationScore::NormalizeScore(const CycleContext&, std::span<const model::NodeIndex>,
                                          std::span<int64_t> scores) const {
  DefaultNormalizeScore(/*reverse=*/true, scores);
}

}  // namespace berth::binding
