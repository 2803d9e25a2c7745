// Store: the hub's durable state, Kubernetes style. Objects keyed by (group, kind, ns, name)
// with the API server's metadata, one global resourceVersion (RV) counter, and an event log
// keyed by RV that watches resume from. Called by the server's handlers and its scheduling
// loop. Implementations: SqliteStore (sqlite_store.h), PostgresStore (postgres_store.h). Every
// method is thread-safe; writes may be grouped into shared transactions, reads never wait for
// writes.
//
// Error codes (core::ErrorCode), the same for every implementation, and the HTTP status the
// server maps each to:
//   kAlreadyExists      create of a key that exists                               409 AlreadyExists
//   kNotFound           get/update/delete of a key that does not exist            404 NotFound
//   kFailedPrecondition expected RV or UID does not match (a stale write): the
//                       store's Conflict. No request path returns it otherwise.   409 Conflict
//   kOutOfRange         events since an RV older than the compacted horizon       410 Gone
//   kInvalidArgument    an empty kind or name, a negative limit                   400/422
//   kUnavailable        the store is closed, or another hub holds its directory   503
//                       (SQLite) or the lease (PostgreSQL: "not the leader", and
//                       "fenced" for a write of a deposed leader), or the
//                       database server cannot be reached
//   kInternal           the database failed (I/O error, corruption)               500
// Every error's location names the object ("kind.group/ns/name") and its message the reason.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "store/object.h"

namespace berth::store {

// The store's Conflict code (see the table above), for callers that test for it.
inline constexpr core::ErrorCode kConflict = core::ErrorCode::kFailedPrecondition;

// Where a list page starts: the (ns, name) of the last item of the previous page.
struct ListCursor {
  std::string ns;
  std::string name;
  bool operator==(const ListCursor&) const = default;
};

struct ListOptions {
  std::string group;
  std::string kind;
  std::optional<std::string> ns;  // nullopt = every namespace
  std::optional<ListCursor> start_after;
  int64_t limit = 0;  // 0 = no limit
};

struct ListPage {
  std::vector<StoredObject> items;  // in (ns, name) order
  int64_t resource_version = 0;     // the store's RV when the page was read
  std::optional<ListCursor> next;   // set when more items may follow; pass as start_after
};

struct WatchOptions {
  int64_t since_rv = 0;  // events with RV > since_rv
  int64_t limit = 0;     // 0 = no limit
  // Optional filter; empty strings match everything. A kind filter needs its group.
  std::string group;
  std::string kind;
  std::optional<std::string> ns;
};

struct EventPage {
  std::vector<WatchEvent> events;  // in RV order
  int64_t resource_version = 0;    // the store's RV when read: resume from here when empty
};

// Compaction: drop the events with RV < before_rv, and/or all but the newest keep_last events.
struct CompactOptions {
  std::optional<int64_t> keep_last;
  std::optional<int64_t> before_rv;
};

class Store {
 public:
  virtual ~Store() = default;

  // Applies `mutations` atomically, in order, in one transaction: either every one is applied
  // (each gets its own RV, strictly increasing in order) and the result holds the state each
  // left (for a delete: the object as deleted, with the delete's RV), or none is and the error
  // is the first failing mutation's, located at its object (in a batch of several, its message
  // starts "mutation I of N: "). Returns only once the transaction is durable. An empty batch
  // succeeds and changes nothing. Concurrent callers' batches may share a transaction; one
  // caller's failure never fails another's.
  virtual core::Result<std::vector<StoredObject>> Commit(std::vector<Mutation> mutations) = 0;

  // Single-object writes: each is a one-mutation Commit.
  core::Result<StoredObject> Create(Mutation create);
  core::Result<StoredObject> Update(Mutation update);
  core::Result<StoredObject> Delete(const ObjectKey& key, int64_t expected_rv = 0);

  // The object as last committed; kNotFound when absent.
  virtual core::Result<StoredObject> Get(const ObjectKey& key) = 0;

  // One page of a kind's objects in (ns, name) order, read from one snapshot. Paging by key
  // never repeats an object and never skips one that exists throughout the paging; objects
  // created or deleted between pages appear or not by key. O(log n + page) per page.
  virtual core::Result<ListPage> List(const ListOptions& options) = 0;

  // The event log after options.since_rv, oldest first. kOutOfRange ("Gone") when since_rv is
  // below the compacted horizon (CompactedResourceVersion()), i.e. some events after it are gone.
  virtual core::Result<EventPage> EventsSince(const WatchOptions& options) = 0;

  // Drops old events (see CompactOptions); the horizon only rises. Goes through the writer.
  virtual core::Status Compact(const CompactOptions& options) = 0;

  // The RV of the last committed mutation (0 for an empty store). Never decreases, including
  // across reopen.
  virtual int64_t CurrentResourceVersion() = 0;
  // Events with RV <= this are gone; a watch must start at or after it.
  virtual int64_t CompactedResourceVersion() = 0;

  // Leadership, for a store several hubs share (PostgreSQL: a lease row and a fencing epoch).
  // Leading(): whether writes may succeed now. TryLead(): take the lead when it is free or
  // expired; kUnavailable naming the holder when another hub's lease is live. A store only
  // one hub can open (SQLite's directory lock) always leads.
  virtual bool Leading() { return true; }
  virtual core::Status TryLead() { return core::OkStatus(); }
  // The fencing epoch of this hub's lead (PostgreSQL's lease row): grows each time the lead
  // changes hands, so agents can tell an older leader's answer from a newer one's. 1 for a
  // store only one hub opens; 0 while not leading.
  virtual int64_t LeaderEpoch() { return 1; }
};

struct OpenOptions {
  // PostgreSQL: open even while another hub leads (a standby: reads served, writes refused
  // until TryLead succeeds), with this lease length.
  bool standby = false;
  int64_t lease_ms = 15000;
};

// The factory for `berth serve --store SPEC`: "" opens SQLite in `data_dir`; "sqlite:DIR" opens
// SQLite in DIR (its database is DIR/berth.db); "postgres://..." or "postgresql://..." (a libpq
// URI) opens PostgresStore with the default lease (so it fails with kUnavailable while another
// replica leads); any other SPEC is kInvalidArgument naming the accepted forms. Open errors are
// the implementation's.
core::Result<std::unique_ptr<Store>> OpenStore(const std::string& spec,
                                               const std::string& data_dir,
                                               const OpenOptions& options = {});

}  // namespace berth::store
