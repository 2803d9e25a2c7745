// The rows pair each kind with its decoder through small adapters: decoders (decoders.h)
// return a value and know nothing of the snapshot; the adapter decides where the value goes,
// which member cluster it belongs to and what bookkeeping Finish needs (a pod's explicit
// priority, a workload's template sources). Versions are checked by the lookup before a
// decoder runs, so adapters may take the version-derived shapes for granted.
#include "io/internal/kind_table.h"

#include <algorithm>
#include <utility>

#include "core/check.h"
#include "io/internal/crd_workload_decoders.h"
#include "io/internal/doctor_kind_decoders.h"
#include "io/internal/fluid_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/status_writer.h"

namespace berth::io::internal {
namespace {

namespace dom = simdjson::dom;
using model::Snapshot;

// Keeps a decoded object of a kind that lives in a member cluster: its cluster, then its
// document, then the value in `field` of the snapshot.
template <typename T>
core::Status KeepInCluster(core::Result<T>&& decoded, std::vector<T> Snapshot::*field,
                           DecodeSink& sink) {
  if (!decoded.has_value()) return std::move(decoded).error();
  decoded->cluster = sink.ClusterOf(decoded->meta);
  decoded->source = sink.Store(decoded->meta);
  (sink.snapshot().*field).push_back(std::move(*decoded));
  return core::OkStatus();
}

// The same for kinds the fleet shares (no member cluster): Namespace, PriorityClass,
// DeviceClass.
template <typename T>
core::Status KeepShared(core::Result<T>&& decoded, std::vector<T> Snapshot::*field,
                        DecodeSink& sink) {
  if (!decoded.has_value()) return std::move(decoded).error();
  decoded->source = sink.Store(decoded->meta);
  (sink.snapshot().*field).push_back(std::move(*decoded));
  return core::OkStatus();
}

core::Status DecodePodRow(dom::object obj, std::string_view, DecodeSink& sink) {
  bool has_priority = false;
  auto pod = DecodePod(obj, sink.snapshot().resources, &has_priority);
  if (!pod.has_value()) return std::move(pod).error();
  pod->cluster = sink.ClusterOf(pod->meta);
  pod->source = sink.Store(pod->meta);
  sink.snapshot().pods.push_back(std::move(*pod));
  sink.AddedPod(has_priority);
  return core::OkStatus();
}

// Workloads (Job, Deployment, StatefulSet, ReplicaSet, JobSet, PyTorchJob, MPIJob,
// LeaderWorkerSet, RayCluster, RayJob, Volcano Job): the object
// and its pod templates live in its member cluster; Finish expands the templates. Each
// decoder requires its `spec` itself (GetRequiredObject), so a workload without one is an
// error on `spec` however the decoder is reached.
core::Status KeepWorkload(core::Result<DecodedWorkload>&& w, DecodeSink& sink) {
  if (!w.has_value()) return std::move(w).error();
  model::WorkloadObject& workload = w->workload;
  workload.cluster = sink.ClusterOf(workload.meta);
  for (model::PodSetTemplate& set : workload.pod_sets) set.pod_template.cluster = workload.cluster;
  workload.source = sink.Store(workload.meta);
  sink.snapshot().workloads.push_back(std::move(workload));
  sink.AddedWorkload(std::move(w->sources));
  return core::OkStatus();
}

template <core::Result<DecodedWorkload> (*Decode)(dom::object, model::ResourceCatalog&)>
core::Status DecodeWorkloadRow(dom::object obj, std::string_view, DecodeSink& sink) {
  return KeepWorkload(Decode(obj, sink.snapshot().resources), sink);
}

// A TrainJob's document holds no pod template (its runtime does, and Kueue patches them
// through spec.runtimePatches, which berth does not write): nothing to inject into.
void TrainJobNoTemplates(std::string_view, nlohmann::ordered_json&,
                         std::vector<nlohmann::ordered_json*>*) {}

// Volcano's Job also brings the PodGroup Volcano's controller makes for it (`<job>-<uid>`,
// minMember its minAvailable), without which its pods would wait for a group that does not
// exist. It has no document (an invalid source): Finish drops it when the input gives that
// PodGroup.
core::Status DecodeVolcanoJobRow(dom::object obj, std::string_view, DecodeSink& sink) {
  int32_t min_available = 0;
  model::PodGroup group;
  auto w = DecodeVolcanoJob(obj, sink.snapshot().resources, &min_available,
                            &group.min_task_member);
  if (w.has_value()) {
    group.api_version = "scheduling.volcano.sh/v1beta1";
    group.meta.name = VolcanoPodGroupName(w->workload);
    group.meta.namespace_ = w->workload.meta.namespace_;
    group.min_member = min_available;
    // The controller copies the Job's queue into the PodGroup's spec.queue.
    if (!w->sources.empty()) group.queue = w->sources.front().queue;
  }
  BERTH_RETURN_IF_ERROR(KeepWorkload(std::move(w), sink));
  group.cluster = sink.snapshot().workloads.back().cluster;
  sink.snapshot().pod_groups.push_back(std::move(group));
  return core::OkStatus();
}

// scheduling.k8s.io Workload: one PodGroup per spec.podGroups[] entry, all with the
// Workload's document.
core::Status DecodeSchedulingWorkloadRow(dom::object obj, std::string_view api_version,
                                         DecodeSink& sink) {
  auto groups = DecodeSchedulingWorkload(obj, api_version);
  if (!groups.has_value()) return std::move(groups).error();
  const std::string cluster = sink.ClusterOf(groups->front().meta);
  const model::SourceRef source = sink.Store(groups->front().meta);
  for (model::PodGroup& g : *groups) {
    g.cluster = cluster;
    g.source = source;
    sink.snapshot().pod_groups.push_back(std::move(g));
  }
  return core::OkStatus();
}

core::Status DecodeSchedulerConfigRow(dom::object obj, std::string_view, DecodeSink& sink) {
  Snapshot& snap = sink.snapshot();
  if (snap.scheduler_config.has_value()) {
    return core::FailedPrecondition(
        "a second KubeSchedulerConfiguration is ignored; give one per run");
  }
  auto config = DecodeSchedulerConfig(obj);
  if (!config.has_value()) return std::move(config).error();
  snap.scheduler_config = std::move(*config);
  return core::OkStatus();
}

core::Status DecodeKueueConfigRow(dom::object obj, std::string_view api_version, DecodeSink& sink) {
  Snapshot& snap = sink.snapshot();
  if (snap.kueue_config.has_value()) {
    return core::FailedPrecondition("a second Kueue Configuration is ignored; give one per run");
  }
  auto config = DecodeKueueConfig(obj, api_version);
  if (!config.has_value()) return std::move(config).error();
  config->source = sink.Store(sink.PeekMeta(/*namespaced=*/false));
  // A DRA quota resource is named by the Configuration, maybe by no ClusterQueue: interned
  // here so queueing can count it (and say a ClusterQueue lacks it) without writing.
  for (model::DeviceClassMapping& m : config->device_class_mappings) {
    m.resource = snap.resources.Intern(m.name);
  }
  snap.kueue_config = std::move(*config);
  return core::OkStatus();
}

// resource.k8s.io: the row's versions are exactly those ResourceApiShapeOf knows.
ResourceApiShape ShapeOf(std::string_view api_version) {
  auto shape = ResourceApiShapeOf(api_version);
  BERTH_CHECK(shape.has_value(), "resource.k8s.io rows list only versions with a shape");
  return *shape;
}

// kueue.x-k8s.io: likewise for KueueVersionOf.
KueueVersion KueueOf(std::string_view api_version) {
  auto version = KueueVersionOf(api_version);
  BERTH_CHECK(version.has_value(), "kueue.x-k8s.io rows list only versions KueueVersionOf knows");
  return *version;
}

core::Status DecodeKueueWorkloadRow(dom::object obj, std::string_view api_version,
                                    DecodeSink& sink) {
  auto wl = DecodeKueueWorkload(obj, KueueOf(api_version), sink.snapshot().resources);
  if (wl.has_value()) {
    std::string cluster = sink.ClusterOf(wl->meta);
    for (model::KueuePodSet& set : wl->pod_sets) set.pod_template.cluster = cluster;
  }
  return KeepInCluster(std::move(wl), &Snapshot::kueue_workloads, sink);
}

// Columns: group, kind, decoder, pod identity (workloads), status writer, ownership
// (workloads), pod templates (workloads and Pod), Kueue integration (workloads). Same order as
// model/kind_info.cc; rows with a status writer print in this order.
constexpr KindRow kRows[] = {
    // core/v1
    {"", "Namespace",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepShared(DecodeNamespace(obj), &Snapshot::namespaces, s);
     }},
    {"", "Node",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeNode(obj, s.snapshot().resources), &Snapshot::nodes, s);
     }},
    {"", "Pod", DecodePodRow, nullptr, &kPodStatus, nullptr, PodItselfTemplates},
    // core/v1 kinds read for berth doctor (the plan does not use them)
    {"", "ServiceAccount",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeServiceAccount(obj), &Snapshot::service_accounts, s);
     }},
    {"", "ConfigMap",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeConfigMap(obj), &Snapshot::config_maps, s);
     }},
    {"", "ResourceQuota",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeResourceQuota(obj), &Snapshot::resource_quotas, s);
     }},
    {"", "LimitRange",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeLimitRange(obj), &Snapshot::limit_ranges, s);
     }},
    {"", "PersistentVolumeClaim",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodePersistentVolumeClaim(obj), &Snapshot::persistent_volume_claims,
                            s);
     },
     nullptr, &kVolumeClaimStatus},
    {"", "PersistentVolume",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodePersistentVolume(obj), &Snapshot::persistent_volumes, s);
     },
     nullptr, &kVolumeStatus},
    {"scheduling.k8s.io", "PriorityClass",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepShared(DecodePriorityClass(obj), &Snapshot::priority_classes, s);
     }},
    // rbac.authorization.k8s.io: the hub authorizes with their documents; doctor reads them
    {"rbac.authorization.k8s.io", "ClusterRole",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeRbacRole(obj, false), &Snapshot::rbac_roles, s);
     }},
    {"rbac.authorization.k8s.io", "ClusterRoleBinding",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeRbacBinding(obj, false), &Snapshot::rbac_bindings, s);
     }},
    {"rbac.authorization.k8s.io", "Role",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeRbacRole(obj, true), &Snapshot::rbac_roles, s);
     }},
    {"rbac.authorization.k8s.io", "RoleBinding",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeRbacBinding(obj, true), &Snapshot::rbac_bindings, s);
     }},
    // networking.k8s.io, policy, storage.k8s.io, node.k8s.io: read for berth doctor
    {"networking.k8s.io", "NetworkPolicy",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeNetworkPolicy(obj), &Snapshot::network_policies, s);
     }},
    {"policy", "PodDisruptionBudget",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodePodDisruptionBudget(obj, api_version == "policy/v1beta1"),
                            &Snapshot::pod_disruption_budgets, s);
     }},
    {"storage.k8s.io", "StorageClass",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeStorageClass(obj), &Snapshot::storage_classes, s);
     }},
    {"storage.k8s.io", "CSINode",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeCSINode(obj), &Snapshot::csi_nodes, s);
     }},
    {"node.k8s.io", "RuntimeClass",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeRuntimeClass(obj, s.snapshot().resources),
                            &Snapshot::runtime_classes, s);
     }},
    // workloads
    {"batch", "Job", DecodeWorkloadRow<DecodeJob>, JobPodIdentity, nullptr, JobOwnership,
     SpecTemplate},
    {"apps", "Deployment", DecodeWorkloadRow<DecodeReplicated>, ReplicaPodIdentity, nullptr,
     DeploymentOwnership, SpecTemplate},
    {"apps", "StatefulSet", DecodeWorkloadRow<DecodeReplicated>, StatefulSetPodIdentity, nullptr,
     StatefulSetOwnership, SpecTemplate},
    {"apps", "ReplicaSet", DecodeWorkloadRow<DecodeReplicated>, ReplicaPodIdentity, nullptr,
     ReplicaOwnership, SpecTemplate},
    {"jobset.x-k8s.io", "JobSet", DecodeWorkloadRow<DecodeJobSet>, JobSetPodIdentity, nullptr,
     JobSetOwnership, JobSetTemplates},
    {"kubeflow.org", "PyTorchJob", DecodeWorkloadRow<DecodePyTorchJob>, PyTorchJobPodIdentity,
     nullptr, PyTorchJobOwnership, PyTorchJobTemplates},
    {"leaderworkerset.x-k8s.io", "LeaderWorkerSet", DecodeWorkloadRow<DecodeLeaderWorkerSet>,
     LeaderWorkerSetPodIdentity, nullptr, LeaderWorkerSetOwnership, LeaderWorkerSetTemplates},
    {"kubeflow.org", "MPIJob", DecodeWorkloadRow<DecodeMPIJob>, MPIJobPodIdentity, nullptr,
     MPIJobOwnership, MPIJobTemplates},
    {"ray.io", "RayCluster", DecodeWorkloadRow<DecodeRayCluster>, RayPodIdentity, nullptr,
     RayOwnership, RayClusterTemplates},
    {"ray.io", "RayJob", DecodeWorkloadRow<DecodeRayJob>, RayPodIdentity, nullptr, RayOwnership,
     RayJobTemplates},
    {"batch.volcano.sh", "Job", DecodeVolcanoJobRow, VolcanoJobPodIdentity, nullptr,
     VolcanoJobOwnership, VolcanoJobTemplates, /*kueue_integration=*/false},
    // Kubeflow Trainer: a TrainJob's pods are its JobSet's (named and owned as a JobSet's);
    // Finish builds its pod sets from the runtime (trainjob_runtime.h). Its document holds
    // no pod template, so a ManifestWork's copy gets no flavor injection (docs/limits.md).
    {"trainer.kubeflow.org", "TrainJob",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepWorkload(DecodeTrainJob(obj), s);
     },
     JobSetPodIdentity, nullptr, JobSetOwnership, TrainJobNoTemplates},
    // KServe: an InferenceService's predictor pods are a workload (KServe has no Kueue job
    // integration of its own: its Deployment's pods are queued as pods); its model goes
    // beside it for the data module.
    {"serving.kserve.io", "InferenceService",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       auto decoded = DecodeInferenceService(obj, s.snapshot().resources);
       if (!decoded.has_value()) return core::Status(std::move(decoded).error());
       model::InferenceServiceModel model = std::move(decoded->model);
       core::Status kept_workload = KeepWorkload(std::move(decoded->workload), s);
       if (!kept_workload.ok()) return kept_workload;
       const model::WorkloadObject& kept = s.snapshot().workloads.back();
       model.cluster = kept.cluster;
       model.source = kept.source;
       s.snapshot().inference_services.push_back(std::move(model));
       return core::OkStatus();
     },
     ReplicaPodIdentity, nullptr, ReplicaOwnership, InferenceServiceTemplates,
     /*kueue_integration=*/false, /*inline_pod_spec=*/true},
    // Fluid: datasets, their cache runtimes and prefetches, for the data module.
    {"data.fluid.io", "Dataset",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeDataset(obj), &Snapshot::datasets, s);
     }},
    {"data.fluid.io", "AlluxioRuntime",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeDataRuntime(obj, "AlluxioRuntime"), &Snapshot::data_runtimes, s);
     }},
    {"data.fluid.io", "JuiceFSRuntime",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeDataRuntime(obj, "JuiceFSRuntime"), &Snapshot::data_runtimes, s);
     }},
    {"data.fluid.io", "JindoRuntime",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeDataRuntime(obj, "JindoRuntime"), &Snapshot::data_runtimes, s);
     }},
    {"data.fluid.io", "DataLoad",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeDataLoad(obj), &Snapshot::data_loads, s);
     }},
    {"serving.kserve.io", "ClusterServingRuntime",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeServingRuntime(obj, /*cluster_scoped=*/true),
                            &Snapshot::serving_runtimes, s);
     }},
    {"serving.kserve.io", "ServingRuntime",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeServingRuntime(obj, /*cluster_scoped=*/false),
                            &Snapshot::serving_runtimes, s);
     }},
    {"trainer.kubeflow.org", "TrainingRuntime",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(
           DecodeTrainingRuntime(obj, api_version, "TrainingRuntime", s.snapshot().resources),
           &Snapshot::training_runtimes, s);
     }},
    {"trainer.kubeflow.org", "ClusterTrainingRuntime",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodeTrainingRuntime(obj, api_version, "ClusterTrainingRuntime",
                                                  s.snapshot().resources),
                            &Snapshot::training_runtimes, s);
     }},
    // component configuration
    {"kubescheduler.config.k8s.io", "KubeSchedulerConfiguration", DecodeSchedulerConfigRow},
    {"config.kueue.x-k8s.io", "Configuration", DecodeKueueConfigRow},
    // resource.k8s.io
    {"resource.k8s.io", "DeviceClass",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepShared(DecodeDeviceClass(obj), &Snapshot::device_classes, s);
     }},
    {"resource.k8s.io", "ResourceClaim",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodeResourceClaim(obj, ShapeOf(api_version)),
                            &Snapshot::resource_claims, s);
     },
     nullptr, &kClaimStatus},
    {"resource.k8s.io", "ResourceClaimTemplate",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodeResourceClaimTemplate(obj, ShapeOf(api_version)),
                            &Snapshot::resource_claim_templates, s);
     }},
    {"resource.k8s.io", "ResourceSlice",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodeResourceSlice(obj, ShapeOf(api_version)),
                            &Snapshot::resource_slices, s);
     }},
    {"resource.k8s.io", "DeviceTaintRule",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeDeviceTaintRule(obj), &Snapshot::device_taint_rules, s);
     }},
    // kueue.x-k8s.io
    {"kueue.x-k8s.io", "ResourceFlavor",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeResourceFlavor(obj), &Snapshot::resource_flavors, s);
     }},
    {"kueue.x-k8s.io", "ClusterQueue",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodeClusterQueue(obj, KueueOf(api_version), s.snapshot().resources),
                            &Snapshot::cluster_queues, s);
     }},
    {"kueue.x-k8s.io", "Cohort",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodeCohort(obj, KueueOf(api_version), s.snapshot().resources),
                            &Snapshot::cohorts, s);
     }},
    {"kueue.x-k8s.io", "LocalQueue",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeLocalQueue(obj), &Snapshot::local_queues, s);
     }},
    {"kueue.x-k8s.io", "WorkloadPriorityClass",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeWorkloadPriorityClass(obj), &Snapshot::workload_priority_classes,
                            s);
     }},
    {"kueue.x-k8s.io", "Topology",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeTopology(obj), &Snapshot::topologies, s);
     }},
    {"kueue.x-k8s.io", "AdmissionCheck",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeAdmissionCheck(obj), &Snapshot::admission_checks, s);
     }},
    {"kueue.x-k8s.io", "Workload", DecodeKueueWorkloadRow, nullptr, &kKueueWorkloadStatus},
    {"kueue.x-k8s.io", "MultiKueueConfig",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodeMultiKueueConfig(obj, KueueOf(api_version)),
                            &Snapshot::multikueue_configs, s);
     }},
    {"kueue.x-k8s.io", "MultiKueueCluster",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodeMultiKueueCluster(obj, KueueOf(api_version)),
                            &Snapshot::multikueue_clusters, s);
     }},
    // gang scheduling
    {"scheduling.x-k8s.io", "PodGroup",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodePodGroup(obj, api_version), &Snapshot::pod_groups, s);
     }},
    {"scheduling.volcano.sh", "PodGroup",
     [](dom::object obj, std::string_view api_version, DecodeSink& s) {
       return KeepInCluster(DecodePodGroup(obj, api_version), &Snapshot::pod_groups, s);
     }},
    {"scheduling.k8s.io", "Workload", DecodeSchedulingWorkloadRow},
    // cluster.open-cluster-management.io
    {"cluster.open-cluster-management.io", "ManagedCluster",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeManagedCluster(obj), &Snapshot::managed_clusters, s);
     }},
    {"cluster.open-cluster-management.io", "ClusterClaim",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeClusterClaim(obj), &Snapshot::cluster_claims, s);
     }},
    {"cluster.open-cluster-management.io", "ManagedClusterSet",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeManagedClusterSet(obj), &Snapshot::managed_cluster_sets, s);
     }},
    {"cluster.open-cluster-management.io", "ManagedClusterSetBinding",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeManagedClusterSetBinding(obj),
                            &Snapshot::managed_cluster_set_bindings, s);
     }},
    {"cluster.open-cluster-management.io", "Placement",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodePlacement(obj), &Snapshot::placements, s);
     },
     nullptr, &kPlacementStatus},
    {"cluster.open-cluster-management.io", "PlacementDecision",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodePlacementDecision(obj), &Snapshot::placement_decisions, s);
     },
     nullptr, &kPlacementDecisionStatus},
    {"cluster.open-cluster-management.io", "AddOnPlacementScore",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeAddOnPlacementScore(obj), &Snapshot::addon_placement_scores, s);
     }},
    // work.open-cluster-management.io
    {"work.open-cluster-management.io", "ManifestWork",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeManifestWork(obj), &Snapshot::manifest_works, s);
     },
     nullptr, &kManifestWorkStatus},
    {"work.open-cluster-management.io", "ManifestWorkReplicaSet",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeManifestWorkReplicaSet(obj),
                            &Snapshot::manifest_work_replica_sets, s);
     },
     nullptr, &kManifestWorkReplicaSetStatus},
    // apps/v1 ControllerRevision: an MWRS's revision history, printed after the MWRS.
    {"apps", "ControllerRevision",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeControllerRevision(obj), &Snapshot::controller_revisions, s);
     },
     nullptr, &kControllerRevisionStatus},
    // federation-ai.open-cluster-management.io
    {"federation-ai.open-cluster-management.io", "FederatedLearning",
     [](dom::object obj, std::string_view, DecodeSink& s) {
       return KeepInCluster(DecodeFederatedLearning(obj), &Snapshot::federated_learnings, s);
     },
     nullptr, &kFederatedLearningStatus},
};

// io rows by model row index. Built once; a row naming no model row, or a model row named
// twice, is a bug in the tables (every test that reads an object would abort).
const std::vector<const KindRow*>& RowsByModelIndex() {
  static const std::vector<const KindRow*> rows = [] {
    std::vector<const KindRow*> out(model::AllKinds().size(), nullptr);
    for (const KindRow& row : kRows) {
      const model::KindInfo* info = model::FindKind(row.group, row.kind);
      BERTH_CHECK(info != nullptr, "io kind row without a model/kind_info.cc row");
      const size_t i = model::KindIndex(*info);
      BERTH_CHECK(out[i] == nullptr, "two io kind rows for one model row");
      out[i] = &row;
    }
    return out;
  }();
  return rows;
}

}  // namespace

std::span<const KindRow> KindRows() { return kRows; }

const KindRow* RowOf(const model::KindInfo& info) {
  return RowsByModelIndex()[model::KindIndex(info)];
}

KindEntry FindKindEntry(std::string_view api_version, std::string_view kind) {
  const model::KindInfo* info = model::FindKindForApiVersion(api_version, kind);
  if (info == nullptr) return {};
  const KindRow* row = RowOf(*info);
  if (row == nullptr) return {};
  return {info, row};
}

const KindRow* FindKindRow(std::string_view group, std::string_view kind) {
  const model::KindInfo* info = model::FindKind(group, kind);
  return info == nullptr ? nullptr : RowOf(*info);
}

}  // namespace berth::io::internal
