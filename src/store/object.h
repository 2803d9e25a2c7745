// The values the hub's store keeps: an object's key, the metadata the API server owns, the
// object's JSON text, the mutations that change them and the events that record the changes.
// Plain copyable values; used by `Store` (store.h), its implementations and the server.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace berth::store {

// Identifies one object: (API group, kind, namespace, name). `group` is "" for the core group;
// `kind` may be the kind or the resource (plural) name as long as a caller uses one
// consistently; `ns` is "" for cluster-scoped objects. Ordered by (group, kind, ns, name),
// the order List pages in.
struct ObjectKey {
  std::string group;
  std::string kind;
  std::string ns;
  std::string name;

  auto operator<=>(const ObjectKey&) const = default;
  std::string ToString() const;  // "kind.group/ns/name", "kind/name" when parts are empty
};

// The metadata the API server keeps for an object beside its body. The store assigns uid,
// resource_version and creation; the caller chooses labels, whether an update bumps generation
// and the deletion mark.
struct ObjectMeta {
  std::string uid;                  // set once at create; kept by every update
  int64_t resource_version = 0;     // the global RV of the mutation that wrote this state
  int64_t generation = 1;           // 1 at create; +1 on an update that asks for it
  int64_t creation_unix_s = 0;      // creationTimestamp, seconds since the epoch
  int64_t deletion_unix_s = 0;      // deletionTimestamp; 0 = not being deleted
  std::map<std::string, std::string> labels;

  bool operator==(const ObjectMeta&) const = default;
};

// An object as stored. `json` is the body the caller wrote, byte for byte: the store never
// parses it, so the metadata above (not any metadata inside `json`) is authoritative and the
// server overlays it when it serves the object.
struct StoredObject {
  ObjectKey key;
  ObjectMeta meta;
  std::string json;

  bool operator==(const StoredObject&) const = default;
};

enum class MutationType { kCreate, kUpdate, kDelete };

// One change. Build with the factories; fields a type does not use are ignored.
struct Mutation {
  MutationType type = MutationType::kCreate;
  ObjectKey key;
  std::string json;                            // create, update: the new body
  std::map<std::string, std::string> labels;   // create, update: the new labels (replaced)
  std::string uid;                             // create: "" = the store generates one
  int64_t expected_rv = 0;                     // update, delete: 0 = unconditional
  std::string expected_uid;                    // delete: "" = any (k8s Preconditions.UID)
  bool bump_generation = false;                // update: the spec changed
  std::optional<int64_t> deletion_unix_s;      // update: set the deletion mark (nullopt keeps it)

  static Mutation Create(ObjectKey key, std::string json,
                         std::map<std::string, std::string> labels = {});
  static Mutation Update(ObjectKey key, std::string json, int64_t expected_rv = 0,
                         std::map<std::string, std::string> labels = {});
  static Mutation Delete(ObjectKey key, int64_t expected_rv = 0);
};

enum class EventType { kAdded, kModified, kDeleted };
const char* EventTypeName(EventType type);  // "ADDED", "MODIFIED", "DELETED"

// One entry of the event log: the object as the mutation left it (for DELETED, as it was
// when deleted, with the delete's RV). `object.meta.resource_version` is the event's RV.
struct WatchEvent {
  EventType type = EventType::kAdded;
  StoredObject object;

  bool operator==(const WatchEvent&) const = default;
};

}  // namespace berth::store
