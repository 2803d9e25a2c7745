#include "server/member/pytorchjob_controller.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <string>
#include <vector>

#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/pod_util.h"

namespace berth::server::member {

namespace {

constexpr char kPtJobNameLabel[] = "training.kubeflow.org/job-name";
constexpr char kPtOperatorLabel[] = "training.kubeflow.org/operator-name";
constexpr char kPtReplicaTypeLabel[] = "training.kubeflow.org/replica-type";
constexpr char kPtReplicaIndexLabel[] = "training.kubeflow.org/replica-index";
constexpr char kPtJobRoleLabel[] = "training.kubeflow.org/job-role";
constexpr char kPtOperatorName[] = "pytorchjob-controller";
constexpr int64_t kPtDefaultPort = 23456;

struct PtReplica {
  std::string type;  // "Master", "Worker" (as the defaulter camel-cases them)
  int64_t replicas = 1;
  std::string restart_policy;
  const Json* tmpl = nullptr;
};

std::string PtLower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The training operator's setCondition: nothing once Failed, nothing for an unchanged status
// and reason; Running and Restarting replace each other; Succeeded and Failed turn Running
// False.
void PtSetCondition(Json& status, const std::string& type, const std::string& value,
                    const std::string& reason, const std::string& message, int64_t now) {
  Json& conditions = EnsureArray(status, "conditions");
  for (const Json& c : conditions) {
    if (StringAt(c, {"type"}) == "Failed" && StringAt(c, {"status"}) == "True") return;
  }
  Json fresh = {{"type", type},
                {"status", value},
                {"reason", reason},
                {"message", message},
                {"lastUpdateTime", TimeText(now)},
                {"lastTransitionTime", TimeText(now)}};
  for (const Json& c : conditions) {
    if (StringAt(c, {"type"}) != type) continue;
    if (StringAt(c, {"status"}) == value && StringAt(c, {"reason"}) == reason) return;
    if (StringAt(c, {"status"}) == value) {
      if (const Json* since = Member(c, "lastTransitionTime")) fresh["lastTransitionTime"] = *since;
    }
  }
  Json kept = Json::array();
  for (Json& c : conditions) {
    const std::string t = StringAt(c, {"type"});
    if (t == type) continue;
    if ((type == "Restarting" && t == "Running") || (type == "Running" && t == "Restarting")) {
      continue;
    }
    if ((type == "Failed" || type == "Succeeded") && t == "Running") c["status"] = "False";
    kept.push_back(std::move(c));
  }
  kept.push_back(std::move(fresh));
  conditions = std::move(kept);
}

bool PtConditionTrue(const Json& status, const std::string& type) {
  const Json* conditions = Member(status, "conditions");
  if (conditions == nullptr || !conditions->is_array()) return false;
  for (const Json& c : *conditions) {
    if (StringAt(c, {"type"}) == type && StringAt(c, {"status"}) == "True") return true;
  }
  return false;
}

class PyTorchJobSync {
 public:
  PyTorchJobSync(MemberState& state, const Json& job) : state_(state), job_(job) {}
  void Run();

 private:
  bool HasMaster() const;
  void CreatePod(const PtReplica& replica, int64_t index);
  void ReconcilePods(const PtReplica& replica);
  void UpdateJobStatus();
  void DeletePods(bool running_only);
  void Write();
  Json& Status() { return EnsureObject(job_, "status"); }

  MemberState& state_;
  Json job_;
  // A copy of job_.spec that nothing writes: replicas_ point into it (a pointer into job_
  // would die when job_ gains its status).
  Json spec_;
  std::string name_;
  std::string ns_;
  std::string uid_;
  std::vector<PtReplica> replicas_;
  std::map<std::string, Json> replica_status_;
};

bool PyTorchJobSync::HasMaster() const {
  return std::any_of(replicas_.begin(), replicas_.end(),
                     [](const PtReplica& r) { return r.type == "Master"; });
}

void PyTorchJobSync::CreatePod(const PtReplica& replica, int64_t index) {
  const std::string rt = PtLower(replica.type);
  const std::string pod_name = name_ + "-" + rt + "-" + std::to_string(index);
  if (!state_.NameFree(Kind::kPod, ns_, pod_name)) return;
  Json tmpl = replica.tmpl != nullptr && replica.tmpl->is_object() ? *replica.tmpl : Json::object();
  SetLabel(tmpl, kPtOperatorLabel, kPtOperatorName);
  SetLabel(tmpl, kPtJobNameLabel, name_);
  SetLabel(tmpl, kPtReplicaTypeLabel, rt);
  SetLabel(tmpl, kPtReplicaIndexLabel, std::to_string(index));
  const bool master_role = replica.type == "Master";
  if (master_role) SetLabel(tmpl, kPtJobRoleLabel, "master");
  Json& spec = EnsureObject(tmpl, "spec");
  // SetRestartPolicy: ExitCode is the operator's own policy; the pod never restarts itself.
  spec["restartPolicy"] = replica.restart_policy == "ExitCode" ? "Never" : replica.restart_policy;
  // setPodEnv: the torch.distributed rendezvous.
  int64_t port = kPtDefaultPort;
  int64_t total = 0;
  for (const PtReplica& r : replicas_) {
    total += r.replicas;
    if (r.type != "Master" || r.tmpl == nullptr) continue;
    const Json* containers = MemberAt(*r.tmpl, {"spec", "containers"});
    if (containers == nullptr || !containers->is_array()) continue;
    for (const Json& c : *containers) {
      if (StringAt(c, {"name"}) != "pytorch") continue;
      const Json* ports = Member(c, "ports");
      if (ports == nullptr || !ports->is_array()) continue;
      for (const Json& p : *ports) {
        if (StringAt(p, {"name"}) == "pytorchjob-port") port = IntAt(p, {"containerPort"}, port);
      }
    }
  }
  if (Json* containers = spec.contains("containers") && spec["containers"].is_array()
                             ? &spec["containers"]
                             : nullptr;
      containers != nullptr) {
    for (Json& c : *containers) {
      if (!c.is_object()) continue;
      Json& env = EnsureArray(c, "env");
      env.push_back(Json{{"name", "PYTHONUNBUFFERED"}, {"value", "1"}});
      if (HasMaster()) {
        const int64_t rank = replica.type == "Worker" ? index + 1 : index;
        env.push_back(Json{{"name", "MASTER_PORT"}, {"value", std::to_string(port)}});
        env.push_back(Json{{"name", "MASTER_ADDR"}, {"value", name_ + "-master-0"}});
        env.push_back(Json{{"name", "WORLD_SIZE"}, {"value", std::to_string(total)}});
        env.push_back(Json{{"name", "RANK"}, {"value", std::to_string(rank)}});
      }
    }
  }
  state_.Create(PodFromTemplate(tmpl, job_, Kind::kPyTorchJob, ns_, pod_name));
}

void PyTorchJobSync::ReconcilePods(const PtReplica& replica) {
  const std::string rt = PtLower(replica.type);
  Json counts = Json::object();
  int64_t active = 0;
  int64_t succeeded = 0;
  int64_t failed = 0;
  std::map<int64_t, std::vector<const Json*>> slices;
  for (const Json* p : state_.Controlled(Kind::kPod, uid_)) {
    if (LabelOf(*p, kPtReplicaTypeLabel) != rt) continue;
    const std::string ix = LabelOf(*p, kPtReplicaIndexLabel);
    int64_t index = -1;
    auto [end, ec] = std::from_chars(ix.data(), ix.data() + ix.size(), index);
    if (ec != std::errc() || end != ix.data() + ix.size() || index < 0) continue;
    slices[index].push_back(p);
  }
  for (int64_t index = 0; index < replica.replicas; ++index) {
    if (slices.count(index) == 0) CreatePod(replica, index);
  }
  for (const auto& [index, pods] : slices) {
    if (pods.size() > 1) continue;  // upstream only logs "too many pods"
    const Json* pod = pods[0];
    if (index >= replica.replicas) state_.Delete(*pod);
    int64_t exit_code = -1;
    const Json* statuses = MemberAt(*pod, {"status", "containerStatuses"});
    if (statuses != nullptr && statuses->is_array()) {
      for (const Json& s : *statuses) {
        if (StringAt(s, {"name"}) != "pytorch") continue;
        if (const std::optional<int64_t> code =
                OptionalIntAt(s, {"state", "terminated", "exitCode"})) {
          exit_code = *code;
        }
      }
    }
    const std::string phase = PodPhase(*pod);
    if (phase == "Failed") {
      const bool retryable = exit_code >= 128;
      if (replica.restart_policy == "OnFailure" || replica.restart_policy == "Always" ||
          (replica.restart_policy == "ExitCode" && retryable)) {
        state_.Delete(*pod);
        PtSetCondition(
            Status(), "Restarting", "True", "PyTorchJobRestarting",
            "job " + name_ + " is restarting because " + replica.type + " replica(s) failed.",
            state_.now());
      } else if (replica.restart_policy == "ExitCode") {
        PtSetCondition(
            Status(), "Failed", "True", "PyTorchJobFailed",
            "job \"" + name_ + "\" is failing because \"" + replica.type + "\" replica(s) failed.",
            state_.now());
      }
    }
    if (phase == "Running") {
      if (IsBeingDeleted(*pod)) {
        ++failed;
      } else {
        ++active;
      }
    } else if (phase == "Succeeded") {
      ++succeeded;
    } else if (phase == "Failed") {
      ++failed;
    }
  }
  counts["selector"] = std::string(kPtJobNameLabel) + "=" + name_ + "," + kPtOperatorLabel + "=" +
                       kPtOperatorName + "," + kPtReplicaTypeLabel + "=" + rt;
  if (active > 0) counts["active"] = active;
  if (succeeded > 0) counts["succeeded"] = succeeded;
  if (failed > 0) counts["failed"] = failed;
  replica_status_[replica.type] = std::move(counts);
}

void PyTorchJobSync::UpdateJobStatus() {
  Json& status = Status();
  if (!TimeAt(status, {"startTime"})) status["startTime"] = TimeText(state_.now());
  const bool has_master = HasMaster();
  for (const PtReplica& replica : replicas_) {
    const Json& counts = replica_status_[replica.type];
    const int64_t succeeded = IntAt(counts, {"succeeded"}, 0);
    const int64_t running = IntAt(counts, {"active"}, 0);
    const int64_t failed = IntAt(counts, {"failed"}, 0);
    const int64_t expected = replica.replicas - succeeded;
    if (has_master) {
      if (replica.type == "Master") {
        if (running > 0) {
          PtSetCondition(status, "Running", "True", "PyTorchJobRunning",
                         "PyTorchJob " + name_ + " is running.", state_.now());
        }
        if (expected == 0) {
          if (!TimeAt(status, {"completionTime"}))
            status["completionTime"] = TimeText(state_.now());
          PtSetCondition(status, "Succeeded", "True", "PyTorchJobSucceeded",
                         "PyTorchJob " + name_ + " is successfully completed.", state_.now());
          return;
        }
      }
    } else if (replica.type == "Worker") {
      if (expected == 0) {
        if (!TimeAt(status, {"completionTime"})) status["completionTime"] = TimeText(state_.now());
        PtSetCondition(status, "Succeeded", "True", "PyTorchJobSucceeded",
                       "PyTorchJob " + ns_ + "/" + name_ + " successfully completed.",
                       state_.now());
      } else if (running > 0) {
        PtSetCondition(status, "Running", "True", "PyTorchJobRunning",
                       "PyTorchJob " + ns_ + "/" + name_ + " is running.", state_.now());
      }
    }
    if (failed > 0 && replica.replicas > succeeded + running) {
      const std::string what = std::to_string(failed) + " " + replica.type + " replica(s) failed.";
      if (replica.restart_policy != "Never") {
        PtSetCondition(status, "Restarting", "True", "PyTorchJobRestarting",
                       "PyTorchJob " + name_ + " is restarting because " + what, state_.now());
      } else {
        if (!TimeAt(status, {"completionTime"})) status["completionTime"] = TimeText(state_.now());
        PtSetCondition(status, "Failed", "True", "PyTorchJobFailed",
                       "PyTorchJob " + name_ + " is failed because " + what, state_.now());
      }
    }
  }
}

void PyTorchJobSync::DeletePods(bool running_only) {
  for (const Json* p : state_.Controlled(Kind::kPod, uid_)) {
    if (running_only && PodIsTerminal(*p)) continue;
    state_.Delete(*p);
  }
}

void PyTorchJobSync::Write() {
  Json& status = Status();
  Json counts = Json::object();
  for (const PtReplica& r : replicas_) {
    auto it = replica_status_.find(r.type);
    if (it != replica_status_.end()) counts[r.type] = it->second;
  }
  Json ordered = Json::object();
  if (const Json* c = Member(status, "conditions"); c != nullptr && !c->empty())
    ordered["conditions"] = *c;
  ordered["replicaStatuses"] = std::move(counts);
  for (const char* key : {"startTime", "completionTime", "lastReconcileTime"}) {
    if (const Json* v = Member(status, key); v != nullptr) ordered[key] = *v;
  }
  job_["status"] = std::move(ordered);
  state_.Replace(std::move(job_));
}

void PyTorchJobSync::Run() {
  const std::string managed_by = StringAt(job_, {"spec", "runPolicy", "managedBy"});
  if (!managed_by.empty() && managed_by != "kubeflow.org/training-operator") return;
  name_ = NameOf(job_);
  ns_ = NamespaceOf(job_);
  uid_ = UidOf(job_);
  if (uid_.empty()) {
    state_.Report(job_, "InvalidPyTorchJob",
                  "the PyTorchJob has no metadata.uid; it is not synced");
    return;
  }
  if (const Json* spec = Member(job_, "spec"); spec != nullptr) spec_ = *spec;
  const Json* specs = Member(spec_, "pytorchReplicaSpecs");
  if (specs != nullptr && specs->is_object()) {
    for (auto it = specs->begin(); it != specs->end(); ++it) {
      PtReplica r;
      const std::string lower = PtLower(it.key());
      r.type = lower == "master" ? "Master" : lower == "worker" ? "Worker" : it.key();
      r.replicas = std::max<int64_t>(0, IntAt(it.value(), {"replicas"}, 1));
      r.restart_policy = StringAt(it.value(), {"restartPolicy"});
      if (r.restart_policy.empty()) r.restart_policy = "OnFailure";
      r.tmpl = Member(it.value(), "template");
      replicas_.push_back(r);
    }
  }
  std::stable_sort(replicas_.begin(), replicas_.end(), [](const PtReplica& a, const PtReplica& b) {
    auto rank = [](const std::string& t) { return t == "Master" ? 0 : t == "Worker" ? 1 : 2; };
    return rank(a.type) < rank(b.type);
  });
  for (auto it = replicas_.begin(); it != replicas_.end(); ++it) {
    const Json* old = MemberAt(job_, {"status", "replicaStatuses", it->type});
    if (old != nullptr && old->is_object()) replica_status_[it->type] = *old;
  }
  Json& status = Status();
  if (FindCondition(job_, "Created") == nullptr) {
    PtSetCondition(status, "Created", "True", "PyTorchJobCreated",
                   "PyTorchJob " + name_ + " is created.", state_.now());
  }
  const std::string clean = StringAt(job_, {"spec", "runPolicy", "cleanPodPolicy"});
  if (PtConditionTrue(status, "Succeeded") || PtConditionTrue(status, "Failed")) {
    if (clean == "All") DeletePods(false);
    if (clean == "Running") DeletePods(true);
    if (PtConditionTrue(status, "Succeeded")) {
      for (auto& [type, counts] : replica_status_) {
        const int64_t active = IntAt(counts, {"active"}, 0);
        if (active == 0) continue;
        counts["succeeded"] = IntAt(counts, {"succeeded"}, 0) + active;
        counts.erase("active");
      }
    }
    Write();
    return;
  }
  if (BoolAt(job_, {"spec", "runPolicy", "suspend"}, false)) {
    DeletePods(false);
    for (auto& [type, counts] : replica_status_) counts.erase("active");
    const std::string message = "PyTorchJob " + name_ + " is suspended.";
    if (PtConditionTrue(status, "Running")) {
      PtSetCondition(status, "Running", "False", "PyTorchJobSuspended", message, state_.now());
    }
    if (!PtConditionTrue(status, "Suspended")) {
      PtSetCondition(status, "Suspended", "True", "PyTorchJobSuspended", message, state_.now());
    }
    Write();
    return;
  }
  if (PtConditionTrue(status, "Suspended")) {
    PtSetCondition(status, "Suspended", "False", "PyTorchJobResumed",
                   "PyTorchJob " + name_ + " is resumed.", state_.now());
    status["startTime"] = TimeText(state_.now());
  }
  std::string failure;
  if (const std::optional<int64_t> limit =
          OptionalIntAt(job_, {"spec", "runPolicy", "backoffLimit"})) {
    int64_t restarts = 0;
    for (const Json* p : state_.Controlled(Kind::kPod, uid_)) {
      if (PodPhase(*p) != "Running") continue;
      const std::string rt = LabelOf(*p, kPtReplicaTypeLabel);
      for (const PtReplica& r : replicas_) {
        if (PtLower(r.type) == rt && r.restart_policy != "Never") restarts += PodRestartCount(*p);
      }
    }
    if (*limit == 0 ? restarts > 0 : restarts >= *limit) {
      failure = "Job " + name_ + " has failed because it has reached the specified backoff limit";
    }
  }
  const std::optional<int64_t> deadline =
      OptionalIntAt(job_, {"spec", "runPolicy", "activeDeadlineSeconds"});
  const std::optional<int64_t> started = TimeAt(status, {"startTime"});
  if (failure.empty() && deadline && started && state_.now() - *started >= *deadline) {
    failure = "Job " + name_ + " has failed because it was active longer than specified deadline";
  }
  if (!failure.empty()) {
    if (!TimeAt(status, {"completionTime"})) status["completionTime"] = TimeText(state_.now());
    DeletePods(false);
    PtSetCondition(status, "Failed", "True", "PyTorchJobFailed", failure, state_.now());
    Write();
    return;
  }
  for (const PtReplica& r : replicas_) ReconcilePods(r);
  UpdateJobStatus();
  Write();
}

}  // namespace

void RunPyTorchJobController(MemberState& state, const ControllerOptions& options) {
  for (const Json* job : state.List(Kind::kPyTorchJob)) PyTorchJobSync(state, *job).Run();
}

}  // namespace berth::server::member
