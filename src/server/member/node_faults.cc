#include "server/member/node_faults.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>

#include "core/quantity.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/pod_util.h"

namespace berth::server::member {

namespace {

constexpr char kFaultGpuResource[] = "nvidia.com/gpu";
constexpr char kFaultUnreachableTaint[] = "node.kubernetes.io/unreachable";

std::string_view FaultTrim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<int64_t> FaultQuantityUnits(const Json* value) {
  if (value == nullptr) return std::nullopt;
  if (value->is_number_integer()) return value->get<int64_t>();
  if (!value->is_string()) return std::nullopt;
  core::Result<core::Quantity> q = core::Quantity::Parse(value->get<std::string>());
  if (!q.has_value()) return std::nullopt;
  core::Result<int64_t> units = q->Value();
  if (!units.has_value()) return std::nullopt;
  return *units;
}

// The node lifecycle controller's taints for an unreachable node: NoSchedule (from the
// condition) and NoExecute (taint-based eviction, with the time it was added).
void FaultSetUnreachableTaints(Json& node, bool down, const std::string& now_text) {
  const Json* existing = MemberAt(node, {"spec", "taints"});
  Json kept = Json::array();
  Json no_execute_added = now_text;
  if (existing != nullptr && existing->is_array()) {
    for (const Json& t : *existing) {
      if (StringAt(t, {"key"}) == kFaultUnreachableTaint) {
        if (StringAt(t, {"effect"}) == "NoExecute" && Member(t, "timeAdded") != nullptr) {
          no_execute_added = *Member(t, "timeAdded");
        }
        continue;
      }
      kept.push_back(t);
    }
  }
  if (down) {
    kept.push_back(Json{{"key", kFaultUnreachableTaint}, {"effect", "NoSchedule"}});
    kept.push_back(Json{
        {"key", kFaultUnreachableTaint}, {"effect", "NoExecute"}, {"timeAdded", no_execute_added}});
  }
  if (kept.empty() && existing == nullptr) return;
  Json& spec = EnsureObject(node, "spec");
  if (kept.empty()) {
    spec.erase("taints");
  } else {
    spec["taints"] = std::move(kept);
  }
}

// What the node lifecycle controller writes when a node's kubelet stops posting status: every
// kubelet condition Unknown, the heartbeat left as it was.
void FaultSetConditionsUnknown(Json& node, const std::string& now_text) {
  Json& conditions = EnsureArray(EnsureObject(node, "status"), "conditions");
  for (const char* type : {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"}) {
    Json* found = nullptr;
    for (Json& c : conditions) {
      if (StringAt(c, {"type"}) == type) found = &c;
    }
    if (found == nullptr) {
      conditions.push_back(Json{{"type", type}});
      found = &conditions.back();
    }
    Json& c = *found;
    if (StringAt(c, {"status"}) != "Unknown") c["lastTransitionTime"] = now_text;
    c["status"] = "Unknown";
    c["reason"] = "NodeStatusUnknown";
    c["message"] = "Kubelet stopped posting node status.";
    if (Member(c, "lastHeartbeatTime") == nullptr) c["lastHeartbeatTime"] = now_text;
  }
}

// A pod failed by the fault: phase Failed with `reason`, not ready, its containers
// terminated with `exit_code`.
void FaultFailPod(MemberState& state, const Json& pod_in, const std::string& reason,
                  const std::string& message, int exit_code, const std::string& container_reason,
                  const std::string& container_message, bool disruption) {
  Json pod = pod_in;
  const std::string now_text = TimeText(state.now());
  Json& status = EnsureObject(pod, "status");
  status["phase"] = "Failed";
  status["reason"] = reason;
  status["message"] = message;
  Json& conditions = EnsureArray(status, "conditions");
  for (Json& c : conditions) {
    const std::string type = StringAt(c, {"type"});
    if (type == "Ready" || type == "ContainersReady" || type == "PodReadyToStartContainers") {
      if (StringAt(c, {"status"}) != "False") c["lastTransitionTime"] = now_text;
      c["status"] = "False";
      if (type != "PodReadyToStartContainers") {
        c["reason"] = "PodFailed";
        c.erase("message");
      }
    }
  }
  if (disruption) {
    conditions.push_back(Json{{"type", "DisruptionTarget"},
                              {"status", "True"},
                              {"lastProbeTime", nullptr},
                              {"lastTransitionTime", now_text},
                              {"reason", "DeletionByTaintManager"},
                              {"message", "Taint manager: deleting due to NoExecute taint"}});
  }
  Json& statuses = EnsureArray(status, "containerStatuses");
  for (Json& cs : statuses) {
    if (!cs.is_object()) continue;
    std::string started = StringAt(cs, {"state", "running", "startedAt"});
    Json terminated = {{"exitCode", exit_code}, {"reason", container_reason}};
    if (!container_message.empty()) terminated["message"] = container_message;
    if (!started.empty()) terminated["startedAt"] = started;
    terminated["finishedAt"] = now_text;
    if (!cs.contains("containerID") || !cs["containerID"].is_string()) {
      terminated["containerID"] = "";
    } else {
      terminated["containerID"] = cs["containerID"];
    }
    cs["state"] = Json{{"terminated", std::move(terminated)}};
    cs["ready"] = false;
    cs["started"] = false;
  }
  state.Replace(std::move(pod));
}

struct FaultGpuHolder {
  const Json* pod;
  int64_t start;
  std::string name;
  int64_t gpus;
};

void FaultFailLostGpuPods(MemberState& state, const Json& node, int64_t healthy, int64_t failed) {
  const std::string node_name = NameOf(node);
  std::vector<FaultGpuHolder> holders;
  for (const Json* pod : state.List(Kind::kPod)) {
    if (StringAt(*pod, {"spec", "nodeName"}) != node_name || PodIsTerminal(*pod)) continue;
    const int64_t gpus = PodGpuCount(*pod);
    if (gpus <= 0) continue;
    // Pods hold devices in the order they started (pending ones after every running one).
    const int64_t start =
        TimeAt(*pod, {"status", "startTime"}).value_or(std::numeric_limits<int64_t>::max());
    holders.push_back({pod, start, NamespaceOf(*pod) + "/" + NameOf(*pod), gpus});
  }
  std::sort(holders.begin(), holders.end(), [](const FaultGpuHolder& a, const FaultGpuHolder& b) {
    return std::tie(a.start, a.name) < std::tie(b.start, b.name);
  });
  int64_t next_device = 0;
  for (const FaultGpuHolder& h : holders) {
    const int64_t last_device = next_device + h.gpus;  // exclusive
    next_device = last_device;
    if (last_device <= healthy || IsBeingDeleted(*h.pod)) continue;
    FaultFailPod(state, *h.pod, "DeviceFailed",
                 "nvidia.com/gpu device(s) of node " + node_name +
                     " failed (berth.dev/simulated-fault gpu-failed=" + std::to_string(failed) +
                     ")",
                 1, "Error", "", false);
  }
}

}  // namespace

NodeFault ParseNodeFault(const Json& node) {
  NodeFault fault;
  if (!HasAnnotation(node, kSimulatedFaultAnnotation)) return fault;
  const std::string text = AnnotationOf(node, kSimulatedFaultAnnotation);
  std::string_view rest = text;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view part = FaultTrim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (part.empty()) continue;
    if (part == "node-down") {
      fault.down = true;
      continue;
    }
    constexpr std::string_view kGpuFailed = "gpu-failed=";
    if (part.substr(0, kGpuFailed.size()) == kGpuFailed) {
      const std::string_view number = part.substr(kGpuFailed.size());
      int64_t n = 0;
      auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
      if (ec == std::errc() && end == number.data() + number.size() && n >= 0) {
        fault.gpus_failed = std::max(fault.gpus_failed, n);
        continue;
      }
    }
    fault.problems.emplace_back(part);
  }
  return fault;
}

void RunNodeFaults(MemberState& state, const ControllerOptions& options) {
  const std::string now_text = TimeText(state.now());
  for (const Json* node_ptr : state.List(Kind::kNode)) {
    const NodeFault fault = ParseNodeFault(*node_ptr);
    for (const std::string& problem : fault.problems) {
      state.Report(*node_ptr, "InvalidSimulatedFault",
                   "berth.dev/simulated-fault: \"" + problem +
                       "\" is neither node-down nor gpu-failed=N; ignored");
    }
    Json node = *node_ptr;
    FaultSetUnreachableTaints(node, fault.down, now_text);
    if (fault.down) FaultSetConditionsUnknown(node, now_text);

    // GPU devices: allocatable is capacity less the failed ones (the device plugin reports
    // unhealthy devices; the kubelet keeps them in capacity).
    const Json* capacity = MemberAt(node, {"status", "capacity", kFaultGpuResource});
    const Json* allocatable = MemberAt(node, {"status", "allocatable", kFaultGpuResource});
    std::optional<int64_t> total = FaultQuantityUnits(capacity);
    if (!total && fault.gpus_failed > 0) {
      total = FaultQuantityUnits(allocatable);
      if (total) {
        EnsureObject(EnsureObject(node, "status"), "capacity")[kFaultGpuResource] =
            std::to_string(*total);
      }
    }
    int64_t healthy = 0;
    if (total) {
      healthy = std::max<int64_t>(0, *total - fault.gpus_failed);
      // Writing capacity above may have moved allocatable: read it again.
      allocatable = MemberAt(node, {"status", "allocatable", kFaultGpuResource});
      const std::optional<int64_t> now_allocatable = FaultQuantityUnits(allocatable);
      if (now_allocatable != healthy) {
        EnsureObject(EnsureObject(node, "status"), "allocatable")[kFaultGpuResource] =
            std::to_string(healthy);
      }
    } else if (fault.gpus_failed > 0) {
      state.Report(*node_ptr, "InvalidSimulatedFault",
                   "berth.dev/simulated-fault gpu-failed: the node has no nvidia.com/gpu "
                   "capacity; ignored");
    }
    const Json node_copy = node;
    state.Replace(std::move(node));

    if (fault.down) {
      for (const Json* pod : state.List(Kind::kPod)) {
        if (StringAt(*pod, {"spec", "nodeName"}) != NameOf(node_copy) || !PodIsActive(*pod)) {
          continue;
        }
        FaultFailPod(state, *pod, "NodeLost",
                     "Node " + NameOf(node_copy) + " which was running pod " + NameOf(*pod) +
                         " is unresponsive",
                     137, "ContainerStatusUnknown",
                     "The container could not be located when the pod was terminated", true);
      }
    } else if (total && fault.gpus_failed > 0) {
      FaultFailLostGpuPods(state, node_copy, healthy, fault.gpus_failed);
    }
  }
}

}  // namespace berth::server::member
