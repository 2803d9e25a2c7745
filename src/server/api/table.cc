// Columns follow upstream exactly where kubectl users read them: the CRD columns are copied
// from the projects' kubebuilder markers / CRD manifests (name, type, priority, path), and
// the built-in printers follow kubernetes/pkg/printers/internalversion's printPod, printNode,
// printJob, printDeployment, printNamespace and printControllerRevision for the data an
// object carries. What the built-in printers compute from other objects (a Deployment's
// ReplicaSets) is not printed. berth's own columns on an upstream CRD (a ManifestWorkReplicaSet's
// rollout, a FederatedLearning's round and clients) are wide-only (priority 1), so a plain
// `kubectl get` prints what it prints against upstream's CRD; they are computed from the
// object, as a JSONPath cannot count or combine conditions.
#include "server/api/table.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

#include "server/api/json_access.h"
#include "server/api/list_watch.h"
#include "server/api/media_type.h"

namespace berth::server {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kNameDescription =
    "Name must be unique within a namespace. Is required when creating resources, although "
    "some resources may allow a client to request the generation of an appropriate name "
    "automatically. Name is primarily intended for creation idempotence and configuration "
    "definition. Cannot be updated. More info: "
    "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
constexpr std::string_view kAgeDescription =
    "CreationTimestamp is a timestamp representing the server time when this object was "
    "created. It is not guaranteed to be set in happens-before order across separate "
    "operations. Clients may not set this value. It is represented in RFC3339 form and is in "
    "UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/"
    "api-conventions.md#metadata";

// A column as constant data.
struct ColumnSpec {
  std::string_view name;
  std::string_view type;
  std::string_view json_path;  // empty: computed (by `compute`, or by the kind's printer)
  std::string_view description;
  int priority = 0;
  // A CRD column berth computes from the object (null: read `json_path`).
  Json (*compute)(const Json& object) = nullptr;
};

// berth's computed CRD columns (defined with the cells below).
Json MwrsRolloutCell(const Json& mwrs);
Json FlRoundCell(const Json& fl);
Json FlClientsCell(const Json& fl);

// The CRD columns (additionalPrinterColumns), keyed by group, kind and version ("" = any).
struct CrdColumns {
  std::string_view group;
  std::string_view kind;
  std::string_view version;
  std::span<const ColumnSpec> columns;
};

constexpr ColumnSpec kWorkloadColumns[] = {
    {"Queue", "string", ".spec.queueName", "Name of the queue this workload was submitted to"},
    {"Reserved in", "string", ".status.admission.clusterQueue",
     "Name of the ClusterQueue where the workload is reserving quota"},
    {"Admitted", "string", ".status.conditions[?(@.type=='Admitted')].status",
     "Admission status"},
    {"Finished", "string", ".status.conditions[?(@.type=='Finished')].status",
     "Workload finished"},
    {"Age", "date", ".metadata.creationTimestamp", "Time this workload was created"},
};
constexpr ColumnSpec kClusterQueueV1beta1Columns[] = {
    {"Cohort", "string", ".spec.cohort", "Cohort that this ClusterQueue belongs to"},
    {"Strategy", "string", ".spec.queueingStrategy",
     "The queueing strategy used to prioritize workloads", 1},
    {"Pending Workloads", "integer", ".status.pendingWorkloads", "Number of pending workloads"},
    {"Admitted Workloads", "integer", ".status.admittedWorkloads",
     "Number of admitted workloads that haven't finished yet", 1},
};
constexpr ColumnSpec kClusterQueueV1beta2Columns[] = {
    {"Cohort", "string", ".spec.cohortName", "Cohort that this ClusterQueue belongs to"},
    {"Strategy", "string", ".spec.queueingStrategy",
     "The queueing strategy used to prioritize workloads", 1},
    {"Pending Workloads", "integer", ".status.pendingWorkloads", "Number of pending workloads"},
    {"Admitted Workloads", "integer", ".status.admittedWorkloads",
     "Number of admitted workloads that haven't finished yet", 1},
};
constexpr ColumnSpec kLocalQueueColumns[] = {
    {"ClusterQueue", "string", ".spec.clusterQueue", "Backing ClusterQueue"},
    {"Pending Workloads", "integer", ".status.pendingWorkloads", "Number of pending workloads"},
    {"Admitted Workloads", "integer", ".status.admittedWorkloads",
     "Number of admitted workloads that haven't finished yet."},
};
constexpr ColumnSpec kManagedClusterColumns[] = {
    {"Hub Accepted", "boolean", ".spec.hubAcceptsClient", ""},
    {"Managed Cluster URLs", "string", ".spec.managedClusterClientConfigs[*].url", ""},
    {"Joined", "string", ".status.conditions[?(@.type==\"ManagedClusterJoined\")].status", ""},
    {"Available", "string",
     ".status.conditions[?(@.type==\"ManagedClusterConditionAvailable\")].status", ""},
    {"Age", "date", ".metadata.creationTimestamp", ""},
};
constexpr ColumnSpec kPlacementColumns[] = {
    {"Succeeded", "string", ".status.conditions[?(@.type==\"PlacementSatisfied\")].status", ""},
    {"Reason", "string", ".status.conditions[?(@.type==\"PlacementSatisfied\")].reason", ""},
    {"SelectedClusters", "integer", ".status.numberOfSelectedClusters", ""},
};
// open-cluster-management-io/api work/v1alpha1's CRD, then berth's rollout (wide).
constexpr ColumnSpec kManifestWorkReplicaSetColumns[] = {
    {"Placement", "string", ".status.conditions[?(@.type==\"PlacementVerified\")].reason", "Reason"},
    {"Found", "string", ".status.conditions[?(@.type==\"PlacementVerified\")].status", "Configured"},
    {"ManifestWorks", "string", ".status.conditions[?(@.type==\"ManifestworkApplied\")].reason",
     "Reason"},
    {"Applied", "string", ".status.conditions[?(@.type==\"ManifestworkApplied\")].status", "Applied"},
    {"Rollout", "string", "",
     "berth's rollout state: Progressing, Complete, Paused or RolledBack (berth rollout status)", 1,
     MwrsRolloutCell},
};
// addon-contrib federated-learning-controller's CRD, then berth's progress (wide).
constexpr ColumnSpec kFederatedLearningColumns[] = {
    {"Phase", "string", ".status.phase", "The current phase of the FederatedLearning process"},
    {"Age", "date", ".metadata.creationTimestamp", ""},
    {"Round", "string", "", "The current round, of spec.server.rounds when set", 1, FlRoundCell},
    {"Clients", "string", "", "Clients training, of spec.server.minAvailableClients", 1,
     FlClientsCell},
    {"Server", "string", ".status.serverCluster", "The member cluster the server runs on", 1},
};
// apiextensions' default for a CRD that declares no columns.
constexpr ColumnSpec kAgeOnly[] = {
    {"Age", "date", ".metadata.creationTimestamp", kAgeDescription},
};

constexpr CrdColumns kCrdColumns[] = {
    {"kueue.x-k8s.io", "Workload", "", kWorkloadColumns},
    {"kueue.x-k8s.io", "ClusterQueue", "v1beta1", kClusterQueueV1beta1Columns},
    {"kueue.x-k8s.io", "ClusterQueue", "", kClusterQueueV1beta2Columns},
    {"kueue.x-k8s.io", "LocalQueue", "", kLocalQueueColumns},
    {"cluster.open-cluster-management.io", "ManagedCluster", "", kManagedClusterColumns},
    {"cluster.open-cluster-management.io", "Placement", "", kPlacementColumns},
    {"work.open-cluster-management.io", "ManifestWorkReplicaSet", "", kManifestWorkReplicaSetColumns},
    {"federation-ai.open-cluster-management.io", "FederatedLearning", "", kFederatedLearningColumns},
};

// Built-in printers' columns (computed), after NAME.
enum class Printer { kNone, kPod, kNode, kJob, kDeployment, kNamespace, kControllerRevision };

constexpr ColumnSpec kPodColumns[] = {
    {"Ready", "string", "", "The aggregate readiness state of this pod for accepting traffic."},
    {"Status", "string", "", "The aggregate status of the containers in this pod."},
    {"Restarts", "string", "",
     "The number of times the containers in this pod have been restarted and when the last "
     "container in this pod has restarted."},
    {"Age", "string", "", kAgeDescription},
    {"IP", "string", "", "podIP address allocated to the pod.", 1},
    {"Node", "string", "", "NodeName is a request to schedule this pod onto a specific node.", 1},
    {"Nominated Node", "string", "",
     "nominatedNodeName is set only when this pod preempts other pods on the node.", 1},
    {"Readiness Gates", "string", "", "If specified, all readiness gates will be evaluated.", 1},
};
constexpr ColumnSpec kNodeColumns[] = {
    {"Status", "string", "", "The status of the node"},
    {"Roles", "string", "", "The roles of the node"},
    {"Age", "string", "", kAgeDescription},
    {"Version", "string", "", "Kubelet Version reported by the node."},
    {"Internal-IP", "string", "", "List of addresses reachable to the node.", 1},
    {"External-IP", "string", "", "List of addresses reachable to the node.", 1},
    {"OS-Image", "string", "", "OS Image reported by the node from /etc/os-release.", 1},
    {"Kernel-Version", "string", "", "Kernel Version reported by the node.", 1},
    {"Container-Runtime", "string", "", "ContainerRuntime Version reported by the node.", 1},
};
constexpr ColumnSpec kJobColumns[] = {
    {"Status", "string", "", "Status of the job."},
    {"Completions", "string", "", "The completion status of the job."},
    {"Duration", "string", "", "Time required to complete the job."},
    {"Age", "string", "", kAgeDescription},
    {"Containers", "string", "", "Names of each container in the template.", 1},
    {"Images", "string", "", "Images referenced by each container in the template.", 1},
    {"Selector", "string", "", "A label query over pods that should match the pod count.", 1},
};
constexpr ColumnSpec kDeploymentColumns[] = {
    {"Ready", "string", "", "Number of the pod with ready state"},
    {"Up-to-date", "integer", "", "Total number of non-terminated pods targeted by this deployment that have the desired template spec."},
    {"Available", "integer", "", "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment."},
    {"Age", "string", "", kAgeDescription},
    {"Containers", "string", "", "Names of each container in the template.", 1},
    {"Images", "string", "", "Images referenced by each container in the template.", 1},
    {"Selector", "string", "", "Label selector for pods.", 1},
};
constexpr ColumnSpec kNamespaceColumns[] = {
    {"Status", "string", "", "The status of the namespace"},
    {"Age", "string", "", kAgeDescription},
};
constexpr ColumnSpec kControllerRevisionColumns[] = {
    {"Controller", "string", "", "Controller of the object"},
    {"Revision", "string", "", "Revision indicates the revision of the state represented by Data."},
    {"Age", "string", "", kAgeDescription},
};

Printer PrinterOf(const model::KindInfo& kind) {
  if (kind.group.empty() && kind.kind == "Pod") return Printer::kPod;
  if (kind.group.empty() && kind.kind == "Node") return Printer::kNode;
  if (kind.group.empty() && kind.kind == "Namespace") return Printer::kNamespace;
  if (kind.group == "batch" && kind.kind == "Job") return Printer::kJob;
  if (kind.group == "apps" && kind.kind == "Deployment") return Printer::kDeployment;
  if (kind.group == "apps" && kind.kind == "ControllerRevision") return Printer::kControllerRevision;
  return Printer::kNone;
}

std::span<const ColumnSpec> PrinterColumns(Printer p) {
  switch (p) {
    case Printer::kPod:
      return kPodColumns;
    case Printer::kNode:
      return kNodeColumns;
    case Printer::kJob:
      return kJobColumns;
    case Printer::kDeployment:
      return kDeploymentColumns;
    case Printer::kNamespace:
      return kNamespaceColumns;
    case Printer::kControllerRevision:
      return kControllerRevisionColumns;
    case Printer::kNone:
      break;
  }
  return {};
}

std::span<const ColumnSpec> CrdColumnsFor(const model::KindInfo& kind, std::string_view version) {
  for (const CrdColumns& c : kCrdColumns) {
    if (c.group == kind.group && c.kind == kind.kind &&
        (c.version.empty() || c.version == version)) {
      return c.columns;
    }
  }
  return kAgeOnly;
}

// ---- object access ----

std::string Str(const Json& obj, std::initializer_list<std::string_view> keys) {
  const Json* v = MemberAt(obj, keys);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

int64_t Int(const Json& obj, std::initializer_list<std::string_view> keys, int64_t fallback) {
  const Json* v = MemberAt(obj, keys);
  if (v == nullptr || !v->is_number()) return fallback;
  return v->is_number_integer() ? v->get<int64_t>() : static_cast<int64_t>(v->get<double>());
}

const Json& Array(const Json& obj, std::initializer_list<std::string_view> keys) {
  static const Json kEmpty = Json::array();  // function-local constant
  const Json* v = MemberAt(obj, keys);
  return v != nullptr && v->is_array() ? *v : kEmpty;
}

std::optional<core::Timestamp> Time(const Json& obj, std::initializer_list<std::string_view> keys) {
  const std::string text = Str(obj, keys);
  if (text.empty()) return std::nullopt;
  auto t = core::Timestamp::Parse(text);
  if (!t.has_value()) return std::nullopt;
  return *t;
}

// translateTimestampSince: "<unknown>" for a zero time.
std::string Since(const std::optional<core::Timestamp>& t, core::Timestamp now) {
  if (!t.has_value()) return "<unknown>";
  return HumanDuration(now.unix_s - t->unix_s);
}

std::string OrNone(std::string s) { return s.empty() ? "<none>" : s; }

bool HasCondition(const Json& obj, std::string_view type, std::string_view status) {
  for (const Json& c : Array(obj, {"status", "conditions"})) {
    if (Str(c, {"type"}) == type && Str(c, {"status"}) == status) return true;
  }
  return false;
}

// Names and images of a pod template's containers, comma-joined (layoutContainerCells).
std::pair<std::string, std::string> ContainerCells(const Json& pod_spec) {
  std::string names;
  std::string images;
  for (const Json& c : Array(pod_spec, {"containers"})) {
    if (!names.empty()) {
      names += ',';
      images += ',';
    }
    names += Str(c, {"name"});
    images += Str(c, {"image"});
  }
  return {names, images};
}

// The selector column: "<none>" without a selector (printers' formatting).
std::string SelectorText(const Json* selector) {
  if (selector == nullptr || !selector->is_object()) return "<none>";
  return LabelSelectorText(*selector);
}

// ---- built-in printers ----

void PodCells(const Json& pod, core::Timestamp now, Json& cells) {
  int64_t restarts = 0;
  int64_t ready = 0;
  const int64_t total = static_cast<int64_t>(Array(pod, {"spec", "containers"}).size());
  std::optional<core::Timestamp> last_restart;
  std::string reason = Str(pod, {"status", "phase"});
  if (const std::string r = Str(pod, {"status", "reason"}); !r.empty()) reason = r;
  for (const Json& c : Array(pod, {"status", "conditions"})) {
    if (Str(c, {"type"}) == "PodScheduled" && Str(c, {"reason"}) == "SchedulingGated") {
      reason = "SchedulingGated";
    }
  }
  auto note_restart = [&](const Json& status) {
    if (auto t = Time(status, {"lastState", "terminated", "finishedAt"}); t.has_value()) {
      if (!last_restart.has_value() || *last_restart < *t) last_restart = t;
    }
  };
  bool initializing = false;
  const Json& inits = Array(pod, {"status", "initContainerStatuses"});
  const size_t init_total = Array(pod, {"spec", "initContainers"}).size();
  for (size_t i = 0; i < inits.size(); ++i) {
    const Json& c = inits[i];
    restarts += Int(c, {"restartCount"}, 0);
    note_restart(c);
    const Json* terminated = MemberAt(c, {"state", "terminated"});
    const std::string waiting = Str(c, {"state", "waiting", "reason"});
    if (terminated != nullptr && Int(*terminated, {"exitCode"}, 0) == 0) continue;
    if (terminated != nullptr) {
      const std::string r = Str(*terminated, {"reason"});
      if (!r.empty()) {
        reason = "Init:" + r;
      } else if (const int64_t sig = Int(*terminated, {"signal"}, 0); sig != 0) {
        reason = "Init:Signal:" + std::to_string(sig);
      } else {
        reason = "Init:ExitCode:" + std::to_string(Int(*terminated, {"exitCode"}, 0));
      }
    } else if (!waiting.empty() && waiting != "PodInitializing") {
      reason = "Init:" + waiting;
    } else {
      reason = "Init:" + std::to_string(i) + "/" + std::to_string(init_total);
    }
    initializing = true;
    break;
  }
  if (!initializing || HasCondition(pod, "Initialized", "True")) {
    bool has_running = false;
    const Json& statuses = Array(pod, {"status", "containerStatuses"});
    for (size_t n = statuses.size(); n > 0; --n) {
      const Json& c = statuses[n - 1];
      restarts += Int(c, {"restartCount"}, 0);
      note_restart(c);
      const std::string waiting = Str(c, {"state", "waiting", "reason"});
      const Json* terminated = MemberAt(c, {"state", "terminated"});
      if (!waiting.empty()) {
        reason = waiting;
      } else if (terminated != nullptr && !Str(*terminated, {"reason"}).empty()) {
        reason = Str(*terminated, {"reason"});
      } else if (terminated != nullptr) {
        const int64_t sig = Int(*terminated, {"signal"}, 0);
        reason = sig != 0 ? "Signal:" + std::to_string(sig)
                          : "ExitCode:" + std::to_string(Int(*terminated, {"exitCode"}, 0));
      } else if (const Json* r = Member(c, "ready"); r != nullptr && r->is_boolean() &&
                                                     r->get<bool>() &&
                                                     MemberAt(c, {"state", "running"}) != nullptr) {
        has_running = true;
        ++ready;
      }
    }
    if (reason == "Completed" && has_running) {
      reason = HasCondition(pod, "Ready", "True") ? "Running" : "NotReady";
    }
  }
  const bool deleting = MemberAt(pod, {"metadata", "deletionTimestamp"}) != nullptr &&
                        !MemberAt(pod, {"metadata", "deletionTimestamp"})->is_null();
  const std::string phase = Str(pod, {"status", "phase"});
  if (deleting && Str(pod, {"status", "reason"}) == "NodeLost") {
    reason = "Unknown";
  } else if (deleting && phase != "Succeeded" && phase != "Failed") {
    reason = "Terminating";
  }
  std::string restarts_text = std::to_string(restarts);
  if (restarts != 0 && last_restart.has_value()) {
    restarts_text += " (" + Since(last_restart, now) + " ago)";
  }
  cells.push_back(std::to_string(ready) + "/" + std::to_string(total));
  cells.push_back(reason);
  cells.push_back(restarts_text);
  cells.push_back(Since(Time(pod, {"metadata", "creationTimestamp"}), now));
  cells.push_back(OrNone(Str(pod, {"status", "podIP"})));
  cells.push_back(OrNone(Str(pod, {"spec", "nodeName"})));
  cells.push_back(OrNone(Str(pod, {"status", "nominatedNodeName"})));
  const Json& gates = Array(pod, {"spec", "readinessGates"});
  if (gates.empty()) {
    cells.push_back("<none>");
  } else {
    size_t true_gates = 0;
    for (const Json& g : gates) {
      if (HasCondition(pod, Str(g, {"conditionType"}), "True")) ++true_gates;
    }
    cells.push_back(std::to_string(true_gates) + "/" + std::to_string(gates.size()));
  }
}

void NodeCells(const Json& node, core::Timestamp now, Json& cells) {
  std::string status;
  for (const Json& c : Array(node, {"status", "conditions"})) {
    if (Str(c, {"type"}) == "Ready") status = Str(c, {"status"}) == "True" ? "Ready" : "NotReady";
  }
  if (status.empty()) status = "Unknown";
  if (const Json* u = MemberAt(node, {"spec", "unschedulable"});
      u != nullptr && u->is_boolean() && u->get<bool>()) {
    status += ",SchedulingDisabled";
  }
  std::set<std::string> roles;
  if (const Json* labels = MemberAt(node, {"metadata", "labels"});
      labels != nullptr && labels->is_object()) {
    constexpr std::string_view kRolePrefix = "node-role.kubernetes.io/";
    for (auto it = labels->begin(); it != labels->end(); ++it) {
      const std::string& key = it.key();
      if (key.compare(0, kRolePrefix.size(), kRolePrefix) == 0 && key.size() > kRolePrefix.size()) {
        roles.insert(key.substr(kRolePrefix.size()));
      } else if (key == "kubernetes.io/role" && it.value().is_string() &&
                 !it.value().get<std::string>().empty()) {
        roles.insert(it.value().get<std::string>());
      }
    }
  }
  std::string role_text;
  for (const std::string& r : roles) role_text += (role_text.empty() ? "" : ",") + r;
  std::string internal_ip;
  std::string external_ip;
  for (const Json& a : Array(node, {"status", "addresses"})) {
    if (Str(a, {"type"}) == "InternalIP" && internal_ip.empty()) internal_ip = Str(a, {"address"});
    if (Str(a, {"type"}) == "ExternalIP" && external_ip.empty()) external_ip = Str(a, {"address"});
  }
  auto unknown = [](std::string s) { return s.empty() ? std::string("<unknown>") : s; };
  cells.push_back(status);
  cells.push_back(OrNone(role_text));
  cells.push_back(Since(Time(node, {"metadata", "creationTimestamp"}), now));
  cells.push_back(Str(node, {"status", "nodeInfo", "kubeletVersion"}));
  cells.push_back(OrNone(internal_ip));
  cells.push_back(OrNone(external_ip));
  cells.push_back(unknown(Str(node, {"status", "nodeInfo", "osImage"})));
  cells.push_back(unknown(Str(node, {"status", "nodeInfo", "kernelVersion"})));
  cells.push_back(unknown(Str(node, {"status", "nodeInfo", "containerRuntimeVersion"})));
}

void JobCells(const Json& job, core::Timestamp now, Json& cells) {
  std::string status = "Running";
  const bool deleting = MemberAt(job, {"metadata", "deletionTimestamp"}) != nullptr;
  if (HasCondition(job, "Complete", "True")) {
    status = "Complete";
  } else if (HasCondition(job, "Failed", "True")) {
    status = "Failed";
  } else if (deleting) {
    status = "Terminating";
  } else if (HasCondition(job, "Suspended", "True")) {
    status = "Suspended";
  } else if (HasCondition(job, "FailureTarget", "True")) {
    status = "FailureTarget";
  } else if (HasCondition(job, "SuccessCriteriaMet", "True")) {
    status = "SuccessCriteriaMet";
  }
  const int64_t succeeded = Int(job, {"status", "succeeded"}, 0);
  std::string completions;
  if (const Json* c = MemberAt(job, {"spec", "completions"}); c != nullptr && c->is_number()) {
    completions = std::to_string(succeeded) + "/" + std::to_string(Int(job, {"spec", "completions"}, 0));
  } else if (const int64_t parallelism = Int(job, {"spec", "parallelism"}, 0); parallelism > 1) {
    completions = std::to_string(succeeded) + "/1 of " + std::to_string(parallelism);
  } else {
    completions = std::to_string(succeeded) + "/1";
  }
  std::string duration;
  const auto start = Time(job, {"status", "startTime"});
  const auto end = Time(job, {"status", "completionTime"});
  if (start.has_value()) {
    duration = HumanDuration((end.has_value() ? end->unix_s : now.unix_s) - start->unix_s);
  }
  const Json* pod_spec = MemberAt(job, {"spec", "template", "spec"});
  auto [names, images] = ContainerCells(pod_spec != nullptr ? *pod_spec : Json::object());
  cells.push_back(status);
  cells.push_back(completions);
  cells.push_back(duration);
  cells.push_back(Since(Time(job, {"metadata", "creationTimestamp"}), now));
  cells.push_back(names);
  cells.push_back(images);
  cells.push_back(SelectorText(MemberAt(job, {"spec", "selector"})));
}

void DeploymentCells(const Json& d, core::Timestamp now, Json& cells) {
  const int64_t desired = Int(d, {"spec", "replicas"}, 1);  // upstream defaults replicas to 1
  cells.push_back(std::to_string(Int(d, {"status", "readyReplicas"}, 0)) + "/" +
                  std::to_string(desired));
  cells.push_back(Int(d, {"status", "updatedReplicas"}, 0));
  cells.push_back(Int(d, {"status", "availableReplicas"}, 0));
  cells.push_back(Since(Time(d, {"metadata", "creationTimestamp"}), now));
  const Json* pod_spec = MemberAt(d, {"spec", "template", "spec"});
  auto [names, images] = ContainerCells(pod_spec != nullptr ? *pod_spec : Json::object());
  cells.push_back(names);
  cells.push_back(images);
  cells.push_back(SelectorText(MemberAt(d, {"spec", "selector"})));
}

void NamespaceCells(const Json& ns, core::Timestamp now, Json& cells) {
  std::string phase = Str(ns, {"status", "phase"});
  cells.push_back(phase.empty() ? "Active" : phase);  // the registry sets Active on create
  cells.push_back(Since(Time(ns, {"metadata", "creationTimestamp"}), now));
}

// printControllerRevision: the controller as formatResourceName writes it, lowercased
// "kind.group/name" ("statefulset.apps/web"; the core group adds nothing), "<none>" without
// a controller owner reference.
void ControllerRevisionCells(const Json& revision, core::Timestamp now, Json& cells) {
  std::string controller = "<none>";
  for (const Json& ref : Array(revision, {"metadata", "ownerReferences"})) {
    const Json* is_controller = Member(ref, "controller");
    if (is_controller == nullptr || !is_controller->is_boolean() || !is_controller->get<bool>()) {
      continue;
    }
    const std::string api_version = Str(ref, {"apiVersion"});
    const size_t slash = api_version.find('/');
    std::string kind = Str(ref, {"kind"});
    if (slash != std::string::npos) kind += "." + api_version.substr(0, slash);
    std::transform(kind.begin(), kind.end(), kind.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    controller = kind.empty() ? Str(ref, {"name"}) : kind + "/" + Str(ref, {"name"});
    break;  // metav1.GetControllerOf: the first
  }
  cells.push_back(controller);
  cells.push_back(Int(revision, {"revision"}, 0));
  cells.push_back(Since(Time(revision, {"metadata", "creationTimestamp"}), now));
}

// berth plan's ROLLOUT (engine/replica_sets.cc): a recorded rollback, then a pause, then
// PlacementRolledOut's Complete or Progressing; null before the first plan wrote a status.
Json MwrsRolloutCell(const Json& mwrs) {
  if (HasCondition(mwrs, "RolledBack", "True")) return "RolledBack";
  if (HasCondition(mwrs, "RolloutPaused", "True")) return "Paused";
  for (const Json& c : Array(mwrs, {"status", "conditions"})) {
    if (Str(c, {"type"}) == "PlacementRolledOut") {
      return Str(c, {"reason"}) == "Complete" ? "Complete" : "Progressing";
    }
  }
  return nullptr;
}

// berth plan's ROUND: "3/5" (currentRound of spec.server.rounds), "3" when the server decides
// the rounds; null before the first status.
Json FlRoundCell(const Json& fl) {
  const Json* current = MemberAt(fl, {"status", "currentRound"});
  if (current == nullptr || !current->is_number()) return nullptr;
  const int64_t rounds = Int(fl, {"spec", "server", "rounds"}, 0);
  const std::string text = std::to_string(Int(fl, {"status", "currentRound"}, 0));
  return rounds > 0 ? text + "/" + std::to_string(rounds) : text;
}

// berth plan's CLIENTS: clients in state Training of spec.server.minAvailableClients
// (default 1), "2/2"; null before the first status.
Json FlClientsCell(const Json& fl) {
  const Json* clients = MemberAt(fl, {"status", "clients"});
  if (clients == nullptr || !clients->is_array()) return nullptr;
  int64_t training = 0;
  for (const Json& c : *clients) training += Str(c, {"state"}) == "Training" ? 1 : 0;
  return std::to_string(training) + "/" +
         std::to_string(Int(fl, {"spec", "server", "minAvailableClients"}, 1));
}

// ---- CRD cells (apiextensions' tableconvertor) ----

std::string GoFormatNumber(const Json& v) {
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  const double d = v.get<double>();
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
    return std::to_string(static_cast<int64_t>(d));
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

Json CrdCell(const ColumnSpec& col, const Json& object, core::Timestamp now) {
  if (col.compute != nullptr) return col.compute(object);
  const auto results = EvalJsonPath(object, col.json_path);
  if (results.empty()) return nullptr;
  const Json& v = *results.front();
  if (col.type == "string") {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) return GoFormatNumber(v);
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_null()) return nullptr;
    return v.dump();
  }
  if (col.type == "integer") {
    if (v.is_number_integer()) return v.get<int64_t>();
    if (v.is_number_float()) return static_cast<int64_t>(v.get<double>());
    return nullptr;
  }
  if (col.type == "number") return v.is_number() ? v : Json(nullptr);
  if (col.type == "boolean") return v.is_boolean() ? v : Json(nullptr);
  if (col.type == "date") {
    if (!v.is_string()) return nullptr;
    auto t = core::Timestamp::Parse(v.get<std::string>());
    if (!t.has_value()) return nullptr;
    return HumanDuration(now.unix_s - t->unix_s);
  }
  return nullptr;
}

Json ColumnJson(std::string_view name, std::string_view type, std::string_view format,
                std::string_view description, int priority) {
  Json c = Json::object();
  c["name"] = std::string(name);
  c["type"] = std::string(type);
  c["format"] = std::string(format);
  c["description"] = std::string(description);
  c["priority"] = priority;
  return c;
}

Json RowObject(const Json& object, IncludeObject include) {
  if (include == IncludeObject::kNone) return nullptr;
  if (include == IncludeObject::kObject) return object;
  Json partial = Json::object();
  partial["kind"] = "PartialObjectMetadata";
  partial["apiVersion"] = "meta.k8s.io/v1";
  const Json* meta = Member(object, "metadata");
  partial["metadata"] = meta != nullptr && meta->is_object() ? *meta : Json::object();
  return partial;
}

// ---- JSONPath subset ----

struct Step {
  enum class Kind { kField, kIndex, kAll, kFilter } kind = Kind::kField;
  std::string field;          // kField; kFilter: the compared field (dotted)
  size_t index = 0;           // kIndex
  std::string filter_value;   // kFilter
};

std::optional<std::vector<Step>> ParsePath(std::string_view path) {
  // Accept "{.a.b}" as kubectl's templates write it.
  if (path.size() >= 2 && path.front() == '{' && path.back() == '}') {
    path = path.substr(1, path.size() - 2);
  }
  std::vector<Step> steps;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      const size_t start = i;
      while (i < path.size() && path[i] != '.' && path[i] != '[') ++i;
      if (i == start) return std::nullopt;
      steps.push_back(Step{Step::Kind::kField, std::string(path.substr(start, i - start)), 0, ""});
    } else if (path[i] == '[') {
      const size_t close = path.find(']', i);
      if (close == std::string_view::npos) return std::nullopt;
      std::string_view inner = path.substr(i + 1, close - i - 1);
      if (inner == "*") {
        steps.push_back(Step{Step::Kind::kAll, "", 0, ""});
      } else if (inner.size() >= 2 && (inner.front() == '\'' || inner.front() == '"') &&
                 inner.back() == inner.front()) {
        steps.push_back(Step{Step::Kind::kField, std::string(inner.substr(1, inner.size() - 2)), 0, ""});
      } else if (inner.substr(0, 4) == "?(@." && inner.back() == ')') {
        // "?(@.type=='Admitted')": the closing ']' search above stops at the first ']',
        // which filter values of printer columns never contain.
        std::string_view cond = inner.substr(4, inner.size() - 5);
        const size_t eq = cond.find("==");
        if (eq == std::string_view::npos) return std::nullopt;
        std::string_view field = cond.substr(0, eq);
        std::string_view value = cond.substr(eq + 2);
        if (value.size() < 2 || (value.front() != '\'' && value.front() != '"') ||
            value.back() != value.front()) {
          return std::nullopt;
        }
        steps.push_back(Step{Step::Kind::kFilter, std::string(field), 0,
                             std::string(value.substr(1, value.size() - 2))});
      } else {
        size_t n = 0;
        if (inner.empty() || inner.size() > 9) return std::nullopt;
        for (char c : inner) {
          if (c < '0' || c > '9') return std::nullopt;
          n = n * 10 + static_cast<size_t>(c - '0');
        }
        steps.push_back(Step{Step::Kind::kIndex, "", n, ""});
      }
      i = close + 1;
    } else {
      return std::nullopt;
    }
  }
  return steps;
}

const Json* Dotted(const Json& obj, std::string_view dotted) {
  const Json* cur = &obj;
  size_t pos = 0;
  while (pos <= dotted.size()) {
    size_t dot = dotted.find('.', pos);
    if (dot == std::string_view::npos) dot = dotted.size();
    cur = Member(*cur, dotted.substr(pos, dot - pos));
    if (cur == nullptr) return nullptr;
    pos = dot + 1;
  }
  return cur;
}

}  // namespace

std::vector<const Json*> EvalJsonPath(const Json& object, std::string_view path) {
  auto steps = ParsePath(path);
  if (!steps.has_value()) return {};
  std::vector<const Json*> cur{&object};
  for (const Step& s : *steps) {
    std::vector<const Json*> next;
    for (const Json* v : cur) {
      switch (s.kind) {
        case Step::Kind::kField:
          if (const Json* m = Member(*v, s.field); m != nullptr) next.push_back(m);
          break;
        case Step::Kind::kIndex:
          if (v->is_array() && s.index < v->size()) next.push_back(&(*v)[s.index]);
          break;
        case Step::Kind::kAll:
          if (v->is_array() || v->is_object()) {
            for (const Json& e : *v) next.push_back(&e);
          }
          break;
        case Step::Kind::kFilter:
          if (v->is_array()) {
            for (const Json& e : *v) {
              const Json* f = Dotted(e, s.field);
              if (f != nullptr && f->is_string() && f->get<std::string>() == s.filter_value) {
                next.push_back(&e);
              }
            }
          }
          break;
      }
    }
    cur = std::move(next);
    if (cur.empty()) break;
  }
  return cur;
}

std::string HumanDuration(int64_t seconds) {
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return std::to_string(seconds) + "s";
  const int64_t minutes = seconds / 60;
  if (minutes < 10) {
    const int64_t s = seconds % 60;
    return s == 0 ? std::to_string(minutes) + "m"
                  : std::to_string(minutes) + "m" + std::to_string(s) + "s";
  }
  if (minutes < 60 * 3) return std::to_string(minutes) + "m";
  const int64_t hours = seconds / 3600;
  if (hours < 8) {
    const int64_t m = minutes % 60;
    return m == 0 ? std::to_string(hours) + "h"
                  : std::to_string(hours) + "h" + std::to_string(m) + "m";
  }
  if (hours < 48) return std::to_string(hours) + "h";
  if (hours < 24 * 8) {
    const int64_t h = hours % 24;
    return h == 0 ? std::to_string(hours / 24) + "d"
                  : std::to_string(hours / 24) + "d" + std::to_string(h) + "h";
  }
  if (hours < 24 * 365 * 2) return std::to_string(hours / 24) + "d";
  if (hours < 24 * 365 * 8) {
    const int64_t dy = (hours / 24) % 365;
    return dy == 0 ? std::to_string(hours / 24 / 365) + "y"
                   : std::to_string(hours / 24 / 365) + "y" + std::to_string(dy) + "d";
  }
  return std::to_string(hours / 24 / 365) + "y";
}

std::vector<ColumnDefinition> ColumnsFor(const model::KindInfo& kind, std::string_view version) {
  std::vector<ColumnDefinition> out;
  out.push_back(ColumnDefinition{"Name", "string", "name", std::string(kNameDescription), 0, ""});
  const Printer printer = PrinterOf(kind);
  const std::span<const ColumnSpec> specs =
      printer != Printer::kNone ? PrinterColumns(printer) : CrdColumnsFor(kind, version);
  for (const ColumnSpec& c : specs) {
    out.push_back(ColumnDefinition{std::string(c.name), std::string(c.type), "",
                                   std::string(c.description), c.priority,
                                   std::string(c.json_path)});
  }
  return out;
}

Json BuildTable(const model::KindInfo& kind, std::string_view version,
                std::span<const Json> objects, const TableOptions& options) {
  Json table = Json::object();
  table["kind"] = "Table";
  table["apiVersion"] = "meta.k8s.io/v1";
  Json meta = Json::object();
  if (!options.resource_version.empty()) meta["resourceVersion"] = options.resource_version;
  if (!options.continue_token.empty()) meta["continue"] = options.continue_token;
  table["metadata"] = std::move(meta);
  const std::vector<ColumnDefinition> columns = ColumnsFor(kind, version);
  Json defs = Json::array();
  if (!options.no_headers) {
    for (const ColumnDefinition& c : columns) {
      defs.push_back(ColumnJson(c.name, c.type, c.format, c.description, c.priority));
    }
  }
  table["columnDefinitions"] = std::move(defs);
  const Printer printer = PrinterOf(kind);
  const std::span<const ColumnSpec> specs =
      printer != Printer::kNone ? PrinterColumns(printer) : CrdColumnsFor(kind, version);
  Json rows = Json::array();
  for (const Json& object : objects) {
    Json cells = Json::array();
    cells.push_back(Str(object, {"metadata", "name"}));
    switch (printer) {
      case Printer::kPod:
        PodCells(object, options.now, cells);
        break;
      case Printer::kNode:
        NodeCells(object, options.now, cells);
        break;
      case Printer::kJob:
        JobCells(object, options.now, cells);
        break;
      case Printer::kDeployment:
        DeploymentCells(object, options.now, cells);
        break;
      case Printer::kNamespace:
        NamespaceCells(object, options.now, cells);
        break;
      case Printer::kControllerRevision:
        ControllerRevisionCells(object, options.now, cells);
        break;
      case Printer::kNone:
        for (const ColumnSpec& c : specs) cells.push_back(CrdCell(c, object, options.now));
        break;
    }
    Json row = Json::object();
    row["cells"] = std::move(cells);
    row["object"] = RowObject(object, options.include_object);
    rows.push_back(std::move(row));
  }
  table["rows"] = std::move(rows);
  return table;
}

std::optional<std::string> NegotiateTable(std::string_view accept) {
  for (const MediaRange& r : ParseAccept(accept)) {
    if (!r.AcceptsJson()) continue;
    if (r.Param("as") == "Table" && r.Param("g") == "meta.k8s.io" &&
        (r.Param("v") == "v1" || r.Param("v") == "v1beta1")) {
      return std::string(r.Param("v"));
    }
    if (r.Param("as").empty()) return std::nullopt;  // plain JSON comes first
  }
  return std::nullopt;
}

std::optional<IncludeObject> ParseIncludeObject(std::string_view value) {
  if (value.empty() || value == "Metadata") return IncludeObject::kMetadata;
  if (value == "None") return IncludeObject::kNone;
  if (value == "Object") return IncludeObject::kObject;
  return std::nullopt;
}

}  // namespace berth::server
