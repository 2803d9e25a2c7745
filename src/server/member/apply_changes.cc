#include "server/member/apply_changes.h"

#include <map>
#include <utility>

#include "server/api/json_access.h"
#include "server/member/member_json.h"

namespace berth::server::member {

MemberView ApplyChanges(const MemberView& view, const std::vector<Change>& changes) {
  std::map<ObjectKey, Json> objects = view.objects();
  for (const Change& change : changes) {
    const std::optional<ObjectKey> key = KeyOf(change.object);
    if (!key) continue;
    switch (change.op) {
      case Change::Op::kCreate:
      case Change::Op::kUpdate:
        objects[*key] = change.object;
        break;
      case Change::Op::kUpdateStatus: {
        auto it = objects.find(*key);
        if (it == objects.end()) break;
        const Json* status = Member(change.object, "status");
        if (status != nullptr) {
          it->second["status"] = *status;
        } else if (it->second.is_object()) {
          it->second.erase("status");
        }
        break;
      }
      case Change::Op::kDelete: {
        auto it = objects.find(*key);
        if (it == objects.end()) break;
        if (key->kind == Kind::kPod && IsBeingDeleted(change.object)) {
          Json& meta = EnsureObject(it->second, "metadata");
          meta["deletionTimestamp"] = *MemberAt(change.object, {"metadata", "deletionTimestamp"});
          if (const Json* grace =
                  MemberAt(change.object, {"metadata", "deletionGracePeriodSeconds"})) {
            meta["deletionGracePeriodSeconds"] = *grace;
          }
        } else {
          objects.erase(it);
        }
        break;
      }
    }
  }
  std::vector<Json> out;
  out.reserve(objects.size());
  for (auto& [key, object] : objects) out.push_back(std::move(object));
  return MemberView(std::move(out));
}

MemberView FinishDeletions(const MemberView& view, int64_t now_unix_s) {
  std::vector<Json> out;
  for (const auto& [key, object] : view.objects()) {
    if (key.kind == Kind::kPod && IsBeingDeleted(object)) {
      const std::optional<int64_t> at = TimeAt(object, {"metadata", "deletionTimestamp"});
      const Json* finalizers = MemberAt(object, {"metadata", "finalizers"});
      const bool held = finalizers != nullptr && finalizers->is_array() && !finalizers->empty();
      if (!held && (!at || *at <= now_unix_s)) continue;
    }
    out.push_back(object);
  }
  return MemberView(std::move(out));
}

}  // namespace berth::server::member
