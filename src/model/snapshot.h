// Snapshot: every object of one planning pass, as plain data in vectors. Objects refer to
// each other by index or name, never by pointer, so a Snapshot copies and compares as a
// value. Built by io, read by every stage; the engine copies it to write decisions back.
#pragma once

#include <optional>
#include <vector>

#include "model/cluster_config.h"
#include "model/controller_revision.h"
#include "model/data_objects.h"
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
#include "model/storage.h"
#include "model/tenancy.h"
#include "model/training_runtime.h"
#include "model/work.h"
#include "model/work_replica_set.h"
#include "model/workload_object.h"

namespace berth::model {

struct Snapshot {
  ResourceCatalog resources;
  std::vector<Node> nodes;
  std::vector<Pod> pods;  // given pods first, then pods expanded from workloads
  std::vector<PriorityClass> priority_classes;
  std::vector<Namespace> namespaces;
  std::vector<WorkloadObject> workloads;
  std::optional<SchedulerConfig> scheduler_config;

  // Dynamic Resource Allocation (resource.k8s.io).
  std::vector<DeviceClass> device_classes;
  std::vector<ResourceClaim> resource_claims;  // given, then generated from templates
  std::vector<ResourceClaimTemplate> resource_claim_templates;
  std::vector<ResourceSlice> resource_slices;
  std::vector<DeviceTaintRule> device_taint_rules;

  // Kueue (kueue.x-k8s.io) and gangs outside Kueue.
  std::vector<ResourceFlavor> resource_flavors;
  std::vector<ClusterQueue> cluster_queues;
  std::vector<Cohort> cohorts;
  std::vector<LocalQueue> local_queues;
  std::vector<WorkloadPriorityClass> workload_priority_classes;
  std::vector<Topology> topologies;
  std::vector<AdmissionCheck> admission_checks;
  // Given Workloads first, then the ones io creates for jobs carrying the
  // kueue.x-k8s.io/queue-name label (named `<kind lowercased>-<name>`).
  std::vector<Workload> kueue_workloads;
  std::optional<KueueConfig> kueue_config;
  std::vector<PodGroup> pod_groups;
  // Kubeflow Trainer's runtimes (trainer.kubeflow.org), which TrainJobs expand from.
  std::vector<TrainingRuntime> training_runtimes;

  // Open Cluster Management (cluster.open-cluster-management.io), hub side.
  std::vector<ManagedCluster> managed_clusters;
  std::vector<ClusterClaim> cluster_claims;
  std::vector<ManagedClusterSet> managed_cluster_sets;
  std::vector<ManagedClusterSetBinding> managed_cluster_set_bindings;
  std::vector<Placement> placements;
  std::vector<PlacementDecision> placement_decisions;
  std::vector<AddOnPlacementScore> addon_placement_scores;

  // Fleet delivery: ManifestWork (work.open-cluster-management.io) and MultiKueue.
  std::vector<ManifestWork> manifest_works;
  // ManifestWorkReplicaSets (work/v1alpha1) and the ControllerRevisions (apps/v1) of every
  // namespace: berth keeps an MWRS's revision history in the ones it owns.
  std::vector<ManifestWorkReplicaSet> manifest_work_replica_sets;
  std::vector<ControllerRevision> controller_revisions;
  std::vector<MultiKueueConfig> multikueue_configs;
  std::vector<MultiKueueCluster> multikueue_clusters;

  // Tenancy, storage and cluster configuration: read for berth doctor; binding's volume
  // filters plan with the storage kinds.
  std::vector<NamespaceQuota> resource_quotas;  // v1 ResourceQuota
  std::vector<LimitRange> limit_ranges;
  std::vector<NetworkPolicy> network_policies;
  std::vector<ServiceAccount> service_accounts;
  std::vector<RbacRole> rbac_roles;        // Roles and ClusterRoles
  std::vector<RbacBinding> rbac_bindings;  // RoleBindings and ClusterRoleBindings
  std::vector<PersistentVolumeClaim> persistent_volume_claims;
  std::vector<PersistentVolume> persistent_volumes;
  std::vector<StorageClass> storage_classes;
  std::vector<CSINode> csi_nodes;
  std::vector<PodDisruptionBudget> pod_disruption_budgets;
  std::vector<RuntimeClass> runtime_classes;
  std::vector<ConfigMap> config_maps;

  // Data and model delivery: Fluid's datasets, cache runtimes and prefetches
  // (data.fluid.io), KServe's models and serving runtimes (serving.kserve.io). An
  // InferenceService's pods are a workload above; its model is here.
  std::vector<Dataset> datasets;
  std::vector<DataRuntime> data_runtimes;
  std::vector<DataLoad> data_loads;
  std::vector<ServingRuntime> serving_runtimes;
  std::vector<InferenceServiceModel> inference_services;

  // Federated learning (federation-ai.open-cluster-management.io), hub side.
  std::vector<FederatedLearning> federated_learnings;

  const Node& node(NodeIndex i) const { return nodes[static_cast<size_t>(i.v)]; }
  const Pod& pod(PodIndex i) const { return pods[static_cast<size_t>(i.v)]; }
};

}  // namespace berth::model
