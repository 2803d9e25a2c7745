// AddOnScoreIndex: the hub's AddOnPlacementScores by (namespace, name), built once per
// SchedulePlacement call, or once per cycle by the engine and handed in through
// ScheduleOptions::addon_scores, so that AddOn prioritizers and CEL's
// `managedCluster.scores(name)` find a cluster's score in O(1) instead of scanning the
// snapshot for every cluster. It also holds each object's status.scores as the CEL list
// scores() returns, so a CEL call allocates nothing.
// Immutable after construction and safe to read from many threads; it borrows the
// AddOnPlacementScore objects, which must outlive it (and every CEL value it handed out).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cel/value.h"
#include "model/ocm.h"

namespace berth::placement {

class AddOnScoreIndex {
 public:
  // Indexes `scores` (typically snapshot.addon_placement_scores). When two objects share a
  // namespace and name, the first one counts. O(n) expected; a handful of allocations.
  explicit AddOnScoreIndex(const std::vector<model::AddOnPlacementScore>& scores);
  AddOnScoreIndex(const AddOnScoreIndex&) = delete;  // CEL values point into the index
  AddOnScoreIndex& operator=(const AddOnScoreIndex&) = delete;
  ~AddOnScoreIndex();

  // The AddOnPlacementScore `name` in `ns`, or nullptr. O(1) expected, no allocation.
  const model::AddOnPlacementScore* Find(std::string_view ns, std::string_view name) const;

  // Its status.scores as a CEL list of {"name": string, "value": int} maps (what OCM's
  // scores() returns; validUntil is not looked at), or nullptr when there is no such
  // object. The list borrows the index and the object.
  const cel::ListValue* CelScores(std::string_view ns, std::string_view name) const;

  size_t size() const { return entries_.size(); }

 private:
  class ItemMap;
  class ItemList;

  struct Slot {
    uint64_t hash = 0;
    uint32_t entry = 0;  // entry index + 1; 0: empty
  };
  struct Key {
    uint32_t offset = 0;  // of "namespace" then "name" in keys_
    uint32_t ns_size = 0;
    uint32_t name_size = 0;
  };

  // The slot holding (ns, name), or the empty slot where it would go. The table is at most
  // half full, so the probe ends.
  size_t FindSlot(std::string_view ns, std::string_view name, uint64_t hash) const;

  std::vector<const model::AddOnPlacementScore*> entries_;  // first of each (ns, name)
  std::vector<Key> keys_of_;                                // parallel to entries_
  std::string keys_;             // every entry's namespace and name, back to back
  std::vector<ItemMap> items_;   // every entry's scores, in order
  std::vector<ItemList> lists_;  // parallel to entries_
  std::vector<Slot> slots_;      // open addressing, linear probing, at most half full
};

}  // namespace berth::placement
