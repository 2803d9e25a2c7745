// Where each workload kind keeps the pod template of each of its pod sets, in the object's
// document: the column of io's table of kinds (kind_table.h, KindRow::pod_templates) that
// manifest_work_json.cc reads to write Kueue's flavor injection into a manifest. Pod-set
// names are those the kind's decoder gives (model::PodSetTemplate::name), so a patch built
// from the admission finds its template. Internal to io; stateless.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string_view>
#include <vector>

namespace berth::io::internal {

// Appends to `out` the PodTemplateSpec objects (for a Pod, the pod itself) of pod set
// `pod_set` in `doc`; appends nothing when the document has no such pod set. May add the
// template a controller would default when the document omits it (a RayJob's submitter).
// Pointers stay valid until `doc` is next changed structurally.
using PodTemplatesFn = void (*)(std::string_view pod_set, nlohmann::ordered_json& doc,
                                std::vector<nlohmann::ordered_json*>* out);

// Pod "main": the pod.
void PodItselfTemplates(std::string_view pod_set, nlohmann::ordered_json& doc,
                        std::vector<nlohmann::ordered_json*>* out);
// Job, Deployment, StatefulSet, ReplicaSet "main": spec.template.
void SpecTemplate(std::string_view pod_set, nlohmann::ordered_json& doc,
                  std::vector<nlohmann::ordered_json*>* out);
// JobSet: the replicatedJob named `pod_set`, its template.spec.template.
void JobSetTemplates(std::string_view pod_set, nlohmann::ordered_json& doc,
                     std::vector<nlohmann::ordered_json*>* out);
// PyTorchJob: spec.pytorchReplicaSpecs.<Type>.template, Type lowercased = pod_set.
void PyTorchJobTemplates(std::string_view pod_set, nlohmann::ordered_json& doc,
                         std::vector<nlohmann::ordered_json*>* out);
// MPIJob: spec.mpiReplicaSpecs.<Type>.template, Type lowercased = pod_set ("launcher",
// "worker").
void MPIJobTemplates(std::string_view pod_set, nlohmann::ordered_json& doc,
                     std::vector<nlohmann::ordered_json*>* out);
// LeaderWorkerSet "leader": leaderWorkerTemplate.leaderTemplate, else the workerTemplate
// (manifest_work_json.cc splits a leader template off first when the patches differ);
// "worker" or "main": leaderWorkerTemplate.workerTemplate.
void LeaderWorkerSetTemplates(std::string_view pod_set, nlohmann::ordered_json& doc,
                              std::vector<nlohmann::ordered_json*>* out);
// RayCluster "head": spec.headGroupSpec.template; a worker group (groupName lowercased):
// spec.workerGroupSpecs[i].template.
void RayClusterTemplates(std::string_view pod_set, nlohmann::ordered_json& doc,
                         std::vector<nlohmann::ordered_json*>* out);
// RayJob: the same under spec.rayClusterSpec; "submitter": spec.submitterPodTemplate, made
// from the default template (the head's image) when absent, as Kueue's rayjob
// RunWithPodSetsInfo writes it before merging the pod set's info.
void RayJobTemplates(std::string_view pod_set, nlohmann::ordered_json& doc,
                     std::vector<nlohmann::ordered_json*>* out);
// Volcano Job: spec.tasks[i].template of the task named `pod_set` (an unnamed task i is
// "default<i>", as the decoder names it).
void VolcanoJobTemplates(std::string_view pod_set, nlohmann::ordered_json& doc,
                         std::vector<nlohmann::ordered_json*>* out);

// InferenceService "predictor": spec.predictor, a PodSpec written inline (KindRow's
// inline_pod_spec).
void InferenceServiceTemplates(std::string_view pod_set, nlohmann::ordered_json& doc,
                               std::vector<nlohmann::ordered_json*>* out);

}  // namespace berth::io::internal
