// Operations rules: what stalls the maintenance of a GPU pool or lets priorities run over
// tenants. PodDisruptionBudgets that allow no eviction of GPU pods (driver upgrades, MIG
// reconfiguration and scale-down drain nodes through evictions), GPU nodes left cordoned,
// a globalDefault PriorityClass that outranks named classes, and preempting classes any
// tenant may use. Each check reads its objects once; PDBs read only their namespace's pods.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "diag/doctor_context.h"
#include "diag/rules/rule_scope.h"
#include "diag/rules/rules.h"

namespace berth::diag::rules {

namespace {

// kube-controller-manager's GetScaledValueFromIntOrPercent(value, total, roundUp=true) for
// the PDB fields: an int as written, N% of `total` rounded up.
int64_t OperationsScaled(const model::CountOrPercent& v, int64_t total) {
  if (!v.percent) return v.value;
  return (int64_t{v.value} * total + 99) / 100;
}

std::string OperationsCountText(const model::CountOrPercent& v) {
  return std::to_string(v.value) + (v.percent ? "%" : "");
}

// The GPU operator's upgrade states in which the node waits to be drained.
bool OperationsAwaitsDrain(const model::Node& node) {
  auto it = node.meta.labels.find("nvidia.com/gpu-driver-upgrade-state");
  if (it == node.meta.labels.end()) return false;
  return it->second == "upgrade-required" || it->second == "cordon-required" ||
         it->second == "wait-for-jobs-required" || it->second == "pod-deletion-required" ||
         it->second == "drain-required";
}

// A PDB over GPU pods that allows no disruption while all of them are healthy:
// maxUnavailable 0, or minAvailable (scaled) at least the pods it selects.
void CheckPdbBlocksGpuDrain(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  std::unordered_map<std::string, model::NodeIndex> nodes;
  for (const model::PodDisruptionBudget& pdb : snap.pod_disruption_budgets) {
    if (!pdb.selector.has_value()) continue;
    int64_t pods = 0, gpu_pods = 0, gpus = 0;
    std::string draining;  // a node of a selected GPU pod that the GPU operator waits to drain
    for (model::PodIndex i : ctx.PodsIn(pdb.cluster, pdb.meta.namespace_)) {
      const model::Pod& pod = snap.pod(i);
      if (pod.IsTerminal() || !pdb.selector->Matches(pod.meta.labels)) continue;
      ++pods;
      const int64_t n = ctx.PodGpuRequest(pod);
      if (n == 0) continue;
      ++gpu_pods;
      gpus += n;
      if (!pod.node_name.empty() && draining.empty()) {
        if (nodes.empty()) nodes = NodesByName(snap);
        auto it = nodes.find(ScopeKey(pod.cluster, pod.node_name));
        if (it != nodes.end() && OperationsAwaitsDrain(snap.node(it->second))) draining = pod.node_name;
      }
    }
    if (gpu_pods == 0) continue;
    std::string field, why;
    if (pdb.max_unavailable.has_value() && OperationsScaled(*pdb.max_unavailable, pods) == 0) {
      field = "spec.maxUnavailable";
      why = "maxUnavailable " + OperationsCountText(*pdb.max_unavailable);
    } else if (pdb.min_available.has_value() && OperationsScaled(*pdb.min_available, pods) >= pods) {
      field = "spec.minAvailable";
      why = "minAvailable " + OperationsCountText(*pdb.min_available) + " of " + std::to_string(pods) +
            " selected pod(s)";
    } else {
      continue;
    }
    const std::string summary = why + " over " + std::to_string(gpu_pods) + " GPU pod(s) (" + std::to_string(gpus) +
                                " GPUs) allows no eviction: draining their nodes for a driver upgrade, MIG "
                                "reconfiguration, repair or autoscaler scale-down waits forever";
    const std::string fix =
        "allow at least one disruption (spec.maxUnavailable: 1, or minAvailable below the replica count), "
        "set spec.unhealthyPodEvictionPolicy: AlwaysAllow, and keep PDBs for serving, not for batch or gang jobs";
    if (!draining.empty()) {
      sink.AddAt(Severity::kError, RefOf(pdb, "policy/v1", "PodDisruptionBudget"), field,
                 summary + "; node " + draining + " is already waiting for the GPU operator to drain it", fix);
    } else {
      sink.Add(RefOf(pdb, "policy/v1", "PodDisruptionBudget"), field, summary, fix);
    }
  }
}

std::string OperationsDuration(int64_t seconds) {
  const int64_t days = seconds / 86400, hours = (seconds % 86400) / 3600, minutes = (seconds % 3600) / 60;
  if (days > 0) return std::to_string(days) + "d " + std::to_string(hours) + "h";
  if (hours > 0) return std::to_string(hours) + "h " + std::to_string(minutes) + "m";
  return std::to_string(minutes) + "m";
}

constexpr int64_t kOperationsLongCordonS = 24 * 3600;

// A cordoned GPU node: its GPUs serve nobody new. Info; a warning once the unschedulable
// taint is older than a day (a forgotten cordon or a stuck upgrade).
void CheckGpuNodeCordoned(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  for (size_t i = 0; i < snap.nodes.size(); ++i) {
    const model::Node& node = snap.nodes[i];
    const model::NodeIndex at{static_cast<int32_t>(i)};
    if (!node.unschedulable || !ctx.IsGpuNode(at)) continue;
    const std::string gpus = std::to_string(ctx.NodeGpus(at).gpus.size()) + " GPU(s)";
    const std::string fix =
        "finish the maintenance and run kubectl uncordon " + node.meta.name +
        "; if a drain is stuck, look for PodDisruptionBudgets that allow no eviction (pdb-blocks-gpu-drain)";
    if (node.unschedulable_since.has_value()) {
      const int64_t age = ctx.now().unix_s - node.unschedulable_since->unix_s;
      // A timeAdded after --now (a dump read against an older --now) gets no duration.
      const std::string text = "GPU node " + node.meta.name + " (" + gpus + ") has been cordoned since " +
                               node.unschedulable_since->ToString() +
                               (age >= 0 ? " (" + OperationsDuration(age) + ")" : std::string()) +
                               ": no new pod can use its GPUs";
      sink.AddAt(age > kOperationsLongCordonS ? Severity::kWarning : Severity::kInfo, RefOf(node, "v1", "Node"),
                 "spec.unschedulable", text, fix);
      continue;
    }
    sink.Add(RefOf(node, "v1", "Node"), "spec.unschedulable",
             "GPU node " + node.meta.name + " (" + gpus + ") is cordoned: no new pod can use its GPUs", fix);
  }
}

bool OperationsIsSystemClass(const model::PriorityClass& pc) {
  return pc.meta.name.starts_with("system-") || pc.value > 1'000'000'000;
}

ObjectRef OperationsPriorityClassRef(const model::PriorityClass& pc, std::string cluster) {
  return ObjectRef{"scheduling.k8s.io/v1", "PriorityClass", "", pc.meta.name, std::move(cluster), pc.source, pc.meta.labels};
}

std::string OperationsClusterOfClasses(const DoctorContext& ctx) {
  return ctx.clusters().size() == 1 ? ctx.clusters().front() : "default";
}

// A globalDefault PriorityClass above some named class: every pod that names no class
// queues ahead of (and, with PreemptLowerPriority, preempts) pods that chose that class.
void CheckPriorityClassGlobalDefaultHigh(const DoctorContext& ctx, FindingSink& sink) {
  const std::vector<model::PriorityClass>& classes = ctx.snapshot().priority_classes;
  for (const model::PriorityClass& def : classes) {
    if (!def.global_default) continue;
    std::vector<const model::PriorityClass*> below;
    for (const model::PriorityClass& pc : classes) {
      if (&pc != &def && !OperationsIsSystemClass(pc) && pc.value < def.value) below.push_back(&pc);
    }
    if (below.empty()) continue;
    std::sort(below.begin(), below.end(), [](const auto* a, const auto* b) { return a->value > b->value; });
    std::string names;
    for (const model::PriorityClass* pc : below) {
      names += (names.empty() ? "" : ", ") + pc->meta.name + " (" + std::to_string(pc->value) + ")";
    }
    const bool preempts = def.preemption_policy != "Never";
    sink.Add(OperationsPriorityClassRef(def, OperationsClusterOfClasses(ctx)), "globalDefault",
             "globalDefault PriorityClass " + def.meta.name + " has value " + std::to_string(def.value) +
                 (preempts ? " and preemptionPolicy PreemptLowerPriority" : "") +
                 ": every pod that names no class queues ahead of" + (preempts ? " and preempts" : "") +
                 " pods of " + names,
             "give the globalDefault class the lowest value of the cluster (e.g. 0, preemptionPolicy Never) and "
             "let workloads that must outrank others name a higher class");
  }
}

// Preempting PriorityClasses that tenant namespaces running GPU pods may use without a
// ResourceQuota scoped to PriorityClass: any tenant can preempt the others' GPU jobs.
void CheckPriorityUnfenced(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  if (snap.priority_classes.empty()) return;
  const auto dumped = ClustersWithTenancyObjects(snap);
  std::set<std::string> fenced;  // ScopeKey(cluster, ns) with a PriorityClass-scoped quota
  for (const model::NamespaceQuota& q : snap.resource_quotas) {
    if (std::find(q.scope_selector_scopes.begin(), q.scope_selector_scopes.end(), "PriorityClass") !=
        q.scope_selector_scopes.end()) {
      fenced.insert(ScopeKey(q.cluster, q.meta.namespace_));
    }
  }
  std::map<std::string, std::set<std::string>> open;  // cluster → tenant namespaces with GPU pods, unfenced
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    if (spec.spec->IsTerminal() || ctx.PodGpuRequest(*spec.spec) == 0) continue;
    if (!dumped.contains(spec.object.cluster) || !IsTenantNamespace(spec.object.namespace_)) continue;
    if (fenced.contains(ScopeKey(spec.object.cluster, spec.object.namespace_))) continue;
    open[spec.object.cluster].insert(spec.object.namespace_.empty() ? "default" : spec.object.namespace_);
  }
  if (open.empty()) return;
  int64_t lowest = 0;  // pods without a class (and no globalDefault) run at 0
  for (const model::PriorityClass& pc : snap.priority_classes) lowest = std::min<int64_t>(lowest, pc.value);
  for (const model::PriorityClass& pc : snap.priority_classes) {
    if (OperationsIsSystemClass(pc) || pc.preemption_policy == "Never" || pc.value <= lowest) continue;
    for (const auto& [cluster, namespaces] : open) {
      std::string names;
      for (const std::string& ns : namespaces) names += (names.empty() ? "" : ", ") + ns;
      sink.Add(OperationsPriorityClassRef(pc, cluster), "preemptionPolicy",
               "PriorityClass " + pc.meta.name + " (value " + std::to_string(pc.value) +
                   ", PreemptLowerPriority) can be named by any pod of tenant namespace(s) " + names +
                   " of cluster " + cluster +
                   ", where no ResourceQuota is scoped to PriorityClass: a tenant can preempt other tenants' GPU "
                   "workloads",
               "add to each tenant namespace allowed to use it a ResourceQuota with spec.scopeSelector "
               "{matchExpressions: [{scopeName: PriorityClass, operator: In, values: [" + pc.meta.name +
                   "]}]} and the pods or GPUs it may hold, and list the class under the API server's ResourceQuota "
                   "admission limitedResources so namespaces without such a quota cannot use it");
    }
  }
}

}  // namespace

void AddOperationsRules(std::vector<Rule>& out) {
  out.push_back({"pdb-blocks-gpu-drain", Severity::kWarning, "operations",
                 "A PodDisruptionBudget over GPU pods allows no eviction",
                 {"PodDisruptionBudget", "Pod", "Node"}, CheckPdbBlocksGpuDrain});
  out.push_back({"gpu-node-cordoned", Severity::kInfo, "operations",
                 "A GPU node is cordoned (a warning after 24 hours)",
                 {"Node"}, CheckGpuNodeCordoned});
  out.push_back({"priority-class-global-default-high", Severity::kWarning, "operations",
                 "The globalDefault PriorityClass outranks classes workloads name",
                 {"PriorityClass"}, CheckPriorityClassGlobalDefaultHigh});
  out.push_back({"priority-unfenced", Severity::kWarning, "operations",
                 "Preempting PriorityClasses are usable by every tenant namespace",
                 {"PriorityClass", "ResourceQuota", "Pod"}, CheckPriorityUnfenced});
}

}  // namespace berth::diag::rules
