// StoreMirror: the scheduling loop's copy of every object of a served kind the store holds
// (and of the agents' inventories, stored without being served),
// kept current from the store's event log (the events since the last refresh), so a cycle
// reads only what changed instead of listing the whole store. Relists everything on the
// first refresh and whenever compaction dropped events it had not seen. Objects are kept in
// the order a full listing gives them (kinds in the table's order, then namespace and
// name), which is the order the reader must see them in to plan as `berth plan` would.
// Used by SchedulingLoop only, under its cycle lock; not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/result.h"
#include "store/store.h"

namespace berth::cli {

class StoreMirror {
 public:
  explicit StoreMirror(store::Store& store);

  // Brings the copy to the store's current resourceVersion. Errors are the store's; after
  // one the next refresh relists.
  core::Status Refresh();

  // Every object, by OrderKey: iterate for the listing order.
  const std::map<std::string, store::StoredObject>& objects() const { return objects_; }
  // The object under that key; nullptr when the store does not hold it (or its kind is not
  // served). O(log n).
  const store::StoredObject* Find(std::string_view group, std::string_view kind,
                                  std::string_view ns, std::string_view name) const;
  // The store's resourceVersion the copy is at.
  int64_t resource_version() const { return rv_; }

 private:
  // The kind's place in the table (2 bytes, big-endian), namespace, NUL, name: sorting these
  // strings sorts by kind order, then (ns, name) as the store lists them (NUL sorts first and
  // no name contains one). Empty when the kind is not served.
  std::string OrderKey(std::string_view group, std::string_view kind, std::string_view ns,
                       std::string_view name) const;
  core::Status Relist();

  store::Store& store_;
  std::unordered_map<std::string, uint16_t> kind_order_;  // "group\x1fkind" of served kinds
  std::map<std::string, store::StoredObject> objects_;
  int64_t rv_ = 0;
  bool listed_ = false;
};

}  // namespace berth::cli
