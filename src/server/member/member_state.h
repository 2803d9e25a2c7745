// MemberState: the working copy of a member cluster that one round of controllers reads and
// changes. It starts as the MemberView the lead read; each controller's creates, replaces and
// deletes apply to it at once, so a later controller (or a later pass of the same one) sees
// them, as an informer would after the write. Changes() is the difference between the view
// and the state at the end of the round, one entry per object touched, in the order the
// objects were first touched (objects bound into one batch kept together). Deleted pods stay listed
// with a deletionTimestamp (terminating, as in a cluster until the kubelet and the loop remove
// them); deleted objects of other kinds are gone at once. Single-threaded; pointers returned stay
// valid for the state's lifetime (the objects they point at change when replaced).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/member/change.h"
#include "server/member/member_objects.h"

namespace berth::server::member {

class MemberState {
 public:
  MemberState(const MemberView& view, int64_t now_unix_s);
  MemberState(const MemberState&) = delete;
  MemberState& operator=(const MemberState&) = delete;

  int64_t now() const { return now_; }

  // The listed objects of `kind`, by namespace and name.
  std::vector<const Json*> List(Kind kind) const;
  const Json* Get(Kind kind, std::string_view ns, std::string_view name) const;
  const Json* GetByUid(std::string_view uid) const;
  // Listed objects of `kind` whose controller ownerReference has `owner_uid`, by name.
  std::vector<const Json*> Controlled(Kind kind, std::string_view owner_uid) const;

  // Adds `object` (of a known kind, named; false otherwise). Fills metadata.uid when absent
  // (derived from the key and the time, so a name reused later gets a new uid), creationTimestamp
  // (now) and generation 1. False, and nothing added, when the name is taken (by a listed object,
  // one deleted this round or one still terminating).
  bool Create(Json object);
  // Replaces the listed object with the same key; nothing happens when it is equal (an
  // unlisted one is reported as InternalError and left). metadata.generation
  // goes up by one when spec differs from what the round read (kinds other than Pod and Node),
  // as the API server counts it.
  void Replace(Json object);
  // Deletes the object with `object`'s key: a pod gets deletionTimestamp (now + its grace
  // period) and deletionGracePeriodSeconds and stays listed; other kinds leave the listing. A
  // pod already being deleted is left alone.
  void Delete(const Json& object);

  // Ties the changes of `a` and `b` into one write batch (Change::batch), when both change.
  void Bind(const Json& a, const Json& b);

  // Whether an object of `kind` could be created under `name` now.
  bool NameFree(Kind kind, std::string_view ns, std::string_view name) const;
  // prefix + a 5-character suffix drawn from `seed` and the time: the first such name free in
  // the namespace (generateName, deterministic).
  std::string GenerateName(Kind kind, std::string_view ns, std::string_view prefix,
                           std::string_view seed) const;

  // Records a problem with `object`; the same (object, reason) is recorded once a round.
  void Report(const Json& object, std::string_view reason, std::string message);

  // Counts the creates, deletes and effective replaces so far (the fixed point's test).
  uint64_t mutations() const { return mutations_; }
  std::vector<Change> Changes() const;
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  struct Entry {
    std::optional<Json> original;  // as the view had it; nullopt when created this round
    Json current;
    bool listed = true;             // false once deleted (non-pods) or a created pod deleted
    bool delete_requested = false;  // Delete was called this round
    uint64_t order = 0;             // when first changed; 0 while untouched
  };

  void Touch(Entry& entry);
  ObjectKey BatchRoot(const ObjectKey& key) const;
  void IndexAdd(const ObjectKey& key, const Json& object);
  void IndexRemove(const Json& object);

  int64_t now_;
  std::map<ObjectKey, Entry> entries_;
  std::multimap<std::string, ObjectKey> by_controller_;  // listed objects by controller uid
  std::map<std::string, ObjectKey> by_uid_;              // listed objects by uid
  uint64_t mutations_ = 0;
  uint64_t next_order_ = 1;
  std::vector<Diagnostic> diagnostics_;
  std::set<std::pair<std::string, std::string>> reported_;
  std::map<ObjectKey, ObjectKey> batch_parent_;  // union-find of Bind
};

}  // namespace berth::server::member
