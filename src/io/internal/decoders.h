// Decoders from one Kubernetes object (a simdjson DOM object) to the model, one source file
// per API group: core_v1.cc, scheduling_v1.cc, batch_v1.cc, apps_v1.cc, jobset_v1alpha2.cc,
// kubeflow_v1.cc, leaderworkerset_v1.cc, kubescheduler_config_v1.cc, resource_v1.cc,
// kueue_v1beta2.cc, kueue_workload_v1beta2.cc and kueue_multikueue.cc (kueue.x-k8s.io),
// kueue_config.cc (config.kueue.x-k8s.io), pod_group.cc (scheduling.x-k8s.io,
// scheduling.volcano.sh), ocm_cluster.cc and ocm_placement.cc
// (cluster.open-cluster-management.io), ocm_work.cc (work.open-cluster-management.io); the kinds
// only berth doctor reads are declared in doctor_kind_decoders.h. Each returns
// the decoded value or the first error, with the field path relative to the object
// ("spec.containers[0].resources.requests.cpu"); the reader adds file and object. The reader
// reaches them only through the table of kinds (kind_table.h), whose rows say which versions
// each decoder is given. Internal to io; stateless apart from the ResourceCatalog they
// intern names into.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/labels.h"
#include "core/quantity.h"
#include "core/result.h"
#include "core/selector.h"
#include "core/taint.h"
#include "model/controller_revision.h"
#include "model/device_class.h"
#include "model/device_taint_rule.h"
#include "model/federated_learning.h"
#include "model/kueue.h"
#include "model/node.h"
#include "model/ocm.h"
#include "model/pod.h"
#include "model/pod_group.h"
#include "model/priority_class.h"
#include "model/resource_claim.h"
#include "model/resource_slice.h"
#include "model/resources.h"
#include "model/scheduler_config.h"
#include "model/work.h"
#include "model/work_replica_set.h"
#include "model/workload_object.h"

namespace berth::io::internal {

namespace dom = simdjson::dom;

// What an object's name must be, as the API server validates it: a DNS-1123 subdomain
// (most kinds, custom resources included) or a DNS-1123 label (Namespace).
enum class NameRule { kDnsSubdomain, kDnsLabel };

// metadata of an object, validated as apimachinery's ValidateObjectMeta validates it: the
// namespace a DNS-1123 label, label keys qualified names and values label values, annotation
// keys qualified names and at most 256 KiB of annotations, and (when `name_required`) the
// name by `name_rule`; errors are `Invalid value: "..."` at the field, the value bounded.
// `namespaced` objects default their namespace to "default"; `name_required` fails with
// field "metadata.name" when there is none. A pod template's metadata (name not required)
// gets the same label and annotation checks.
core::Result<model::ObjectMeta> DecodeObjectMeta(dom::object obj, bool namespaced,
                                                 bool name_required,
                                                 NameRule name_rule = NameRule::kDnsSubdomain);
// A map checked as apimachinery's ValidateLabels (metadata.labels, a pod's nodeSelector):
// keys qualified names, values label values; the error at `field` quotes the bad one.
core::Status ValidateLabelMap(const core::Labels& labels, const std::string& field);
// A metav1.Condition (status.conditions[] of OCM and MultiKueue objects): type required,
// status True|False|Unknown, lastTransitionTime RFC 3339, observedGeneration >= 0.
core::Result<model::Condition> DecodeMetaCondition(dom::element e);

// rbac.authorization.k8s.io/v1 and the other kinds berth doctor reads:
// doctor_kind_decoders.h.

// core/v1
core::Result<model::Node> DecodeNode(dom::object obj, model::ResourceCatalog& catalog);
core::Result<model::Namespace> DecodeNamespace(dom::object obj);
// A Pod. `*has_priority` says whether spec.priority was set (else Finish resolves it).
core::Result<model::Pod> DecodePod(dom::object obj, model::ResourceCatalog& catalog,
                                   bool* has_priority);
// Shared with resource_v1.cc: a v1 NodeSelector ({nodeSelectorTerms: [...]}, validated) and
// a toleration (validated as upstream's validateTolerations).
core::Result<core::NodeSelector> DecodeNodeSelector(dom::object obj);
core::Result<core::Toleration> DecodeToleration(dom::element e);
// A v1 Taint (Node spec.taints[], ResourceFlavor spec.nodeTaints[]).
core::Result<core::Taint> DecodeTaint(dom::element e);
// A v1 ResourceList at obj[key] (a pod's spec.overhead, a RuntimeClass's
// overhead.podFixed) in model units, validated as a container's requests are; `*given`
// says whether the key was there (upstream: a non-nil list).
core::Status DecodeResourceListAt(dom::object obj, std::string_view key,
                                  model::ResourceCatalog& catalog, model::ResourceVector* out,
                                  bool* given);
// A metav1.LabelSelector (matchLabels, matchExpressions), validated.
core::Result<core::LabelSelector> DecodeLabelSelector(dom::object obj);

// How one pod set of a workload is expanded into Pods (reader.cc, Finish).
struct PodSetSource {
  std::string template_json;   // compact JSON of the PodTemplateSpec (metadata, spec)
  std::string template_field;  // where the template sits: "spec.template", ...
  bool has_priority = false;   // the template sets spec.priority
  bool indexed = false;        // Indexed completion mode: completion-index labels
  // JobSet: child Jobs of the replicatedJob and pods of each; LeaderWorkerSet: groups and
  // this role's pods in each group. count == groups * pods_per_group for these kinds.
  int32_t groups = 1;
  int32_t pods_per_group = 1;
  // Job: spec.parallelism and spec.completions (-1 when unset), and status.succeeded and
  // status.completedIndexes ("1,3-5"), for expanding only the pods a running Job still
  // lacks (internal/ownership.h).
  int32_t parallelism = 1;
  int32_t completions = -1;
  int32_t succeeded = 0;
  std::string completed_indexes;
  // Volcano Job: spec.queue ("default" when empty, as Volcano's admission webhook sets it),
  // which its controller writes on every pod (label and annotation volcano.sh/queue-name)
  // and into the Job's PodGroup (spec.queue).
  std::string queue;
  // Deployment: spec.strategy as the Deployment controller reads it during a rollout
  // (ownership.h, DeploymentOwnership): Recreate, or RollingUpdate's maxSurge scaled to the
  // replicas (a percent rounded up; default 25%).
  bool recreate = false;
  int32_t max_surge = 0;
};

struct DecodedWorkload {
  model::WorkloadObject workload;
  std::vector<PodSetSource> sources;  // parallel to workload.pod_sets
};

// A PodTemplateSpec (metadata + spec) into a pod set: its pod template carries the owner's
// namespace; errors name fields relative to the template.
core::Status DecodePodTemplate(dom::object tmpl, const model::WorkloadObject& owner,
                               model::ResourceCatalog& catalog, model::PodSetTemplate* pod_set,
                               PodSetSource* source);

// metadata.ownerReferences' controller (metav1.GetControllerOf) into *out; untouched when
// there is none.
core::Status DecodeControllerRef(dom::object obj, std::optional<model::OwnerRef>* out);

// The owner fields every workload decoder fills the same way (apiVersion, kind, metadata,
// the controller reference).
core::Result<model::WorkloadObject> DecodeWorkloadHeader(dom::object obj);

// What every Kubeflow training job (kubeflow.org PyTorchJob, MPIJob) starts with: the
// workload header into out->workload, the required `spec`, and spec.runPolicy.suspend (where
// Kueue holds them). Returns `spec` for the decoder's replica specs.
core::Result<dom::object> DecodeKubeflowJobHead(dom::object obj, DecodedWorkload* out);

// scheduling.k8s.io/v1
core::Result<model::PriorityClass> DecodePriorityClass(dom::object obj);
// batch/v1
core::Result<DecodedWorkload> DecodeJob(dom::object obj, model::ResourceCatalog& catalog);
// apps/v1 (Deployment, StatefulSet: the same replicas + template shape)
core::Result<DecodedWorkload> DecodeReplicated(dom::object obj, model::ResourceCatalog& catalog);
// jobset.x-k8s.io/v1alpha2
core::Result<DecodedWorkload> DecodeJobSet(dom::object obj, model::ResourceCatalog& catalog);
// A JobSetSpec's replicatedJobs (`spec` sits at `field`: "spec" for a JobSet,
// "spec.template.spec" for a Kubeflow TrainingRuntime) appended to out's pod sets, one per
// replicatedJob; out->workload's header must be set (its namespace goes to the templates).
core::Status DecodeReplicatedJobs(dom::object spec, const std::string& field,
                                  model::ResourceCatalog& catalog, DecodedWorkload* out);
// kubeflow.org/v1
core::Result<DecodedWorkload> DecodePyTorchJob(dom::object obj, model::ResourceCatalog& catalog);
// leaderworkerset.x-k8s.io/v1
core::Result<DecodedWorkload> DecodeLeaderWorkerSet(dom::object obj,
                                                    model::ResourceCatalog& catalog);
// kubescheduler.config.k8s.io/v1
core::Result<model::SchedulerConfig> DecodeSchedulerConfig(dom::object obj);

// resource.k8s.io. kV1: v1 and v1beta2 (requests under `exactly`, device fields inline);
// kV1beta1: v1beta1 and v1alpha3 (request fields inline, device fields under `basic`).
enum class ResourceApiShape { kV1, kV1beta1 };
// The shape of a resource.k8s.io apiVersion; nullopt for versions berth does not read.
std::optional<ResourceApiShape> ResourceApiShapeOf(std::string_view api_version);
core::Result<model::DeviceClass> DecodeDeviceClass(dom::object obj);
core::Result<model::ResourceClaim> DecodeResourceClaim(dom::object obj, ResourceApiShape shape);
core::Result<model::ResourceClaimTemplate> DecodeResourceClaimTemplate(dom::object obj,
                                                                       ResourceApiShape shape);
core::Result<model::ResourceSlice> DecodeResourceSlice(dom::object obj, ResourceApiShape shape);
// resource.k8s.io/v1alpha3 (the only version of Kubernetes 1.33 and 1.34).
core::Result<model::DeviceTaintRule> DecodeDeviceTaintRule(dom::object obj);

// kueue.x-k8s.io. v1beta2 is the storage version; v1beta1 differs in a few field names
// (ClusterQueue `cohort`, `admissionChecks[]`; Workload `priorityClassName` and
// `priorityClassSource`; FlavorFungibility `Borrow`/`Preempt`); v1alpha1 is read for Cohort
// (`parent`) and Topology only.
enum class KueueVersion { kV1beta2, kV1beta1, kV1alpha1 };
// The version of a kueue.x-k8s.io apiVersion; nullopt for versions berth does not read.
std::optional<KueueVersion> KueueVersionOf(std::string_view api_version);
core::Result<model::ResourceFlavor> DecodeResourceFlavor(dom::object obj);
core::Result<model::ClusterQueue> DecodeClusterQueue(dom::object obj, KueueVersion version,
                                                     model::ResourceCatalog& catalog);
core::Result<model::Cohort> DecodeCohort(dom::object obj, KueueVersion version,
                                         model::ResourceCatalog& catalog);
core::Result<model::LocalQueue> DecodeLocalQueue(dom::object obj);
core::Result<model::WorkloadPriorityClass> DecodeWorkloadPriorityClass(dom::object obj);
core::Result<model::Topology> DecodeTopology(dom::object obj);
core::Result<model::AdmissionCheck> DecodeAdmissionCheck(dom::object obj);
core::Result<model::Workload> DecodeKueueWorkload(dom::object obj, KueueVersion version,
                                                  model::ResourceCatalog& catalog);
// MultiKueue (kueue_multikueue.cc), v1beta1 and v1beta2 only: MultiKueueConfig
// (spec.clusters, 1..20 unique names) and MultiKueueCluster (v1beta1 spec.kubeConfig;
// v1beta2 spec.clusterSource with exactly one of kubeConfig and clusterProfileRef), as the
// CRDs validate them.
core::Result<model::MultiKueueConfig> DecodeMultiKueueConfig(dom::object obj, KueueVersion version);
core::Result<model::MultiKueueCluster> DecodeMultiKueueCluster(dom::object obj,
                                                               KueueVersion version);
// The amount of `quantity` of resource `name` in ResourceVector units (cpu in milli-cores,
// everything else in whole units rounded up); OutOfRange when it does not fit.
core::Result<int64_t> ResourceUnits(std::string_view name, const core::Quantity& quantity);
// A Kueue PodSet's topology request from the pod template annotations
// kueue.x-k8s.io/podset-{required,preferred,unconstrained,slice-required}-topology,
// podset-slice-size and podset-group-name; errors name the annotation.
core::Result<model::TopologyRequest> TopologyRequestFromAnnotations(
    const core::Labels& annotations);

// config.kueue.x-k8s.io (v1beta1, v1beta2): Configuration.
core::Result<model::KueueConfig> DecodeKueueConfig(dom::object obj, std::string_view api_version);
// A Go time.Duration string ("5m", "1h30m", "300ms", "0s") in whole seconds (truncated).
core::Result<int64_t> ParseDurationSeconds(std::string_view text);

// scheduling.x-k8s.io/v1alpha1 and scheduling.volcano.sh/v1beta1: PodGroup.
core::Result<model::PodGroup> DecodePodGroup(dom::object obj, std::string_view api_version);
// scheduling.k8s.io/v1alpha1 Workload (scheduling_workload.cc): one PodGroup per
// spec.podGroups[] entry (workload_pod_group its name; gang false for a basic policy).
core::Result<std::vector<model::PodGroup>> DecodeSchedulingWorkload(dom::object obj,
                                                                    std::string_view api_version);

// cluster.open-cluster-management.io (ocm_cluster.cc, ocm_placement.cc): ManagedCluster v1,
// ClusterClaim and AddOnPlacementScore v1alpha1, ManagedClusterSet and
// ManagedClusterSetBinding v1beta2, Placement and PlacementDecision v1beta1.
core::Result<model::ManagedCluster> DecodeManagedCluster(dom::object obj);
core::Result<model::ClusterClaim> DecodeClusterClaim(dom::object obj);
core::Result<model::ManagedClusterSet> DecodeManagedClusterSet(dom::object obj);
core::Result<model::ManagedClusterSetBinding> DecodeManagedClusterSetBinding(dom::object obj);
core::Result<model::AddOnPlacementScore> DecodeAddOnPlacementScore(dom::object obj);
core::Result<model::Placement> DecodePlacement(dom::object obj);
core::Result<model::PlacementDecision> DecodePlacementDecision(dom::object obj);
// A Placement's spec (an object shaped as PlacementSpec) into *out, errors relative to it:
// shared by Placement and by the client placement of a FederatedLearning.
core::Status DecodePlacementSpec(dom::object spec, model::Placement* out);

// work.open-cluster-management.io/v1 (ocm_work.cc): ManifestWork, with each manifest's
// identity only (apiVersion, kind, metadata.name/namespace).
core::Result<model::ManifestWork> DecodeManifestWork(dom::object obj);
// A ManifestWorkSpec (a work's spec, an MWRS's spec.manifestWorkTemplate) into *work:
// manifests' identities (at least one), manifestConfigs, deleteOption; errors relative to it.
core::Status DecodeManifestWorkSpec(dom::object spec, model::ManifestWork* work);
// metadata.generation (>= 0) and metadata.deletionTimestamp, left as they are when absent.
core::Status DecodeGenerationAndDeletion(dom::object obj, int64_t* generation,
                                         std::optional<core::Timestamp>* deletion);

// work.open-cluster-management.io/v1alpha1 (ocm_work_v1alpha1.cc): ManifestWorkReplicaSet,
// validated as its CRD and the work webhook validate it, with berth's rollout annotations.
core::Result<model::ManifestWorkReplicaSet> DecodeManifestWorkReplicaSet(dom::object obj);

// apps/v1 (apps_v1_controller_revision.cc): ControllerRevision, validated as the API server
// validates it (data required, revision >= 0), with berth's revision records.
core::Result<model::ControllerRevision> DecodeControllerRevision(dom::object obj);

// federation-ai.open-cluster-management.io/v1alpha1 (ocm_federated_learning.cc):
// FederatedLearning, with berth's annotations parsed and its status as read.
core::Result<model::FederatedLearning> DecodeFederatedLearning(dom::object obj);

// Pods a Job-shaped spec creates: parallelism (default 1) capped by completions when set.
// Errors for negative values name "parallelism"/"completions".
struct JobShape {
  int32_t pods = 1;
  int32_t parallelism = 1;
  int32_t completions = -1;  // unset
  bool indexed = false;
  bool suspend = false;
};
core::Result<JobShape> DecodeJobShape(dom::object job_spec);

}  // namespace berth::io::internal
