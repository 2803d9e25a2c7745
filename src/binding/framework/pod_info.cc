#include "binding/framework/pod_info.h"

#include "gpu/gpu_inventory.h"

namespace berth::binding {

namespace {

SpreadConstraint MakeSpreadConstraint(const model::TopologySpreadConstraint& c,
                                      const model::Pod& pod) {
  SpreadConstraint out;
  out.max_skew = c.max_skew;
  out.topology_key = c.topology_key;
  out.selector = c.label_selector;
  out.min_domains = c.min_domains.value_or(1);
  out.node_affinity_policy = c.node_affinity_policy;
  out.node_taints_policy = c.node_taints_policy;
  // Upstream mergeLabelSetWithSelector: the pod's values for matchLabelKeys are ANDed with
  // the selector; with no selector they alone make the selector.
  std::vector<core::SelectorRequirement> extra;
  for (const std::string& key : c.match_label_keys) {
    auto it = pod.meta.labels.find(key);
    if (it != pod.meta.labels.end()) extra.push_back({key, core::SelectorOp::kIn, {it->second}});
  }
  if (!extra.empty()) {
    if (!out.selector.has_value()) out.selector = core::LabelSelector{};
    for (auto& r : extra) out.selector->match_expressions.push_back(std::move(r));
  }
  return out;
}

}  // namespace

PodInfo MakePodInfo(const model::Pod& pod, const ResourceTable& resources, LabelSigTable* sigs) {
  PodInfo info;
  info.resources = ComputePodResources(pod, resources.size());
  info.label_sig = sigs->Intern(pod.meta.namespace_, pod.meta.labels);
  for (const auto& t : pod.pod_affinity.required) info.required_affinity.emplace_back(t, 0, pod);
  for (const auto& t : pod.pod_anti_affinity.required) {
    info.required_anti_affinity.emplace_back(t, 0, pod);
  }
  for (const auto& t : pod.pod_affinity.preferred) {
    info.preferred_affinity.emplace_back(t.term, t.weight, pod);
  }
  for (const auto& t : pod.pod_anti_affinity.preferred) {
    info.preferred_anti_affinity.emplace_back(t.term, t.weight, pod);
  }
  if (gpu::HasFractionAnnotations(pod.meta.annotations)) {
    model::ResourceId gpu;
    int64_t whole = resources.Find(gpu::kResourceGpu, &gpu) ? info.resources.request(gpu) : 0;
    auto parsed = gpu::ParseFractionRequest(pod.meta.annotations, whole);
    if (parsed.has_value()) {
      info.gpu_fraction = parsed.value();
    } else {
      info.gpu_fraction_error = parsed.error().ToString();
    }
  }
  for (const model::Container& c : pod.containers) {
    info.host_ports.insert(info.host_ports.end(), c.host_ports.begin(), c.host_ports.end());
  }
  for (const auto& c : pod.topology_spread_constraints) {
    if (c.when_unsatisfiable == model::UnsatisfiableAction::kDoNotSchedule) {
      info.hard_spread.push_back(MakeSpreadConstraint(c, pod));
    } else {
      info.soft_spread.push_back(MakeSpreadConstraint(c, pod));
    }
  }
  return info;
}

}  // namespace berth::binding
