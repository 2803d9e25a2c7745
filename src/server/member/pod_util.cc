#include "server/member/pod_util.h"

#include <algorithm>

#include "core/quantity.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"

namespace berth::server::member {

namespace {

constexpr std::string_view kPodUtilGpuResource = "nvidia.com/gpu";

int64_t PodUtilWholeQuantity(const Json* value) {
  if (value == nullptr) return 0;
  if (value->is_number_integer()) return std::max<int64_t>(0, value->get<int64_t>());
  if (!value->is_string()) return 0;
  core::Result<core::Quantity> q = core::Quantity::Parse(value->get<std::string>());
  if (!q.has_value()) return 0;
  core::Result<int64_t> units = q->Value();
  return units.has_value() ? std::max<int64_t>(0, *units) : 0;
}

}  // namespace

std::string PodPhase(const Json& pod) {
  std::string phase = StringAt(pod, {"status", "phase"});
  return phase.empty() ? "Pending" : phase;
}

bool PodIsTerminal(const Json& pod) {
  const std::string phase = PodPhase(pod);
  return phase == "Succeeded" || phase == "Failed";
}

bool PodIsActive(const Json& pod) { return !PodIsTerminal(pod) && !IsBeingDeleted(pod); }

bool PodIsTerminating(const Json& pod) { return IsBeingDeleted(pod) && !PodIsTerminal(pod); }

bool PodIsReady(const Json& pod) { return ConditionIsTrue(pod, "Ready"); }

bool PodIsRunningAndReady(const Json& pod) { return PodPhase(pod) == "Running" && PodIsReady(pod); }

bool PodIsAvailable(const Json& pod, int64_t min_ready_s, int64_t now) {
  if (!PodIsReady(pod)) return false;
  if (min_ready_s <= 0) return true;
  const Json* ready = FindCondition(pod, "Ready");
  const std::optional<int64_t> since = TimeAt(*ready, {"lastTransitionTime"});
  return since.has_value() && *since + min_ready_s < now;
}

int64_t PodRestartCount(const Json& pod) {
  int64_t total = 0;
  for (const char* list : {"initContainerStatuses", "containerStatuses"}) {
    const Json* statuses = MemberAt(pod, {"status", list});
    if (statuses == nullptr || !statuses->is_array()) continue;
    for (const Json& s : *statuses) total += IntAt(s, {"restartCount"}, 0);
  }
  return total;
}

std::string PodRestartPolicy(const Json& pod) {
  std::string policy = StringAt(pod, {"spec", "restartPolicy"});
  return policy.empty() ? "Always" : policy;
}

int64_t PodGpuCount(const Json& pod) {
  const Json* containers = MemberAt(pod, {"spec", "containers"});
  if (containers == nullptr || !containers->is_array()) return 0;
  int64_t total = 0;
  for (const Json& c : *containers) {
    const Json* request = MemberAt(c, {"resources", "requests", kPodUtilGpuResource});
    if (request == nullptr) request = MemberAt(c, {"resources", "limits", kPodUtilGpuResource});
    total += PodUtilWholeQuantity(request);
  }
  return total;
}

std::optional<int64_t> PodFinishTime(const Json& pod) {
  std::optional<int64_t> latest;
  const Json* statuses = MemberAt(pod, {"status", "containerStatuses"});
  if (statuses != nullptr && statuses->is_array()) {
    for (const Json& s : *statuses) {
      std::optional<int64_t> t = TimeAt(s, {"state", "terminated", "finishedAt"});
      if (t && (!latest || *t > *latest)) latest = t;
    }
  }
  if (latest) return latest;
  if (const Json* ready = FindCondition(pod, "Ready"); ready != nullptr) {
    if (std::optional<int64_t> t = TimeAt(*ready, {"lastTransitionTime"})) return t;
  }
  return TimeAt(pod, {"status", "startTime"});
}

bool PodDeletesBefore(const Json* a, const Json* b) {
  const bool a_assigned = !StringAt(*a, {"spec", "nodeName"}).empty();
  const bool b_assigned = !StringAt(*b, {"spec", "nodeName"}).empty();
  if (a_assigned != b_assigned) return !a_assigned;
  auto phase_rank = [](const Json& p) {
    const std::string phase = PodPhase(p);
    return phase == "Pending" ? 0 : phase == "Unknown" ? 1 : 2;
  };
  if (phase_rank(*a) != phase_rank(*b)) return phase_rank(*a) < phase_rank(*b);
  const bool a_ready = PodIsReady(*a);
  const bool b_ready = PodIsReady(*b);
  if (a_ready != b_ready) return !a_ready;
  if (a_ready) {
    const int64_t a_since = TimeAt(*FindCondition(*a, "Ready"), {"lastTransitionTime"}).value_or(0);
    const int64_t b_since = TimeAt(*FindCondition(*b, "Ready"), {"lastTransitionTime"}).value_or(0);
    if (a_since != b_since) return a_since > b_since;
  }
  const int64_t a_restarts = PodRestartCount(*a);
  const int64_t b_restarts = PodRestartCount(*b);
  if (a_restarts != b_restarts) return a_restarts > b_restarts;
  const int64_t a_created = TimeAt(*a, {"metadata", "creationTimestamp"}).value_or(0);
  const int64_t b_created = TimeAt(*b, {"metadata", "creationTimestamp"}).value_or(0);
  if (a_created != b_created) return a_created > b_created;
  return NameOf(*a) > NameOf(*b);
}

Json PodFromTemplate(const Json& pod_template, const Json& owner, Kind owner_kind,
                     const std::string& ns, const std::string& name) {
  Json pod = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", Json::object()}};
  Json& meta = pod["metadata"];
  meta["name"] = name;
  meta["namespace"] = ns;
  for (const char* field : {"labels", "annotations"}) {
    const Json* v = MemberAt(pod_template, {"metadata", field});
    if (v != nullptr && v->is_object() && !v->empty()) meta[field] = *v;
  }
  const Json* finalizers = MemberAt(pod_template, {"metadata", "finalizers"});
  if (finalizers != nullptr && finalizers->is_array() && !finalizers->empty()) {
    meta["finalizers"] = *finalizers;
  }
  meta["ownerReferences"] = Json::array({ControllerRefTo(owner, owner_kind)});
  const Json* spec = Member(pod_template, "spec");
  pod["spec"] = spec != nullptr && spec->is_object() ? *spec : Json::object();
  pod["status"] = Json{{"phase", "Pending"}};
  return pod;
}

}  // namespace berth::server::member
