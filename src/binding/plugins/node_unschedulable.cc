#include "binding/plugins/node_unschedulable.h"

#include <string>

#include "binding/framework/plugin_names.h"
#include "core/taint.h"

namespace berth::binding {

std::string_view NodeUnschedulableFilter::Name() const { return kNodeUnschedulable; }

void NodeUnschedulableFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                                     std::vector<ReasonId>* reasons) const {
  if (!ctx.state.node(node).unschedulable) return;
  core::Taint cordon{std::string(kTaintNodeUnschedulable), "", core::TaintEffect::kNoSchedule};
  if (core::TolerationsTolerate(ctx.pod.tolerations, cordon)) return;
  reasons->push_back(ctx.reasons.Intern(kNodeUnschedulable, kReasonUnschedulable));
}

}  // namespace berth::binding
