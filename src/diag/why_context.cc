#include "diag/why_context.h"

#include <algorithm>

namespace berth::diag {
namespace {

constexpr const char* kGpuProductLabel = "nvidia.com/gpu.product";

bool IsAdmittedOutcome(engine::WorkloadOutcome outcome) {
  return outcome == engine::WorkloadOutcome::kAdmitted ||
         outcome == engine::WorkloadOutcome::kAlreadyAdmitted;
}

}  // namespace

bool IsAcceleratorResource(const std::string& name) {
  return name.find("gpu") != std::string::npos || name.rfind("nvidia.com/", 0) == 0 ||
         name.rfind("amd.com/", 0) == 0 || name.find("neuron") != std::string::npos ||
         name.find("tpu") != std::string::npos;
}

WhyLayer LayerOfFilter(const std::string& plugin, const std::string& reason) {
  if (plugin == "DynamicResources" || plugin.rfind("berth.dev/", 0) == 0 ||
      plugin.find("GpuShar") != std::string::npos) {
    return WhyLayer::kDevice;
  }
  if (plugin == "PodTopologySpread" || plugin == "InterPodAffinity") return WhyLayer::kTopology;
  if (plugin == "NodeResourcesFit") {
    // "Insufficient cpu, Insufficient nvidia.com/gpu": device only when every shortage is an
    // accelerator's.
    bool any = false;
    bool all_devices = true;
    const std::string marker = "Insufficient ";
    for (size_t at = reason.find(marker); at != std::string::npos;
         at = reason.find(marker, at + marker.size())) {
      const size_t start = at + marker.size();
      const size_t end = reason.find(',', start);
      any = true;
      all_devices &=
          IsAcceleratorResource(reason.substr(start, end == std::string::npos ? end : end - start));
    }
    return any && all_devices ? WhyLayer::kDevice : WhyLayer::kNode;
  }
  return WhyLayer::kNode;
}

std::string NodeClassOf(const model::Node& node) {
  if (auto it = node.meta.labels.find(kGpuProductLabel); it != node.meta.labels.end()) {
    return it->second;
  }
  return "no GPU label";
}

const engine::WorkloadDecision* DecisionIn(const engine::Plan& plan, const model::Snapshot& input,
                                           int32_t w) {
  const std::string& cluster = input.kueue_workloads[static_cast<size_t>(w)].cluster;
  for (const auto& admission : plan.admissions) {
    if (admission.cluster != cluster) continue;
    for (const auto& d : admission.result.decisions) {
      if (d.workload == w) return &d;
    }
  }
  return nullptr;
}

WhyState StateIn(const engine::Plan& plan, const model::Snapshot& input,
                 const ResolvedTarget& target, bool* runs) {
  // Pods: bound in the plan; running when they were bound in the input already.
  auto pods_state = [&](const std::vector<int32_t>& pods, bool* all_bound) {
    bool bound = !pods.empty();
    bool running = !pods.empty();
    for (int32_t p : pods) {
      const model::Pod& planned = plan.planned.pods[static_cast<size_t>(p)];
      if (planned.IsTerminal()) continue;
      bound &= planned.IsBound();
      running &= input.pods[static_cast<size_t>(p)].IsBound();
    }
    *all_bound = bound;
    return running ? WhyState::kRunning : WhyState::kBound;
  };
  if (target.kind != ResolvedTarget::Kind::kKueue) {
    bool bound = false;
    const WhyState state = pods_state(target.pods, &bound);
    *runs = bound;
    return bound ? state : WhyState::kPending;
  }
  const engine::WorkloadDecision* d = DecisionIn(plan, input, target.workload);
  bool admitted = d != nullptr && IsAdmittedOutcome(d->outcome);
  if (auto it = plan.dispatches.find(target.workload); it != plan.dispatches.end()) {
    admitted = (d != nullptr && d->outcome != engine::WorkloadOutcome::kPending &&
                d->outcome != engine::WorkloadOutcome::kInadmissible) &&
               it->second.cluster.has_value();
    *runs = admitted;
    return admitted ? WhyState::kAdmitted : WhyState::kPending;
  }
  *runs = admitted;
  if (!admitted) return WhyState::kPending;
  // Queues given without nodes are planned on quota alone: admitted is as far as it goes.
  if (target.pods.empty() || plan.planned.nodes.empty()) return WhyState::kAdmitted;
  bool bound = false;
  const WhyState state = pods_state(target.pods, &bound);
  return bound ? state : WhyState::kAdmitted;
}

std::string NameList(const std::vector<std::string>& names, size_t shown) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < shown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > shown) out += ", +" + std::to_string(names.size() - shown) + " more";
  return out;
}

std::string AmountText(const model::ResourceCatalog& catalog, model::ResourceId id,
                       int64_t amount) {
  return model::AmountQuantity(catalog.Name(id), amount).ToString();
}

}  // namespace berth::diag
