#include "binding/plugins/node_ports.h"

#include "binding/framework/plugin_names.h"

namespace berth::binding {

bool FitsPorts(const PodInfo& info, const HostPortTable& used) {
  for (const model::HostPort& p : info.host_ports) {
    if (used.CheckConflict(p.host_ip, p.protocol, p.host_port)) return false;
  }
  return true;
}

std::string_view NodePortsFilter::Name() const { return kNodePorts; }

PreFilterResult NodePortsFilter::PreFilter(const CycleContext& ctx) {
  PreFilterResult r;
  if (ctx.info.host_ports.empty()) r.kind = PreFilterResult::Kind::kSkip;
  return r;
}

void NodePortsFilter::Filter(const CycleContext& ctx, model::NodeIndex node,
                             std::vector<ReasonId>* reasons) const {
  if (FitsPorts(ctx.info, ctx.state.host_ports(node))) return;
  reasons->push_back(ctx.reasons.Intern(kNodePorts, kReasonNodePorts));
}

}  // namespace berth::binding
