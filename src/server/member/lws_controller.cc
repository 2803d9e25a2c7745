#include "server/member/lws_controller.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <vector>

#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/naming.h"
#include "server/member/pod_util.h"

namespace berth::server::member {

namespace {

constexpr char kLwsNameKey[] = "leaderworkerset.sigs.k8s.io/name";
constexpr char kLwsGroupIndexKey[] = "leaderworkerset.sigs.k8s.io/group-index";
constexpr char kLwsWorkerIndexKey[] = "leaderworkerset.sigs.k8s.io/worker-index";
constexpr char kLwsGroupKey[] = "leaderworkerset.sigs.k8s.io/group-key";
constexpr char kLwsRevisionKey[] = "leaderworkerset.sigs.k8s.io/template-revision-hash";
constexpr char kLwsSizeKey[] = "leaderworkerset.sigs.k8s.io/size";
constexpr char kLwsLeaderNameKey[] = "leaderworkerset.sigs.k8s.io/leader-name";

int64_t LwsLabelInt(const Json& pod, const char* key) {
  const std::string v = LabelOf(pod, key);
  int64_t n = -1;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  return ec == std::errc() && end == v.data() + v.size() && n >= 0 ? n : -1;
}

struct LwsGroup {
  const Json* leader = nullptr;
  std::map<int64_t, const Json*> workers;
  std::vector<const Json*> All() const {
    std::vector<const Json*> out;
    if (leader != nullptr) out.push_back(leader);
    for (const auto& [j, w] : workers) out.push_back(w);
    return out;
  }
};

// setCondition (leaderworkerset_controller.go): a condition of the same type is replaced when
// its status or observedGeneration differ; Available excludes Progressing and
// UpdateInProgress (the other one turns False).
bool LwsSetCondition(Json& status, const std::string& type, const std::string& reason,
                     const std::string& message, int64_t generation, int64_t now) {
  Json& conditions = EnsureArray(status, "conditions");
  auto exclusive = [](const std::string& a, const std::string& b) {
    return (a == "Available" && (b == "Progressing" || b == "UpdateInProgress")) ||
           (b == "Available" && (a == "Progressing" || a == "UpdateInProgress"));
  };
  Json fresh = {{"type", type},
                {"status", "True"},
                {"observedGeneration", generation},
                {"lastTransitionTime", TimeText(now)},
                {"reason", reason},
                {"message", message}};
  bool found = false;
  bool changed = false;
  for (Json& c : conditions) {
    const std::string t = StringAt(c, {"type"});
    if (t == type) {
      found = true;
      if (StringAt(c, {"status"}) != "True" || IntAt(c, {"observedGeneration"}, 0) != generation) {
        c = fresh;
        changed = true;
      }
    } else if (exclusive(t, type) && StringAt(c, {"status"}) == "True") {
      c["status"] = "False";
      c["lastTransitionTime"] = TimeText(now);
      c["observedGeneration"] = generation;
      changed = true;
    }
  }
  if (!found) {
    conditions.push_back(std::move(fresh));
    changed = true;
  }
  return changed;
}

class LwsSync {
 public:
  LwsSync(MemberState& state, const Json& lws) : state_(state), lws_(lws) {}
  void Run();

 private:
  void Load();
  bool GroupReady(const LwsGroup& g) const;
  bool GroupUpdated(const LwsGroup& g) const;
  void DeleteGroup(const LwsGroup& g);
  Json PodBody(int64_t group, int64_t worker, const std::string& revision) const;
  void WriteStatus();

  MemberState& state_;
  Json lws_;
  std::string name_;
  std::string ns_;
  std::string uid_;
  int64_t replicas_ = 1;
  int64_t size_ = 1;
  std::string revision_;
  std::map<int64_t, LwsGroup> groups_;
};

void LwsSync::Load() {
  groups_.clear();
  for (const Json* p : state_.Controlled(Kind::kPod, uid_)) {
    const int64_t group = LwsLabelInt(*p, kLwsGroupIndexKey);
    const int64_t worker = LwsLabelInt(*p, kLwsWorkerIndexKey);
    if (group < 0 || worker < 0) continue;
    if (worker == 0) {
      groups_[group].leader = p;
    } else {
      groups_[group].workers[worker] = p;
    }
  }
}

bool LwsSync::GroupReady(const LwsGroup& g) const {
  if (g.leader == nullptr || !PodIsRunningAndReady(*g.leader) || IsBeingDeleted(*g.leader)) {
    return false;
  }
  for (int64_t j = 1; j < size_; ++j) {
    auto it = g.workers.find(j);
    if (it == g.workers.end() || !PodIsRunningAndReady(*it->second) ||
        IsBeingDeleted(*it->second)) {
      return false;
    }
  }
  return true;
}

bool LwsSync::GroupUpdated(const LwsGroup& g) const {
  if (g.leader == nullptr || LabelOf(*g.leader, kLwsRevisionKey) != revision_) return false;
  for (const auto& [j, w] : g.workers) {
    if (LabelOf(*w, kLwsRevisionKey) != revision_) return false;
  }
  return true;
}

void LwsSync::DeleteGroup(const LwsGroup& g) {
  for (const Json* p : g.All()) state_.Delete(*p);
}

Json LwsSync::PodBody(int64_t group, int64_t worker, const std::string& revision) const {
  const std::string leader_name = name_ + "-" + std::to_string(group);
  const std::string pod_name =
      worker == 0 ? leader_name : leader_name + "-" + std::to_string(worker);
  const Json* leader_tmpl = MemberAt(lws_, {"spec", "leaderWorkerTemplate", "leaderTemplate"});
  const Json* worker_tmpl = MemberAt(lws_, {"spec", "leaderWorkerTemplate", "workerTemplate"});
  const Json* chosen =
      worker == 0 && leader_tmpl != nullptr && leader_tmpl->is_object() ? leader_tmpl : worker_tmpl;
  Json tmpl = chosen != nullptr && chosen->is_object() ? *chosen : Json::object();
  SetLabel(tmpl, kLwsNameKey, name_);
  SetLabel(tmpl, kLwsGroupIndexKey, std::to_string(group));
  SetLabel(tmpl, kLwsWorkerIndexKey, std::to_string(worker));
  SetLabel(tmpl, kLwsGroupKey, Sha1Hex(ns_ + "/" + leader_name));
  SetLabel(tmpl, kLwsRevisionKey, revision);
  SetAnnotation(tmpl, kLwsSizeKey, std::to_string(size_));
  if (worker != 0) SetAnnotation(tmpl, kLwsLeaderNameKey, leader_name);
  Json& spec = EnsureObject(tmpl, "spec");
  spec["hostname"] = pod_name;
  spec["subdomain"] = name_;
  // AddLWSVariables.
  const Json env[] = {
      Json{{"name", "LWS_LEADER_ADDRESS"}, {"value", leader_name + "." + name_ + "." + ns_}},
      Json{{"name", "LWS_GROUP_SIZE"}, {"value", std::to_string(size_)}},
      Json{{"name", "LWS_WORKER_INDEX"}, {"value", std::to_string(worker)}}};
  for (const char* list : {"initContainers", "containers"}) {
    if (!spec.contains(list) || !spec[list].is_array()) continue;
    for (Json& c : spec[list]) {
      if (!c.is_object()) continue;
      Json& vars = EnsureArray(c, "env");
      for (const Json& e : env) {
        const bool present = std::any_of(vars.begin(), vars.end(), [&](const Json& v) {
          return StringAt(v, {"name"}) == StringAt(e, {"name"});
        });
        if (!present) vars.push_back(e);
      }
    }
  }
  return PodFromTemplate(tmpl, lws_, Kind::kLeaderWorkerSet, ns_, pod_name);
}

void LwsSync::WriteStatus() {
  Load();
  const int64_t generation = IntAt(lws_, {"metadata", "generation"}, 0);
  int64_t leaders = 0, ready = 0, updated = 0;
  int64_t current_count = 0, updated_count = 0, ready_count = 0, updated_ready = 0;
  for (const auto& [index, g] : groups_) {
    if (g.leader == nullptr) continue;
    ++leaders;
    const bool is_ready = GroupReady(g);
    const bool is_updated = GroupUpdated(g);
    if (is_ready) ++ready;
    if (is_updated) ++updated;
    if (index < replicas_) {
      ++current_count;
      if (is_updated) ++updated_count;
      if (is_ready) ++ready_count;
      if (is_ready && is_updated) ++updated_ready;
    }
  }
  Json status = Json::object();
  if (const Json* c = MemberAt(lws_, {"status", "conditions"}); c != nullptr && c->is_array()) {
    status["conditions"] = *c;
  }
  const int64_t now = state_.now();
  if (updated_count < current_count) {
    LwsSetCondition(status, "UpdateInProgress", "GroupsUpdating", "Rolling Upgrade is in progress",
                    generation, now);
    LwsSetCondition(status, "Progressing", "GroupsProgressing", "Replicas are progressing",
                    generation, now);
  } else if (ready_count == replicas_ && updated_ready == current_count) {
    LwsSetCondition(status, "Available", "AllGroupsReady", "All replicas are ready", generation,
                    now);
  } else {
    LwsSetCondition(status, "Progressing", "GroupsProgressing", "Replicas are progressing",
                    generation, now);
  }
  for (Json& c : EnsureArray(status, "conditions")) {
    if (c.is_object()) c["observedGeneration"] = generation;
  }
  if (ready > 0) status["readyReplicas"] = ready;
  if (updated > 0) status["updatedReplicas"] = updated;
  status["replicas"] = leaders;
  status["hpaPodSelector"] =
      std::string(kLwsNameKey) + "=" + name_ + "," + kLwsWorkerIndexKey + "=0";
  status["observedGeneration"] = generation;
  lws_["status"] = std::move(status);
  state_.Replace(std::move(lws_));
}

void LwsSync::Run() {
  name_ = NameOf(lws_);
  ns_ = NamespaceOf(lws_);
  uid_ = UidOf(lws_);
  if (uid_.empty()) {
    state_.Report(lws_, "InvalidLeaderWorkerSet",
                  "the LeaderWorkerSet has no metadata.uid; it is not synced");
    return;
  }
  replicas_ = std::max<int64_t>(0, IntAt(lws_, {"spec", "replicas"}, 1));
  size_ = std::max<int64_t>(1, IntAt(lws_, {"spec", "leaderWorkerTemplate", "size"}, 1));
  Json tmpl = Json::object();
  if (const Json* t = MemberAt(lws_, {"spec", "leaderWorkerTemplate"}); t != nullptr) tmpl = *t;
  revision_ = TemplateHash(tmpl, -1);
  const std::string restart = StringAt(lws_, {"spec", "leaderWorkerTemplate", "restartPolicy"});
  const bool recreate_group = restart.empty() || restart == "RecreateGroupOnPodRestart" ||
                              restart == "RecreateGroupAfterStart";
  const bool leader_ready_first = StringAt(lws_, {"spec", "startupPolicy"}) == "LeaderReady";
  const int64_t max_unavailable = std::max<int64_t>(
      1, ScaledIntOrPercent(MemberAt(lws_, {"spec", "rolloutStrategy", "rollingUpdateConfiguration",
                                            "maxUnavailable"}),
                            replicas_, false, "1")
             .value_or(1));
  if (!IsBeingDeleted(lws_)) {
    Load();
    // Scale down: the groups past the replicas go.
    for (const auto& [index, g] : groups_) {
      if (index >= replicas_) DeleteGroup(g);
    }
    // RecreateGroupOnPodRestart: a failed, restarted or deleted pod takes its group with it.
    if (recreate_group) {
      for (const auto& [index, g] : groups_) {
        if (index >= replicas_) continue;
        bool broken = false;
        bool all_deleting = true;
        for (const Json* p : g.All()) {
          if (PodPhase(*p) == "Failed" || PodRestartCount(*p) > 0 || IsBeingDeleted(*p))
            broken = true;
          if (!IsBeingDeleted(*p)) all_deleting = false;
        }
        if (broken && !all_deleting) DeleteGroup(g);
      }
    }
    // Rolling update, from the highest group down.
    Load();
    int64_t unready = 0;
    for (int64_t i = 0; i < replicas_; ++i) {
      auto it = groups_.find(i);
      if (it == groups_.end() || !GroupReady(it->second)) ++unready;
    }
    int64_t budget = max_unavailable - unready;
    for (int64_t i = replicas_ - 1; i >= 0; --i) {
      auto it = groups_.find(i);
      if (it == groups_.end() || it->second.leader == nullptr ||
          IsBeingDeleted(*it->second.leader)) {
        continue;
      }
      if (LabelOf(*it->second.leader, kLwsRevisionKey) == revision_) continue;
      if (!GroupReady(it->second)) {
        DeleteGroup(it->second);
      } else if (budget > 0) {
        DeleteGroup(it->second);
        --budget;
      }
    }
    // Create what is missing.
    Load();
    for (int64_t i = 0; i < replicas_; ++i) {
      const std::string leader_name = name_ + "-" + std::to_string(i);
      auto it = groups_.find(i);
      const Json* leader = it == groups_.end() ? nullptr : it->second.leader;
      if (leader == nullptr) {
        if (state_.NameFree(Kind::kPod, ns_, leader_name)) state_.Create(PodBody(i, 0, revision_));
        continue;
      }
      if (IsBeingDeleted(*leader)) continue;
      if (leader_ready_first && !PodIsRunningAndReady(*leader)) continue;
      const std::string revision = LabelOf(*leader, kLwsRevisionKey);
      for (int64_t j = 1; j < size_; ++j) {
        if (it->second.workers.count(j) > 0) continue;
        const std::string worker_name = leader_name + "-" + std::to_string(j);
        if (state_.NameFree(Kind::kPod, ns_, worker_name)) state_.Create(PodBody(i, j, revision));
      }
    }
  }
  WriteStatus();
}

}  // namespace

void RunLeaderWorkerSetController(MemberState& state, const ControllerOptions& options) {
  for (const Json* lws : state.List(Kind::kLeaderWorkerSet)) LwsSync(state, *lws).Run();
}

}  // namespace berth::server::member
