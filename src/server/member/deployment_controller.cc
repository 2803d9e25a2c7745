#include "server/member/deployment_controller.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/naming.h"
#include "server/member/pod_util.h"

namespace berth::server::member {

namespace {

constexpr char kDeployRevisionHistory[] = "deployment.kubernetes.io/revision-history";
constexpr char kDeployDesiredReplicas[] = "deployment.kubernetes.io/desired-replicas";
constexpr char kDeployMaxReplicas[] = "deployment.kubernetes.io/max-replicas";
// Upstream's maxRevHistoryLengthInChars.
constexpr size_t kDeployMaxRevHistoryChars = 2000;

int64_t DeployParseInt(const std::string& text, int64_t fallback) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty() ? v : fallback;
}

int64_t DeployRsReplicas(const Json& rs) {
  return std::max<int64_t>(0, IntAt(rs, {"spec", "replicas"}, 1));
}
int64_t DeployRsRevision(const Json& rs) {
  return DeployParseInt(AnnotationOf(rs, kDeploymentRevisionAnnotation), 0);
}
int64_t DeployRsCreated(const Json& rs) {
  return TimeAt(rs, {"metadata", "creationTimestamp"}).value_or(0);
}

// The template without the pod-template-hash label (EqualIgnoreHash), keys sorted.
nlohmann::json DeployTemplateKey(const Json* tmpl) {
  if (tmpl == nullptr) return nullptr;
  nlohmann::json t = nlohmann::json::parse(
      tmpl->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), nullptr, false);
  if (t.is_object() && t.contains("metadata") && t["metadata"].is_object() &&
      t["metadata"].contains("labels") && t["metadata"]["labels"].is_object()) {
    t["metadata"]["labels"].erase(kPodTemplateHashLabel);
    if (t["metadata"]["labels"].empty()) t["metadata"].erase("labels");
  }
  return t;
}

Json DeployCondition(const std::string& type, const std::string& status, const std::string& reason,
                     const std::string& message, int64_t now) {
  return Json{{"type", type},
              {"status", status},
              {"lastUpdateTime", TimeText(now)},
              {"lastTransitionTime", TimeText(now)},
              {"reason", reason},
              {"message", message}};
}

// SetDeploymentCondition: nothing when the status and reason are unchanged; otherwise the
// condition moves to the end, keeping its lastTransitionTime when only the reason changed.
void DeploySetCondition(Json& status, Json condition) {
  Json& conditions = EnsureArray(status, "conditions");
  const std::string type = StringAt(condition, {"type"});
  for (const Json& c : conditions) {
    if (StringAt(c, {"type"}) != type) continue;
    if (StringAt(c, {"status"}) == StringAt(condition, {"status"})) {
      if (StringAt(c, {"reason"}) == StringAt(condition, {"reason"})) return;
      if (const Json* since = Member(c, "lastTransitionTime"); since != nullptr) {
        condition["lastTransitionTime"] = *since;
      }
    }
  }
  Json kept = Json::array();
  for (Json& c : conditions) {
    if (StringAt(c, {"type"}) != type) kept.push_back(std::move(c));
  }
  kept.push_back(std::move(condition));
  conditions = std::move(kept);
}

const Json* DeployFindCondition(const Json& status, const std::string& type) {
  const Json* conditions = Member(status, "conditions");
  if (conditions == nullptr || !conditions->is_array()) return nullptr;
  for (const Json& c : *conditions) {
    if (StringAt(c, {"type"}) == type) return &c;
  }
  return nullptr;
}

void DeployRemoveCondition(Json& status, const std::string& type) {
  if (DeployFindCondition(status, type) == nullptr) return;
  Json kept = Json::array();
  for (Json& c : EnsureArray(status, "conditions")) {
    if (StringAt(c, {"type"}) != type) kept.push_back(std::move(c));
  }
  status["conditions"] = std::move(kept);
}

std::string DeployQuote(const std::string& s) { return "\"" + s + "\""; }

class DeploymentSync {
 public:
  DeploymentSync(MemberState& state, const Json& deployment)
      : state_(state), d_(deployment), old_status_(Json::object()) {
    if (const Json* s = Member(d_, "status"); s != nullptr && s->is_object()) old_status_ = *s;
    replicas_ = std::max<int64_t>(0, IntAt(d_, {"spec", "replicas"}, 1));
    rolling_ = StringAt(d_, {"spec", "strategy", "type"}) != "Recreate";
    if (rolling_) {
      // The API server defaults both fields to 25%.
      static const Json kQuarter = "25%";
      const Json* rolling = MemberAt(d_, {"spec", "strategy", "rollingUpdate"});
      const Json* surge = rolling != nullptr ? Member(*rolling, "maxSurge") : nullptr;
      const Json* unavailable = rolling != nullptr ? Member(*rolling, "maxUnavailable") : nullptr;
      std::optional<RolloutLimits> limits =
          ResolveFenceposts(surge != nullptr ? surge : &kQuarter,
                            unavailable != nullptr ? unavailable : &kQuarter, replicas_);
      if (!limits) {
        state_.Report(d_, "InvalidDeployment",
                      "spec.strategy.rollingUpdate: maxSurge and maxUnavailable must be integers "
                      "or percentages; 25% is used");
        limits = ResolveFenceposts(&kQuarter, &kQuarter, replicas_);
      }
      max_surge_ = limits->max_surge;
      // MaxUnavailable: none of nothing, and never more than the replicas.
      max_unavailable_ = replicas_ == 0 ? 0 : std::min(limits->max_unavailable, replicas_);
    }
    const std::optional<int64_t> deadline = OptionalIntAt(d_, {"spec", "progressDeadlineSeconds"});
    progress_deadline_s_ = deadline.value_or(600);
    has_progress_deadline_ = progress_deadline_s_ != std::numeric_limits<int32_t>::max();
  }

  void Run();

 private:
  void LoadReplicaSets();
  std::vector<size_t> OldIndexes() const;
  std::vector<size_t> ActiveIndexes(const std::vector<size_t>& of) const;
  int64_t SumReplicas(const std::vector<size_t>& of) const;
  int64_t SumStatus(const std::vector<size_t>& of, const char* field) const;
  std::vector<size_t> All() const;
  void SyncNewReplicaSet(bool create);
  bool SetNewReplicaSetAnnotations(Json& rs, int64_t new_revision, bool exists);
  bool SetReplicasAnnotations(Json& rs) const;
  bool ScaleRs(size_t i, int64_t replicas);
  int64_t NewRsNewReplicas(int64_t new_rs_replicas) const;
  void Scale();
  void RolloutRolling();
  void RolloutRecreate();
  bool ReconcileOld();
  void Cleanup();
  Json CalculateStatus() const;
  void SyncRolloutStatus();
  void SyncStatusOnly();
  bool Complete(const Json& status) const;

  MemberState& state_;
  Json d_;
  Json old_status_;
  int64_t replicas_ = 1;
  bool rolling_ = true;
  int64_t max_surge_ = 0;
  int64_t max_unavailable_ = 0;
  int64_t progress_deadline_s_ = 600;
  bool has_progress_deadline_ = true;
  std::vector<Json> rs_;
  std::optional<size_t> new_rs_;
};

void DeploymentSync::LoadReplicaSets() {
  for (const Json* rs : state_.Controlled(Kind::kReplicaSet, UidOf(d_))) rs_.push_back(*rs);
  std::stable_sort(rs_.begin(), rs_.end(), [](const Json& a, const Json& b) {
    return std::make_tuple(DeployRsCreated(a), NameOf(a)) <
           std::make_tuple(DeployRsCreated(b), NameOf(b));
  });
  const nlohmann::json want = DeployTemplateKey(MemberAt(d_, {"spec", "template"}));
  for (size_t i = 0; i < rs_.size(); ++i) {
    if (DeployTemplateKey(MemberAt(rs_[i], {"spec", "template"})) == want) {
      new_rs_ = i;  // FindNewReplicaSet: the oldest with the Deployment's template
      return;
    }
  }
  // A store that normalises templates as it writes them (defaults added to the ReplicaSet's
  // copy) would hide the match; the ReplicaSet this template would be created as still
  // carries its hash, so one is never made twice.
  const Json* tmpl = MemberAt(d_, {"spec", "template"});
  const std::string hash = TemplateHash(tmpl != nullptr ? *tmpl : Json::object(),
                                        IntAt(d_, {"status", "collisionCount"}, -1));
  for (size_t i = 0; i < rs_.size(); ++i) {
    if (NameOf(rs_[i]) == NameOf(d_) + "-" + hash &&
        LabelOf(rs_[i], kPodTemplateHashLabel) == hash) {
      new_rs_ = i;
      return;
    }
  }
}

std::vector<size_t> DeploymentSync::All() const {
  std::vector<size_t> out;
  for (size_t i = 0; i < rs_.size(); ++i) out.push_back(i);
  return out;
}

std::vector<size_t> DeploymentSync::OldIndexes() const {
  std::vector<size_t> out;
  for (size_t i = 0; i < rs_.size(); ++i) {
    if (!new_rs_ || i != *new_rs_) out.push_back(i);
  }
  return out;
}

std::vector<size_t> DeploymentSync::ActiveIndexes(const std::vector<size_t>& of) const {
  std::vector<size_t> out;
  for (size_t i : of) {
    if (DeployRsReplicas(rs_[i]) > 0) out.push_back(i);
  }
  return out;
}

int64_t DeploymentSync::SumReplicas(const std::vector<size_t>& of) const {
  int64_t total = 0;
  for (size_t i : of) total += DeployRsReplicas(rs_[i]);
  return total;
}

int64_t DeploymentSync::SumStatus(const std::vector<size_t>& of, const char* field) const {
  int64_t total = 0;
  for (size_t i : of) total += IntAt(rs_[i], {"status", field}, 0);
  return total;
}

bool DeploymentSync::SetReplicasAnnotations(Json& rs) const {
  const std::string desired = std::to_string(replicas_);
  const std::string max = std::to_string(replicas_ + max_surge_);
  bool changed = false;
  if (AnnotationOf(rs, kDeployDesiredReplicas) != desired ||
      !HasAnnotation(rs, kDeployDesiredReplicas)) {
    SetAnnotation(rs, kDeployDesiredReplicas, desired);
    changed = true;
  }
  if (AnnotationOf(rs, kDeployMaxReplicas) != max || !HasAnnotation(rs, kDeployMaxReplicas)) {
    SetAnnotation(rs, kDeployMaxReplicas, max);
    changed = true;
  }
  return changed;
}

bool DeploymentSync::SetNewReplicaSetAnnotations(Json& rs, int64_t new_revision, bool exists) {
  bool changed = false;
  // copyDeploymentAnnotationsToReplicaSet: everything but the controller's own annotations.
  const Json* annotations = MemberAt(d_, {"metadata", "annotations"});
  if (annotations != nullptr && annotations->is_object()) {
    for (auto it = annotations->begin(); it != annotations->end(); ++it) {
      const std::string& key = it.key();
      if (key == "kubectl.kubernetes.io/last-applied-configuration" ||
          key == kDeploymentRevisionAnnotation || key == kDeployRevisionHistory ||
          key == kDeployDesiredReplicas || key == kDeployMaxReplicas ||
          key == "deprecated.deployment.rollback.to" || !it.value().is_string()) {
        continue;
      }
      if (!HasAnnotation(rs, key) || AnnotationOf(rs, key) != it.value().get<std::string>()) {
        SetAnnotation(rs, key, it.value().get<std::string>());
        changed = true;
      }
    }
  }
  const bool had_revision = HasAnnotation(rs, kDeploymentRevisionAnnotation);
  const std::string old_revision = AnnotationOf(rs, kDeploymentRevisionAnnotation);
  const int64_t old_int = DeployParseInt(old_revision, -1);
  if (had_revision && !old_revision.empty() && old_int < 0) return changed;
  const int64_t old_value = std::max<int64_t>(old_int, 0);
  if (old_value < new_revision) {
    SetAnnotation(rs, kDeploymentRevisionAnnotation, std::to_string(new_revision));
    changed = true;
    // Rolling back to this ReplicaSet: remember the revisions it had.
    if (had_revision) {
      const std::string history = AnnotationOf(rs, kDeployRevisionHistory);
      if (history.empty()) {
        SetAnnotation(rs, kDeployRevisionHistory, old_revision);
      } else {
        std::vector<std::string> parts;
        size_t pos = 0;
        while (pos <= history.size()) {
          const size_t comma = std::min(history.find(',', pos), history.size());
          parts.push_back(history.substr(pos, comma - pos));
          pos = comma + 1;
        }
        size_t total = history.size() + old_revision.size() + 1;
        size_t start = 0;
        while (total > kDeployMaxRevHistoryChars && start < parts.size()) {
          total -= parts[start].size() + 1;
          ++start;
        }
        if (total <= kDeployMaxRevHistoryChars) {
          std::string joined;
          for (size_t i = start; i < parts.size(); ++i) joined += parts[i] + ",";
          SetAnnotation(rs, kDeployRevisionHistory, joined + old_revision);
        }
      }
    }
  }
  if (!exists && SetReplicasAnnotations(rs)) changed = true;
  return changed;
}

int64_t DeploymentSync::NewRsNewReplicas(int64_t new_rs_replicas) const {
  if (!rolling_) return replicas_;
  const int64_t all = SumReplicas(All()) + (new_rs_ ? 0 : new_rs_replicas);
  return NewReplicaSetReplicas(replicas_, max_surge_, all, new_rs_replicas);
}

// getNewReplicaSet: the new ReplicaSet's revision and annotations kept up to date, or (when
// `create`) the ReplicaSet made for the current template.
void DeploymentSync::SyncNewReplicaSet(bool create) {
  int64_t max_old_revision = 0;
  for (size_t i : OldIndexes())
    max_old_revision = std::max(max_old_revision, DeployRsRevision(rs_[i]));
  const int64_t new_revision = max_old_revision + 1;
  Json& d_status = EnsureObject(d_, "status");
  if (new_rs_) {
    Json& rs = rs_[*new_rs_];
    bool update = SetNewReplicaSetAnnotations(rs, new_revision, true);
    const int64_t min_ready = IntAt(d_, {"spec", "minReadySeconds"}, 0);
    if (IntAt(rs, {"spec", "minReadySeconds"}, 0) != min_ready) {
      EnsureObject(rs, "spec")["minReadySeconds"] = min_ready;
      update = true;
    }
    if (update) state_.Replace(rs);
    SetAnnotation(d_, kDeploymentRevisionAnnotation,
                  AnnotationOf(rs, kDeploymentRevisionAnnotation));
    if (has_progress_deadline_ && DeployFindCondition(d_status, "Progressing") == nullptr) {
      DeploySetCondition(
          d_status,
          DeployCondition("Progressing", "True", "FoundNewReplicaSet",
                          "Found new replica set " + DeployQuote(NameOf(rs)), state_.now()));
    }
    return;
  }
  if (!create) return;
  Json tmpl = Json::object();
  if (const Json* t = MemberAt(d_, {"spec", "template"}); t != nullptr && t->is_object()) tmpl = *t;
  int64_t collisions = IntAt(d_status, {"collisionCount"}, -1);
  std::string hash;
  std::string name;
  // A name taken by a ReplicaSet with another template is a hash collision: count it and
  // hash again (upstream bumps status.collisionCount and retries on the next sync).
  for (int attempt = 0; attempt < 16; ++attempt) {
    hash = TemplateHash(tmpl, collisions);
    name = NameOf(d_) + "-" + hash;
    if (state_.NameFree(Kind::kReplicaSet, NamespaceOf(d_), name)) break;
    collisions = std::max<int64_t>(collisions, 0) + 1;
    d_status["collisionCount"] = collisions;
  }
  if (!state_.NameFree(Kind::kReplicaSet, NamespaceOf(d_), name)) {
    state_.Report(d_, "ReplicaSetNameCollision", "no free ReplicaSet name for the template");
    return;
  }
  SetLabel(tmpl, kPodTemplateHashLabel, hash);
  Json rs = {{"apiVersion", "apps/v1"}, {"kind", "ReplicaSet"}, {"metadata", Json::object()}};
  Json& meta = rs["metadata"];
  meta["name"] = name;
  meta["namespace"] = NamespaceOf(d_);
  meta["labels"] = *MemberAt(tmpl, {"metadata", "labels"});
  meta["ownerReferences"] = Json::array({ControllerRefTo(d_, Kind::kDeployment)});
  Json selector = Json::object();
  if (const Json* s = MemberAt(d_, {"spec", "selector"}); s != nullptr && s->is_object())
    selector = *s;
  EnsureObject(selector, "matchLabels")[kPodTemplateHashLabel] = hash;
  rs["spec"] = Json{{"replicas", 0},
                    {"minReadySeconds", IntAt(d_, {"spec", "minReadySeconds"}, 0)},
                    {"selector", std::move(selector)},
                    {"template", std::move(tmpl)}};
  rs["spec"]["replicas"] = NewRsNewReplicas(0);
  SetNewReplicaSetAnnotations(rs, new_revision, false);
  if (!state_.Create(rs)) return;
  const Json* stored = state_.Get(Kind::kReplicaSet, NamespaceOf(d_), name);
  rs_.push_back(stored != nullptr ? *stored : rs);
  new_rs_ = rs_.size() - 1;
  SetAnnotation(d_, kDeploymentRevisionAnnotation, std::to_string(new_revision));
  if (has_progress_deadline_) {
    DeploySetCondition(
        d_status, DeployCondition("Progressing", "True", "NewReplicaSetCreated",
                                  "Created new replica set " + DeployQuote(name), state_.now()));
  }
}

bool DeploymentSync::ScaleRs(size_t i, int64_t replicas) {
  Json& rs = rs_[i];
  const bool size_changed = DeployRsReplicas(rs) != replicas;
  const bool annotations_changed = SetReplicasAnnotations(rs);
  if (!size_changed && !annotations_changed) return false;
  EnsureObject(rs, "spec")["replicas"] = replicas;
  state_.Replace(rs);
  // The stored copy carries the generation the write counted.
  if (const Json* stored = state_.Get(Kind::kReplicaSet, NamespaceOf(rs), NameOf(rs))) rs = *stored;
  return size_changed;
}

// scale(): a scaling event resizes the ReplicaSets without advancing the rollout.
void DeploymentSync::Scale() {
  std::vector<size_t> olds = OldIndexes();
  std::sort(olds.begin(), olds.end(), [this](size_t a, size_t b) {
    return std::make_tuple(DeployRsCreated(rs_[a]), NameOf(rs_[a])) >
           std::make_tuple(DeployRsCreated(rs_[b]), NameOf(rs_[b]));
  });
  std::vector<size_t> all = olds;
  if (new_rs_) all.push_back(*new_rs_);
  std::vector<size_t> active = ActiveIndexes(all);
  // FindActiveOrLatest.
  std::optional<size_t> only;
  if (active.size() == 1) only = active[0];
  if (active.empty() && (new_rs_ || !olds.empty())) only = new_rs_ ? *new_rs_ : olds[0];
  if (only) {
    ScaleRs(*only, replicas_);
    return;
  }
  if (active.empty()) return;
  if (new_rs_) {
    const Json& rs = rs_[*new_rs_];
    const bool saturated =
        DeployParseInt(AnnotationOf(rs, kDeployDesiredReplicas), -1) == replicas_ &&
        DeployRsReplicas(rs) == replicas_ &&
        IntAt(rs, {"status", "availableReplicas"}, 0) == replicas_;
    if (saturated) {
      for (size_t i : ActiveIndexes(olds)) ScaleRs(i, 0);
      return;
    }
  }
  if (!rolling_) return;
  const int64_t allowed = replicas_ > 0 ? replicas_ + max_surge_ : 0;
  const int64_t to_add = allowed - SumReplicas(active);
  // Larger ReplicaSets first; ties newer first when growing, older first when shrinking.
  std::sort(active.begin(), active.end(), [this, to_add](size_t a, size_t b) {
    const int64_t ra = DeployRsReplicas(rs_[a]);
    const int64_t rb = DeployRsReplicas(rs_[b]);
    if (ra != rb) return ra > rb;
    const auto ka = std::make_tuple(DeployRsCreated(rs_[a]), NameOf(rs_[a]));
    const auto kb = std::make_tuple(DeployRsCreated(rs_[b]), NameOf(rs_[b]));
    return to_add > 0 ? ka > kb : ka < kb;
  });
  std::map<size_t, int64_t> size;
  int64_t added = 0;
  for (size_t i : active) {
    const int64_t current = DeployRsReplicas(rs_[i]);
    int64_t proportion = 0;
    if (to_add != 0 && current != 0 && to_add != added) {
      // getReplicaSetFraction: this ReplicaSet's share of the new size, by the size the
      // Deployment had when it was last scaled (the max-replicas annotation).
      int64_t fraction = -current;
      if (replicas_ != 0) {
        int64_t annotated = DeployParseInt(AnnotationOf(rs_[i], kDeployMaxReplicas), -1);
        if (annotated <= 0) annotated = IntAt(old_status_, {"replicas"}, 0);
        if (annotated > 0) {
          const double share = static_cast<double>(current * (replicas_ + max_surge_)) /
                               static_cast<double>(annotated);
          fraction = static_cast<int64_t>(std::round(share)) - current;
        } else {
          fraction = 0;
        }
      }
      const int64_t left = to_add - added;
      proportion = to_add > 0 ? std::min(fraction, left) : std::max(fraction, left);
    }
    size[i] = current + proportion;
    added += proportion;
  }
  for (size_t n = 0; n < active.size(); ++n) {
    const size_t i = active[n];
    if (n == 0 && to_add != 0) size[i] = std::max<int64_t>(0, size[i] + to_add - added);
    ScaleRs(i, size[i]);
  }
}

bool DeploymentSync::ReconcileOld() {
  std::vector<size_t> olds = ActiveIndexes(OldIndexes());
  if (SumReplicas(olds) == 0) return false;
  const int64_t all_pods = SumReplicas(All());
  const int64_t min_available = replicas_ - max_unavailable_;
  const Json& new_rs = rs_[*new_rs_];
  const int64_t new_unavailable =
      DeployRsReplicas(new_rs) - IntAt(new_rs, {"status", "availableReplicas"}, 0);
  const int64_t max_scaled_down = all_pods - min_available - new_unavailable;
  if (max_scaled_down <= 0) return false;
  std::sort(olds.begin(), olds.end(), [this](size_t a, size_t b) {
    return std::make_tuple(DeployRsCreated(rs_[a]), NameOf(rs_[a])) <
           std::make_tuple(DeployRsCreated(rs_[b]), NameOf(rs_[b]));
  });
  // cleanupUnhealthyReplicas: old pods that are not available go first, at no cost.
  int64_t cleaned = 0;
  for (size_t i : olds) {
    if (cleaned >= max_scaled_down) break;
    const int64_t replicas = DeployRsReplicas(rs_[i]);
    const int64_t available = IntAt(rs_[i], {"status", "availableReplicas"}, 0);
    if (replicas == 0 || replicas == available) continue;
    const int64_t down = std::min(max_scaled_down - cleaned, replicas - available);
    ScaleRs(i, replicas - down);
    cleaned += down;
  }
  // scaleDownOldReplicaSetsForRollingUpdate: then as many available ones as maxUnavailable
  // allows.
  int64_t scaled = 0;
  const int64_t available_pods = SumStatus(All(), "availableReplicas");
  if (available_pods > min_available) {
    const int64_t total = available_pods - min_available;
    for (size_t i : olds) {
      if (scaled >= total) break;
      const int64_t replicas = DeployRsReplicas(rs_[i]);
      if (replicas == 0) continue;
      const int64_t down = std::min(replicas, total - scaled);
      ScaleRs(i, replicas - down);
      scaled += down;
    }
  }
  return cleaned + scaled > 0;
}

void DeploymentSync::Cleanup() {
  const int64_t limit = IntAt(d_, {"spec", "revisionHistoryLimit"}, 10);
  std::vector<size_t> cleanable;
  for (size_t i : OldIndexes()) {
    if (!IsBeingDeleted(rs_[i])) cleanable.push_back(i);
  }
  const int64_t diff = static_cast<int64_t>(cleanable.size()) - limit;
  if (diff <= 0) return;
  std::sort(cleanable.begin(), cleanable.end(), [this](size_t a, size_t b) {
    return std::make_tuple(DeployRsRevision(rs_[a]), DeployRsCreated(rs_[a]), NameOf(rs_[a])) <
           std::make_tuple(DeployRsRevision(rs_[b]), DeployRsCreated(rs_[b]), NameOf(rs_[b]));
  });
  for (int64_t n = 0; n < diff; ++n) {
    const Json& rs = rs_[cleanable[static_cast<size_t>(n)]];
    if (IntAt(rs, {"status", "replicas"}, 0) != 0 || DeployRsReplicas(rs) != 0 ||
        IntAt(rs, {"metadata", "generation"}, 0) > IntAt(rs, {"status", "observedGeneration"}, 0)) {
      continue;
    }
    state_.Delete(rs);
  }
}

bool DeploymentSync::Complete(const Json& status) const {
  return IntAt(status, {"updatedReplicas"}, 0) == replicas_ &&
         IntAt(status, {"replicas"}, 0) == replicas_ &&
         IntAt(status, {"availableReplicas"}, 0) == replicas_ &&
         IntAt(status, {"observedGeneration"}, 0) >= IntAt(d_, {"metadata", "generation"}, 0);
}

Json DeploymentSync::CalculateStatus() const {
  const std::vector<size_t> all = All();
  const int64_t available = SumStatus(all, "availableReplicas");
  const int64_t unavailable = std::max<int64_t>(0, SumReplicas(all) - available);
  Json status = Json::object();
  auto put = [&status](const char* key, int64_t v) {
    if (v != 0) status[key] = v;
  };
  put("observedGeneration", IntAt(d_, {"metadata", "generation"}, 0));
  put("replicas", SumStatus(all, "replicas"));
  put("updatedReplicas", new_rs_ ? IntAt(rs_[*new_rs_], {"status", "replicas"}, 0) : 0);
  put("readyReplicas", SumStatus(all, "readyReplicas"));
  put("availableReplicas", available);
  put("unavailableReplicas", unavailable);
  const Json& current = *Member(d_, "status");
  if (const Json* c = Member(current, "conditions"); c != nullptr && c->is_array()) {
    status["conditions"] = *c;
  }
  if (const Json* c = Member(current, "collisionCount"); c != nullptr)
    status["collisionCount"] = *c;
  if (available >= replicas_ - max_unavailable_) {
    DeploySetCondition(status,
                       DeployCondition("Available", "True", "MinimumReplicasAvailable",
                                       "Deployment has minimum availability.", state_.now()));
  } else {
    DeploySetCondition(
        status, DeployCondition("Available", "False", "MinimumReplicasUnavailable",
                                "Deployment does not have minimum availability.", state_.now()));
  }
  return status;
}

// syncRolloutStatus (progress.go): the status, and the Progressing condition judged against
// the status as the round read it.
void DeploymentSync::SyncRolloutStatus() {
  Json status = CalculateStatus();
  if (!has_progress_deadline_) {
    DeployRemoveCondition(status, "Progressing");
  } else {
    const Json* current = DeployFindCondition(status, "Progressing");
    const std::string current_reason = current != nullptr ? StringAt(*current, {"reason"}) : "";
    const bool finished = IntAt(status, {"replicas"}, 0) == IntAt(status, {"updatedReplicas"}, 0) &&
                          current_reason == "NewReplicaSetAvailable";
    const std::string subject = new_rs_ ? "ReplicaSet " + DeployQuote(NameOf(rs_[*new_rs_]))
                                        : "Deployment " + DeployQuote(NameOf(d_));
    if (!finished) {
      const int64_t old_old =
          IntAt(old_status_, {"replicas"}, 0) - IntAt(old_status_, {"updatedReplicas"}, 0);
      const int64_t new_old =
          IntAt(status, {"replicas"}, 0) - IntAt(status, {"updatedReplicas"}, 0);
      const bool progressing =
          IntAt(status, {"updatedReplicas"}, 0) > IntAt(old_status_, {"updatedReplicas"}, 0) ||
          new_old < old_old ||
          IntAt(status, {"readyReplicas"}, 0) > IntAt(old_status_, {"readyReplicas"}, 0) ||
          IntAt(status, {"availableReplicas"}, 0) > IntAt(old_status_, {"availableReplicas"}, 0);
      bool timed_out = false;
      if (current != nullptr && current_reason != "NewReplicaSetAvailable") {
        if (current_reason == "ProgressDeadlineExceeded") {
          timed_out = true;
        } else if (std::optional<int64_t> from = TimeAt(*current, {"lastUpdateTime"})) {
          timed_out = *from + progress_deadline_s_ < state_.now();
        }
      }
      if (Complete(status)) {
        DeploySetCondition(
            status, DeployCondition("Progressing", "True", "NewReplicaSetAvailable",
                                    subject + " has successfully progressed.", state_.now()));
      } else if (progressing) {
        Json condition = DeployCondition("Progressing", "True", "ReplicaSetUpdated",
                                         subject + " is progressing.", state_.now());
        // Every field but lastTransitionTime is refreshed (SetDeploymentCondition alone would
        // keep an unchanged reason's lastUpdateTime).
        if (current != nullptr) {
          const Json* since = Member(*current, "lastTransitionTime");
          if (StringAt(*current, {"status"}) == "True" && since != nullptr) {
            condition["lastTransitionTime"] = *since;
          }
          DeployRemoveCondition(status, "Progressing");
        }
        DeploySetCondition(status, std::move(condition));
      } else if (timed_out) {
        DeploySetCondition(status,
                           DeployCondition("Progressing", "False", "ProgressDeadlineExceeded",
                                           subject + " has timed out progressing.", state_.now()));
      }
    }
  }
  DeployRemoveCondition(status, "ReplicaFailure");
  if (const Json* c = Member(status, "conditions"); c != nullptr && c->empty())
    status.erase("conditions");
  d_["status"] = std::move(status);
}

// syncDeploymentStatus: the status without judging progress (scaling, paused, deleted).
void DeploymentSync::SyncStatusOnly() {
  Json status = CalculateStatus();
  if (const Json* c = Member(status, "conditions"); c != nullptr && c->empty())
    status.erase("conditions");
  d_["status"] = std::move(status);
}

void DeploymentSync::RolloutRolling() {
  SyncNewReplicaSet(true);
  if (!new_rs_) {
    SyncRolloutStatus();
    return;
  }
  // reconcileNewReplicaSet.
  const int64_t current = DeployRsReplicas(rs_[*new_rs_]);
  bool scaled = false;
  if (current > replicas_) {
    scaled = ScaleRs(*new_rs_, replicas_);
  } else if (current < replicas_) {
    scaled = ScaleRs(*new_rs_, NewRsNewReplicas(current));
  }
  if (!scaled && !ReconcileOld() && Complete(old_status_)) Cleanup();
  SyncRolloutStatus();
}

void DeploymentSync::RolloutRecreate() {
  SyncNewReplicaSet(false);
  bool scaled_down = false;
  for (size_t i : ActiveIndexes(OldIndexes())) scaled_down = ScaleRs(i, 0) || scaled_down;
  if (scaled_down) {
    SyncRolloutStatus();
    return;
  }
  // Wait until no old pod runs (oldPodsRunning).
  bool old_running = SumStatus(OldIndexes(), "replicas") > 0;
  for (size_t i : OldIndexes()) {
    for (const Json* pod : state_.Controlled(Kind::kPod, UidOf(rs_[i]))) {
      if (!PodIsTerminal(*pod)) old_running = true;
    }
  }
  if (old_running) {
    SyncRolloutStatus();
    return;
  }
  if (!new_rs_) SyncNewReplicaSet(true);
  if (new_rs_) ScaleRs(*new_rs_, replicas_);
  if (Complete(old_status_)) Cleanup();
  SyncRolloutStatus();
}

void DeploymentSync::Run() {
  if (UidOf(d_).empty()) {
    state_.Report(d_, "InvalidDeployment", "the Deployment has no metadata.uid; it is not synced");
    return;
  }
  const Json* tmpl = MemberAt(d_, {"spec", "template"});
  if (tmpl == nullptr || !tmpl->is_object()) {
    state_.Report(d_, "InvalidDeployment", "spec.template is not a pod template; not synced");
    return;
  }
  EnsureObject(d_, "status");
  LoadReplicaSets();
  if (IsBeingDeleted(d_)) {
    SyncStatusOnly();
    state_.Replace(std::move(d_));
    return;
  }
  const bool paused = BoolAt(d_, {"spec", "paused"}, false);
  if (has_progress_deadline_) {
    Json& status = d_["status"];
    const Json* cond = DeployFindCondition(status, "Progressing");
    const std::string reason = cond != nullptr ? StringAt(*cond, {"reason"}) : "";
    if (reason != "ProgressDeadlineExceeded") {
      if (paused && reason != "DeploymentPaused") {
        DeploySetCondition(status, DeployCondition("Progressing", "Unknown", "DeploymentPaused",
                                                   "Deployment is paused", state_.now()));
      } else if (!paused && reason == "DeploymentPaused") {
        DeploySetCondition(status, DeployCondition("Progressing", "Unknown", "DeploymentResumed",
                                                   "Deployment is resumed", state_.now()));
      }
    }
  }
  bool scaling_event = false;
  if (!paused) {
    SyncNewReplicaSet(false);
    std::vector<size_t> all = All();
    for (size_t i : ActiveIndexes(all)) {
      const int64_t desired = DeployParseInt(AnnotationOf(rs_[i], kDeployDesiredReplicas), -1);
      if (desired >= 0 && desired != replicas_) scaling_event = true;
    }
  }
  if (paused || scaling_event) {
    SyncNewReplicaSet(false);
    Scale();
    if (paused) Cleanup();
    SyncStatusOnly();
  } else if (rolling_) {
    RolloutRolling();
  } else {
    RolloutRecreate();
  }
  state_.Replace(std::move(d_));
}

}  // namespace

std::optional<RolloutLimits> ResolveFenceposts(const Json* max_surge, const Json* max_unavailable,
                                               int64_t desired) {
  const std::optional<int64_t> surge = ScaledIntOrPercent(max_surge, desired, true, "0");
  const std::optional<int64_t> unavailable =
      ScaledIntOrPercent(max_unavailable, desired, false, "0");
  if (!surge || !unavailable) return std::nullopt;
  RolloutLimits limits{*surge, *unavailable};
  if (limits.max_surge == 0 && limits.max_unavailable == 0) limits.max_unavailable = 1;
  return limits;
}

int64_t NewReplicaSetReplicas(int64_t desired, int64_t max_surge, int64_t all_replicas,
                              int64_t new_rs_replicas) {
  const int64_t max_total = desired + max_surge;
  if (all_replicas >= max_total) return new_rs_replicas;
  return new_rs_replicas + std::min(max_total - all_replicas, desired - new_rs_replicas);
}

void RunDeploymentController(MemberState& state, const ControllerOptions& options) {
  for (const Json* d : state.List(Kind::kDeployment)) DeploymentSync(state, *d).Run();
}

}  // namespace berth::server::member
