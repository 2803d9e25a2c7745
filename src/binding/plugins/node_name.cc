#include "binding/plugins/node_name.h"

#include "binding/framework/plugin_names.h"

namespace berth::binding {

std::string_view NodeNameFilter::Name() const { return kNodeName; }

PreFilterResult NodeNameFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult r;
  if (ctx.pod.node_name.empty()) r.kind = PreFilterResult::Kind::kSkip;
  return r;
}

void NodeNameFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                            std::vector<ReasonId>* reasons) const {
  if (ctx.pod.node_name.empty() || ctx.pod.node_name == ctx.state.node(node).meta.name) return;
  reasons->push_back(ctx.reasons.Intern(kNodeName, kReasonNodeName));
}

}  // namespace berth::binding
