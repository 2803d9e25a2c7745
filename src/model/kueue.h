// Kueue's objects (kueue.x-k8s.io/v1beta2, v1beta1 read into the same structs) and its
// manager Configuration, as plain data owned by Snapshot. io fills them; queueing reads them
// and writes admissions back into Workload. Semantics: ../shared/reference/kueue.md and
// docs/queueing.md. Amounts use ResourceVector units (cpu milli, others whole units).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/selector.h"
#include "core/taint.h"
#include "core/time.h"
#include "model/object_meta.h"
#include "model/pod.h"
#include "model/resources.h"

namespace berth::model {

// ---- ResourceFlavor, Topology, WorkloadPriorityClass, AdmissionCheck ----

struct ResourceFlavor {
  ObjectMeta meta;
  core::Labels node_labels;
  std::vector<core::Taint> node_taints;
  std::vector<core::Toleration> tolerations;
  std::string topology_name;  // non-empty: a TAS flavor
  std::string cluster = "default";
  SourceRef source;
};

struct Topology {
  ObjectMeta meta;
  std::vector<std::string> levels;  // node label keys, coarsest first
  std::string cluster = "default";
  SourceRef source;
};

struct WorkloadPriorityClass {
  ObjectMeta meta;
  int32_t value = 0;
  std::string cluster = "default";
  SourceRef source;
};

enum class CheckState { kPending, kReady, kRetry, kRejected };

struct AdmissionCheck {
  ObjectMeta meta;
  std::string controller_name;
  std::string parameters_api_group;
  std::string parameters_kind;
  std::string parameters_name;
  std::string cluster = "default";
  SourceRef source;
};

// ---- ClusterQueue and Cohort ----

struct ResourceQuota {
  ResourceId resource;
  int64_t nominal = 0;
  std::optional<int64_t> borrowing_limit;  // nullopt: unlimited
  std::optional<int64_t> lending_limit;    // nullopt: all of nominal is lendable
};

struct FlavorQuotas {
  std::string flavor;
  std::vector<ResourceQuota> resources;  // exactly the group's covered resources
};

struct ResourceGroup {
  std::vector<ResourceId> covered_resources;
  std::vector<FlavorQuotas> flavors;  // in preference order
};

enum class QueueingStrategy { kBestEffortFifo, kStrictFifo };
enum class PreemptionPolicy { kNever, kLowerPriority, kLowerOrNewerEqualPriority, kAny };
enum class FungibilityPolicy { kMayStopSearch, kTryNextFlavor };
enum class FungibilityPreference { kBorrowingOverPreemption, kPreemptionOverBorrowing };
enum class StopPolicy { kNone, kHold, kHoldAndDrain };

struct FlavorFungibility {
  FungibilityPolicy when_can_borrow = FungibilityPolicy::kMayStopSearch;
  FungibilityPolicy when_can_preempt = FungibilityPolicy::kTryNextFlavor;
  FungibilityPreference preference = FungibilityPreference::kBorrowingOverPreemption;
};

struct BorrowWithinCohort {
  PreemptionPolicy policy = PreemptionPolicy::kNever;  // kNever or kLowerPriority
  std::optional<int32_t> max_priority_threshold;
};

struct ClusterQueuePreemption {
  PreemptionPolicy reclaim_within_cohort = PreemptionPolicy::kNever;
  PreemptionPolicy within_cluster_queue = PreemptionPolicy::kNever;
  BorrowWithinCohort borrow_within_cohort;
};

struct AdmissionCheckRule {
  std::string name;
  std::vector<std::string> on_flavors;  // empty: every workload of the queue
};

struct ClusterQueue {
  ObjectMeta meta;
  std::vector<ResourceGroup> resource_groups;
  std::string cohort;  // empty: no borrowing or lending
  QueueingStrategy queueing_strategy = QueueingStrategy::kBestEffortFifo;
  // nullopt: no namespace may use the queue; an empty selector: every namespace.
  std::optional<core::LabelSelector> namespace_selector;
  FlavorFungibility flavor_fungibility;
  ClusterQueuePreemption preemption;
  std::vector<AdmissionCheckRule> admission_checks;
  StopPolicy stop_policy = StopPolicy::kNone;
  int64_t fair_sharing_weight_milli = 1000;  // fairSharing.weight, default 1
  bool usage_based_admission_fair_sharing = false;  // admissionScope.admissionMode
  std::string cluster = "default";
  SourceRef source;
};

struct Cohort {
  ObjectMeta meta;
  std::string parent;  // empty: a root
  std::vector<ResourceGroup> resource_groups;
  int64_t fair_sharing_weight_milli = 1000;
  std::string cluster = "default";
  SourceRef source;
};

struct LocalQueue {
  ObjectMeta meta;
  std::string cluster_queue;
  StopPolicy stop_policy = StopPolicy::kNone;
  int64_t fair_sharing_weight_milli = 1000;
  // status.fairSharing.admissionFairSharingStatus.consumedResources (AFS), when given, in
  // milli-units for every resource (Kueue stores decayed, fractional amounts: "1500m" GPUs).
  std::map<std::string, int64_t> consumed_resources_milli;
  std::optional<core::Timestamp> consumed_last_update;
  std::string cluster = "default";
  SourceRef source;
};

// ---- Workload ----

struct TopologyRequest {
  std::string required;    // podset-required-topology level
  std::string preferred;   // podset-preferred-topology level
  bool unconstrained = false;
  std::string slice_required_topology;
  std::optional<int32_t> slice_size;
  std::string pod_set_group_name;
  bool empty() const {
    return required.empty() && preferred.empty() && !unconstrained &&
           slice_required_topology.empty();
  }
};

struct KueuePodSet {
  std::string name = "main";
  int32_t count = 1;
  std::optional<int32_t> min_count;  // partial admission
  Pod pod_template;                  // requests, selectors, affinity, tolerations
  TopologyRequest topology_request;
};

struct TopologyDomainAssignment {
  std::vector<std::string> values;  // one per level in TopologyAssignment::levels
  int32_t count = 0;
};

struct TopologyAssignment {
  std::vector<std::string> levels;
  std::vector<TopologyDomainAssignment> domains;
};

struct PodSetAssignment {
  std::string name;
  std::map<std::string, std::string> flavors;        // resource name -> flavor
  std::map<std::string, int64_t> resource_usage;     // resource name -> total amount
  int32_t count = 0;
  std::optional<TopologyAssignment> topology_assignment;
};

struct Admission {
  std::string cluster_queue;
  std::vector<PodSetAssignment> pod_set_assignments;
};

struct WorkloadCondition {
  std::string type;    // QuotaReserved, Admitted, Evicted, Preempted, PodsReady, Finished...
  std::string status;  // "True" / "False"
  std::string reason;
  std::string message;
  core::Timestamp last_transition_time;
};

struct AdmissionCheckStatus {
  std::string name;
  CheckState state = CheckState::kPending;
  std::string message;
};

// Workload.spec.priorityClassSource: where the priority came from.
inline constexpr const char* kWorkloadPriorityClassSource = "kueue.x-k8s.io/workloadpriorityclass";
inline constexpr const char* kPodPriorityClassSource = "scheduling.k8s.io/priorityclass";

struct Workload {
  ObjectMeta meta;
  std::string queue_name;  // the LocalQueue, in meta.namespace_
  std::vector<KueuePodSet> pod_sets;
  int32_t priority = 0;
  std::string priority_class_name;
  std::string priority_class_source;  // kWorkloadPriorityClassSource,
                                      // kPodPriorityClassSource or empty
  bool active = true;
  std::optional<Admission> admission;  // given: the workload holds that quota
  std::vector<WorkloadCondition> conditions;
  std::vector<AdmissionCheckStatus> admission_checks;
  std::vector<std::string> nominated_cluster_names;
  std::string cluster_name;  // status.clusterName (MultiKueue)

  // The job this Workload was created for (Job, JobSet, ...), as an index into
  // Snapshot::workloads; nullopt for a Workload given as such. Its pods are the pods whose
  // owner is that job.
  std::optional<int32_t> owner_workload;
  // metadata.ownerReferences' controller of a given Workload: the job Kueue made it for.
  std::optional<OwnerRef> owner;
  // The pods io expanded from that job, per pod set (parallel to pod_sets), as indices into
  // Snapshot::pods; empty for a given Workload. Until the Workload is admitted they are
  // what the job would create (Kueue keeps the job suspended), so they are neither bound
  // nor printed.
  std::vector<std::vector<int32_t>> pods;
  bool created = false;  // made by berth from a job (not in the input): printed whole
  std::string cluster = "default";
  SourceRef source;

  const WorkloadCondition* FindCondition(const std::string& type) const {
    for (const auto& c : conditions) {
      if (c.type == type) return &c;
    }
    return nullptr;
  }
};

// ---- Kueue's manager Configuration (config.kueue.x-k8s.io) ----

enum class FairSharingStrategy { kLessThanOrEqualToFinalShare, kLessThanInitialShare };

struct FairSharingConfig {
  std::vector<FairSharingStrategy> preemption_strategies = {
      FairSharingStrategy::kLessThanOrEqualToFinalShare, FairSharingStrategy::kLessThanInitialShare};
};

struct AdmissionFairSharingConfig {
  int64_t usage_half_life_time_s = 0;
  int64_t usage_sampling_interval_s = 300;
  std::map<std::string, int64_t> resource_weights_milli;  // default weight 1
};

struct WaitForPodsReadyConfig {
  int64_t timeout_s = 1800;
  bool block_admission = false;
  std::optional<int64_t> recovery_timeout_s;
  std::string requeuing_timestamp = "Eviction";
  std::optional<int32_t> backoff_limit_count;
  int64_t backoff_base_s = 60;
  int64_t backoff_max_s = 3600;
};

// resources.deviceClassMappings[] (KueueDRAIntegration): the devices a workload's
// ResourceClaimTemplates request of these DeviceClasses count against the quota resource
// `name`, one unit per device (kueue pkg/dra). Counter and capacity `sources` are read
// (has_sources) but not counted by them: docs/queueing.md.
struct DeviceClassMapping {
  std::string name;
  ResourceId resource;  // `name` interned in the snapshot's catalog by io
  std::vector<std::string> device_class_names;
  bool has_sources = false;
};

struct KueueConfig {
  std::optional<FairSharingConfig> fair_sharing;  // present: fair sharing on
  std::optional<AdmissionFairSharingConfig> admission_fair_sharing;
  std::optional<WaitForPodsReadyConfig> wait_for_pods_ready;
  // multiKueue.dispatcherName, and whether the Configuration gives it: Kueue's default is
  // all-at-once, berth's (field not given) its best-fit dispatch (engine/multikueue_dispatch.h).
  std::string multikueue_dispatcher = "kueue.x-k8s.io/multikueue-dispatcher-all-at-once";
  bool multikueue_dispatcher_given = false;
  // multiKueue.incrementalDispatcherConfig.stepSize (v1beta2); unset: Kueue's 3.
  std::optional<int32_t> multikueue_incremental_step_size;
  int64_t multikueue_worker_lost_timeout_s = 900;
  // featureGates, as given (name -> enabled); gates not named keep Kueue's defaults.
  std::map<std::string, bool> feature_gates;
  std::vector<DeviceClassMapping> device_class_mappings;
  SourceRef source;
};

}  // namespace berth::model
