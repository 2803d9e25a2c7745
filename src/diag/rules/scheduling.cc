// Scheduling rules: what leaves a pod unschedulable on every node of its cluster whatever
// else runs there (taints, selectors, sizes, spread keys), and multi-pod GPU training with no
// gang mechanism. Each check reads the pod specs once and the context's node indexes.
#include <string>

#include "core/quantity.h"
#include "diag/doctor_context.h"
#include "diag/rules/rules.h"
#include "model/pod_requests.h"

namespace berth::diag::rules {

namespace {

std::string TaintText(const core::Taint& t) {
  std::string s = t.key;
  if (!t.value.empty()) s += "=" + t.value;
  return s + ":" + core::TaintEffectName(t.effect);
}

bool IsHard(const core::Taint& t) { return t.effect != core::TaintEffect::kPreferNoSchedule; }

// A GPU pod spec no GPU node of its cluster lets in: every GPU node class carries a hard
// taint the spec does not tolerate. The message names the taints (usually one).
void CheckGpuTaintNotTolerated(const DoctorContext& ctx, FindingSink& sink) {
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    if (ctx.PodGpuRequest(*spec.spec) == 0) continue;
    const std::vector<TaintClass>& classes = ctx.TaintClassesOf(spec.spec->cluster);
    bool any_gpu = false, admitted = false;
    std::string blocking;
    for (const TaintClass& c : classes) {
      if (c.gpu_nodes == 0) continue;
      any_gpu = true;
      const core::Taint* t = core::FindUntoleratedHardTaint(c.taints, spec.spec->tolerations);
      // Lifecycle taints (cordoned, not-ready) come and go: they do not make a pod wrong.
      if (t == nullptr || t->key.starts_with("node.kubernetes.io/")) {
        admitted = true;
        break;
      }
      const std::string text = TaintText(*t);
      if (blocking.find(text) == std::string::npos) blocking += (blocking.empty() ? "" : ", ") + text;
    }
    if (!any_gpu || admitted) continue;
    sink.Add(spec.object, spec.Field("tolerations"),
             "requests GPUs but tolerates no taint of the GPU nodes of cluster " + spec.spec->cluster +
                 " (" + blocking + "): it can never be scheduled",
             "add a toleration for " + blocking +
                 " to the pod template (or enable the ExtendedResourceToleration admission plugin "
                 "and taint GPU nodes with the GPU resource name as key)");
  }
}

// A taint on GPU nodes that no GPU pod spec of the cluster tolerates: the nodes idle.
void CheckGpuNodeTaintUntolerated(const DoctorContext& ctx, FindingSink& sink) {
  for (const std::string& cluster : ctx.clusters()) {
    std::vector<const DoctorContext::PodSpecRef*> gpu_specs;
    for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
      if (spec.spec->cluster == cluster && ctx.PodGpuRequest(*spec.spec) > 0) gpu_specs.push_back(&spec);
    }
    if (gpu_specs.empty()) continue;
    for (const TaintClass& c : ctx.TaintClassesOf(cluster)) {
      if (c.gpu_nodes == 0) continue;
      for (const core::Taint& taint : c.taints) {
        if (!IsHard(taint) || taint.key.starts_with("node.kubernetes.io/")) continue;
        bool tolerated = false;
        for (const DoctorContext::PodSpecRef* spec : gpu_specs) {
          if (core::TolerationsTolerate(spec->spec->tolerations, taint)) {
            tolerated = true;
            break;
          }
        }
        if (tolerated) continue;
        const model::Node& node = ctx.snapshot().node(c.nodes.front());
        sink.Add(RefOf(node, "v1", "Node"), "spec.taints",
                 "taint " + TaintText(taint) + " is on " + std::to_string(c.gpu_nodes) +
                     " GPU node(s) of cluster " + cluster + " and no GPU workload there tolerates it",
                 "tolerate the taint in the GPU workloads, or key the taint by the GPU resource name "
                 "(nvidia.com/gpu) so the ExtendedResourceToleration admission plugin adds the "
                 "toleration");
        break;
      }
    }
  }
}

// nodeSelector and required node affinity that no node of the cluster satisfies.
void CheckSelectorMatchesNothing(const DoctorContext& ctx, FindingSink& sink) {
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    const model::Pod& pod = *spec.spec;
    if (!pod.node_name.empty()) continue;  // already bound: its node was chosen
    if (pod.node_selector.empty() && !pod.node_affinity.required.has_value()) continue;
    if (ctx.NodesOf(pod.cluster).empty()) continue;
    if (ctx.AnyNodeMatches(pod.cluster, pod.node_selector, pod.node_affinity.required)) continue;
    // Name the first selector pair no node carries, when there is one.
    std::string detail;
    for (const auto& [key, value] : pod.node_selector) {
      if (ctx.NodesWithLabel(pod.cluster, key, value).empty()) {
        detail = "no node is labelled " + key + "=" + value;
        break;
      }
    }
    if (detail.empty()) detail = "no node satisfies all of its node selector terms together";
    const bool on_selector = !pod.node_selector.empty();
    sink.Add(spec.object, spec.Field(on_selector ? "nodeSelector" : "affinity.nodeAffinity"),
             "node selection matches no node of cluster " + pod.cluster + ": " + detail,
             "use label values the nodes carry (kubectl get nodes -L <key>), or label the intended nodes");
  }
}

// A request larger than the largest allocatable of that resource on any node.
void CheckRequestExceedsEveryNode(const DoctorContext& ctx, FindingSink& sink) {
  const model::ResourceCatalog& catalog = ctx.snapshot().resources;
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    const model::Pod& pod = *spec.spec;
    if (ctx.NodesOf(pod.cluster).empty()) continue;
    const model::ResourceVector requests = model::PodRequests(pod);
    const model::ResourceVector& largest = ctx.MaxAllocatable(pod.cluster);
    for (size_t r = 0; r < requests.size(); ++r) {
      const model::ResourceId id{static_cast<uint16_t>(r)};
      const int64_t want = requests.Get(id);
      if (want <= 0 || id == model::kPods || want <= largest.Get(id)) continue;
      const std::string& name = catalog.Name(id);
      sink.Add(spec.object, spec.Field("containers"),
               "requests " + model::AmountQuantity(name, want).ToString() + " " + name +
                   " but the largest node of cluster " + pod.cluster + " has " +
                   model::AmountQuantity(name, largest.Get(id)).ToString() +
                   " allocatable: it fits no node",
               "lower the request to at most " + model::AmountQuantity(name, largest.Get(id)).ToString() +
                   ", split the work across more pods, or add larger nodes");
      break;
    }
  }
}

// A DoNotSchedule spread constraint over a label no node carries: the pod is unschedulable
// (upstream: nodes without the key are not candidates). ScheduleAnyway only loses spreading.
void CheckSpreadKeyMissing(const DoctorContext& ctx, FindingSink& sink) {
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    const model::Pod& pod = *spec.spec;
    if (ctx.NodesOf(pod.cluster).empty()) continue;
    for (size_t i = 0; i < pod.topology_spread_constraints.size(); ++i) {
      const model::TopologySpreadConstraint& c = pod.topology_spread_constraints[i];
      if (!ctx.NodesWithKey(pod.cluster, c.topology_key).empty()) continue;
      const bool hard = c.when_unsatisfiable == model::UnsatisfiableAction::kDoNotSchedule;
      sink.AddAt(hard ? Severity::kError : Severity::kWarning, spec.object,
                 spec.Field("topologySpreadConstraints[" + std::to_string(i) + "].topologyKey"),
                 "spreads over label " + c.topology_key + " which no node of cluster " + pod.cluster +
                     " carries" + (hard ? ": the pod can never be scheduled" : ": spreading has no effect"),
                 "use a key the nodes carry (topology.kubernetes.io/zone, kubernetes.io/hostname) or label "
                 "the nodes");
    }
  }
}

// Kinds whose pods only make progress together. A plain Job's pods are independent (an
// Indexed Job may be a gang, but only its code knows), so Jobs are not judged.
bool IsGangKind(std::string_view kind) {
  return kind == "JobSet" || kind == "PyTorchJob" || kind == "MPIJob" || kind == "LeaderWorkerSet" ||
         kind == "RayCluster" || kind == "RayJob";
}

// Multi-pod GPU training started by the default scheduler with neither Kueue nor a PodGroup:
// its pods start one by one and two such jobs can each hold part of the GPUs forever.
void CheckGangWithoutGangScheduling(const DoctorContext& ctx, FindingSink& sink) {
  for (const model::WorkloadObject& w : ctx.snapshot().workloads) {
    if (!IsGangKind(w.kind) || w.owner.has_value()) continue;
    int64_t gpu_pods = 0;
    bool gang = false;
    for (const model::PodSetTemplate& set : w.pod_sets) {
      const model::Pod& t = set.pod_template;
      if (ctx.PodGpuRequest(t) > 0) gpu_pods += set.count;
      if (t.scheduler_name != "default-scheduler") gang = true;  // volcano, kai-scheduler, ...
      if (t.meta.labels.contains("scheduling.x-k8s.io/pod-group") ||
          t.meta.annotations.contains("scheduling.k8s.io/group-name")) {
        gang = true;
      }
    }
    if (gpu_pods < 2 || gang) continue;
    if (w.meta.labels.contains("kueue.x-k8s.io/queue-name")) continue;
    sink.Add(RefOf(w, w.api_version, w.kind), "metadata.labels",
             std::to_string(gpu_pods) + " GPU pods must run together, but nothing schedules them as a "
                 "gang (no kueue.x-k8s.io/queue-name label, no PodGroup, default scheduler): pods start "
                 "piecemeal and jobs can deadlock holding part of the GPUs",
             "queue it with Kueue (label kueue.x-k8s.io/queue-name, waitForPodsReady on) or give its pods "
             "a PodGroup with minMember " + std::to_string(gpu_pods));
  }
}

}  // namespace

void AddSchedulingRules(std::vector<Rule>& out) {
  out.push_back({"gpu-taint-not-tolerated", Severity::kError, "scheduling",
                 "A GPU workload tolerates no taint of its cluster's GPU nodes",
                 {"Node", "Pod"}, CheckGpuTaintNotTolerated});
  out.push_back({"gpu-node-taint-untolerated", Severity::kWarning, "scheduling",
                 "GPU nodes carry a taint no GPU workload tolerates",
                 {"Node", "Pod"}, CheckGpuNodeTaintUntolerated});
  out.push_back({"node-selector-matches-nothing", Severity::kError, "scheduling",
                 "A nodeSelector or required node affinity matches no node",
                 {"Node", "Pod"}, CheckSelectorMatchesNothing});
  out.push_back({"request-exceeds-every-node", Severity::kError, "scheduling",
                 "A pod requests more of a resource than any node has allocatable",
                 {"Node", "Pod"}, CheckRequestExceedsEveryNode});
  out.push_back({"spread-key-missing", Severity::kError, "scheduling",
                 "A topology spread constraint uses a label no node carries",
                 {"Node", "Pod"}, CheckSpreadKeyMissing});
  out.push_back({"gang-without-gang-scheduling", Severity::kWarning, "scheduling",
                 "Multi-pod GPU training with neither Kueue nor a PodGroup",
                 {"Pod", "PodGroup"}, CheckGangWithoutGangScheduling});
}

}  // namespace berth::diag::rules
