#include "server/member/kubelet.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/naming.h"
#include "server/member/node_faults.h"
#include "server/member/pod_util.h"

namespace berth::server::member {

namespace {

constexpr int64_t kKubeletNsPerS = 1000LL * 1000 * 1000;
// The kubelet's container restart back-off: 10 s doubling to 5 min, reset after a run of
// 10 min (pkg/kubelet/kubelet.go backOffPeriod, MaxContainerBackOff).
constexpr int64_t kKubeletBackoffBaseNs = 10 * kKubeletNsPerS;
constexpr int64_t kKubeletBackoffMaxNs = 300 * kKubeletNsPerS;
constexpr int64_t kKubeletBackoffResetNs = 600 * kKubeletNsPerS;
// The node IPAM controller's default cluster CIDR, split into /24s (kind's defaults).
constexpr char kKubeletClusterCidrPrefix[] = "10.244.";

// ---- nodes ----

// N of a "10.244.N.0/24" podCIDR; -1 otherwise.
int KubeletCidrIndex(const Json& node) {
  const std::string cidr = StringAt(node, {"spec", "podCIDR"});
  const std::string_view head = kKubeletClusterCidrPrefix;
  constexpr std::string_view kTail = ".0/24";
  if (cidr.size() <= head.size() + kTail.size() || cidr.compare(0, head.size(), head) != 0 ||
      cidr.compare(cidr.size() - kTail.size(), kTail.size(), kTail) != 0) {
    return -1;
  }
  int n = -1;
  const char* begin = cidr.data() + head.size();
  const char* end = cidr.data() + cidr.size() - kTail.size();
  auto [stop, ec] = std::from_chars(begin, end, n);
  return ec == std::errc() && stop == end && n >= 0 && n <= 255 ? n : -1;
}

// "a.b.c" of an IPv4 podCIDR of length 24 or less (pods take addresses in its first /24);
// "" when the node has none or another form.
std::string KubeletCidrPrefix(const Json& node) {
  const std::string cidr = StringAt(node, {"spec", "podCIDR"});
  int a = 0, b = 0, c = 0, d = 0, len = 0;
  char extra = 0;
  if (std::sscanf(cidr.c_str(), "%d.%d.%d.%d/%d%c", &a, &b, &c, &d, &len, &extra) != 5) return "";
  for (int octet : {a, b, c, d}) {
    if (octet < 0 || octet > 255) return "";
  }
  if (len < 8 || len > 24) return "";
  return std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c);
}

std::string KubeletHostIp(const Json& node) {
  const Json* addresses = MemberAt(node, {"status", "addresses"});
  if (addresses == nullptr || !addresses->is_array()) return "";
  for (const Json& a : *addresses) {
    if (StringAt(a, {"type"}) == "InternalIP") return StringAt(a, {"address"});
  }
  return "";
}

void KubeletEnsureNodeCondition(Json& conditions, const char* type, const char* status,
                                const char* reason, const char* message,
                                const std::string& now_text) {
  for (Json& c : conditions) {
    if (StringAt(c, {"type"}) != type) continue;
    if (StringAt(c, {"status"}) != status || StringAt(c, {"reason"}) != reason) {
      if (StringAt(c, {"status"}) != status) c["lastTransitionTime"] = now_text;
      c["status"] = status;
      c["reason"] = reason;
      c["lastHeartbeatTime"] = now_text;
    }
    if (StringAt(c, {"message"}) != message) c["message"] = message;
    return;
  }
  conditions.push_back(Json{{"type", type},
                            {"status", status},
                            {"lastHeartbeatTime", now_text},
                            {"lastTransitionTime", now_text},
                            {"reason", reason},
                            {"message", message}});
}

void KubeletSyncNodes(MemberState& state) {
  const std::string now_text = TimeText(state.now());
  std::set<int> used;
  for (const Json* node : state.List(Kind::kNode)) {
    if (int n = KubeletCidrIndex(*node); n >= 0) used.insert(n);
  }
  for (const Json* node_ptr : state.List(Kind::kNode)) {
    Json node = *node_ptr;
    if (StringAt(node, {"spec", "podCIDR"}).empty()) {
      int n = 0;
      while (n <= 255 && used.count(n) > 0) ++n;
      if (n > 255) {
        state.Report(node, "CIDRNotAvailable", "no free /24 of 10.244.0.0/16 left for the node");
      } else {
        used.insert(n);
        const std::string cidr = kKubeletClusterCidrPrefix + std::to_string(n) + ".0/24";
        Json& spec = EnsureObject(node, "spec");
        spec["podCIDR"] = cidr;
        spec["podCIDRs"] = Json::array({cidr});
      }
    }
    if (!ParseNodeFault(node).down) {
      Json& status = EnsureObject(node, "status");
      const Json* addresses = Member(status, "addresses");
      if (addresses == nullptr || !addresses->is_array() || addresses->empty()) {
        Json list = Json::array();
        if (int n = KubeletCidrIndex(node); n >= 0) {
          list.push_back(Json{{"type", "InternalIP"},
                              {"address", "172.18." + std::to_string((n + 2) / 256) + "." +
                                              std::to_string((n + 2) % 256)}});
        }
        list.push_back(Json{{"type", "Hostname"}, {"address", NameOf(node)}});
        status["addresses"] = std::move(list);
      }
      Json& conditions = EnsureArray(status, "conditions");
      KubeletEnsureNodeCondition(conditions, "MemoryPressure", "False",
                                 "KubeletHasSufficientMemory",
                                 "kubelet has sufficient memory available", now_text);
      KubeletEnsureNodeCondition(conditions, "DiskPressure", "False", "KubeletHasNoDiskPressure",
                                 "kubelet has no disk pressure", now_text);
      KubeletEnsureNodeCondition(conditions, "PIDPressure", "False", "KubeletHasSufficientPID",
                                 "kubelet has sufficient PID available", now_text);
      KubeletEnsureNodeCondition(conditions, "Ready", "True", "KubeletReady",
                                 "kubelet is posting ready status", now_text);
    }
    state.Replace(std::move(node));
  }
}

// ---- the run of a pod's containers ----

struct KubeletRun {
  enum class State { kRunning, kWaiting, kTerminated };
  State state = State::kRunning;
  int64_t started_s = 0;   // the current (or last) run's start
  int64_t finished_s = 0;  // kWaiting, kTerminated: when the last run ended
  int64_t restart_count = 0;
  bool has_last = false;  // a previous run ended (lastState)
  int64_t last_started_s = 0;
  int64_t last_finished_s = 0;
  int exit_code = 0;
  int64_t backoff_s = 0;  // kWaiting: the back-off being waited
  bool ready = false;
  int64_t ready_changed_s = 0;  // when Ready last changed
};

KubeletRun KubeletTimeline(const PodRunPlan& plan, bool restart_in_place, int64_t start_s,
                           int64_t now_s) {
  const int64_t elapsed = std::max<int64_t>(0, now_s - start_s) * kKubeletNsPerS;
  KubeletRun r;
  r.exit_code = plan.exit_code;
  if (!restart_in_place || !plan.run_ns) {
    r.started_s = start_s;
    if (plan.run_ns && elapsed >= *plan.run_ns) {
      r.state = KubeletRun::State::kTerminated;
      r.finished_s = start_s + *plan.run_ns / kKubeletNsPerS;
      r.ready_changed_s = r.finished_s;
      return r;
    }
    r.ready = !plan.crashloop;
    r.ready_changed_s = start_s;
    return r;
  }
  const int64_t run = *plan.run_ns;
  int64_t t = 0;
  int64_t k = 0;
  int64_t doublings = 0;
  while (true) {
    const int64_t run_end = t + run;
    if (elapsed < run_end) {
      r.state = KubeletRun::State::kRunning;
      r.started_s = start_s + t / kKubeletNsPerS;
      r.restart_count = k;
      r.ready = !plan.crashloop;
      r.ready_changed_s = plan.crashloop ? start_s : r.started_s;
      return r;
    }
    const int64_t step =
        std::min(kKubeletBackoffBaseNs << std::min<int64_t>(doublings, 5), kKubeletBackoffMaxNs);
    const int64_t backoff = run >= kKubeletBackoffResetNs ? kKubeletBackoffBaseNs : step;
    const int64_t next = run_end + backoff;
    if (elapsed < next) {
      r.state = KubeletRun::State::kWaiting;
      r.started_s = start_s + t / kKubeletNsPerS;
      r.finished_s = start_s + run_end / kKubeletNsPerS;
      r.restart_count = k;
      r.backoff_s = backoff / kKubeletNsPerS;
      r.ready_changed_s = plan.crashloop ? start_s : r.finished_s;
      return r;
    }
    // Once the back-off stops growing every cycle is as long as the last: jump to the one
    // before `now` instead of walking a year of five-minute cycles.
    const bool steady = run >= kKubeletBackoffResetNs || step == kKubeletBackoffMaxNs;
    const int64_t cycle = run + backoff;
    if (steady && cycle > 0 && (elapsed - t) / cycle >= 2) {
      const int64_t skipped = (elapsed - t) / cycle - 1;
      t += skipped * cycle;
      k += skipped;
      r.has_last = true;
      r.last_started_s = start_s + (t - cycle) / kKubeletNsPerS;
      r.last_finished_s = start_s + (t - cycle + run) / kKubeletNsPerS;
      continue;
    }
    r.has_last = true;
    r.last_started_s = start_s + t / kKubeletNsPerS;
    r.last_finished_s = start_s + run_end / kKubeletNsPerS;
    t = next;
    ++k;
    ++doublings;
  }
}

std::string KubeletContainerId(const Json& pod, const std::string& container, int64_t restart) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx",
                static_cast<unsigned long long>(
                    StableHash({"container", UidOf(pod), container, std::to_string(restart)})));
  return std::string("containerd://") + buf;
}

Json KubeletTerminated(int exit_code, int64_t started_s, int64_t finished_s,
                       const std::string& container_id) {
  return Json{{"exitCode", exit_code},
              {"reason", exit_code == 0 ? "Completed" : "Error"},
              {"startedAt", TimeText(started_s)},
              {"finishedAt", TimeText(finished_s)},
              {"containerID", container_id}};
}

Json KubeletContainerStatus(const Json& pod, const Json& container, const KubeletRun& run) {
  const std::string name = StringAt(container, {"name"});
  const std::string id = KubeletContainerId(pod, name, run.restart_count);
  Json status = {{"name", name}, {"state", Json::object()}, {"lastState", Json::object()}};
  switch (run.state) {
    case KubeletRun::State::kRunning:
      status["state"]["running"] = Json{{"startedAt", TimeText(run.started_s)}};
      break;
    case KubeletRun::State::kWaiting:
      status["state"]["waiting"] =
          Json{{"reason", "CrashLoopBackOff"},
               {"message", "back-off " + FormatGoDuration(run.backoff_s * kKubeletNsPerS) +
                               " restarting failed container=" + name + " pod=" + NameOf(pod) +
                               "_" + NamespaceOf(pod) + "(" + UidOf(pod) + ")"}};
      break;
    case KubeletRun::State::kTerminated:
      status["state"]["terminated"] =
          KubeletTerminated(run.exit_code, run.started_s, run.finished_s, id);
      break;
  }
  if (run.state == KubeletRun::State::kWaiting) {
    status["lastState"]["terminated"] =
        KubeletTerminated(run.exit_code, run.started_s, run.finished_s,
                          KubeletContainerId(pod, name, run.restart_count));
  } else if (run.has_last) {
    status["lastState"]["terminated"] =
        KubeletTerminated(run.exit_code, run.last_started_s, run.last_finished_s,
                          KubeletContainerId(pod, name, run.restart_count - 1));
  }
  status["ready"] = run.ready;
  status["restartCount"] = run.restart_count;
  status["image"] = StringAt(container, {"image"});
  status["imageID"] = "";
  status["containerID"] = id;
  status["started"] = run.state == KubeletRun::State::kRunning;
  return status;
}

Json KubeletPodCondition(const char* type, bool ok, int64_t since_s, const char* reason,
                         const std::string& message) {
  Json c = {{"type", type},
            {"status", ok ? "True" : "False"},
            {"lastProbeTime", nullptr},
            {"lastTransitionTime", TimeText(since_s)}};
  if (!ok && reason != nullptr) {
    c["reason"] = reason;
    if (!message.empty()) c["message"] = message;
  }
  return c;
}

// The QoS class the API server computes at creation: Guaranteed when every container limits
// cpu and memory and requests (if given) equal the limits, BestEffort when none requests or
// limits anything, else Burstable.
std::string KubeletQosClass(const Json& pod) {
  const Json* containers = MemberAt(pod, {"spec", "containers"});
  if (containers == nullptr || !containers->is_array()) return "BestEffort";
  bool any = false;
  bool guaranteed = true;
  for (const Json& c : *containers) {
    const Json* requests = MemberAt(c, {"resources", "requests"});
    const Json* limits = MemberAt(c, {"resources", "limits"});
    if ((requests != nullptr && requests->is_object() && !requests->empty()) ||
        (limits != nullptr && limits->is_object() && !limits->empty())) {
      any = true;
    }
    for (const char* r : {"cpu", "memory"}) {
      const Json* limit = limits != nullptr ? Member(*limits, r) : nullptr;
      const Json* request = requests != nullptr ? Member(*requests, r) : nullptr;
      if (limit == nullptr || (request != nullptr && *request != *limit)) guaranteed = false;
    }
  }
  if (!any) return "BestEffort";
  return guaranteed ? "Guaranteed" : "Burstable";
}

Json KubeletPodStatus(const Json& pod, const KubeletRun& run, int64_t start_s,
                      const std::string& host_ip, const std::string& pod_ip) {
  const Json* old = Member(pod, "status");
  Json status = old != nullptr && old->is_object() ? *old : Json::object();
  const bool terminal = run.state == KubeletRun::State::kTerminated;
  status["phase"] = terminal ? (run.exit_code == 0 ? "Succeeded" : "Failed") : "Running";
  status.erase("reason");
  status.erase("message");

  std::vector<std::string> names;
  const Json* containers = MemberAt(pod, {"spec", "containers"});
  if (containers != nullptr && containers->is_array()) {
    for (const Json& c : *containers) names.push_back(StringAt(c, {"name"}));
  }
  std::string unready = "containers with unready status: [";
  for (size_t i = 0; i < names.size(); ++i) unready += (i > 0 ? " " : "") + names[i];
  unready += "]";

  Json conditions = Json::array();
  conditions.push_back(KubeletPodCondition("PodReadyToStartContainers", !terminal,
                                           terminal ? run.finished_s : start_s, nullptr, ""));
  conditions.push_back(KubeletPodCondition("Initialized", true, start_s, nullptr, ""));
  const char* not_ready_reason = terminal ? "PodCompleted" : "ContainersNotReady";
  const std::string not_ready_message = terminal ? "" : unready;
  conditions.push_back(KubeletPodCondition("Ready", run.ready, run.ready_changed_s,
                                           not_ready_reason, not_ready_message));
  conditions.push_back(KubeletPodCondition("ContainersReady", run.ready, run.ready_changed_s,
                                           not_ready_reason, not_ready_message));
  const Json* scheduled = FindCondition(pod, "PodScheduled");
  conditions.push_back(scheduled != nullptr
                           ? *scheduled
                           : KubeletPodCondition("PodScheduled", true, start_s, nullptr, ""));
  const Json* old_conditions = old != nullptr ? Member(*old, "conditions") : nullptr;
  if (old_conditions != nullptr && old_conditions->is_array()) {
    for (const Json& c : *old_conditions) {
      const std::string type = StringAt(c, {"type"});
      if (type != "PodReadyToStartContainers" && type != "Initialized" && type != "Ready" &&
          type != "ContainersReady" && type != "PodScheduled") {
        conditions.push_back(c);
      }
    }
  }
  status["conditions"] = std::move(conditions);
  if (!host_ip.empty()) {
    status["hostIP"] = host_ip;
    status["hostIPs"] = Json::array({Json{{"ip", host_ip}}});
  }
  if (!pod_ip.empty()) {
    status["podIP"] = pod_ip;
    status["podIPs"] = Json::array({Json{{"ip", pod_ip}}});
  }
  status["startTime"] = TimeText(start_s);

  const Json* init = MemberAt(pod, {"spec", "initContainers"});
  if (init != nullptr && init->is_array() && !init->empty()) {
    Json list = Json::array();
    for (const Json& c : *init) {
      const std::string name = StringAt(c, {"name"});
      const std::string id = KubeletContainerId(pod, name, 0);
      list.push_back(Json{{"name", name},
                          {"state", {{"terminated", KubeletTerminated(0, start_s, start_s, id)}}},
                          {"lastState", Json::object()},
                          {"ready", true},
                          {"restartCount", 0},
                          {"image", StringAt(c, {"image"})},
                          {"imageID", ""},
                          {"containerID", id},
                          {"started", false}});
    }
    status["initContainerStatuses"] = std::move(list);
  }
  Json list = Json::array();
  if (containers != nullptr && containers->is_array()) {
    for (const Json& c : *containers) list.push_back(KubeletContainerStatus(pod, c, run));
  }
  status["containerStatuses"] = std::move(list);
  if (StringAt(status, {"qosClass"}).empty()) status["qosClass"] = KubeletQosClass(pod);
  return status;
}

// The host part of `ip` when it is in the /24 `prefix` ("10.244.3"); -1 otherwise.
int KubeletHostOctet(const std::string& ip, const std::string& prefix) {
  if (prefix.empty() || ip.size() <= prefix.size() + 1 ||
      ip.compare(0, prefix.size(), prefix) != 0 || ip[prefix.size()] != '.') {
    return -1;
  }
  int octet = -1;
  const char* begin = ip.data() + prefix.size() + 1;
  auto [end, ec] = std::from_chars(begin, ip.data() + ip.size(), octet);
  return ec == std::errc() && end == ip.data() + ip.size() ? octet : -1;
}

}  // namespace

PodRunPlan PlanPodRun(MemberState& state, const Json& pod, const ControllerOptions& options) {
  PodRunPlan plan;
  bool invalid = false;
  if (HasAnnotation(pod, kSimulatedFailureAnnotation)) {
    const std::string v = AnnotationOf(pod, kSimulatedFailureAnnotation);
    if (v == "crashloop") {
      plan.crashloop = true;
    } else {
      state.Report(pod, "InvalidSimulatedFailure",
                   std::string(kSimulatedFailureAnnotation) + " \"" + v +
                       "\" is not crashloop; the pod runs until deleted");
      invalid = true;
    }
  }
  if (HasAnnotation(pod, kSimulatedExitCodeAnnotation)) {
    const std::string v = AnnotationOf(pod, kSimulatedExitCodeAnnotation);
    int code = -1;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), code);
    if (ec == std::errc() && end == v.data() + v.size() && code >= 0 && code <= 255) {
      plan.exit_code = code;
    } else {
      state.Report(pod, "InvalidSimulatedExitCode",
                   std::string(kSimulatedExitCodeAnnotation) + " \"" + v +
                       "\" is not an integer from 0 to 255; the pod runs until deleted");
      invalid = true;
    }
  }
  if (HasAnnotation(pod, kSimulatedDurationAnnotation)) {
    const std::string v = AnnotationOf(pod, kSimulatedDurationAnnotation);
    core::Result<int64_t> ns = ParseGoDuration(v);
    if (ns.has_value() && *ns >= 0) {
      plan.run_ns = *ns;
    } else {
      const std::string why =
          ns.has_value() ? "a duration may not be negative" : ns.error().message();
      state.Report(pod, "InvalidSimulatedDuration",
                   std::string(kSimulatedDurationAnnotation) + " \"" + v + "\": " + why +
                       "; the pod runs until deleted");
      invalid = true;
    }
  } else if (PodRestartPolicy(pod) != "Always") {
    plan.run_ns = options.default_duration.Sample(
        UnitInterval(StableHash({"simulated-duration", UidOf(pod), std::to_string(options.seed)})));
  }
  if (invalid) return PodRunPlan{};
  if (plan.crashloop) {
    plan.run_ns = 0;
    if (plan.exit_code == 0) plan.exit_code = 1;
  }
  return plan;
}

void RunKubelet(MemberState& state, const ControllerOptions& options) {
  KubeletSyncNodes(state);

  // Addresses in use on each node, so a starting pod takes the lowest free one.
  std::map<std::string, std::set<int>> used_hosts;
  std::map<std::string, std::string> prefixes;
  for (const Json* node : state.List(Kind::kNode))
    prefixes[NameOf(*node)] = KubeletCidrPrefix(*node);
  for (const Json* pod : state.List(Kind::kPod)) {
    const std::string node = StringAt(*pod, {"spec", "nodeName"});
    if (node.empty() || PodIsTerminal(*pod)) continue;
    const int octet = KubeletHostOctet(StringAt(*pod, {"status", "podIP"}), prefixes[node]);
    if (octet >= 0) used_hosts[node].insert(octet);
  }

  for (const Json* pod_ptr : state.List(Kind::kPod)) {
    if (IsBeingDeleted(*pod_ptr) || PodIsTerminal(*pod_ptr)) continue;
    const std::string node_name = StringAt(*pod_ptr, {"spec", "nodeName"});
    if (node_name.empty()) continue;
    const Json* node = state.Get(Kind::kNode, "", node_name);
    if (node == nullptr) continue;  // the pod garbage collector fails and deletes it
    if (ParseNodeFault(*node).down) continue;

    const PodRunPlan plan = PlanPodRun(state, *pod_ptr, options);
    const std::string policy = PodRestartPolicy(*pod_ptr);
    const bool restart_in_place =
        plan.crashloop ? policy != "Never"
                       : plan.run_ns.has_value() &&
                             (policy == "Always" || (policy == "OnFailure" && plan.exit_code != 0));
    const bool starting = PodPhase(*pod_ptr) == "Pending";
    const int64_t start_s =
        starting ? state.now() : TimeAt(*pod_ptr, {"status", "startTime"}).value_or(state.now());

    std::string pod_ip = StringAt(*pod_ptr, {"status", "podIP"});
    if (pod_ip.empty() && !prefixes[node_name].empty()) {
      std::set<int>& used = used_hosts[node_name];
      int host = 2;  // .0 is the network, .1 the node's bridge
      while (host < 255 && used.count(host) > 0) ++host;
      if (host < 255) {
        used.insert(host);
        pod_ip = prefixes[node_name] + "." + std::to_string(host);
      } else {
        state.Report(*pod_ptr, "NoPodAddress", "node " + node_name + " has no free pod address");
      }
    }
    const KubeletRun run = KubeletTimeline(plan, restart_in_place, start_s, state.now());
    Json status = KubeletPodStatus(*pod_ptr, run, start_s, KubeletHostIp(*node), pod_ip);
    const Json* old = Member(*pod_ptr, "status");
    if (old != nullptr && *old == status) continue;  // the common case: nothing to copy
    Json pod = *pod_ptr;
    pod["status"] = std::move(status);
    state.Replace(std::move(pod));
  }
}

}  // namespace berth::server::member
