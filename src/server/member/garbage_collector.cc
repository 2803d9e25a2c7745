#include "server/member/garbage_collector.h"

#include <string>
#include <vector>

#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/pod_util.h"

namespace berth::server::member {

namespace {

// Whether every owner of `object` is of a member kind and gone.
bool GcOrphaned(const MemberState& state, const Json& object) {
  const Json* refs = MemberAt(object, {"metadata", "ownerReferences"});
  if (refs == nullptr || !refs->is_array() || refs->empty()) return false;
  for (const Json& ref : *refs) {
    if (!KindOfRef(StringAt(ref, {"apiVersion"}), StringAt(ref, {"kind"}))) return false;
    const std::string uid = StringAt(ref, {"uid"});
    if (uid.empty() || state.GetByUid(uid) != nullptr) return false;
  }
  return true;
}

// PodGC's gcOrphaned: a pod bound to a Node that no longer exists is marked Failed with a
// DisruptionTarget condition, then deleted.
void GcOrphanedPods(MemberState& state) {
  for (const Json* pod_ptr : state.List(Kind::kPod)) {
    const std::string node = StringAt(*pod_ptr, {"spec", "nodeName"});
    if (node.empty() || IsBeingDeleted(*pod_ptr) || state.Get(Kind::kNode, "", node) != nullptr) {
      continue;
    }
    Json pod = *pod_ptr;
    if (!PodIsTerminal(pod)) {
      Json& status = EnsureObject(pod, "status");
      status["phase"] = "Failed";
      EnsureArray(status, "conditions")
          .push_back(Json{{"type", "DisruptionTarget"},
                          {"status", "True"},
                          {"lastProbeTime", nullptr},
                          {"lastTransitionTime", TimeText(state.now())},
                          {"reason", "DeletionByPodGC"},
                          {"message", "PodGC: node no longer exists"}});
      state.Replace(pod);
    }
    state.Delete(pod);
  }
}

}  // namespace

void RunGarbageCollector(MemberState& state, const ControllerOptions& options) {
  if (!options.collect_garbage) return;
  GcOrphanedPods(state);
  for (Kind kind : AllMemberKinds()) {
    for (const Json* object : state.List(kind)) {
      if (IsBeingDeleted(*object) || !GcOrphaned(state, *object)) continue;
      state.Delete(*object);
    }
  }
}

}  // namespace berth::server::member
