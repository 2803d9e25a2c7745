// Why expansion writes a whole Pod document: writers patch decisions into each pod's
// document, so expanded pods need one too, and they should look like what the controller
// would create (owner reference, controller labels, the template's spec).
#include "io/internal/expand.h"

#include <exception>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

#include "io/internal/created_json.h"
#include "io/internal/kind_table.h"
#include "model/kind_info.h"

namespace berth::io::internal {

namespace {

using OrderedJson = nlohmann::ordered_json;

// Built-in classes every cluster has (pkg/apis/scheduling: SystemCriticalPriority + 1000).
constexpr int32_t kSystemClusterCritical = 2000000000;
constexpr int32_t kSystemNodeCritical = 2000001000;

// The row's pod naming; a workload built without a row (a test's) is named as a Deployment's.
PodIdentityFn PodIdentityOf(const model::WorkloadObject& workload) {
  const KindRow* row = FindKindRow(model::ApiGroupOf(workload.api_version), workload.kind);
  return row != nullptr && row->pod_identity != nullptr ? row->pod_identity : ReplicaPodIdentity;
}

// The complete v1 Pod an expanded pod is written as.
std::string PodDocument(const model::Pod& pod, const model::WorkloadObject& w,
                        const OrderedJson& tmpl) {
  OrderedJson doc = OrderedJson::object();
  doc["apiVersion"] = "v1";
  doc["kind"] = "Pod";
  OrderedJson md = CreatedMetadataJson(pod.meta);
  md["ownerReferences"] = OrderedJson::array(
      {OwnerRefJson(w.api_version, w.kind, w.meta.name, w.meta.uid, /*controller=*/true)});
  doc["metadata"] = std::move(md);
  auto spec = tmpl.find("spec");
  doc["spec"] = spec != tmpl.end() ? *spec : OrderedJson::object();
  // A scheduler the controller sets when the template names none (Volcano's Job: its
  // spec.schedulerName) is in the pod as it creates it.
  if (pod.scheduler_name != "default-scheduler" && doc["spec"].is_object() &&
      !doc["spec"].contains("schedulerName")) {
    doc["spec"]["schedulerName"] = pod.scheduler_name;
  }
  doc["status"] = OrderedJson::object({{"phase", "Pending"}});
  return doc.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

// What the Job controller puts on a Job's pods: the job-name labels and, in an Indexed Job,
// the completion index (label and annotation).
void AddJobPodLabels(const std::string& job_name, bool indexed, const std::string& index,
                     PodIdentity* id) {
  id->labels["batch.kubernetes.io/job-name"] = job_name;
  id->labels["job-name"] = job_name;
  if (indexed) {
    id->labels["batch.kubernetes.io/job-completion-index"] = index;
    id->annotations["batch.kubernetes.io/job-completion-index"] = index;
  }
}

}  // namespace

PodIdentity ReplicaPodIdentity(const model::WorkloadObject& workload,
                               const model::PodSetTemplate& /*set*/, const PodSetSource& /*source*/,
                               int32_t /*index_in_set*/, int32_t index) {
  PodIdentity id;
  id.name = workload.meta.name + "-" + std::to_string(index);
  return id;
}

PodIdentity JobPodIdentity(const model::WorkloadObject& w, const model::PodSetTemplate& set,
                           const PodSetSource& source, int32_t index_in_set, int32_t index) {
  PodIdentity id = ReplicaPodIdentity(w, set, source, index_in_set, index);
  AddJobPodLabels(w.meta.name, source.indexed, std::to_string(index_in_set), &id);
  if (!w.meta.uid.empty()) {
    id.labels["batch.kubernetes.io/controller-uid"] = w.meta.uid;
    id.labels["controller-uid"] = w.meta.uid;
  }
  return id;
}

PodIdentity StatefulSetPodIdentity(const model::WorkloadObject& w, const model::PodSetTemplate& set,
                                   const PodSetSource& source, int32_t index_in_set,
                                   int32_t index) {
  PodIdentity id = ReplicaPodIdentity(w, set, source, index_in_set, index);
  id.labels["statefulset.kubernetes.io/pod-name"] = id.name;
  id.labels["apps.kubernetes.io/pod-index"] = std::to_string(index_in_set);
  return id;
}

PodIdentity JobSetPodIdentity(const model::WorkloadObject& w, const model::PodSetTemplate& set,
                              const PodSetSource& source, int32_t index_in_set, int32_t /*index*/) {
  PodIdentity id;
  const std::string& wname = w.meta.name;
  int32_t per_job = source.pods_per_group > 0 ? source.pods_per_group : 1;
  std::string job = std::to_string(index_in_set / per_job);
  std::string pod = std::to_string(index_in_set % per_job);
  std::string job_name = wname + "-" + set.name + "-" + job;
  id.name = job_name + "-" + pod;
  id.labels["jobset.sigs.k8s.io/jobset-name"] = wname;
  id.labels["jobset.sigs.k8s.io/replicatedjob-name"] = set.name;
  id.labels["jobset.sigs.k8s.io/job-index"] = job;
  AddJobPodLabels(job_name, source.indexed, pod, &id);
  return id;
}

PodIdentity PyTorchJobPodIdentity(const model::WorkloadObject& w, const model::PodSetTemplate& set,
                                  const PodSetSource& source, int32_t index_in_set, int32_t index) {
  PodIdentity id = ReplicaPodIdentity(w, set, source, index_in_set, index);
  id.labels["training.kubeflow.org/job-name"] = w.meta.name;
  id.labels["training.kubeflow.org/operator-name"] = "pytorchjob-controller";
  id.labels["training.kubeflow.org/replica-type"] = set.name;
  id.labels["training.kubeflow.org/replica-index"] = std::to_string(index_in_set);
  if (set.name == "master") id.labels["training.kubeflow.org/job-role"] = "master";
  return id;
}

PodIdentity LeaderWorkerSetPodIdentity(const model::WorkloadObject& w,
                                       const model::PodSetTemplate& set, const PodSetSource& source,
                                       int32_t index_in_set, int32_t index) {
  PodIdentity id = ReplicaPodIdentity(w, set, source, index_in_set, index);
  int32_t per_group = source.pods_per_group > 0 ? source.pods_per_group : 1;
  bool leader = set.name == "leader";
  id.labels["leaderworkerset.sigs.k8s.io/name"] = w.meta.name;
  id.labels["leaderworkerset.sigs.k8s.io/group-index"] = std::to_string(index_in_set / per_group);
  id.labels["leaderworkerset.sigs.k8s.io/worker-index"] =
      leader ? "0" : std::to_string(index_in_set % per_group + 1);
  return id;
}

PodIdentity MPIJobPodIdentity(const model::WorkloadObject& w, const model::PodSetTemplate& set,
                              const PodSetSource& /*source*/, int32_t index_in_set,
                              int32_t /*index*/) {
  PodIdentity id;
  const bool launcher = set.name == "launcher";
  id.name = w.meta.name + (launcher ? "-launcher" : "-worker-" + std::to_string(index_in_set));
  id.labels["training.kubeflow.org/operator-name"] = "mpi-operator";
  id.labels["training.kubeflow.org/job-name"] = w.meta.name;
  id.labels["training.kubeflow.org/job-role"] = launcher ? "launcher" : "worker";
  if (!launcher) id.labels["training.kubeflow.org/replica-index"] = std::to_string(index_in_set);
  return id;
}

PodIdentity RayPodIdentity(const model::WorkloadObject& w, const model::PodSetTemplate& set,
                           const PodSetSource& /*source*/, int32_t index_in_set,
                           int32_t /*index*/) {
  PodIdentity id;
  const core::Labels& labels = set.pod_template.meta.labels;
  const auto label = [&](const char* key, const std::string& otherwise) {
    auto it = labels.find(key);
    return it == labels.end() ? otherwise : it->second;
  };
  if (set.name == "submitter") {
    // KubeRay's submitter Job is named after the RayJob; its pod after that Job.
    id.name = w.meta.name + "-submitter";
    id.labels["batch.kubernetes.io/job-name"] = w.meta.name;
    id.labels["job-name"] = w.meta.name;
    return id;
  }
  // The RayCluster's name and the group's, which the decoder put on the template.
  const bool head = set.name == "head";
  const std::string cluster = label("ray.io/cluster", w.meta.name);
  const std::string group = label("ray.io/group", set.name);
  // KubeRay lowercases the whole name (utils.PodName).
  id.name =
      head ? cluster + "-head" : cluster + "-" + group + "-worker-" + std::to_string(index_in_set);
  for (char& c : id.name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  id.labels["ray.io/cluster"] = cluster;
  id.labels["ray.io/node-type"] = head ? "head" : "worker";
  id.labels["ray.io/group"] = head ? "headgroup" : group;
  id.labels["ray.io/identifier"] = cluster + (head ? "-head" : "-worker");
  id.labels["ray.io/is-ray-node"] = "yes";
  id.labels["app.kubernetes.io/created-by"] = "kuberay-operator";
  id.labels["app.kubernetes.io/name"] = "kuberay";
  return id;
}

std::string VolcanoPodGroupName(const model::WorkloadObject& w) {
  return w.meta.uid.empty() ? w.meta.name : w.meta.name + "-" + w.meta.uid;
}

PodIdentity VolcanoJobPodIdentity(const model::WorkloadObject& w, const model::PodSetTemplate& set,
                                  const PodSetSource& source, int32_t index_in_set,
                                  int32_t /*index*/) {
  PodIdentity id;
  const std::string index = std::to_string(index_in_set);
  id.name = w.meta.name + "-" + set.name + "-" + index;
  id.labels["volcano.sh/job-name"] = w.meta.name;
  id.labels["volcano.sh/job-namespace"] = w.meta.namespace_;
  id.labels["volcano.sh/task-spec"] = set.name;
  id.labels["volcano.sh/task-index"] = index;
  id.annotations["scheduling.k8s.io/group-name"] = VolcanoPodGroupName(w);
  id.annotations["volcano.sh/job-name"] = w.meta.name;
  id.annotations["volcano.sh/task-spec"] = set.name;
  id.annotations["volcano.sh/task-index"] = index;
  // The Job's queue, as label and annotation: Volcano's controller writes both
  // (createJobPod); the scheduler reads the PodGroup's spec.queue.
  if (!source.queue.empty()) {
    id.labels["volcano.sh/queue-name"] = source.queue;
    id.annotations["volcano.sh/queue-name"] = source.queue;
  }
  return id;
}

PriorityResolver::PriorityResolver(const std::vector<model::PriorityClass>& classes) {
  values_["system-cluster-critical"] = kSystemClusterCritical;
  values_["system-node-critical"] = kSystemNodeCritical;
  for (const model::PriorityClass& pc : classes) {
    values_[pc.meta.name] = pc.value;
    policies_[pc.meta.name] = pc.preemption_policy;
    // Several global defaults only happen by a race; upstream then takes the lowest value.
    if (pc.global_default &&
        (global_default_ == nullptr || pc.value < global_default_->value ||
         (pc.value == global_default_->value && pc.meta.name < global_default_->meta.name))) {
      global_default_ = &pc;
    }
  }
}

void PriorityResolver::ResolvePreemptionPolicy(model::Pod* pod) const {
  if (!pod->preemption_policy.empty()) return;
  auto it = policies_.find(pod->priority_class_name);
  pod->preemption_policy =
      it != policies_.end() && !it->second.empty() ? it->second : "PreemptLowerPriority";
}

core::Status PriorityResolver::Resolve(model::Pod* pod, bool has_priority) const {
  core::Status status = ResolvePriority(pod, has_priority);
  ResolvePreemptionPolicy(pod);
  return status;
}

core::Status PriorityResolver::ResolvePriority(model::Pod* pod, bool has_priority) const {
  if (has_priority) return core::OkStatus();
  if (!pod->priority_class_name.empty()) {
    auto it = values_.find(pod->priority_class_name);
    if (it == values_.end()) {
      return core::NotFound("no PriorityClass with name " + pod->priority_class_name + " was found",
                            core::Location{"", "", "spec.priorityClassName"});
    }
    pod->priority = it->second;
    return core::OkStatus();
  }
  if (global_default_ != nullptr) {
    pod->priority = global_default_->value;
    pod->priority_class_name = global_default_->meta.name;
    return core::OkStatus();
  }
  pod->priority = 0;
  return core::OkStatus();
}

std::string PodKey(const model::Pod& pod) {
  std::string key = pod.cluster;
  key += '\x1f';
  key += pod.meta.namespace_;
  key += '\x1f';
  key += pod.meta.name;
  return key;
}

void ExpandWorkload(const model::WorkloadObject& workload, const std::vector<PodSetSource>& sources,
                    const std::string& file, std::unordered_map<std::string, int32_t>* existing,
                    model::Snapshot* snapshot, DocumentStore* documents,
                    std::vector<std::vector<int32_t>>* pod_indices, const ExistingPods* owned) {
  if (pod_indices != nullptr) pod_indices->assign(workload.pod_sets.size(), {});
  const PodIdentityFn identify = PodIdentityOf(workload);
  int32_t offset = 0;  // pods of the sets before this one
  for (size_t s = 0; s < workload.pod_sets.size(); ++s) {
    const model::PodSetTemplate& set = workload.pod_sets[s];
    const PodSetSource& source = sources[s];
    const int32_t set_offset = offset;
    offset += set.count;
    if (owned != nullptr && pod_indices != nullptr) (*pod_indices)[s] = owned->live[s];
    const int32_t to_make =
        owned != nullptr ? static_cast<int32_t>(owned->missing[s].size()) : set.count;
    if (to_make == 0) continue;
    // The template came out of simdjson, so it parses; discard() keeps this path
    // exception-free should it ever not.
    OrderedJson tmpl =
        OrderedJson::parse(source.template_json, nullptr, /*allow_exceptions=*/false);
    if (tmpl.is_discarded()) tmpl = OrderedJson::object();
    for (int32_t k = 0; k < to_make; ++k) {
      const int32_t i = owned != nullptr ? owned->missing[s][static_cast<size_t>(k)] : k;
      PodIdentity id = identify(workload, set, source, i, set_offset + i);
      model::Pod pod = set.pod_template;
      pod.meta.name = std::move(id.name);
      for (auto& [key, v] : id.labels) pod.meta.labels.insert_or_assign(key, std::move(v));
      for (auto& [key, v] : id.annotations) {
        pod.meta.annotations.insert_or_assign(key, std::move(v));
      }
      auto [it, added] =
          existing->emplace(PodKey(pod), static_cast<int32_t>(snapshot->pods.size()));
      if (pod_indices != nullptr) (*pod_indices)[s].push_back(it->second);
      if (!added) continue;
      pod.source = documents->Add(
          CreatedDocument(file, "v1", "Pod", pod.meta, PodDocument(pod, workload, tmpl)));
      pod.created_from_template = true;
      snapshot->pods.push_back(std::move(pod));
    }
  }
}

}  // namespace berth::io::internal
