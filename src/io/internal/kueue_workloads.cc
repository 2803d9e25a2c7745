// Why a created Workload gets a whole document: writers patch decisions into documents, and
// a Workload Kueue would create should print as one (kueue.x-k8s.io/v1beta2, its owner
// reference, the job's pod templates byte for byte as read). Field order follows the Go
// structs (WorkloadSpec: podSets, queueName, priorityClassRef, priority, active).
#include "io/internal/kueue_workloads.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

#include "core/ascii.h"
#include "io/internal/created_json.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

namespace {

using OrderedJson = nlohmann::ordered_json;

// A positive decimal integer annotation value, else an error naming `field`.
core::Result<int32_t> PositiveInt(const std::string& value, const std::string& field) {
  bool ok = !value.empty() && value.size() <= 10;
  for (char c : value) ok = ok && c >= '0' && c <= '9';
  int64_t v = ok ? std::stoll(value) : 0;
  if (!ok || v < 1 || v > 2147483647) {
    return FieldError(field, "invalid value " + core::Quote(value) + ": must be a positive integer");
  }
  return static_cast<int32_t>(v);
}

OrderedJson ParseOrEmpty(const std::string& json) {
  OrderedJson out = OrderedJson::parse(json, nullptr, /*allow_exceptions=*/false);
  return out.is_discarded() ? OrderedJson::object() : out;
}

OrderedJson TopologyRequestJson(const model::TopologyRequest& tr) {
  OrderedJson out = OrderedJson::object();
  if (!tr.required.empty()) out["required"] = tr.required;
  if (!tr.preferred.empty()) out["preferred"] = tr.preferred;
  if (tr.unconstrained) out["unconstrained"] = true;
  if (!tr.pod_set_group_name.empty()) out["podSetGroupName"] = tr.pod_set_group_name;
  if (!tr.slice_required_topology.empty()) {
    out["podSetSliceRequiredTopology"] = tr.slice_required_topology;
  }
  if (tr.slice_size.has_value()) out["podSetSliceSize"] = *tr.slice_size;
  return out;
}

// The v1beta2 Workload document of a created Workload (status is left to the writer).
std::string WorkloadDocument(const model::Workload& wl, const OrderedJson& owner_refs,
                             const std::vector<OrderedJson>& templates) {
  OrderedJson doc = OrderedJson::object();
  doc["apiVersion"] = "kueue.x-k8s.io/v1beta2";
  doc["kind"] = "Workload";
  OrderedJson md = CreatedMetadataJson(wl.meta);
  if (!owner_refs.empty()) md["ownerReferences"] = owner_refs;
  doc["metadata"] = std::move(md);
  OrderedJson spec = OrderedJson::object();
  OrderedJson pod_sets = OrderedJson::array();
  for (size_t s = 0; s < wl.pod_sets.size(); ++s) {
    const model::KueuePodSet& set = wl.pod_sets[s];
    OrderedJson ps = OrderedJson::object();
    ps["name"] = set.name;
    ps["template"] = s < templates.size() ? templates[s] : OrderedJson::object();
    ps["count"] = set.count;
    if (set.min_count.has_value()) ps["minCount"] = *set.min_count;
    if (!set.topology_request.empty() || !set.topology_request.pod_set_group_name.empty()) {
      ps["topologyRequest"] = TopologyRequestJson(set.topology_request);
    }
    pod_sets.push_back(std::move(ps));
  }
  spec["podSets"] = std::move(pod_sets);
  spec["queueName"] = wl.queue_name;
  if (!wl.priority_class_name.empty()) {
    bool wpc = wl.priority_class_source == model::kWorkloadPriorityClassSource;
    OrderedJson ref = OrderedJson::object();
    ref["group"] = wpc ? "kueue.x-k8s.io" : "scheduling.k8s.io";
    ref["kind"] = wpc ? "WorkloadPriorityClass" : "PriorityClass";
    ref["name"] = wl.priority_class_name;
    spec["priorityClassRef"] = std::move(ref);
  }
  spec["priority"] = wl.priority;
  spec["active"] = wl.active;
  doc["spec"] = std::move(spec);
  return doc.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

// The pod template Kueue's pod integration builds from a pod: its labels, annotations and
// spec, taken from the pod's document.
OrderedJson PodTemplateJson(const model::Pod& pod, const DocumentStore& documents) {
  OrderedJson tmpl = OrderedJson::object();
  OrderedJson doc =
      pod.source.valid() ? ParseOrEmpty(documents.Get(pod.source).json) : OrderedJson::object();
  OrderedJson md = OrderedJson::object();
  if (auto it = doc.find("metadata"); it != doc.end() && it->is_object()) {
    for (const char* key : {"labels", "annotations"}) {
      if (auto f = it->find(key); f != it->end()) md[key] = *f;
    }
  }
  tmpl["metadata"] = std::move(md);
  auto spec = doc.find("spec");
  tmpl["spec"] = spec != doc.end() ? *spec : OrderedJson::object();
  return tmpl;
}

}  // namespace

bool IsQueued(const core::Labels& labels) {
  auto it = labels.find(kQueueNameLabel);
  return it != labels.end() && !it->second.empty();
}

WorkloadCreator::WorkloadCreator(model::Snapshot* snapshot, DocumentStore* documents,
                                 const PriorityResolver& priorities)
    : snap_(*snapshot), documents_(*documents), priorities_(priorities) {
  for (size_t i = 0; i < snap_.kueue_workloads.size(); ++i) {
    const model::Workload& wl = snap_.kueue_workloads[i];
    given_.emplace(ObjectKey(wl.cluster, wl.meta.namespace_, wl.meta.name), i);
    std::string job_uid = wl.owner.has_value() ? wl.owner->uid : std::string();
    if (job_uid.empty()) {
      auto it = wl.meta.labels.find("kueue.x-k8s.io/job-uid");
      if (it != wl.meta.labels.end()) job_uid = it->second;
    }
    if (!job_uid.empty()) given_by_job_.emplace(wl.cluster + '\x1f' + job_uid, i);
  }
}

core::Status WorkloadCreator::ResolvePriority(const core::Labels& owner_labels,
                                              const std::string& cluster,
                                              const model::Pod& first_template,
                                              model::Workload* wl) const {
  if (auto it = owner_labels.find(kPriorityClassLabel); it != owner_labels.end()) {
    for (const model::WorkloadPriorityClass& wpc : snap_.workload_priority_classes) {
      if (wpc.meta.name == it->second && wpc.cluster == cluster) {
        wl->priority = wpc.value;
        wl->priority_class_name = wpc.meta.name;
        wl->priority_class_source = model::kWorkloadPriorityClassSource;
        return core::OkStatus();
      }
    }
    return core::NotFound("no WorkloadPriorityClass with name " + it->second + " was found",
                          core::Location{"", "", KeyField("metadata.labels", kPriorityClassLabel)});
  }
  // The pod's PriorityClass (or the global default), ignoring any spec.priority: Kueue
  // reads the class, not the pod's number.
  model::Pod probe;
  probe.priority_class_name = first_template.priority_class_name;
  BERTH_RETURN_IF_ERROR(priorities_.Resolve(&probe, /*has_priority=*/false));
  wl->priority = probe.priority;
  wl->priority_class_name = probe.priority_class_name;
  wl->priority_class_source =
      probe.priority_class_name.empty() ? "" : model::kPodPriorityClassSource;
  return core::OkStatus();
}

core::Result<model::Workload> WorkloadCreator::ForJob(
    const model::WorkloadObject& job, const std::vector<PodSetSource>& sources) const {
  model::Workload wl;
  wl.meta.name = core::AsciiLower(job.kind) + "-" + job.meta.name;
  wl.meta.namespace_ = job.meta.namespace_;
  wl.meta.creation_timestamp = job.meta.creation_timestamp;
  wl.queue_name = job.meta.labels.at(kQueueNameLabel);
  wl.meta.labels[kQueueNameLabel] = wl.queue_name;
  // Kueue labels a job's Workload with the job's UID (preemption messages quote it).
  if (!job.meta.uid.empty()) wl.meta.labels["kueue.x-k8s.io/job-uid"] = job.meta.uid;
  if (auto it = job.meta.annotations.find(model::kClusterAnnotation);
      it != job.meta.annotations.end()) {
    wl.meta.annotations[model::kClusterAnnotation] = it->second;
  }
  wl.cluster = job.cluster;
  wl.created = true;
  for (size_t s = 0; s < job.pod_sets.size(); ++s) {
    const model::PodSetTemplate& set = job.pod_sets[s];
    model::KueuePodSet ps;
    ps.name = set.name;
    ps.count = set.count;
    ps.pod_template = set.pod_template;
    auto tr = TopologyRequestFromAnnotations(set.pod_template.meta.annotations);
    if (!tr.has_value()) {
      core::Error error = std::move(tr).error();
      if (s < sources.size()) error.WithFieldPrefix(sources[s].template_field);
      return error;
    }
    ps.topology_request = std::move(*tr);
    wl.pod_sets.push_back(std::move(ps));
  }
  if (job.kind == "Job" && !wl.pod_sets.empty()) {
    if (auto it = job.meta.annotations.find(kJobMinParallelismAnnotation);
        it != job.meta.annotations.end()) {
      std::string field = KeyField("metadata.annotations", kJobMinParallelismAnnotation);
      BERTH_ASSIGN_OR_RETURN(int32_t min, PositiveInt(it->second, field));
      // The job webhook: the minimum must stay below parallelism.
      if (min >= wl.pod_sets[0].count) {
        return FieldError(field, "invalid value " + core::Quote(it->second) + ": must be less than the job's parallelism (" +
                                     std::to_string(wl.pod_sets[0].count) + ")");
      }
      wl.pod_sets[0].min_count = min;
    }
  }
  // Kueue's integrations of the multi-role kinds (JobSet, MPIJob, the Kubeflow jobs, Ray)
  // take the priority class of the first role whose template names one, in pod-set order
  // (an MPIJob's launcher, then its workers); the first template otherwise. The Kubeflow
  // jobs' runPolicy.schedulingPolicy.priorityClass comes before every template
  // (kubeflowjob_controller.go and mpijob_controller.go, PriorityClass).
  const model::Pod no_template;
  const model::Pod* priority_template = job.pod_sets.empty() ? &no_template
                                                            : &job.pod_sets[0].pod_template;
  for (const model::PodSetTemplate& set : job.pod_sets) {
    if (!set.pod_template.priority_class_name.empty()) {
      priority_template = &set.pod_template;
      break;
    }
  }
  model::Pod scheduling_policy;
  if (!job.scheduling_priority_class.empty()) {
    scheduling_policy.priority_class_name = job.scheduling_priority_class;
    priority_template = &scheduling_policy;
  }
  core::Status status = ResolvePriority(job.meta.labels, job.cluster, *priority_template, &wl);
  if (!status.ok() && priority_template == &scheduling_policy &&
      status.error().code() == core::ErrorCode::kNotFound &&
      job.meta.labels.count(kPriorityClassLabel) == 0) {
    return core::NotFound("no PriorityClass with name " + job.scheduling_priority_class +
                              " was found",
                          core::Location{"", "", "spec.runPolicy.schedulingPolicy.priorityClass"});
  }
  BERTH_RETURN_IF_ERROR(std::move(status));
  return wl;
}

model::Workload* WorkloadCreator::FindGiven(const model::Workload& wl) {
  auto it = given_.find(ObjectKey(wl.cluster, wl.meta.namespace_, wl.meta.name));
  return it == given_.end() ? nullptr : &snap_.kueue_workloads[it->second];
}

void WorkloadCreator::Append(model::Workload wl, std::string document_json,
                             const std::string& file) {
  wl.source = documents_.Add(CreatedDocument(file, "kueue.x-k8s.io/v1beta2", "Workload", wl.meta,
                                             std::move(document_json)));
  snap_.kueue_workloads.push_back(std::move(wl));
}

void WorkloadCreator::AddForJob(model::Workload workload, int32_t owner,
                                std::vector<std::vector<int32_t>> pods,
                                const std::vector<PodSetSource>& sources, const std::string& file) {
  const model::WorkloadObject& owner_job = snap_.workloads[static_cast<size_t>(owner)];
  model::Workload* given = nullptr;
  if (!owner_job.meta.uid.empty()) {
    auto it = given_by_job_.find(owner_job.cluster + '\x1f' + owner_job.meta.uid);
    if (it != given_by_job_.end()) given = &snap_.kueue_workloads[it->second];
  }
  if (given == nullptr) given = FindGiven(workload);
  if (given != nullptr) {
    given->owner_workload = owner;
    given->pods = std::move(pods);
    return;
  }
  const model::WorkloadObject& job = snap_.workloads[static_cast<size_t>(owner)];
  workload.owner_workload = owner;
  workload.pods = std::move(pods);
  OrderedJson refs = OrderedJson::array(
      {OwnerRefJson(job.api_version, job.kind, job.meta.name, job.meta.uid, /*controller=*/true)});
  std::vector<OrderedJson> templates;
  templates.reserve(sources.size());
  for (const PodSetSource& source : sources)
    templates.push_back(ParseOrEmpty(source.template_json));
  std::string json = WorkloadDocument(workload, refs, templates);
  Append(std::move(workload), std::move(json), file);
}

void WorkloadCreator::AddForPods(core::Diagnostics& diags) {
  // Groups (and single pods) in first-seen order, so output order follows input order.
  std::vector<std::string> order;
  std::map<std::string, std::vector<int32_t>> groups;
  const size_t pod_count = snap_.pods.size();
  for (size_t i = 0; i < pod_count; ++i) {
    const model::Pod& pod = snap_.pods[i];
    if (pod.owner.has_value() || !pod.source.valid() || !IsQueued(pod.meta.labels)) continue;
    auto group = pod.meta.labels.find(kPodGroupNameLabel);
    std::string key = group != pod.meta.labels.end() && !group->second.empty()
                          ? ObjectKey(pod.cluster, pod.meta.namespace_, "g:" + group->second)
                          : ObjectKey(pod.cluster, pod.meta.namespace_, "p:" + pod.meta.name);
    auto [it, added] = groups.try_emplace(key);
    if (added) order.push_back(key);
    it->second.push_back(static_cast<int32_t>(i));
  }
  for (const std::string& key : order) {
    const std::vector<int32_t>& members = groups[key];
    const model::Pod& first = snap_.pods[static_cast<size_t>(members[0])];
    auto report = [&](core::Error error) {
      const Document& doc = documents_.Get(first.source);
      error.WithFile(doc.file);
      error.WithObject(ObjectLabel("Pod", first.meta.namespace_, first.meta.name));
      diags.Report(std::move(error));
    };
    auto group = first.meta.labels.find(kPodGroupNameLabel);
    const bool grouped = group != first.meta.labels.end() && !group->second.empty();
    model::Workload wl;
    wl.meta.name = grouped ? "pod-group-" + group->second : "pod-" + first.meta.name;
    wl.meta.namespace_ = first.meta.namespace_;
    wl.meta.creation_timestamp = first.meta.creation_timestamp;
    wl.queue_name = first.meta.labels.at(kQueueNameLabel);
    wl.meta.labels[kQueueNameLabel] = wl.queue_name;
    if (auto it = first.meta.annotations.find(model::kClusterAnnotation);
        it != first.meta.annotations.end()) {
      wl.meta.annotations[model::kClusterAnnotation] = it->second;
    }
    wl.cluster = first.cluster;
    wl.created = true;
    model::KueuePodSet set;
    set.name = "main";
    set.count = static_cast<int32_t>(members.size());
    set.pod_template = first;
    set.pod_template.meta.name.clear();
    set.pod_template.node_name.clear();
    set.pod_template.source = {};
    if (grouped) {
      if (auto it = first.meta.annotations.find(kPodGroupTotalCountAnnotation);
          it != first.meta.annotations.end()) {
        auto total = PositiveInt(it->second,
                                 KeyField("metadata.annotations", kPodGroupTotalCountAnnotation));
        if (!total.has_value()) {
          report(std::move(total).error());
          continue;
        }
        set.count = *total;
      }
    }
    auto tr = TopologyRequestFromAnnotations(first.meta.annotations);
    if (!tr.has_value()) {
      report(std::move(tr).error());
      continue;
    }
    set.topology_request = std::move(*tr);
    wl.pod_sets.push_back(std::move(set));
    core::Status status = ResolvePriority(first.meta.labels, first.cluster, first, &wl);
    if (!status.ok()) {
      report(std::move(status).error());
      continue;
    }
    wl.pods = {members};
    if (model::Workload* given = FindGiven(wl)) {
      given->pods = std::move(wl.pods);
      continue;
    }
    OrderedJson refs = OrderedJson::array();
    for (int32_t m : members) {
      const model::Pod& pod = snap_.pods[static_cast<size_t>(m)];
      refs.push_back(
          OwnerRefJson("v1", "Pod", pod.meta.name, pod.meta.uid, /*controller=*/!grouped));
    }
    std::string file = documents_.Get(first.source).file;
    std::string json = WorkloadDocument(wl, refs, {PodTemplateJson(first, documents_)});
    Append(std::move(wl), std::move(json), file);
  }
}

}  // namespace berth::io::internal
