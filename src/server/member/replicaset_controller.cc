#include "server/member/replicaset_controller.h"

#include <algorithm>
#include <vector>

#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/pod_util.h"

namespace berth::server::member {

namespace {

// Upstream's burstReplicas: at most this many creates or deletes per sync.
constexpr int64_t kReplicaSetBurst = 500;

bool ReplicaSetLabelsCover(const Json& pod, const Json* wanted) {
  if (wanted == nullptr || !wanted->is_object()) return true;
  for (auto it = wanted->begin(); it != wanted->end(); ++it) {
    const Json* have = MemberAt(pod, {"metadata", "labels", it.key()});
    if (have == nullptr || *have != it.value()) return false;
  }
  return true;
}

void ReplicaSetSync(MemberState& state, const Json& rs_in) {
  Json rs = rs_in;
  const std::string uid = UidOf(rs);
  if (uid.empty()) {
    state.Report(rs, "InvalidReplicaSet", "the ReplicaSet has no metadata.uid; it is not synced");
    return;
  }
  const int64_t replicas = std::max<int64_t>(0, IntAt(rs, {"spec", "replicas"}, 1));
  const int64_t min_ready = IntAt(rs, {"spec", "minReadySeconds"}, 0);
  std::vector<const Json*> active;
  for (const Json* p : state.Controlled(Kind::kPod, uid)) {
    if (PodIsActive(*p)) active.push_back(p);
  }
  if (!IsBeingDeleted(rs)) {
    const int64_t diff = static_cast<int64_t>(active.size()) - replicas;
    if (diff < 0) {
      const int64_t create = std::min(-diff, kReplicaSetBurst);
      Json tmpl = Json::object();
      if (const Json* t = MemberAt(rs, {"spec", "template"}); t != nullptr && t->is_object()) {
        tmpl = *t;
      }
      for (int64_t i = 0; i < create; ++i) {
        const std::string name =
            state.GenerateName(Kind::kPod, NamespaceOf(rs), NameOf(rs) + "-", uid);
        state.Create(PodFromTemplate(tmpl, rs, Kind::kReplicaSet, NamespaceOf(rs), name));
      }
    } else if (diff > 0) {
      std::sort(active.begin(), active.end(), PodDeletesBefore);
      for (int64_t i = 0; i < std::min(diff, kReplicaSetBurst); ++i) {
        state.Delete(*active[static_cast<size_t>(i)]);
      }
    }
  }
  int64_t count = 0;
  int64_t labeled = 0;
  int64_t ready = 0;
  int64_t available = 0;
  const Json* template_labels = MemberAt(rs, {"spec", "template", "metadata", "labels"});
  for (const Json* p : state.Controlled(Kind::kPod, uid)) {
    if (!PodIsActive(*p)) continue;
    ++count;
    if (ReplicaSetLabelsCover(*p, template_labels)) ++labeled;
    if (PodIsReady(*p)) ++ready;
    if (PodIsAvailable(*p, min_ready, state.now())) ++available;
  }
  Json status = Json::object();
  status["replicas"] = count;
  if (labeled > 0) status["fullyLabeledReplicas"] = labeled;
  if (ready > 0) status["readyReplicas"] = ready;
  if (available > 0) status["availableReplicas"] = available;
  status["observedGeneration"] = IntAt(rs, {"metadata", "generation"}, 0);
  if (const Json* conditions = MemberAt(rs, {"status", "conditions"});
      conditions != nullptr && conditions->is_array() && !conditions->empty()) {
    status["conditions"] = *conditions;
  }
  rs["status"] = std::move(status);
  state.Replace(std::move(rs));
}

}  // namespace

void RunReplicaSetController(MemberState& state, const ControllerOptions& options) {
  for (const Json* rs : state.List(Kind::kReplicaSet)) ReplicaSetSync(state, *rs);
}

}  // namespace berth::server::member
