// Each function walks the same fields its kind's decoder reads (batch_v1.cc, apps_v1.cc,
// jobset_v1alpha2.cc, kubeflow_v1.cc, kubeflow_v2beta1.cc, leaderworkerset_v1.cc,
// ray_v1.cc, volcano_batch_v1alpha1.cc), so the two agree on pod-set names by
// construction; tests/io/fleet_writer_test.cc patches one template of every kind.
#include "io/internal/pod_templates.h"

#include <nlohmann/json.hpp>
#include <string>

#include "core/ascii.h"
#include "io/internal/crd_workload_decoders.h"

namespace berth::io::internal {
namespace {

using OrderedJson = nlohmann::ordered_json;

OrderedJson* ObjectAt(OrderedJson& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? &*it : nullptr;
}

// obj[key] when it is a string, else "".
std::string StringAt(const OrderedJson& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

// The templates of a map of replica specs keyed by replica type (kubeflow.org jobs).
void ReplicaSpecTemplates(const char* specs_key, std::string_view pod_set, OrderedJson& doc,
                          std::vector<OrderedJson*>* out) {
  OrderedJson* spec = ObjectAt(doc, "spec");
  OrderedJson* specs = spec != nullptr ? ObjectAt(*spec, specs_key) : nullptr;
  if (specs == nullptr) return;
  for (auto it = specs->begin(); it != specs->end(); ++it) {
    if (core::AsciiLower(it.key()) != pod_set) continue;
    if (OrderedJson* tmpl = ObjectAt(it.value(), "template")) out->push_back(tmpl);
  }
}

// A RayClusterSpec's templates: the head's and those of the worker groups.
void RayClusterSpecTemplates(std::string_view pod_set, OrderedJson* cluster_spec,
                             std::vector<OrderedJson*>* out) {
  if (cluster_spec == nullptr) return;
  if (pod_set == "head") {
    OrderedJson* head = ObjectAt(*cluster_spec, "headGroupSpec");
    if (OrderedJson* tmpl = head != nullptr ? ObjectAt(*head, "template") : nullptr) {
      out->push_back(tmpl);
    }
    return;
  }
  auto groups = cluster_spec->find("workerGroupSpecs");
  if (groups == cluster_spec->end() || !groups->is_array()) return;
  for (OrderedJson& group : *groups) {
    if (core::AsciiLower(StringAt(group, "groupName")) != pod_set) continue;
    if (OrderedJson* tmpl = ObjectAt(group, "template")) out->push_back(tmpl);
  }
}

// The head template's first container image, "" when there is none.
std::string HeadImage(OrderedJson& cluster_spec) {
  OrderedJson* head = ObjectAt(cluster_spec, "headGroupSpec");
  OrderedJson* tmpl = head != nullptr ? ObjectAt(*head, "template") : nullptr;
  OrderedJson* spec = tmpl != nullptr ? ObjectAt(*tmpl, "spec") : nullptr;
  if (spec == nullptr) return "";
  auto containers = spec->find("containers");
  if (containers == spec->end() || !containers->is_array() || containers->empty()) return "";
  return StringAt(containers->front(), "image");
}

}  // namespace

void PodItselfTemplates(std::string_view pod_set, OrderedJson& doc,
                        std::vector<OrderedJson*>* out) {
  if (pod_set == "main") out->push_back(&doc);
}

void InferenceServiceTemplates(std::string_view pod_set, OrderedJson& doc,
                               std::vector<OrderedJson*>* out) {
  OrderedJson* spec = ObjectAt(doc, "spec");
  OrderedJson* predictor = spec != nullptr ? ObjectAt(*spec, "predictor") : nullptr;
  if (pod_set == "predictor" && predictor != nullptr) out->push_back(predictor);
}

void SpecTemplate(std::string_view pod_set, OrderedJson& doc, std::vector<OrderedJson*>* out) {
  OrderedJson* spec = ObjectAt(doc, "spec");
  OrderedJson* tmpl = spec != nullptr ? ObjectAt(*spec, "template") : nullptr;
  if (pod_set == "main" && tmpl != nullptr) out->push_back(tmpl);
}

void JobSetTemplates(std::string_view pod_set, OrderedJson& doc, std::vector<OrderedJson*>* out) {
  OrderedJson* spec = ObjectAt(doc, "spec");
  if (spec == nullptr) return;
  auto jobs = spec->find("replicatedJobs");
  if (jobs == spec->end() || !jobs->is_array()) return;
  for (OrderedJson& job : *jobs) {
    if (StringAt(job, "name") != pod_set) continue;
    OrderedJson* job_template = ObjectAt(job, "template");
    OrderedJson* job_spec = job_template != nullptr ? ObjectAt(*job_template, "spec") : nullptr;
    OrderedJson* tmpl = job_spec != nullptr ? ObjectAt(*job_spec, "template") : nullptr;
    if (tmpl != nullptr) out->push_back(tmpl);
  }
}

void PyTorchJobTemplates(std::string_view pod_set, OrderedJson& doc,
                         std::vector<OrderedJson*>* out) {
  ReplicaSpecTemplates("pytorchReplicaSpecs", pod_set, doc, out);
}

void MPIJobTemplates(std::string_view pod_set, OrderedJson& doc, std::vector<OrderedJson*>* out) {
  ReplicaSpecTemplates("mpiReplicaSpecs", pod_set, doc, out);
}

void LeaderWorkerSetTemplates(std::string_view pod_set, OrderedJson& doc,
                              std::vector<OrderedJson*>* out) {
  OrderedJson* spec = ObjectAt(doc, "spec");
  OrderedJson* lwt = spec != nullptr ? ObjectAt(*spec, "leaderWorkerTemplate") : nullptr;
  if (lwt == nullptr) return;
  OrderedJson* tmpl = nullptr;
  if (pod_set == "leader") {
    tmpl = ObjectAt(*lwt, "leaderTemplate");
    if (tmpl == nullptr) tmpl = ObjectAt(*lwt, "workerTemplate");
  } else if (pod_set == "worker" || pod_set == "main") {
    tmpl = ObjectAt(*lwt, "workerTemplate");
  }
  if (tmpl != nullptr) out->push_back(tmpl);
}

void RayClusterTemplates(std::string_view pod_set, OrderedJson& doc,
                         std::vector<OrderedJson*>* out) {
  RayClusterSpecTemplates(pod_set, ObjectAt(doc, "spec"), out);
}

void RayJobTemplates(std::string_view pod_set, OrderedJson& doc, std::vector<OrderedJson*>* out) {
  OrderedJson* spec = ObjectAt(doc, "spec");
  if (spec == nullptr) return;
  if (pod_set != "submitter") {
    RayClusterSpecTemplates(pod_set, ObjectAt(*spec, "rayClusterSpec"), out);
    return;
  }
  // Only K8sJobMode (the default) has a submitter pod set; the decoder made it so.
  const std::string mode = StringAt(*spec, "submissionMode");
  if (!mode.empty() && mode != "K8sJobMode") return;
  if (ObjectAt(*spec, "submitterPodTemplate") == nullptr) {
    OrderedJson* cluster_spec = ObjectAt(*spec, "rayClusterSpec");
    (*spec)["submitterPodTemplate"] = OrderedJson::parse(
        DefaultRaySubmitterTemplate(cluster_spec != nullptr ? HeadImage(*cluster_spec) : ""));
  }
  out->push_back(&(*spec)["submitterPodTemplate"]);
}

void VolcanoJobTemplates(std::string_view pod_set, OrderedJson& doc,
                         std::vector<OrderedJson*>* out) {
  OrderedJson* spec = ObjectAt(doc, "spec");
  if (spec == nullptr) return;
  auto tasks = spec->find("tasks");
  if (tasks == spec->end() || !tasks->is_array()) return;
  size_t i = 0;
  for (OrderedJson& task : *tasks) {
    std::string name = StringAt(task, "name");
    if (name.empty()) name = "default" + std::to_string(i);
    ++i;
    if (name != pod_set) continue;
    if (OrderedJson* tmpl = ObjectAt(task, "template")) out->push_back(tmpl);
  }
}

}  // namespace berth::io::internal
