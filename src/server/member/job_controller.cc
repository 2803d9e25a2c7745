#include "server/member/job_controller.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/pod_util.h"

namespace berth::server::member {

namespace {

// Upstream's MaxPodCreateDeletePerSync.
constexpr int64_t kJobMaxPodChangesPerSync = 500;

// The job's spec as the API server defaults it (SetDefaults_Job).
struct JobShape {
  int64_t parallelism = 1;
  std::optional<int64_t> completions;
  bool indexed = false;
  int64_t backoff_limit = 6;
  std::optional<int64_t> active_deadline_s;
  bool suspended = false;
  bool only_replace_failed = false;  // podReplacementPolicy: Failed
  std::string restart_policy;
};

JobShape JobShapeOf(const Json& job) {
  JobShape s;
  const std::optional<int64_t> parallelism = OptionalIntAt(job, {"spec", "parallelism"});
  s.completions = OptionalIntAt(job, {"spec", "completions"});
  if (!parallelism && !s.completions) s.completions = 1;
  s.parallelism = std::max<int64_t>(0, parallelism.value_or(1));
  if (s.completions) s.completions = std::max<int64_t>(0, *s.completions);
  s.indexed = StringAt(job, {"spec", "completionMode"}) == "Indexed" && s.completions.has_value();
  s.backoff_limit = std::max<int64_t>(0, IntAt(job, {"spec", "backoffLimit"}, 6));
  s.active_deadline_s = OptionalIntAt(job, {"spec", "activeDeadlineSeconds"});
  s.suspended = BoolAt(job, {"spec", "suspend"}, false);
  s.only_replace_failed = StringAt(job, {"spec", "podReplacementPolicy"}) == "Failed";
  s.restart_policy = StringAt(job, {"spec", "template", "spec", "restartPolicy"});
  return s;
}

// The completion index of a pod (its annotation); -1 when absent or not a number.
int64_t JobPodIndex(const Json& pod) {
  const std::string v = AnnotationOf(pod, kJobCompletionIndexKey);
  int64_t ix = -1;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), ix);
  return ec == std::errc() && end == v.data() + v.size() && ix >= 0 ? ix : -1;
}

bool JobPodIndexValid(const Json& pod, const JobShape& shape) {
  const int64_t ix = JobPodIndex(pod);
  return ix >= 0 && shape.completions && ix < *shape.completions;
}

// status.completedIndexes ("1,3-5,7") as a set, indexes at or past `completions` dropped
// (parseIndexesFromString).
std::set<int64_t> JobParseIndexes(const std::string& text, int64_t completions) {
  std::set<int64_t> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    const std::string_view part(text.data() + pos, comma - pos);
    pos = comma + 1;
    const size_t dash = part.find('-');
    int64_t first = 0;
    int64_t last = 0;
    const std::string_view a = part.substr(0, dash);
    auto r1 = std::from_chars(a.data(), a.data() + a.size(), first);
    if (r1.ec != std::errc() || r1.ptr != a.data() + a.size()) continue;
    last = first;
    if (dash != std::string_view::npos) {
      const std::string_view b = part.substr(dash + 1);
      auto r2 = std::from_chars(b.data(), b.data() + b.size(), last);
      if (r2.ec != std::errc() || r2.ptr != b.data() + b.size()) continue;
    }
    for (int64_t i = std::max<int64_t>(0, first); i <= last && i < completions; ++i) out.insert(i);
  }
  return out;
}

// The interval text upstream prints: runs of three or more as "a-b", pairs as "a,b".
std::string JobFormatIndexes(const std::set<int64_t>& indexes) {
  std::string out;
  auto it = indexes.begin();
  while (it != indexes.end()) {
    const int64_t first = *it;
    int64_t last = first;
    ++it;
    while (it != indexes.end() && *it == last + 1) {
      last = *it;
      ++it;
    }
    if (!out.empty()) out += ",";
    if (last == first) {
      out += std::to_string(first);
    } else if (last == first + 1) {
      out += std::to_string(first) + "," + std::to_string(last);
    } else {
      out += std::to_string(first) + "-" + std::to_string(last);
    }
  }
  return out;
}

struct JobCondition {
  std::string type;
  std::string reason;
  std::string message;
};

Json JobNewCondition(const std::string& type, const std::string& status, const std::string& reason,
                     const std::string& message, int64_t now) {
  Json c = {{"type", type},
            {"status", status},
            {"lastProbeTime", TimeText(now)},
            {"lastTransitionTime", TimeText(now)}};
  if (!reason.empty()) c["reason"] = reason;
  if (!message.empty()) c["message"] = message;
  return c;
}

// ensureJobConditionStatus: a condition of that type is replaced when its status, reason or
// message differ; a new one is added only when it is not False. True when anything changed.
bool JobEnsureCondition(Json& conditions, const std::string& type, const std::string& status,
                        const std::string& reason, const std::string& message, int64_t now) {
  for (Json& c : conditions) {
    if (StringAt(c, {"type"}) != type) continue;
    if (StringAt(c, {"status"}) != status || StringAt(c, {"reason"}) != reason ||
        StringAt(c, {"message"}) != message) {
      c = JobNewCondition(type, status, reason, message, now);
      return true;
    }
    return false;
  }
  if (status == "False") return false;
  conditions.push_back(JobNewCondition(type, status, reason, message, now));
  return true;
}

// activePodsForRemoval: for an Indexed Job first the pods with no valid index and the extra
// pods of repeated indexes, then the most deletable of the rest.
std::vector<const Json*> JobPodsForRemoval(const JobShape& shape, std::vector<const Json*> pods,
                                           int64_t at_least) {
  std::vector<const Json*> remove;
  std::vector<const Json*> left;
  if (shape.indexed) {
    std::sort(pods.begin(), pods.end(), [](const Json* a, const Json* b) {
      return std::make_tuple(JobPodIndex(*a), NameOf(*a)) <
             std::make_tuple(JobPodIndex(*b), NameOf(*b));
    });
    size_t i = 0;
    while (i < pods.size()) {
      size_t j = i;
      while (j < pods.size() && JobPodIndex(*pods[j]) == JobPodIndex(*pods[i])) ++j;
      if (!JobPodIndexValid(*pods[i], shape)) {
        remove.insert(remove.end(), pods.begin() + static_cast<std::ptrdiff_t>(i),
                      pods.begin() + static_cast<std::ptrdiff_t>(j));
      } else {
        std::vector<const Json*> group(pods.begin() + static_cast<std::ptrdiff_t>(i),
                                       pods.begin() + static_cast<std::ptrdiff_t>(j));
        std::sort(group.begin(), group.end(), PodDeletesBefore);
        remove.insert(remove.end(), group.begin(), group.end() - 1);
        left.push_back(group.back());
      }
      i = j;
    }
  } else {
    left = std::move(pods);
  }
  if (static_cast<int64_t>(remove.size()) < at_least) {
    std::sort(left.begin(), left.end(), PodDeletesBefore);
    const auto more = std::min<size_t>(left.size(), static_cast<size_t>(at_least) - remove.size());
    remove.insert(remove.end(), left.begin(), left.begin() + static_cast<std::ptrdiff_t>(more));
  }
  return remove;
}

// isPodFailed: Failed, or deleted before succeeding (unless only failed pods are replaced).
bool JobPodConsideredFailed(const Json& pod, const JobShape& shape) {
  if (PodPhase(pod) == "Failed") return true;
  if (shape.only_replace_failed) return false;
  return IsBeingDeleted(pod) && PodPhase(pod) != "Succeeded";
}

bool JobFinished(const Json& job) {
  return ConditionIsTrue(job, "Complete") || ConditionIsTrue(job, "Failed");
}

// The remaining pod-failure back-off (the backoff record upstream keeps in memory, rebuilt
// from the finished pods still present: failures since the last success and the last
// failure's time).
int64_t JobBackoffRemaining(const std::vector<const Json*>& pods, int64_t now,
                            const ControllerOptions& options) {
  if (options.job_pod_failure_backoff_s <= 0) return 0;
  std::vector<std::pair<int64_t, bool>> finished;  // (time, failed)
  for (const Json* pod : pods) {
    const std::string phase = PodPhase(*pod);
    if (phase != "Failed" && phase != "Succeeded") continue;
    finished.emplace_back(PodFinishTime(*pod).value_or(0), phase == "Failed");
  }
  std::sort(finished.begin(), finished.end());
  int64_t failures = 0;
  int64_t last_failure = 0;
  for (const auto& [time, failed] : finished) {
    if (failed) {
      ++failures;
      last_failure = time;
    } else {
      failures = 0;
    }
  }
  if (failures == 0) return 0;
  int64_t backoff = options.job_pod_failure_backoff_s;
  for (int64_t i = 1; i < failures && backoff < options.job_pod_failure_backoff_max_s; ++i) {
    backoff *= 2;
  }
  backoff = std::min(backoff, options.job_pod_failure_backoff_max_s);
  const int64_t elapsed = now - last_failure;
  return backoff < elapsed ? 0 : backoff - elapsed;
}

Json JobNewPod(MemberState& state, const Json& job, const JobShape& shape, int64_t index) {
  const std::string name = NameOf(job);
  const std::string ns = NamespaceOf(job);
  const std::string uid = UidOf(job);
  Json tmpl = Json::object();
  if (const Json* t = MemberAt(job, {"spec", "template"}); t != nullptr && t->is_object()) {
    tmpl = *t;
  }
  // The labels the API server adds to a Job's template (unless manualSelector). Labels are
  // set through SetLabel each time: a reference into an ordered_json object dies when a key
  // is added beside it.
  const std::pair<const char*, std::string> defaults[] = {{kJobControllerUidLabel, uid},
                                                          {kJobNameLabel, name},
                                                          {"controller-uid", uid},
                                                          {"job-name", name}};
  for (const auto& [key, value] : defaults) {
    if (LabelOf(tmpl, key).empty()) SetLabel(tmpl, key, value);
  }
  std::string prefix = name + "-";
  if (index >= 0) {
    const std::string ix = std::to_string(index);
    SetAnnotation(tmpl, kJobCompletionIndexKey, ix);
    SetLabel(tmpl, kJobCompletionIndexKey, ix);
    Json& spec = EnsureObject(tmpl, "spec");
    spec["hostname"] = name + "-" + ix;
    for (const char* list : {"initContainers", "containers"}) {
      Json* containers = spec.contains(list) && spec[list].is_array() ? &spec[list] : nullptr;
      if (containers == nullptr) continue;
      for (Json& c : *containers) {
        if (!c.is_object()) continue;
        Json& env = EnsureArray(c, "env");
        const bool present = std::any_of(env.begin(), env.end(), [](const Json& e) {
          return StringAt(e, {"name"}) == "JOB_COMPLETION_INDEX";
        });
        if (!present) {
          env.push_back(
              Json{{"name", "JOB_COMPLETION_INDEX"},
                   {"valueFrom",
                    {{"fieldRef",
                      {{"fieldPath",
                        "metadata.labels['batch.kubernetes.io/job-completion-index']"}}}}}});
        }
      }
    }
    // podGenerateNameWithIndex keeps "-<index>-" whole when the name is long.
    const std::string append = "-" + ix + "-";
    prefix = name + append;
    if (prefix.size() > 58) prefix = prefix.substr(0, 58 - append.size()) + append;
  }
  const std::string pod_name =
      state.GenerateName(Kind::kPod, ns, prefix, uid + "/" + std::to_string(index));
  Json pod = PodFromTemplate(tmpl, job, Kind::kJob, ns, pod_name);
  AddFinalizer(pod, kJobTrackingFinalizer);
  return pod;
}

// The status object in upstream's field order, empty counters left out as omitempty does.
Json JobOrderedStatus(const Json& status) {
  static const char* const kOrder[] = {
      "conditions", "startTime",   "completionTime",   "active",        "succeeded",
      "failed",     "terminating", "completedIndexes", "failedIndexes", "uncountedTerminatedPods",
      "ready"};
  Json out = Json::object();
  for (const char* key : kOrder) {
    auto it = status.find(key);
    if (it == status.end()) continue;
    if ((std::string(key) == "active" || std::string(key) == "succeeded" ||
         std::string(key) == "failed") &&
        it->is_number_integer() && it->get<int64_t>() == 0) {
      continue;
    }
    if (std::string(key) == "completedIndexes" && it->is_string() &&
        it->get<std::string>().empty()) {
      continue;
    }
    out[key] = *it;
  }
  for (auto it = status.begin(); it != status.end(); ++it) {
    if (!out.contains(it.key()) &&
        std::find_if(std::begin(kOrder), std::end(kOrder),
                     [&](const char* k) { return it.key() == k; }) == std::end(kOrder)) {
      out[it.key()] = it.value();
    }
  }
  return out;
}

class JobSync {
 public:
  JobSync(MemberState& state, const ControllerOptions& options, const Json& job)
      : state_(state), options_(options), job_(job), shape_(JobShapeOf(job)) {}

  void Run();

 private:
  // Deletes `pods`; `drop_finalizer`: remove the tracking finalizer first (deleteJobPods),
  // else keep it so the pod is counted as failed (deleteActivePods).
  void DeletePods(const std::vector<const Json*>& pods, bool drop_finalizer);
  void ManageJob();
  void TrackAndFinish();
  std::vector<const Json*> Pods() const { return state_.Controlled(Kind::kPod, UidOf(job_)); }

  MemberState& state_;
  const ControllerOptions& options_;
  Json job_;
  JobShape shape_;
  std::set<std::string> uncounted_succeeded_;
  std::set<std::string> uncounted_failed_;
  int64_t active_ = 0;
  int64_t ready_ = 0;
  int64_t terminating_ = 0;
  int64_t succeeded_ = 0;
  int64_t failed_ = 0;
  std::set<int64_t> prev_succeeded_indexes_;
  std::set<int64_t> succeeded_indexes_;
  std::optional<JobCondition> finished_;
  bool manage_called_ = false;
};

void JobSync::DeletePods(const std::vector<const Json*>& pods, bool drop_finalizer) {
  for (const Json* pod_ptr : pods) {
    if (PodIsReady(*pod_ptr)) --ready_;
    Json pod = *pod_ptr;
    if (drop_finalizer && HasFinalizer(pod, kJobTrackingFinalizer)) {
      RemoveFinalizer(pod, kJobTrackingFinalizer);
      state_.Replace(pod);
    }
    state_.Delete(pod);
    --active_;
    ++terminating_;
  }
}

void JobSync::ManageJob() {
  manage_called_ = true;
  std::vector<const Json*> active_pods;
  for (const Json* p : Pods()) {
    if (PodIsActive(*p)) active_pods.push_back(p);
  }
  if (shape_.suspended) {
    DeletePods(JobPodsForRemoval(shape_, active_pods, static_cast<int64_t>(active_pods.size())),
               true);
    return;
  }
  int64_t want = 0;
  if (!shape_.completions) {
    want = succeeded_ > 0 ? active_ : shape_.parallelism;
  } else {
    want = std::clamp<int64_t>(*shape_.completions - succeeded_, 0, shape_.parallelism);
  }
  std::vector<const Json*> remove =
      JobPodsForRemoval(shape_, active_pods, std::max<int64_t>(0, active_ - want));
  if (static_cast<int64_t>(remove.size()) > kJobMaxPodChangesPerSync) {
    remove.resize(kJobMaxPodChangesPerSync);
  }
  if (!remove.empty()) {
    // Deletions take precedence: a sync either deletes or creates.
    DeletePods(remove, true);
    return;
  }
  const int64_t terminating = shape_.only_replace_failed ? terminating_ : 0;
  int64_t diff = want - terminating - active_;
  if (diff <= 0) return;
  if (JobBackoffRemaining(Pods(), state_.now(), options_) > 0) return;
  diff = std::min(diff, kJobMaxPodChangesPerSync);
  std::vector<int64_t> indexes;
  if (shape_.indexed) {
    std::set<int64_t> busy;
    for (const Json* p : Pods()) {
      if (PodIsActive(*p) || (shape_.only_replace_failed && PodIsTerminating(*p))) {
        busy.insert(JobPodIndex(*p));
      }
    }
    for (int64_t i = 0; i < *shape_.completions && static_cast<int64_t>(indexes.size()) < diff;
         ++i) {
      if (succeeded_indexes_.count(i) == 0 && busy.count(i) == 0) indexes.push_back(i);
    }
    diff = static_cast<int64_t>(indexes.size());
  }
  for (int64_t i = 0; i < diff; ++i) {
    const int64_t index = shape_.indexed ? indexes[static_cast<size_t>(i)] : -1;
    if (state_.Create(JobNewPod(state_, job_, shape_, index))) ++active_;
  }
}

void JobSync::TrackAndFinish() {
  Json& status = EnsureObject(job_, "status");
  std::set<std::string> with_finalizer;
  std::vector<const Json*> pods = Pods();
  if (shape_.indexed) {
    std::stable_sort(pods.begin(), pods.end(), [](const Json* a, const Json* b) {
      return JobPodIndex(*a) < JobPodIndex(*b);
    });
  }
  for (const Json* p : pods) {
    if (HasFinalizer(*p, kJobTrackingFinalizer)) with_finalizer.insert(UidOf(*p));
  }
  std::vector<const Json*> to_release;
  std::vector<int64_t> new_indexes;
  for (const Json* p : pods) {
    if (!HasFinalizer(*p, kJobTrackingFinalizer)) continue;
    const bool failed = JobPodConsideredFailed(*p, shape_);
    const bool releasable =
        IsBeingDeleted(job_) || finished_.has_value() || PodPhase(*p) == "Succeeded" || failed;
    if (!releasable) continue;
    to_release.push_back(p);
    const std::string uid = UidOf(*p);
    if (PodPhase(*p) == "Succeeded" && uncounted_failed_.count(uid) == 0) {
      if (shape_.indexed) {
        const int64_t ix = JobPodIndex(*p);
        if (JobPodIndexValid(*p, shape_) && prev_succeeded_indexes_.count(ix) == 0) {
          new_indexes.push_back(ix);
        }
      } else {
        uncounted_succeeded_.insert(uid);
      }
    } else if (failed || (finished_ && finished_->type != "SuccessCriteriaMet")) {
      if (uncounted_failed_.count(uid) == 0 && (!shape_.indexed || JobPodIndexValid(*p, shape_))) {
        uncounted_failed_.insert(uid);
      }
    }
  }
  if (shape_.indexed) {
    succeeded_indexes_.insert(new_indexes.begin(), new_indexes.end());
    status["succeeded"] = static_cast<int64_t>(succeeded_indexes_.size());
    status["completedIndexes"] = JobFormatIndexes(succeeded_indexes_);
  }
  Json& conditions = EnsureArray(status, "conditions");
  if (finished_ && finished_->type == "FailureTarget") {
    conditions.push_back(JobNewCondition("FailureTarget", "True", finished_->reason,
                                         finished_->message, state_.now()));
    finished_->type = "Failed";
  }
  if (finished_ && finished_->type == "SuccessCriteriaMet") {
    if (FindCondition(job_, "SuccessCriteriaMet") == nullptr) {
      EnsureArray(status, "conditions")
          .push_back(JobNewCondition("SuccessCriteriaMet", "True", finished_->reason,
                                     finished_->message, state_.now()));
    }
    finished_->type = "Complete";
  }
  // Counting happens as the finalizers come off (one write here: the round commits the pods
  // and the job's status together, which is what upstream's uncountedTerminatedPods protects).
  for (const Json* p : to_release) {
    Json pod = *p;
    RemoveFinalizer(pod, kJobTrackingFinalizer);
    state_.Replace(std::move(pod));
    state_.Bind(job_, *p);  // the count and the release are written together
    with_finalizer.erase(UidOf(*p));
  }
  auto flush = [&](std::set<std::string>& uncounted, const char* counter) {
    int64_t moved = 0;
    for (auto it = uncounted.begin(); it != uncounted.end();) {
      if (with_finalizer.count(*it) == 0) {
        ++moved;
        it = uncounted.erase(it);
      } else {
        ++it;
      }
    }
    if (moved > 0 && !(shape_.indexed && std::string(counter) == "succeeded")) {
      status[counter] = IntAt(status, {counter}, 0) + moved;
    }
  };
  flush(uncounted_succeeded_, "succeeded");
  flush(uncounted_failed_, "failed");
  Json uncounted = Json::object();
  auto list = [](const std::set<std::string>& uids) {
    Json a = Json::array();
    for (const std::string& u : uids) a.push_back(u);
    return a;
  };
  if (!uncounted_succeeded_.empty()) uncounted["succeeded"] = list(uncounted_succeeded_);
  if (!uncounted_failed_.empty()) uncounted["failed"] = list(uncounted_failed_);
  status["uncountedTerminatedPods"] = std::move(uncounted);

  // enactJobFinished: the terminal condition waits for the uncounted pods and for the
  // terminating ones (the 1.31 order: FailureTarget/SuccessCriteriaMet, then Failed/Complete).
  if (finished_ && uncounted_succeeded_.empty() && uncounted_failed_.empty() && terminating_ == 0) {
    JobEnsureCondition(EnsureArray(status, "conditions"), finished_->type, "True",
                       finished_->reason, finished_->message, state_.now());
    if (finished_->type == "Complete") status["completionTime"] = TimeText(state_.now());
  }
}

void JobSync::Run() {
  if (UidOf(job_).empty()) {
    state_.Report(job_, "InvalidJob", "the Job has no metadata.uid; it is not synced");
    return;
  }
  if (const Json* tmpl = MemberAt(job_, {"spec", "template"});
      tmpl == nullptr || !tmpl->is_object()) {
    state_.Report(job_, "InvalidJob", "spec.template is not a pod template; it is not synced");
    return;
  }
  if (StringAt(job_, {"spec", "completionMode"}) == "Indexed" && !shape_.completions) {
    state_.Report(job_, "InvalidJob", "an Indexed Job needs spec.completions; it is not synced");
    return;
  }
  Json& status = EnsureObject(job_, "status");
  for (const auto& [field, set] :
       {std::pair<const char*, std::set<std::string>*>{"succeeded", &uncounted_succeeded_},
        {"failed", &uncounted_failed_}}) {
    const Json* list = MemberAt(status, {"uncountedTerminatedPods", field});
    if (list != nullptr && list->is_array()) {
      for (const Json& u : *list) {
        if (u.is_string()) set->insert(u.get<std::string>());
      }
    }
  }
  std::vector<const Json*> pods = Pods();
  for (const Json* p : pods) {
    if (PodIsActive(*p)) {
      ++active_;
      if (PodIsReady(*p)) ++ready_;
    }
    if (PodIsTerminating(*p)) ++terminating_;
  }
  int64_t new_succeeded = 0;
  int64_t new_failed = 0;
  for (const Json* p : pods) {
    const std::string uid = UidOf(*p);
    if (!HasFinalizer(*p, kJobTrackingFinalizer)) continue;
    if (shape_.indexed && !JobPodIndexValid(*p, shape_)) continue;
    if (PodPhase(*p) == "Succeeded" && uncounted_succeeded_.count(uid) == 0) ++new_succeeded;
    if (JobPodConsideredFailed(*p, shape_) && uncounted_failed_.count(uid) == 0) ++new_failed;
  }
  succeeded_ = IntAt(status, {"succeeded"}, 0) + new_succeeded +
               static_cast<int64_t>(uncounted_succeeded_.size());
  failed_ =
      IntAt(status, {"failed"}, 0) + new_failed + static_cast<int64_t>(uncounted_failed_.size());

  if (!TimeAt(status, {"startTime"}) && !shape_.suspended) {
    status["startTime"] = TimeText(state_.now());
  }
  if (const Json* met = FindCondition(job_, "SuccessCriteriaMet");
      met != nullptr && StringAt(*met, {"status"}) == "True") {
    finished_ =
        JobCondition{"SuccessCriteriaMet", StringAt(*met, {"reason"}), StringAt(*met, {"message"})};
  } else if (const Json* target = FindCondition(job_, "FailureTarget");
             target != nullptr && StringAt(*target, {"status"}) == "True") {
    finished_ =
        JobCondition{"Failed", StringAt(*target, {"reason"}), StringAt(*target, {"message"})};
  }
  if (!finished_) {
    int64_t restarts = 0;
    if (shape_.restart_policy == "OnFailure") {
      for (const Json* p : pods) {
        const std::string phase = PodPhase(*p);
        if (phase == "Running" || phase == "Pending") restarts += PodRestartCount(*p);
      }
    }
    const bool past_restarts =
        shape_.restart_policy == "OnFailure" &&
        (shape_.backoff_limit == 0 ? restarts > 0 : restarts >= shape_.backoff_limit);
    const std::optional<int64_t> started = TimeAt(status, {"startTime"});
    if (failed_ > shape_.backoff_limit || past_restarts) {
      finished_ = JobCondition{"FailureTarget", "BackoffLimitExceeded",
                               "Job has reached the specified backoff limit"};
    } else if (shape_.active_deadline_s && started && !shape_.suspended &&
               state_.now() - *started >= *shape_.active_deadline_s) {
      finished_ = JobCondition{"FailureTarget", "DeadlineExceeded",
                               "Job was active longer than specified deadline"};
    }
  }
  if (shape_.indexed) {
    prev_succeeded_indexes_ =
        JobParseIndexes(StringAt(status, {"completedIndexes"}), *shape_.completions);
    succeeded_indexes_ = prev_succeeded_indexes_;
    for (const Json* p : pods) {
      if (PodPhase(*p) == "Succeeded" && JobPodIndexValid(*p, shape_) &&
          HasFinalizer(*p, kJobTrackingFinalizer)) {
        succeeded_indexes_.insert(JobPodIndex(*p));
      }
    }
    succeeded_ = static_cast<int64_t>(succeeded_indexes_.size());
  }

  if (finished_) {
    std::vector<const Json*> active_pods;
    for (const Json* p : Pods()) {
      if (PodIsActive(*p)) active_pods.push_back(p);
    }
    DeletePods(active_pods, false);
  } else {
    if (!IsBeingDeleted(job_)) ManageJob();
    const bool complete = !shape_.completions ? succeeded_ > 0 && active_ == 0
                                              : succeeded_ >= *shape_.completions && active_ == 0;
    if (complete) {
      finished_ = JobCondition{"SuccessCriteriaMet", "CompletionsReached",
                               "Reached expected number of succeeded pods"};
    } else if (manage_called_) {
      Json& conditions = EnsureArray(status, "conditions");
      if (shape_.suspended) {
        JobEnsureCondition(conditions, "Suspended", "True", "JobSuspended", "Job suspended",
                           state_.now());
      } else if (JobEnsureCondition(conditions, "Suspended", "False", "JobResumed", "Job resumed",
                                    state_.now())) {
        // activeDeadlineSeconds counts from the resume.
        status["startTime"] = TimeText(state_.now());
      }
    }
  }
  status["active"] = active_;
  status["ready"] = ready_;
  status["terminating"] = terminating_;
  TrackAndFinish();
  Json& final_status = EnsureObject(job_, "status");
  if (const Json* c = Member(final_status, "conditions"); c != nullptr && c->empty()) {
    final_status.erase("conditions");
  }
  final_status = JobOrderedStatus(final_status);
  state_.Replace(std::move(job_));
}

}  // namespace

void RunJobController(MemberState& state, const ControllerOptions& options) {
  // Pods whose Job is gone or finished keep no tracking finalizer (syncOrphanPod).
  for (const Json* pod : state.List(Kind::kPod)) {
    if (!HasFinalizer(*pod, kJobTrackingFinalizer)) continue;
    const Json* owner = state.GetByUid(ControllerUidOf(*pod));
    if (owner != nullptr && KindOf(*owner) == Kind::kJob && !JobFinished(*owner)) continue;
    Json copy = *pod;
    RemoveFinalizer(copy, kJobTrackingFinalizer);
    state.Replace(std::move(copy));
  }
  for (const Json* job : state.List(Kind::kJob)) {
    const std::string managed_by = StringAt(*job, {"spec", "managedBy"});
    if (!managed_by.empty() && managed_by != "kubernetes.io/job-controller") continue;
    if (JobFinished(*job)) continue;
    JobSync(state, options, *job).Run();
  }
}

}  // namespace berth::server::member
