// DecodedObject: what decoding one object added to a reader's state (its model objects, its
// document, Finish's side tables, the diagnostics it raised), kept by io::DecodeCache and
// appended to a later read's state instead of decoding the object again
// (Reader::ReadCached). Internal to io.
#pragma once

#include <simdjson.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/diagnostics.h"
#include "io/decode_cache.h"
#include "io/document_store.h"
#include "io/internal/decoders.h"
#include "model/snapshot.h"

namespace berth::io::internal {

// Objects of a kind the reader does not know, counted for one warning per kind.
struct UnknownKind {
  std::string api_version;
  std::string kind;
  std::string file;  // where it was first seen
  size_t count = 0;
};

// Adds `count` objects of (api_version, kind) to `kinds`, merging with a kind already there.
void CountUnknownKind(std::vector<UnknownKind>* kinds, const std::string& api_version,
                      const std::string& kind, const std::string& file, size_t count = 1);

// One bit per list of model::Snapshot (ListsUsed); decoded_object.cc checks they fit.
using ListMask = uint64_t;
inline constexpr size_t kMaxSnapshotLists = 64;

struct DecodedObject {
  // What a read looks at for every cached object first, together: which lists of
  // `snapshot` are not empty (ListsUsed), and whether any of the side tables below the
  // snapshot is.
  ListMask lists = 0;
  bool extras = false;  // pod_has_priority ... diagnostics not all empty
  // A KubeSchedulerConfiguration or Kueue Configuration: one per read, checked against the
  // read's state, so decoded again by every read instead of copied.
  bool singleton = false;
  size_t objects_read = 0;
  // The model objects the decoder appended (lists only; resource ids from the cache's
  // catalog), their sources indices into `documents`.
  model::Snapshot snapshot;
  DocumentStore documents;
  std::vector<bool> pod_has_priority;                       // parallel to snapshot.pods
  std::vector<std::vector<PodSetSource>> workload_sources;  // parallel to snapshot.workloads
  std::vector<UnknownKind> unknown_kinds;
  std::vector<core::Diagnostic> diagnostics;
};

// Which lists of `snapshot` are not empty, one bit each (the optional singletons and the
// resource catalog are not lists).
ListMask ListsUsed(const model::Snapshot& snapshot);
// Reserves room in each list of `to` for counts[bit] more objects.
void ReserveLists(const std::array<size_t, kMaxSnapshotLists>& counts, model::Snapshot* to);
// Appends the lists of `from` named by `lists` (ListsUsed) to `to`, each valid source
// shifted by `document_offset` (the number of documents `to`'s store held before `from`'s
// were added).
void AppendLists(const model::Snapshot& from, ListMask lists, int32_t document_offset,
                 model::Snapshot* to);

struct DecodeCacheEntry {
  int64_t version = 0;
  uint64_t generation = 0;  // the last read that named the key
  std::shared_ptr<const DecodedObject> object;
};

// Looks keys up by string_view without making a string of each.
struct KeyHash {
  using is_transparent = void;
  size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
};

struct DecodeCacheState {
  // Every cached object's resource ids come from here: a read's snapshot starts with a copy.
  model::ResourceCatalog catalog;
  std::unordered_map<std::string, DecodeCacheEntry, KeyHash, std::equal_to<>> entries;
  simdjson::dom::parser parser;  // reused by every decode
  uint64_t generation = 0;
  size_t last_decoded = 0;
};

}  // namespace berth::io::internal
