#include "server/member/garbage_collector.h"

#include <vector>

#include "server/api/json_access.h"
#include "server/member/member_json.h"

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

}  // namespace

void RunGarbageCollector(MemberState& state, const ControllerOptions& options) {
  if (!options.collect_garbage) return;
  for (Kind kind : AllMemberKinds()) {
    for (const Json* object : state.List(kind)) {
      if (IsBeingDeleted(*object) || !GcOrphaned(state, *object)) continue;
      state.Delete(*object);
    }
  }
}

}  // namespace berth::server::member
