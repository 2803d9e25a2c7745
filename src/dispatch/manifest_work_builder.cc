#include "dispatch/manifest_work_builder.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "dispatch/flavor_injection.h"
#include "dispatch/kind_rules.h"
#include "dispatch/prefetch.h"
#include "dispatch/work_names.h"

namespace berth::dispatch {
namespace {

// The admission checks that send a workload to another cluster (DESIGN.md "Fleet wiring").
constexpr const char* kPlacementController = "open-cluster-management.io/placement";
constexpr const char* kMultiKueueController = "kueue.x-k8s.io/multikueue";

std::string WorkloadKey(const model::Workload& wl) {
  std::string key = wl.meta.namespace_;
  key += '/';
  key += wl.meta.name;
  return key;
}

const model::AdmissionCheck* FindCheck(const model::Snapshot& snapshot, const std::string& name,
                                       const std::string& cluster) {
  for (const auto& check : snapshot.admission_checks) {
    if (check.meta.name == name && check.cluster == cluster) return &check;
  }
  return nullptr;
}

// A ClusterQueue's check rule with onFlavors applies only to workloads assigned one of them.
bool AppliesTo(const model::AdmissionCheckRule& rule, const model::Admission& admission) {
  if (rule.on_flavors.empty()) return true;
  for (const auto& a : admission.pod_set_assignments) {
    for (const auto& [resource, flavor] : a.flavors) {
      if (std::find(rule.on_flavors.begin(), rule.on_flavors.end(), flavor) !=
          rule.on_flavors.end()) {
        return true;
      }
    }
  }
  return false;
}

// The check that placed the workload: the checks Kueue keeps a status for on the Workload
// come first (exactly those that apply to it); a Workload without statuses yet falls back
// to its ClusterQueue's list. Empty when none of them dispatches.
std::string DispatchingCheck(const model::Snapshot& snapshot, const model::Workload& wl,
                             const model::Admission* admission) {
  std::vector<std::string> names;
  for (const auto& status : wl.admission_checks) names.push_back(status.name);
  if (admission != nullptr) {
    for (const auto& cq : snapshot.cluster_queues) {
      if (cq.meta.name != admission->cluster_queue || cq.cluster != wl.cluster) continue;
      for (const auto& rule : cq.admission_checks) {
        if (AppliesTo(rule, *admission)) names.push_back(rule.name);
      }
    }
  }
  for (const std::string& name : names) {
    const model::AdmissionCheck* check = FindCheck(snapshot, name, wl.cluster);
    if (check != nullptr && (check->controller_name == kPlacementController ||
                             check->controller_name == kMultiKueueController)) {
      return name;
    }
  }
  return "";
}

// The parts every manifest gets, whatever its kind: identity, queue label, suspension and
// where it now lives.
model::ManifestPatch BaseManifest(const std::string& api_version, const std::string& kind,
                                  const model::ObjectMeta& meta, model::SourceRef source,
                                  const KindRules& rules, const DispatchTarget& target) {
  model::ManifestPatch patch;
  patch.source = source;
  patch.api_version = api_version;
  patch.kind = kind;
  patch.name = meta.name;
  patch.namespace_ = meta.namespace_;
  // With a worker queue the worker's Kueue admits the object again, so it must name that
  // queue and wait suspended; without one nothing would ever unsuspend it, and a queue
  // label would make a Kueue installed later hold it.
  patch.queue_name = target.worker_local_queue.value_or("");
  if (rules.suspendable) patch.suspend = target.worker_local_queue.has_value();
  if (meta.annotations.count(model::kClusterAnnotation) > 0) {
    patch.annotations[model::kClusterAnnotation] = target.cluster;
  }
  return patch;
}

void AddConfig(const model::ManifestPatch& patch, const KindRules& rules,
               model::ManifestWork* work) {
  if (rules.feedback_rules.empty() && !rules.suspendable) return;
  model::ManifestConfig config;
  config.resource =
      model::ResourceIdentifier{rules.group, rules.resource, patch.name, patch.namespace_};
  config.feedback_rules = rules.feedback_rules;
  // A batch job is created once: after that its suspend field and its pod template's
  // scheduling fields belong to the member cluster's Kueue (it unsuspends the job and injects
  // its flavor), and OCM's default Update strategy would put the work's copy back on every
  // resync, suspending a running job. A job's template is immutable anyway.
  if (rules.suspendable) config.update_strategy = "CreateOnly";
  work->manifest_configs.push_back(std::move(config));
}

const model::PodSetAssignment* FindAssignment(const model::Admission& admission,
                                              const std::string& pod_set) {
  for (const auto& a : admission.pod_set_assignments) {
    if (a.name == pod_set) return &a;
  }
  return nullptr;
}

model::ManifestPatch::TemplatePatch MakeTemplatePatch(
    std::string pod_set, const FlavorInjection& injection,
    const std::map<std::string, std::string>& topology) {
  model::ManifestPatch::TemplatePatch t;
  t.pod_set = std::move(pod_set);
  t.node_selector = injection.node_selector;
  // The ungater sets the level labels after the flavor's labels were merged in, so a level
  // value wins over a flavor label of the same key.
  for (const auto& [key, value] : topology) t.node_selector[key] = value;
  t.tolerations = injection.tolerations;
  return t;
}

bool IsEmpty(const model::ManifestPatch::TemplatePatch& t) {
  return t.node_selector.empty() && t.tolerations.empty() && t.annotations.empty();
}

core::Status AddJob(const model::Snapshot& snapshot, const model::Workload& wl,
                    const model::Admission* inject, const DispatchTarget& target,
                    model::ManifestWork* work) {
  const int32_t owner = *wl.owner_workload;
  if (owner < 0 || static_cast<size_t>(owner) >= snapshot.workloads.size()) {
    return core::FailedPrecondition("workload " + WorkloadKey(wl) + " names job index " +
                                    std::to_string(owner) + ", which the snapshot lacks");
  }
  const model::WorkloadObject& job = snapshot.workloads[static_cast<size_t>(owner)];
  if (!job.source.valid()) {
    return core::FailedPrecondition("job " + job.kind + " " + job.meta.namespace_ + "/" +
                                    job.meta.name + " of workload " + WorkloadKey(wl) +
                                    " has no document to send");
  }
  const KindRules rules = RulesForKind(job.api_version, job.kind);
  model::ManifestPatch patch =
      BaseManifest(job.api_version, job.kind, job.meta, job.source, rules, target);
  if (inject != nullptr) {
    for (const model::PodSetAssignment& a : inject->pod_set_assignments) {
      const FlavorInjection injection = InjectionFor(snapshot, wl.cluster, a);
      std::map<std::string, std::string> topology;
      if (a.topology_assignment) topology = SharedTopologySelector(*a.topology_assignment);
      auto t = MakeTemplatePatch(a.name, injection, topology);
      if (!IsEmpty(t)) patch.templates.push_back(std::move(t));
    }
  }
  AddConfig(patch, rules, work);
  work->manifests.push_back(std::move(patch));
  return core::OkStatus();
}

// A Workload without a job: Kueue's pod integration, one Pod per member (a pod group, or a
// single queued pod). Each pod is its own manifest, so each is pinned to its own domain.
void AddPods(const model::Snapshot& snapshot, const model::Workload& wl,
             const model::Admission* inject, const DispatchTarget& target,
             model::ManifestWork* work) {
  const KindRules rules = RulesForKind("v1", "Pod");
  for (size_t ps = 0; ps < wl.pods.size(); ++ps) {
    const std::string pod_set = ps < wl.pod_sets.size() ? wl.pod_sets[ps].name : "main";
    const model::PodSetAssignment* assignment =
        inject != nullptr ? FindAssignment(*inject, pod_set) : nullptr;
    FlavorInjection injection;
    if (assignment != nullptr) injection = InjectionFor(snapshot, wl.cluster, *assignment);
    for (size_t i = 0; i < wl.pods[ps].size(); ++i) {
      const int32_t index = wl.pods[ps][i];
      if (index < 0 || static_cast<size_t>(index) >= snapshot.pods.size()) continue;
      const model::Pod& pod = snapshot.pods[static_cast<size_t>(index)];
      if (!pod.source.valid()) continue;  // expanded from a template: nothing to send
      model::ManifestPatch patch = BaseManifest("v1", "Pod", pod.meta, pod.source, rules, target);
      if (assignment != nullptr) {
        std::map<std::string, std::string> topology;
        if (assignment->topology_assignment) {
          topology = PodTopologySelector(*assignment->topology_assignment, static_cast<int32_t>(i))
                         .value_or(std::map<std::string, std::string>{});
        }
        auto t = MakeTemplatePatch(pod_set, injection, topology);
        if (!IsEmpty(t)) patch.templates.push_back(std::move(t));
      }
      AddConfig(patch, rules, work);
      work->manifests.push_back(std::move(patch));
    }
  }
}

}  // namespace

core::Result<model::ManifestWork> BuildManifestWork(const model::Snapshot& snapshot,
                                                    const DispatchTarget& target) {
  if (target.workload < 0 ||
      static_cast<size_t>(target.workload) >= snapshot.kueue_workloads.size()) {
    return core::InvalidArgument("dispatch target names workload index " +
                                 std::to_string(target.workload) + " of " +
                                 std::to_string(snapshot.kueue_workloads.size()));
  }
  const model::Workload& wl = snapshot.kueue_workloads[static_cast<size_t>(target.workload)];
  if (target.cluster.empty()) {
    return core::InvalidArgument("no cluster to dispatch workload " + WorkloadKey(wl) + " to");
  }
  const model::Admission* admission = target.admission != nullptr
                                          ? target.admission
                                          : (wl.admission.has_value() ? &*wl.admission : nullptr);
  // Only a cluster without Kueue needs the hub's admission written into the pods.
  const model::Admission* inject = target.worker_local_queue.has_value() ? nullptr : admission;
  if (!target.worker_local_queue.has_value() && admission == nullptr) {
    return core::FailedPrecondition("workload " + WorkloadKey(wl) +
                                    " has no admission, and cluster " + target.cluster +
                                    " runs no queue that could admit it");
  }

  model::ManifestWork work;
  work.meta.name = ManifestWorkName(wl);
  work.meta.namespace_ = target.cluster;
  work.meta.labels[model::kWorkloadLabel] = WorkloadLabelValue(wl);
  const std::string check = DispatchingCheck(snapshot, wl, admission);
  if (!check.empty()) {
    work.meta.labels[model::kWorkloadClusterLabel] = BoundedName(check, kMaxLabelValueLength);
  }
  work.created = true;
  work.cluster = wl.cluster;

  // The prefetches first: the work agent applies them with the job, and the cache warms
  // while the job's pods are created and scheduled.
  for (model::DataLoad& load : Prefetches(snapshot, wl, target.cluster)) {
    model::ManifestPatch patch;
    patch.api_version = "data.fluid.io/v1alpha1";
    patch.kind = "DataLoad";
    patch.name = load.meta.name;
    patch.namespace_ = load.meta.namespace_;
    patch.data_load = std::move(load);
    AddConfig(patch, RulesForKind(patch.api_version, patch.kind), &work);
    work.manifests.push_back(std::move(patch));
  }
  if (wl.owner_workload.has_value()) {
    core::Status added = AddJob(snapshot, wl, inject, target, &work);
    if (!added.ok()) return std::move(added).error();
  } else {
    AddPods(snapshot, wl, inject, target, &work);
  }
  if (work.manifests.empty()) {
    return core::FailedPrecondition("workload " + WorkloadKey(wl) +
                                    " has neither a job nor pods of the input to dispatch");
  }
  return work;
}

}  // namespace berth::dispatch
