#include "server/member/statefulset_controller.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/naming.h"
#include "server/member/pod_util.h"

namespace berth::server::member {

namespace {

constexpr char kStsPodNameLabel[] = "statefulset.kubernetes.io/pod-name";
constexpr char kStsPodIndexLabel[] = "apps.kubernetes.io/pod-index";

// The ordinal of a pod named "<set>-<ordinal>"; -1 for any other name.
int64_t StsOrdinal(const std::string& set, const std::string& pod) {
  if (pod.size() <= set.size() + 1 || pod.compare(0, set.size(), set) != 0 ||
      pod[set.size()] != '-') {
    return -1;
  }
  int64_t ord = -1;
  const char* begin = pod.data() + set.size() + 1;
  auto [end, ec] = std::from_chars(begin, pod.data() + pod.size(), ord);
  return ec == std::errc() && end == pod.data() + pod.size() && ord >= 0 ? ord : -1;
}

bool StsHealthy(const Json& pod) { return PodIsRunningAndReady(pod) && !IsBeingDeleted(pod); }

class StatefulSetSync {
 public:
  StatefulSetSync(MemberState& state, const Json& set) : state_(state), set_(set) {}
  void Run();

 private:
  // Creates the pod of `ordinal` at the revision its position asks for.
  void CreatePod(int64_t ordinal, int64_t index);
  void Manage();
  void WriteStatus();

  MemberState& state_;
  Json set_;
  std::string name_;
  std::string ns_;
  std::string uid_;
  int64_t replicas_ = 1;
  int64_t start_ = 0;
  bool monotonic_ = true;
  bool on_delete_ = false;
  int64_t partition_ = 0;
  int64_t min_ready_ = 0;
  std::string update_revision_;
  std::string current_revision_;
};

void StatefulSetSync::CreatePod(int64_t ordinal, int64_t index) {
  const std::string pod_name = name_ + "-" + std::to_string(ordinal);
  if (!state_.NameFree(Kind::kPod, ns_, pod_name)) return;  // the old pod is still going
  std::string revision = update_revision_;
  Json tmpl = Json::object();
  if (const Json* t = MemberAt(set_, {"spec", "template"}); t != nullptr && t->is_object())
    tmpl = *t;
  if (index < partition_ && current_revision_ != update_revision_) {
    // Below the partition a pod keeps the current revision; its template is a sibling's.
    const Json* sibling = nullptr;
    for (const Json* p : state_.Controlled(Kind::kPod, uid_)) {
      if (LabelOf(*p, kControllerRevisionHashLabel) == current_revision_) sibling = p;
    }
    if (sibling != nullptr) {
      tmpl = Json{{"metadata", Json::object()}, {"spec", Json::object()}};
      for (const char* field : {"labels", "annotations"}) {
        if (const Json* v = MemberAt(*sibling, {"metadata", field}); v != nullptr) {
          tmpl["metadata"][field] = *v;
        }
      }
      if (const Json* spec = Member(*sibling, "spec"); spec != nullptr && spec->is_object()) {
        tmpl["spec"] = *spec;
        tmpl["spec"].erase("nodeName");
      }
      revision = current_revision_;
    } else {
      state_.Report(set_, "CurrentRevisionUnknown",
                    "pod " + pod_name + " is below the partition but no pod of revision " +
                        current_revision_ + " is left to copy; it gets the update revision");
    }
  }
  Json pod = PodFromTemplate(tmpl, set_, Kind::kStatefulSet, ns_, pod_name);
  SetLabel(pod, kControllerRevisionHashLabel, revision);
  SetLabel(pod, kStsPodNameLabel, pod_name);
  SetLabel(pod, kStsPodIndexLabel, std::to_string(ordinal));
  Json& spec = EnsureObject(pod, "spec");
  spec["hostname"] = pod_name;
  const std::string service = StringAt(set_, {"spec", "serviceName"});
  if (!service.empty()) spec["subdomain"] = service;
  state_.Create(std::move(pod));
}

void StatefulSetSync::Manage() {
  std::map<int64_t, const Json*> replicas;  // index (ordinal - start) -> pod
  std::vector<std::pair<int64_t, const Json*>> condemned;
  for (const Json* p : state_.Controlled(Kind::kPod, uid_)) {
    const int64_t ord = StsOrdinal(name_, NameOf(*p));
    if (ord < 0) continue;
    const int64_t index = ord - start_;
    if (index >= 0 && index < replicas_) {
      replicas[index] = p;
    } else {
      condemned.emplace_back(ord, p);
    }
  }
  std::sort(condemned.begin(), condemned.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  const Json* first_unhealthy = nullptr;
  for (const auto& [index, pod] : replicas) {
    if (!StsHealthy(*pod)) {
      first_unhealthy = pod;
      break;
    }
  }
  if (first_unhealthy == nullptr) {
    for (const auto& [ord, pod] : condemned) {
      if (!StsHealthy(*pod)) {
        first_unhealthy = pod;
        break;
      }
    }
  }

  for (int64_t index = 0; index < replicas_; ++index) {
    auto it = replicas.find(index);
    const Json* pod = it == replicas.end() ? nullptr : it->second;
    if (pod != nullptr && PodIsTerminal(*pod) && !IsBeingDeleted(*pod)) {
      // Failed (or completed) pods are deleted and made again.
      state_.Delete(*pod);
    }
    if (pod == nullptr || PodIsTerminal(*pod)) {
      if (pod == nullptr) CreatePod(start_ + index, index);
      if (monotonic_) return;
      continue;
    }
    if (IsBeingDeleted(*pod) && monotonic_) return;
    if (!PodIsRunningAndReady(*pod) && monotonic_) return;
  }

  for (auto it = condemned.rbegin(); it != condemned.rend(); ++it) {
    const Json* pod = it->second;
    if (IsBeingDeleted(*pod)) {
      if (monotonic_) return;
      continue;
    }
    if (!PodIsRunningAndReady(*pod) && monotonic_ && pod != first_unhealthy) return;
    state_.Delete(*pod);
    if (monotonic_) return;
  }

  if (on_delete_) return;
  for (int64_t index = replicas_ - 1; index >= partition_; --index) {
    auto it = replicas.find(index);
    if (it == replicas.end()) continue;
    const Json* pod = it->second;
    if (LabelOf(*pod, kControllerRevisionHashLabel) != update_revision_ && !IsBeingDeleted(*pod)) {
      state_.Delete(*pod);
      return;
    }
    if (!StsHealthy(*pod)) return;
  }
}

void StatefulSetSync::WriteStatus() {
  int64_t count = 0;
  int64_t ready = 0;
  int64_t available = 0;
  int64_t current = 0;
  int64_t updated = 0;
  for (const Json* p : state_.Controlled(Kind::kPod, uid_)) {
    if (StsOrdinal(name_, NameOf(*p)) < 0) continue;
    ++count;
    if (PodIsRunningAndReady(*p)) {
      ++ready;
      if (PodIsAvailable(*p, min_ready_, state_.now())) ++available;
    }
    if (!IsBeingDeleted(*p)) {
      const std::string revision = LabelOf(*p, kControllerRevisionHashLabel);
      if (revision == current_revision_) ++current;
      if (revision == update_revision_) ++updated;
    }
  }
  std::string current_revision = current_revision_;
  // completeRollingUpdate.
  if (!on_delete_ && updated == replicas_ && ready == replicas_ && count == replicas_) {
    current_revision = update_revision_;
    current = updated;
  }
  Json status = Json::object();
  status["observedGeneration"] = IntAt(set_, {"metadata", "generation"}, 0);
  status["replicas"] = count;
  if (ready > 0) status["readyReplicas"] = ready;
  if (current > 0) status["currentReplicas"] = current;
  if (updated > 0) status["updatedReplicas"] = updated;
  status["currentRevision"] = current_revision;
  status["updateRevision"] = update_revision_;
  status["collisionCount"] = IntAt(set_, {"status", "collisionCount"}, 0);
  if (const Json* c = MemberAt(set_, {"status", "conditions"});
      c != nullptr && c->is_array() && !c->empty()) {
    status["conditions"] = *c;
  }
  status["availableReplicas"] = available;
  set_["status"] = std::move(status);
}

void StatefulSetSync::Run() {
  name_ = NameOf(set_);
  ns_ = NamespaceOf(set_);
  uid_ = UidOf(set_);
  if (uid_.empty()) {
    state_.Report(set_, "InvalidStatefulSet",
                  "the StatefulSet has no metadata.uid; it is not synced");
    return;
  }
  replicas_ = std::max<int64_t>(0, IntAt(set_, {"spec", "replicas"}, 1));
  start_ = std::max<int64_t>(0, IntAt(set_, {"spec", "ordinals", "start"}, 0));
  monotonic_ = StringAt(set_, {"spec", "podManagementPolicy"}) != "Parallel";
  on_delete_ = StringAt(set_, {"spec", "updateStrategy", "type"}) == "OnDelete";
  partition_ =
      on_delete_ ? 0
                 : std::max<int64_t>(
                       0, IntAt(set_, {"spec", "updateStrategy", "rollingUpdate", "partition"}, 0));
  min_ready_ = IntAt(set_, {"spec", "minReadySeconds"}, 0);
  Json tmpl = Json::object();
  if (const Json* t = MemberAt(set_, {"spec", "template"}); t != nullptr) tmpl = *t;
  update_revision_ = name_ + "-" + TemplateHash(tmpl, IntAt(set_, {"status", "collisionCount"}, 0));
  current_revision_ = StringAt(set_, {"status", "currentRevision"});
  if (current_revision_.empty()) current_revision_ = update_revision_;
  if (!IsBeingDeleted(set_)) Manage();
  WriteStatus();
  state_.Replace(std::move(set_));
}

}  // namespace

void RunStatefulSetController(MemberState& state, const ControllerOptions& options) {
  for (const Json* set : state.List(Kind::kStatefulSet)) StatefulSetSync(state, *set).Run();
}

}  // namespace berth::server::member
