// Pod: one Kubernetes v1 Pod, given or expanded from a workload template, with the scheduling
// fields kube-scheduler reads. Plain data, owned by Snapshot; refers to nothing by pointer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/selector.h"
#include "core/taint.h"
#include "core/time.h"
#include "model/object_meta.h"
#include "model/resources.h"

namespace berth::model {

struct PodIndex {
  int32_t v = -1;
  auto operator<=>(const PodIndex&) const = default;
};

// spec.containers[].ports[] entry that claims a port on the node (hostPort > 0): what the
// NodePorts filter checks. Entries without a host port are validated by io, not kept.
struct HostPort {
  int32_t container_port = 0;
  int32_t host_port = 0;        // 1..65535
  std::string protocol = "TCP";  // TCP, UDP or SCTP (defaulted as the API server does)
  std::string host_ip;          // as written; empty binds every address (0.0.0.0)
  bool operator==(const HostPort&) const = default;
};

struct Container {
  std::string name;
  ResourceVector requests;
  ResourceVector limits;
  // Init containers with restartPolicy: Always (sidecars) keep running beside the app
  // containers and so add to the pod's request.
  bool restartable = false;
  // True when resources.requests names cpu (memory), even as 0. kube-scheduler scores a
  // container that does not name them as if it asked for 100m cpu and 200Mi memory; an
  // explicit 0 stays 0. A non-zero request counts as named whatever these say.
  bool cpu_request_named = false;
  bool memory_request_named = false;
  // ports[] with a hostPort, in order (NodePorts).
  std::vector<HostPort> host_ports;
  // What berth doctor checks of a container (the plan does not read these).
  std::string image;
  std::string image_pull_policy;  // as written; empty when not given
  bool privileged = false;        // securityContext.privileged
  // env NVIDIA_VISIBLE_DEVICES (a literal value), which makes the NVIDIA runtime expose GPUs.
  std::optional<std::string> nvidia_visible_devices;
};

// spec.volumes[]: only the sources berth doctor checks.
struct PodVolume {
  std::string name;
  std::string host_path;   // hostPath.path
  std::string claim_name;  // persistentVolumeClaim.claimName
};

struct PodAffinityTerm {
  std::optional<core::LabelSelector> label_selector;  // nullopt matches no pod
  std::vector<std::string> namespaces;                // empty with no selector: the pod's own
  std::optional<core::LabelSelector> namespace_selector;
  std::string topology_key;
  std::vector<std::string> match_label_keys;
  std::vector<std::string> mismatch_label_keys;
};

struct WeightedPodAffinityTerm {
  int32_t weight = 0;
  PodAffinityTerm term;
};

struct PreferredSchedulingTerm {
  int32_t weight = 0;
  core::NodeSelectorTerm preference;
};

struct NodeAffinity {
  std::optional<core::NodeSelector> required;
  std::vector<PreferredSchedulingTerm> preferred;
};

struct PodAffinityRules {
  std::vector<PodAffinityTerm> required;
  std::vector<WeightedPodAffinityTerm> preferred;
  bool empty() const { return required.empty() && preferred.empty(); }
};

enum class UnsatisfiableAction { kDoNotSchedule, kScheduleAnyway };
enum class NodeInclusionPolicy { kHonor, kIgnore };

struct TopologySpreadConstraint {
  int32_t max_skew = 1;
  std::string topology_key;
  UnsatisfiableAction when_unsatisfiable = UnsatisfiableAction::kDoNotSchedule;
  std::optional<core::LabelSelector> label_selector;
  std::optional<int32_t> min_domains;
  NodeInclusionPolicy node_affinity_policy = NodeInclusionPolicy::kHonor;
  NodeInclusionPolicy node_taints_policy = NodeInclusionPolicy::kIgnore;
  std::vector<std::string> match_label_keys;
};

enum class PodPhase { kPending, kRunning, kSucceeded, kFailed, kUnknown };

struct PodCondition {
  std::string type;
  std::string status;
  std::string reason;
  std::string message;
};

// spec.resourceClaims[]: a pod's reference to a ResourceClaim, by name or through a
// template. io resolves templates, so `claim_name` names the claim the pod uses
// (`<pod>-<name>` for template claims).
struct PodResourceClaim {
  std::string name;                   // the reference's name inside the pod
  std::string claim_name;             // the ResourceClaim object's name
  std::string template_name;          // resourceClaimTemplateName, when given
};

// The controller of an object (the ownerReference with controller: true), or for a pod
// expanded from a template, the workload it came from.
struct OwnerRef {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;  // empty when the reference (or the expanded-from workload) has none
};

// spec.workloadRef (scheduling.k8s.io gang API, Kubernetes 1.35+): the Workload and the pod
// group in its spec.podGroups[] the pod belongs to; pods with the same replica key form one
// instance of that group (engine/pod_groups.h).
struct WorkloadReference {
  std::string name;
  std::string pod_group;
  std::string pod_group_replica_key;
};

struct Pod {
  ObjectMeta meta;
  std::vector<Container> containers;
  std::vector<Container> init_containers;
  ResourceVector overhead;
  // spec.overhead was given (upstream: non-nil). The RuntimeClass admission (io) sets it
  // from the pod's RuntimeClass and refuses a pod whose given overhead differs.
  bool overhead_given = false;

  std::string node_name;  // spec.nodeName: bound pods consume capacity
  std::string scheduler_name = "default-scheduler";
  core::Labels node_selector;
  NodeAffinity node_affinity;
  PodAffinityRules pod_affinity;
  PodAffinityRules pod_anti_affinity;
  std::vector<core::Toleration> tolerations;
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
  std::vector<PodResourceClaim> resource_claims;
  std::vector<PodVolume> volumes;
  std::string runtime_class_name;    // spec.runtimeClassName
  std::string service_account_name;  // spec.serviceAccountName
  std::optional<WorkloadReference> workload_ref;  // spec.workloadRef

  std::string priority_class_name;
  int32_t priority = 0;  // resolved from spec.priority or the PriorityClass by io
  // spec.activeDeadlineSeconds: what a ResourceQuota's Terminating scope selects.
  std::optional<int64_t> active_deadline_seconds;
  // spec.preemptionPolicy, or the PriorityClass's when the pod does not set it (the Priority
  // admission plugin copies it): "PreemptLowerPriority" (also when empty) or "Never".
  std::string preemption_policy;
  // status.startTime (the kubelet's) and status.nominatedNodeName (kube-scheduler's, after
  // preempting for the pod); DefaultPreemption reads both.
  std::optional<core::Timestamp> start_time;
  std::string nominated_node_name;
  PodPhase phase = PodPhase::kPending;
  std::vector<PodCondition> conditions;
  // metadata.deletionTimestamp: set by a plan of N cycles (engine/terminating_pods.h) on a
  // running pod whose workload was evicted in the last cycle: it is still there, terminating.
  std::optional<core::Timestamp> deletion_timestamp;

  std::optional<OwnerRef> owner;
  std::string cluster = "default";
  SourceRef source;  // the pod's document: read, or created by io for a template's pod
  // Expanded by io from a workload's template: a pod the controller would create, which the
  // API server's admission (engine/pod_admission.h) has not seen yet. Given pods exist.
  bool created_from_template = false;
  // Set on a pod the plan creates in place of one it deleted (a re-admitted workload's job
  // creates its pods anew: engine/replacement_pods.h): the deleted pod's name. `source` is
  // then the deleted pod's document, which writers print as the controller creates the new
  // pod (its name, no uid, nodeName or status but the decision's).
  std::string replaces;
  // Set by the plan's admission step (engine/pod_admission.h) on a pod berth creates from a
  // workload that the API server would refuse (a ResourceQuota or LimitRange): the
  // Forbidden message its controller reports (FailedCreate). Such a pod is never created:
  // neither bound nor printed.
  std::string admission_refused;

  // Terminal pods hold no resources.
  bool IsTerminal() const { return phase == PodPhase::kSucceeded || phase == PodPhase::kFailed; }
  bool IsBound() const { return !node_name.empty(); }
  bool NeverPreempts() const { return preemption_policy == "Never"; }
};

}  // namespace berth::model
