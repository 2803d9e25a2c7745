#include "server/member/jobset_controller.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/naming.h"

namespace berth::server::member {

namespace {

constexpr char kJsNameKey[] = "jobset.sigs.k8s.io/jobset-name";
constexpr char kJsUidKey[] = "jobset.sigs.k8s.io/jobset-uid";
constexpr char kJsReplicatedJobKey[] = "jobset.sigs.k8s.io/replicatedjob-name";
constexpr char kJsReplicasKey[] = "jobset.sigs.k8s.io/replicatedjob-replicas";
constexpr char kJsGlobalReplicasKey[] = "jobset.sigs.k8s.io/global-replicas";
constexpr char kJsJobIndexKey[] = "jobset.sigs.k8s.io/job-index";
constexpr char kJsGlobalIndexKey[] = "jobset.sigs.k8s.io/job-global-index";
constexpr char kJsJobKey[] = "jobset.sigs.k8s.io/job-key";
constexpr char kJsRestartsKey[] = "jobset.sigs.k8s.io/restart-attempt";

struct JsReplicatedJob {
  std::string name;
  int64_t replicas = 1;
  const Json* tmpl = nullptr;        // the Job template ({metadata, spec})
  const Json* depends_on = nullptr;  // [{name, status}]
};

struct JsRjobStatus {
  std::string name;
  int64_t ready = 0, succeeded = 0, failed = 0, active = 0, suspended = 0;
};

int64_t JsParseInt(const std::string& text, int64_t fallback) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty() ? v : fallback;
}

// updateCondition: a status change replaces the condition (new transition time); a reason or
// message change keeps the transition time; a missing condition is added only when True.
void JsSetCondition(Json& status, const std::string& type, const std::string& value,
                    const std::string& reason, const std::string& message, int64_t now) {
  Json& conditions = EnsureArray(status, "conditions");
  Json fresh = {{"type", type},
                {"status", value},
                {"lastTransitionTime", TimeText(now)},
                {"reason", reason},
                {"message", message}};
  for (Json& c : conditions) {
    if (StringAt(c, {"type"}) != type) continue;
    if (StringAt(c, {"status"}) != value) {
      c = std::move(fresh);
    } else if (StringAt(c, {"reason"}) != reason || StringAt(c, {"message"}) != message) {
      if (const Json* since = Member(c, "lastTransitionTime")) fresh["lastTransitionTime"] = *since;
      c = std::move(fresh);
    }
    return;
  }
  if (value == "True") conditions.push_back(std::move(fresh));
}

// Merges string maps (the template's keys win) and lists (missing items appended), as
// collections.MergeMaps and MergeSlices do on resume.
void JsMergeMap(Json& into, const Json* from) {
  if (from == nullptr || !from->is_object()) return;
  if (!into.is_object()) into = Json::object();
  for (auto it = from->begin(); it != from->end(); ++it) into[it.key()] = it.value();
}
void JsMergeList(Json& into, const Json* from) {
  if (from == nullptr || !from->is_array()) return;
  if (!into.is_array()) into = Json::array();
  for (const Json& item : *from) {
    if (std::find(into.begin(), into.end(), item) == into.end()) into.push_back(item);
  }
}

class JobSetSync {
 public:
  JobSetSync(MemberState& state, const Json& js) : state_(state), js_(js) {}
  void Run();

 private:
  void Classify();
  std::vector<JsRjobStatus> Statuses() const;
  Json NewJob(const JsReplicatedJob& rjob, int64_t index) const;
  void LabelAndAnnotate(Json& obj, const JsReplicatedJob& rjob, int64_t index) const;
  bool DependenciesReached(const JsReplicatedJob& rjob,
                           const std::vector<JsRjobStatus>& statuses) const;
  void Fail(const std::string& reason, const std::string& message);
  void ExecuteFailurePolicy();
  bool ExecuteSuccessPolicy();
  void Write();

  MemberState& state_;
  Json js_;
  // A copy of js_.spec that nothing writes: rjobs_ point into it, and pointers into js_ would
  // die the moment js_ gains its status (ordered_json keeps members in a vector).
  Json spec_;
  std::string name_;
  std::string ns_;
  std::string uid_;
  int64_t restarts_ = 0;
  bool suspended_ = false;
  std::vector<JsReplicatedJob> rjobs_;
  std::vector<const Json*> active_, succeeded_, failed_, previous_;
};

void JobSetSync::Classify() {
  for (const Json* job : state_.Controlled(Kind::kJob, uid_)) {
    const int64_t attempt = JsParseInt(LabelOf(*job, kJsRestartsKey), -1);
    if (attempt < restarts_) {
      previous_.push_back(job);
    } else if (ConditionIsTrue(*job, "Failed")) {
      failed_.push_back(job);
    } else if (ConditionIsTrue(*job, "Complete")) {
      succeeded_.push_back(job);
    } else {
      active_.push_back(job);
    }
  }
}

std::vector<JsRjobStatus> JobSetSync::Statuses() const {
  std::vector<JsRjobStatus> out;
  std::map<std::string, size_t> at;
  for (const JsReplicatedJob& r : rjobs_) {
    at[r.name] = out.size();
    out.push_back(JsRjobStatus{r.name});
  }
  auto slot = [&](const Json* job) -> JsRjobStatus* {
    auto it = at.find(LabelOf(*job, kJsReplicatedJobKey));
    return it == at.end() ? nullptr : &out[it->second];
  };
  for (const Json* job : active_) {
    JsRjobStatus* s = slot(job);
    if (s == nullptr) continue;
    const int64_t parallelism = IntAt(*job, {"spec", "parallelism"}, 1);
    const std::optional<int64_t> completions = OptionalIntAt(*job, {"spec", "completions"});
    const int64_t pods = completions && *completions < parallelism ? *completions : parallelism;
    if (IntAt(*job, {"status", "succeeded"}, 0) + IntAt(*job, {"status", "ready"}, 0) >= pods) {
      ++s->ready;
    }
    if (IntAt(*job, {"status", "active"}, 0) > 0) ++s->active;
    if (BoolAt(*job, {"spec", "suspend"}, false)) ++s->suspended;
  }
  for (const Json* job : succeeded_) {
    if (JsRjobStatus* s = slot(job)) ++s->succeeded;
  }
  for (const Json* job : failed_) {
    if (JsRjobStatus* s = slot(job)) ++s->failed;
  }
  return out;
}

void JobSetSync::LabelAndAnnotate(Json& obj, const JsReplicatedJob& rjob, int64_t index) const {
  const std::string job_name = name_ + "-" + rjob.name + "-" + std::to_string(index);
  // The global index counts the replicas of the replicated jobs listed before this one.
  int64_t global = 0;
  int64_t before = 0;
  bool seen = false;
  for (const JsReplicatedJob& r : rjobs_) {
    if (r.name == rjob.name) seen = true;
    if (!seen) before += r.replicas;
    global += r.replicas;
  }
  const int64_t global_index = before + index;
  const std::pair<const char*, std::string> values[] = {
      {kJsNameKey, name_},
      {kJsUidKey, uid_},
      {kJsReplicatedJobKey, rjob.name},
      {kJsRestartsKey, std::to_string(restarts_)},
      {kJsReplicasKey, std::to_string(rjob.replicas)},
      {kJsGlobalReplicasKey, std::to_string(global)},
      {kJsJobIndexKey, std::to_string(index)},
      {kJsJobKey, Sha1Hex(ns_ + "/" + job_name)},
      {kJsGlobalIndexKey, std::to_string(global_index)},
  };
  for (const auto& [key, value] : values) {
    SetLabel(obj, key, value);
    SetAnnotation(obj, key, value);
  }
}

Json JobSetSync::NewJob(const JsReplicatedJob& rjob, int64_t index) const {
  const std::string job_name = name_ + "-" + rjob.name + "-" + std::to_string(index);
  Json job = {{"apiVersion", "batch/v1"}, {"kind", "Job"}, {"metadata", Json::object()}};
  Json& meta = job["metadata"];
  meta["name"] = job_name;
  meta["namespace"] = ns_;
  for (const char* field : {"labels", "annotations"}) {
    const Json* v = rjob.tmpl != nullptr ? MemberAt(*rjob.tmpl, {"metadata", field}) : nullptr;
    if (v != nullptr && v->is_object()) meta[field] = *v;
  }
  meta["ownerReferences"] = Json::array({ControllerRefTo(js_, Kind::kJobSet)});
  const Json* spec = rjob.tmpl != nullptr ? Member(*rjob.tmpl, "spec") : nullptr;
  job["spec"] = spec != nullptr && spec->is_object() ? *spec : Json::object();
  Json& job_spec = job["spec"];
  // The JobSet webhook's defaults.
  if (StringAt(job_spec, {"completionMode"}).empty()) job_spec["completionMode"] = "Indexed";
  Json& pod_template = EnsureObject(job_spec, "template");
  Json& pod_spec = EnsureObject(pod_template, "spec");
  if (StringAt(pod_spec, {"restartPolicy"}).empty()) pod_spec["restartPolicy"] = "OnFailure";
  LabelAndAnnotate(job, rjob, index);
  LabelAndAnnotate(job["spec"]["template"], rjob, index);
  if (BoolAt(js_, {"spec", "network", "enableDNSHostnames"}, true)) {
    std::string subdomain = StringAt(js_, {"spec", "network", "subdomain"});
    if (subdomain.empty()) subdomain = name_;
    job["spec"]["template"]["spec"]["subdomain"] = subdomain;
  }
  job["spec"]["suspend"] = suspended_;
  return job;
}

bool JobSetSync::DependenciesReached(const JsReplicatedJob& rjob,
                                     const std::vector<JsRjobStatus>& statuses) const {
  if (rjob.depends_on == nullptr || !rjob.depends_on->is_array()) return true;
  for (const Json& dep : *rjob.depends_on) {
    const std::string dep_name = StringAt(dep, {"name"});
    const JsRjobStatus* s = nullptr;
    for (const JsRjobStatus& candidate : statuses) {
      if (candidate.name == dep_name) s = &candidate;
    }
    int64_t replicas = 0;
    for (const JsReplicatedJob& r : rjobs_) {
      if (r.name == dep_name) replicas = r.replicas;
    }
    if (s == nullptr) return false;
    const std::string want = StringAt(dep, {"status"});
    if (want == "Complete" && replicas != s->succeeded) return false;
    if (want == "Ready" && replicas != s->failed + s->ready + s->succeeded) return false;
  }
  return true;
}

void JobSetSync::Fail(const std::string& reason, const std::string& message) {
  Json& status = EnsureObject(js_, "status");
  JsSetCondition(status, "Failed", "True", reason, message, state_.now());
  JsSetCondition(status, "RestartingJobSet", "False", "JobSetFailed", "jobset failed",
                 state_.now());
  status["terminalState"] = "Failed";
}

void JobSetSync::ExecuteFailurePolicy() {
  // The job that failed first (its Failed condition's time).
  auto failure_time = [](const Json* job) {
    const Json* c = FindCondition(*job, "Failed");
    return c != nullptr ? TimeAt(*c, {"lastTransitionTime"}).value_or(0) : 0;
  };
  auto earlier = [&](const Json* a, const Json* b) {
    return std::make_tuple(failure_time(a), NameOf(*a)) <
           std::make_tuple(failure_time(b), NameOf(*b));
  };
  const Json* policy = MemberAt(js_, {"spec", "failurePolicy"});
  const Json* first = *std::min_element(failed_.begin(), failed_.end(), earlier);
  if (policy == nullptr || !policy->is_object()) {
    Fail("FailedJobs", "jobset failed due to one or more job failures (first failed job: " +
                           NameOf(*first) + ")");
    return;
  }
  std::string action = "RestartJobSet";
  std::string rule_name;
  const Json* matched = first;
  const Json* rules = Member(*policy, "rules");
  if (rules != nullptr && rules->is_array()) {
    int64_t i = 0;
    for (const Json& rule : *rules) {
      const Json* best = nullptr;
      for (const Json* job : failed_) {
        const Json* c = FindCondition(*job, "Failed");
        const std::string reason = c != nullptr ? StringAt(*c, {"reason"}) : "";
        const Json* reasons = Member(rule, "onJobFailureReasons");
        const Json* targets = Member(rule, "targetReplicatedJobs");
        const Json* patterns = Member(rule, "onJobFailureMessagePatterns");
        auto contains = [](const Json* list, const std::string& value) {
          if (list == nullptr || !list->is_array() || list->empty()) return true;
          return std::find(list->begin(), list->end(), Json(value)) != list->end();
        };
        if (!contains(reasons, reason)) continue;
        if (!contains(targets, LabelOf(*job, kJsReplicatedJobKey))) continue;
        // Message patterns are regular expressions upstream; a rule that has them is not
        // matched here (README.md).
        if (patterns != nullptr && patterns->is_array() && !patterns->empty()) continue;
        if (best == nullptr || earlier(job, best)) best = job;
      }
      if (best != nullptr) {
        action = StringAt(rule, {"action"});
        rule_name = StringAt(rule, {"name"});
        if (rule_name.empty()) rule_name = "failurePolicyRule" + std::to_string(i);
        matched = best;
        break;
      }
      ++i;
    }
  }
  const std::string first_failed = " (first failed job: " + NameOf(*matched) + ")";
  if (action == "FailJobSet") {
    Fail("FailJobSetFailurePolicyAction",
         "applying FailJobSet failure policy action" + first_failed);
    return;
  }
  Json& status = EnsureObject(js_, "status");
  const bool counts =
      action != "RestartJobSetAndIgnoreMaxRestarts" && action != "RestartJobAndIgnoreMaxRestarts";
  const int64_t towards_max = IntAt(status, {"restartsCountTowardsMax"}, 0);
  if (counts && towards_max >= IntAt(*policy, {"maxRestarts"}, 0)) {
    Fail("ReachedMaxRestarts",
         "jobset failed due to reaching max number of restarts" + first_failed);
    return;
  }
  status["restarts"] = restarts_ + 1;
  if (counts) status["restartsCountTowardsMax"] = towards_max + 1;
  const std::string message = (counts ? "applying RestartJobSet failure policy action"
                                      : "applying RestartJobSetAndIgnoreMaxRestarts failure "
                                        "policy action") +
                              first_failed;
  JsSetCondition(status, "RestartingJobSet", "True",
                 rule_name.empty() ? "DefaultFailurePolicy" : "FailurePolicy_" + rule_name, message,
                 state_.now());
}

bool JobSetSync::ExecuteSuccessPolicy() {
  const Json* policy = MemberAt(js_, {"spec", "successPolicy"});
  const Json* targets = policy != nullptr ? Member(*policy, "targetReplicatedJobs") : nullptr;
  auto targeted = [&](const std::string& rjob) {
    if (targets == nullptr || !targets->is_array() || targets->empty()) return true;
    return std::find(targets->begin(), targets->end(), Json(rjob)) != targets->end();
  };
  int64_t done = 0;
  for (const Json* job : succeeded_) {
    if (targeted(LabelOf(*job, kJsReplicatedJobKey))) ++done;
  }
  int64_t needed = 0;
  if (policy != nullptr && StringAt(*policy, {"operator"}) == "Any") {
    needed = 1;
  } else {
    for (const JsReplicatedJob& r : rjobs_) {
      if (targeted(r.name)) needed += r.replicas;
    }
  }
  if (done < needed) return false;
  Json& status = EnsureObject(js_, "status");
  JsSetCondition(status, "Completed", "True", "AllJobsCompleted", "jobset completed successfully",
                 state_.now());
  JsSetCondition(status, "RestartingJobSet", "False", "JobSetCompleted",
                 "jobset completed successfully", state_.now());
  status["terminalState"] = "Completed";
  return true;
}

void JobSetSync::Write() {
  Json& status = EnsureObject(js_, "status");
  // Upstream's field order: conditions, restarts, restartsCountTowardsMax, terminalState,
  // replicatedJobsStatus.
  Json ordered = Json::object();
  for (const char* key : {"conditions", "restarts", "restartsCountTowardsMax", "terminalState",
                          "replicatedJobsStatus"}) {
    if (const Json* v = Member(status, key); v != nullptr) ordered[key] = *v;
  }
  for (auto it = status.begin(); it != status.end(); ++it) {
    if (!ordered.contains(it.key())) ordered[it.key()] = it.value();
  }
  if (const Json* c = Member(ordered, "conditions"); c != nullptr && c->empty())
    ordered.erase("conditions");
  for (const char* key : {"restarts", "restartsCountTowardsMax"}) {
    if (const Json* v = Member(ordered, key); v != nullptr && v->is_number() && *v == 0) {
      ordered.erase(key);
    }
  }
  js_["status"] = std::move(ordered);
  state_.Replace(std::move(js_));
}

void JobSetSync::Run() {
  const std::string managed_by = StringAt(js_, {"spec", "managedBy"});
  if (!managed_by.empty() && managed_by != "jobset.sigs.k8s.io/jobset-controller") return;
  name_ = NameOf(js_);
  ns_ = NamespaceOf(js_);
  uid_ = UidOf(js_);
  if (uid_.empty()) {
    state_.Report(js_, "InvalidJobSet", "the JobSet has no metadata.uid; it is not synced");
    return;
  }
  restarts_ = IntAt(js_, {"status", "restarts"}, 0);
  suspended_ = BoolAt(js_, {"spec", "suspend"}, false);
  if (const Json* spec = Member(js_, "spec"); spec != nullptr) spec_ = *spec;
  if (const Json* list = Member(spec_, "replicatedJobs"); list != nullptr && list->is_array()) {
    for (const Json& r : *list) {
      JsReplicatedJob rjob;
      rjob.name = StringAt(r, {"name"});
      rjob.replicas = std::max<int64_t>(0, IntAt(r, {"replicas"}, 1));
      rjob.tmpl = Member(r, "template");
      rjob.depends_on = Member(r, "dependsOn");
      if (!rjob.name.empty()) rjobs_.push_back(rjob);
    }
  }
  Classify();
  std::vector<JsRjobStatus> statuses = Statuses();
  Json list = Json::array();
  for (const JsRjobStatus& s : statuses) {
    list.push_back(Json{{"name", s.name},
                        {"ready", s.ready},
                        {"succeeded", s.succeeded},
                        {"failed", s.failed},
                        {"active", s.active},
                        {"suspended", s.suspended}});
  }
  Json& status = EnsureObject(js_, "status");
  status["replicatedJobsStatus"] = std::move(list);

  if (ConditionIsTrue(js_, "Completed") || ConditionIsTrue(js_, "Failed")) {
    for (const Json* job : active_) state_.Delete(*job);
    Write();
    return;
  }
  for (const Json* job : previous_) state_.Delete(*job);
  int64_t total = 0;
  int64_t ready = 0;
  for (const JsReplicatedJob& r : rjobs_) total += r.replicas;
  for (const JsRjobStatus& s : statuses) ready += s.ready + s.succeeded;
  if (!suspended_ && total == ready) {
    JsSetCondition(EnsureObject(js_, "status"), "RestartingJobSet", "False", "JobsReady",
                   "all jobs are ready", state_.now());
  }
  if (!failed_.empty()) {
    ExecuteFailurePolicy();
    Write();
    return;
  }
  if (!succeeded_.empty() && ExecuteSuccessPolicy()) {
    Write();
    return;
  }
  const bool blocking =
      StringAt(js_, {"spec", "failurePolicy", "restartStrategy"}) == "BlockingRecreate";
  if (!(blocking && !previous_.empty())) {
    for (const JsReplicatedJob& rjob : rjobs_) {
      if (!DependenciesReached(rjob, statuses)) continue;
      for (int64_t i = 0; i < rjob.replicas; ++i) {
        const std::string job_name = name_ + "-" + rjob.name + "-" + std::to_string(i);
        if (!state_.NameFree(Kind::kJob, ns_, job_name)) continue;
        state_.Create(NewJob(rjob, i));
      }
    }
  }
  if (suspended_) {
    for (const Json* job : active_) {
      if (BoolAt(*job, {"spec", "suspend"}, false)) continue;
      Json copy = *job;
      EnsureObject(copy, "spec")["suspend"] = true;
      state_.Replace(std::move(copy));
    }
    Json& s = EnsureObject(js_, "status");
    JsSetCondition(s, "Suspended", "True", "SuspendedJobs", "jobset is suspended", state_.now());
    JsSetCondition(s, "RestartingJobSet", "False", "JobSetSuspended", "jobset is suspended",
                   state_.now());
  } else {
    for (const Json* job : active_) {
      if (!BoolAt(*job, {"spec", "suspend"}, false)) continue;
      const JsReplicatedJob* rjob = nullptr;
      for (const JsReplicatedJob& r : rjobs_) {
        if (r.name == LabelOf(*job, kJsReplicatedJobKey)) rjob = &r;
      }
      if (rjob != nullptr && !DependenciesReached(*rjob, statuses)) continue;
      Json copy = *job;
      // A started Job's template is immutable: its startTime is cleared first.
      if (Json* st =
              copy.contains("status") && copy["status"].is_object() ? &copy["status"] : nullptr;
          st != nullptr) {
        st->erase("startTime");
      }
      if (rjob != nullptr && rjob->tmpl != nullptr) {
        const Json* pod_template = MemberAt(*rjob->tmpl, {"spec", "template"});
        if (pod_template != nullptr) {
          // Each level is looked up again after the one above it gained a key (an
          // ordered_json reference does not survive that).
          Json& target = EnsureObject(EnsureObject(copy, "spec"), "template");
          EnsureObject(target, "metadata");
          EnsureObject(target, "spec");
          for (const char* key : {"labels", "annotations"}) {
            JsMergeMap(target["metadata"][key], MemberAt(*pod_template, {"metadata", key}));
            if (target["metadata"][key].is_null()) target["metadata"].erase(key);
          }
          for (const char* key : {"nodeSelector", "tolerations", "schedulingGates"}) {
            if (std::string(key) == "nodeSelector") {
              JsMergeMap(target["spec"][key], MemberAt(*pod_template, {"spec", key}));
            } else {
              JsMergeList(target["spec"][key], MemberAt(*pod_template, {"spec", key}));
            }
            if (target["spec"][key].is_null() || target["spec"][key].empty()) {
              target["spec"].erase(key);
            }
          }
        }
      }
      EnsureObject(copy, "spec")["suspend"] = false;
      state_.Replace(std::move(copy));
    }
    JsSetCondition(EnsureObject(js_, "status"), "Suspended", "False", "ResumeJobs",
                   "jobset is resumed", state_.now());
  }
  Write();
}

}  // namespace

void RunJobSetController(MemberState& state, const ControllerOptions& options) {
  for (const Json* js : state.List(Kind::kJobSet)) JobSetSync(state, *js).Run();
}

}  // namespace berth::server::member
