#include "server/member/member_state.h"

#include <algorithm>
#include <tuple>

#include "core/check.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/naming.h"

namespace berth::server::member {

namespace {

// The API server's default terminationGracePeriodSeconds.
constexpr int64_t kStateDefaultGraceS = 30;

// `object` without the fields a graceful delete adds, for telling a delete that also changed
// the object (a finalizer removed first) from a bare one.
Json StateWithoutDeletion(Json object, const Json& original) {
  if (!object.is_object()) return object;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return object;
  for (const char* key : {"deletionTimestamp", "deletionGracePeriodSeconds"}) {
    if (MemberAt(original, {"metadata", key}) == nullptr) meta->erase(key);
  }
  return object;
}

Json StateWithoutStatus(Json object) {
  if (object.is_object()) object.erase("status");
  return object;
}

}  // namespace

const char* OpName(Change::Op op) {
  switch (op) {
    case Change::Op::kCreate:
      return "create";
    case Change::Op::kUpdate:
      return "update";
    case Change::Op::kUpdateStatus:
      return "update-status";
    case Change::Op::kDelete:
      return "delete";
  }
  return "update";
}

MemberState::MemberState(const MemberView& view, int64_t now_unix_s) : now_(now_unix_s) {
  for (const auto& [key, object] : view.objects()) {
    Entry entry;
    entry.original = object;
    entry.current = object;
    auto [it, inserted] = entries_.emplace(key, std::move(entry));
    if (inserted) IndexAdd(key, it->second.current);
  }
}

std::vector<const Json*> MemberState::List(Kind kind) const {
  std::vector<const Json*> out;
  for (auto it = entries_.lower_bound(ObjectKey{kind, "", ""});
       it != entries_.end() && it->first.kind == kind; ++it) {
    if (it->second.listed) out.push_back(&it->second.current);
  }
  return out;
}

const Json* MemberState::Get(Kind kind, std::string_view ns, std::string_view name) const {
  ObjectKey key{kind, InfoOf(kind).namespaced ? std::string(ns) : std::string(), std::string(name)};
  auto it = entries_.find(key);
  return it == entries_.end() || !it->second.listed ? nullptr : &it->second.current;
}

const Json* MemberState::GetByUid(std::string_view uid) const {
  if (uid.empty()) return nullptr;
  auto it = by_uid_.find(std::string(uid));
  if (it == by_uid_.end()) return nullptr;
  auto entry = entries_.find(it->second);
  return entry == entries_.end() ? nullptr : &entry->second.current;
}

std::vector<const Json*> MemberState::Controlled(Kind kind, std::string_view owner_uid) const {
  std::vector<ObjectKey> keys;
  if (owner_uid.empty()) return {};
  auto [begin, end] = by_controller_.equal_range(std::string(owner_uid));
  for (auto it = begin; it != end; ++it) {
    if (it->second.kind == kind) keys.push_back(it->second);
  }
  std::sort(keys.begin(), keys.end());
  std::vector<const Json*> out;
  for (const ObjectKey& key : keys) {
    auto entry = entries_.find(key);
    if (entry != entries_.end() && entry->second.listed) out.push_back(&entry->second.current);
  }
  return out;
}

void MemberState::Touch(Entry& entry) {
  if (entry.order == 0) entry.order = next_order_++;
  ++mutations_;
}

void MemberState::IndexAdd(const ObjectKey& key, const Json& object) {
  const std::string controller = ControllerUidOf(object);
  if (!controller.empty()) by_controller_.emplace(controller, key);
  const std::string uid = UidOf(object);
  if (!uid.empty()) by_uid_[uid] = key;
}

void MemberState::IndexRemove(const Json& object) {
  const std::optional<ObjectKey> key = KeyOf(object);
  if (!key) return;
  const std::string controller = ControllerUidOf(object);
  auto [begin, end] = by_controller_.equal_range(controller);
  for (auto it = begin; it != end; ++it) {
    if (it->second == *key) {
      by_controller_.erase(it);
      break;
    }
  }
  auto uid = by_uid_.find(UidOf(object));
  if (uid != by_uid_.end() && uid->second == *key) by_uid_.erase(uid);
}

bool MemberState::NameFree(Kind kind, std::string_view ns, std::string_view name) const {
  ObjectKey key{kind, InfoOf(kind).namespaced ? std::string(ns) : std::string(), std::string(name)};
  return entries_.find(key) == entries_.end();
}

std::string MemberState::GenerateName(Kind kind, std::string_view ns, std::string_view prefix,
                                      std::string_view seed) const {
  const std::string now_text = std::to_string(now_);
  // The API server keeps generateName to 58 characters (names.MaxGeneratedNameLength).
  if (prefix.size() > 58) prefix = prefix.substr(0, 58);
  for (int64_t attempt = 0;; ++attempt) {
    std::string name(prefix);
    name +=
        NameSuffix(StableHash({"generateName", prefix, seed, now_text, std::to_string(attempt)}));
    if (NameFree(kind, ns, name)) return name;
  }
}

bool MemberState::Create(Json object) {
  std::optional<ObjectKey> key = KeyOf(object);
  BERTH_DCHECK(key.has_value(), "MemberState::Create of an object of no known kind or name");
  if (!key || entries_.find(*key) != entries_.end()) return false;
  Json& meta = EnsureObject(object, "metadata");
  if (UidOf(object).empty()) {
    meta["uid"] = UidFromSeed(
        StableHash({"uid", InfoOf(key->kind).name, key->ns, key->name, std::to_string(now_)}));
  }
  meta["creationTimestamp"] = TimeText(now_);
  if (key->kind != Kind::kPod && key->kind != Kind::kNode) meta["generation"] = 1;
  Entry entry;
  entry.current = std::move(object);
  auto [it, inserted] = entries_.emplace(*key, std::move(entry));
  IndexAdd(it->first, it->second.current);
  Touch(it->second);
  return true;
}

void MemberState::Replace(Json object) {
  std::optional<ObjectKey> key = KeyOf(object);
  auto it = key ? entries_.find(*key) : entries_.end();
  // Controllers replace only objects they listed this round; a controller bug that breaks
  // this is reported, not allowed to take the hub down.
  BERTH_DCHECK(it != entries_.end() && it->second.listed,
               "MemberState::Replace of an unlisted object");
  if (it == entries_.end() || !it->second.listed) {
    Report(object, "InternalError", "a controller updated an object no longer listed; ignored");
    return;
  }
  Entry& entry = it->second;
  if (entry.original && key->kind != Kind::kPod && key->kind != Kind::kNode) {
    const Json* before = MemberAt(*entry.original, {"metadata", "generation"});
    if (before != nullptr && before->is_number_integer()) {
      const Json* old_spec = Member(*entry.original, "spec");
      const Json* new_spec = Member(object, "spec");
      const bool spec_changed = (old_spec == nullptr) != (new_spec == nullptr) ||
                                (old_spec != nullptr && *old_spec != *new_spec);
      EnsureObject(object, "metadata")["generation"] =
          before->get<int64_t>() + (spec_changed ? 1 : 0);
    }
  }
  if (object == entry.current) return;
  IndexRemove(entry.current);
  entry.current = std::move(object);
  IndexAdd(*key, entry.current);
  Touch(entry);
}

void MemberState::Delete(const Json& object) {
  std::optional<ObjectKey> key = KeyOf(object);
  if (!key) return;
  auto it = entries_.find(*key);
  if (it == entries_.end() || !it->second.listed) return;
  Entry& entry = it->second;
  if (key->kind == Kind::kPod) {
    if (IsBeingDeleted(entry.current)) return;
    if (!entry.original) {
      // A pod created and deleted in the same round never reaches the store.
      IndexRemove(entry.current);
      entry.listed = false;
      Touch(entry);
      return;
    }
    const int64_t grace = std::max<int64_t>(
        0, IntAt(entry.current, {"spec", "terminationGracePeriodSeconds"}, kStateDefaultGraceS));
    Json& meta = EnsureObject(entry.current, "metadata");
    meta["deletionTimestamp"] = TimeText(now_ + grace);
    meta["deletionGracePeriodSeconds"] = grace;
    entry.delete_requested = true;
    Touch(entry);
    return;
  }
  IndexRemove(entry.current);
  entry.listed = false;
  entry.delete_requested = entry.original.has_value();
  Touch(entry);
}

void MemberState::Report(const Json& object, std::string_view reason, std::string message) {
  std::optional<ObjectKey> key = KeyOf(object);
  std::string name = key ? KeyText(*key) : NameOf(object);
  if (!reported_.emplace(name, std::string(reason)).second) return;
  diagnostics_.push_back(Diagnostic{std::move(name), std::string(reason), std::move(message)});
}

void MemberState::Bind(const Json& a, const Json& b) {
  const std::optional<ObjectKey> ka = KeyOf(a);
  const std::optional<ObjectKey> kb = KeyOf(b);
  if (!ka || !kb) return;
  const ObjectKey ra = BatchRoot(*ka);
  const ObjectKey rb = BatchRoot(*kb);
  if (ra != rb) batch_parent_[rb] = ra;
}

ObjectKey MemberState::BatchRoot(const ObjectKey& key) const {
  ObjectKey at = key;
  for (auto it = batch_parent_.find(at); it != batch_parent_.end(); it = batch_parent_.find(at)) {
    at = it->second;
  }
  return at;
}

std::vector<Change> MemberState::Changes() const {
  // Each touched entry with the first-touch order of its batch, so a batch stays together at
  // the place its earliest change would have had.
  std::map<ObjectKey, uint64_t> batch_order;
  for (const auto& [key, entry] : entries_) {
    if (entry.order == 0) continue;
    uint64_t& first = batch_order[BatchRoot(key)];
    if (first == 0 || entry.order < first) first = entry.order;
  }
  struct Touched {
    uint64_t batch_order;
    uint64_t order;
    ObjectKey root;
    const Entry* entry;
  };
  std::vector<Touched> touched;
  for (const auto& [key, entry] : entries_) {
    if (entry.order == 0) continue;
    const ObjectKey root = BatchRoot(key);
    touched.push_back(Touched{batch_order[root], entry.order, root, &entry});
  }
  std::sort(touched.begin(), touched.end(), [](const Touched& a, const Touched& b) {
    return std::tie(a.batch_order, a.order) < std::tie(b.batch_order, b.order);
  });
  std::vector<Change> out;
  auto push_update = [&out](const Json& original, Json current) {
    if (current == original) return;
    const bool outside_status = StateWithoutStatus(current) != StateWithoutStatus(original);
    out.push_back(Change{outside_status ? Change::Op::kUpdate : Change::Op::kUpdateStatus,
                         std::move(current)});
  };
  size_t batch_start = 0;
  uint64_t batch_of_previous = 0;
  for (const Touched& t : touched) {
    const Entry* entry = t.entry;
    if (out.empty() || t.batch_order != batch_of_previous) batch_start = out.size();
    batch_of_previous = t.batch_order;
    const size_t before = out.size();
    if (!entry->original) {
      if (entry->listed) out.push_back(Change{Change::Op::kCreate, entry->current});
    } else if (entry->delete_requested) {
      push_update(*entry->original, StateWithoutDeletion(entry->current, *entry->original));
      out.push_back(Change{Change::Op::kDelete, entry->current});
    } else {
      push_update(*entry->original, entry->current);
    }
    // (An entry touched but back to what was read adds nothing; its batch then starts at the
    // next entry's change, which is where batch_start already points.)
    for (size_t i = before; i < out.size(); ++i) out[i].batch = batch_start;
  }
  return out;
}

}  // namespace berth::server::member
