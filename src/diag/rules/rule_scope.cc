// Shared scoping for the tenancy, operations and storage rules (rule_scope.h). The tenant
// namespace list follows where the GPU operator, the NVIDIA device plugin and the
// Kubernetes control plane install themselves; "*-system" covers kueue-system,
// volcano-system, kai-system and the like.
#include "diag/rules/rule_scope.h"

#include "gpu/gpu_inventory.h"

namespace berth::diag::rules {

std::string ScopeKey(std::string_view cluster, std::string_view ns_or_name) {
  std::string k(cluster);
  k += '\0';
  k += ns_or_name.empty() ? std::string_view("default") : ns_or_name;
  return k;
}

std::string ScopeKeyCluster(const std::string& key) { return key.substr(0, key.find('\0')); }

std::string ScopeKeyName(const std::string& key) { return key.substr(key.find('\0') + 1); }

std::unordered_map<std::string, model::NodeIndex> NodesByName(const model::Snapshot& snapshot) {
  std::unordered_map<std::string, model::NodeIndex> out;
  out.reserve(snapshot.nodes.size());
  for (size_t i = 0; i < snapshot.nodes.size(); ++i) {
    const model::Node& n = snapshot.nodes[i];
    out.emplace(ScopeKey(n.cluster, n.meta.name), model::NodeIndex{static_cast<int32_t>(i)});
  }
  return out;
}

bool IsTenantNamespace(std::string_view ns) {
  if (ns == "kube-system" || ns == "kube-public" || ns == "kube-node-lease" || ns == "gpu-operator") {
    return false;
  }
  if (ns.starts_with("nvidia-") || ns.ends_with("-system")) return false;
  return true;
}

std::set<std::string, std::less<>> ClustersWithTenancyObjects(const model::Snapshot& snapshot) {
  std::set<std::string, std::less<>> out;
  for (const auto& o : snapshot.resource_quotas) out.insert(o.cluster);
  for (const auto& o : snapshot.limit_ranges) out.insert(o.cluster);
  for (const auto& o : snapshot.network_policies) out.insert(o.cluster);
  for (const auto& o : snapshot.service_accounts) out.insert(o.cluster);
  for (const auto& o : snapshot.rbac_roles) out.insert(o.cluster);
  for (const auto& o : snapshot.rbac_bindings) out.insert(o.cluster);
  return out;
}

bool IsGpuResourceName(const DoctorContext& ctx, std::string_view name) {
  model::ResourceId id;
  if (ctx.snapshot().resources.Find(name, &id)) return ctx.IsGpuResource(id);
  if (gpu::IsNvidiaGpuResource(name) || name.starts_with("gpu.intel.com/")) return true;
  const size_t slash = name.find('/');
  return slash != std::string_view::npos && name.substr(slash + 1) == "gpu";
}

std::string NodeRefusesPod(const DoctorContext& ctx, const model::Pod& pod, model::NodeIndex at) {
  const model::Node& node = ctx.snapshot().node(at);
  for (const auto& [key, value] : pod.node_selector) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) {
      return "it is not labelled " + key + "=" + value;
    }
  }
  if (pod.node_affinity.required.has_value() &&
      !pod.node_affinity.required->Matches(node.meta.labels, node.meta.name)) {
    return "it does not satisfy the pod's required node affinity";
  }
  if (const core::Taint* t = core::FindUntoleratedHardTaint(node.taints, pod.tolerations)) {
    return "the pod does not tolerate its taint " + t->key + (t->value.empty() ? "" : "=" + t->value) +
           ":" + std::string(core::TaintEffectName(t->effect));
  }
  if (ctx.PodGpuRequest(pod) > 0 && !ctx.IsGpuNode(at)) {
    return "it has no GPUs and the pod requests " + std::to_string(ctx.PodGpuRequest(pod));
  }
  return "";
}

}  // namespace berth::diag::rules
