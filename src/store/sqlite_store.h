// SqliteStore: the Store (store.h) on one SQLite database in a data directory, the hub's
// embedded default. WAL with synchronous=FULL, so a write is acknowledged only once fsynced;
// one writer thread that groups concurrent callers' batches into one transaction (group
// commit); reads on their own connections (WAL snapshots), never waiting for the writer. An
// flock on DIR/LOCK keeps a second hub off the same directory. Thread-safe. docs/store.md.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "store/store.h"

namespace berth::store {

namespace internal {
class Connection;
}  // namespace internal

struct SqliteStoreOptions {
  // Group commit: once a batch is waiting, the writer waits up to this long for more to join
  // it unless max_batch_mutations are already queued. 0 = commit what is queued at once (the
  // callers that arrive during a commit's fsync form the next group).
  int64_t group_window_us = 0;
  int64_t max_batch_mutations = 2000;
  int busy_timeout_ms = 5000;
  int max_idle_readers = 8;
  // creationTimestamp source; default: the system clock.
  std::function<int64_t()> now_unix_s;
};

class SqliteStore final : public Store {
 public:
  // Opens (creating if needed) the store in directory `dir` (its database is DIR/berth.db).
  // Errors: kUnavailable when another process or SqliteStore holds DIR (its lock file is
  // named), kFailedPrecondition for a database of a newer schema, kInternal for I/O errors.
  static core::Result<std::unique_ptr<SqliteStore>> Open(const std::string& dir,
                                                         SqliteStoreOptions options = {});
  // Finishes the queued writes, stops the writer and releases the directory.
  ~SqliteStore() override;
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  core::Result<std::vector<StoredObject>> Commit(std::vector<Mutation> mutations) override;
  core::Result<StoredObject> Get(const ObjectKey& key) override;
  core::Result<ListPage> List(const ListOptions& options) override;
  core::Result<EventPage> EventsSince(const WatchOptions& options) override;
  core::Status Compact(const CompactOptions& options) override;
  int64_t CurrentResourceVersion() override;
  int64_t CompactedResourceVersion() override;

  // Transactions committed so far (a group commit counts once): mutations / this is the
  // average group size. For benchmarks and tests.
  int64_t TransactionsForTest() const { return transactions_.load(); }

 private:
  struct Request;
  class ReaderLease;

  SqliteStore(std::string dir, SqliteStoreOptions options, int lock_fd);
  core::Status Start();
  core::Result<std::vector<StoredObject>> Enqueue(std::unique_ptr<Request> request);
  void WriterLoop();
  void WriteGroup(std::vector<std::unique_ptr<Request>>& group);
  core::Result<std::vector<StoredObject>> ApplyBatch(const std::vector<Mutation>& mutations,
                                                     int64_t& rv);
  core::Result<StoredObject> ApplyMutation(const Mutation& mutation, int64_t& rv);
  core::Status ApplyCompact(const CompactOptions& options, int64_t rv, int64_t& compacted);
  core::Status InsertEvent(EventType type, const StoredObject& object);
  std::string NewUid();
  core::Result<std::unique_ptr<internal::Connection>> AcquireReader();
  void ReleaseReader(std::unique_ptr<internal::Connection> reader);

  const std::string dir_;
  const std::string db_path_;
  const SqliteStoreOptions options_;
  const int lock_fd_;

  // Written only by the writer thread (and Start, before it runs).
  std::unique_ptr<internal::Connection> writer_;
  std::mt19937_64 uid_rng_;

  std::mutex queue_mu_;
  std::condition_variable queue_cv_;
  std::deque<std::unique_ptr<Request>> queue_;  // GUARDED_BY(queue_mu_)
  int64_t queued_mutations_ = 0;                // GUARDED_BY(queue_mu_)
  bool stopping_ = false;                       // GUARDED_BY(queue_mu_)
  std::thread writer_thread_;

  std::mutex readers_mu_;
  std::vector<std::unique_ptr<internal::Connection>> idle_readers_;  // GUARDED_BY(readers_mu_)

  std::atomic<int64_t> current_rv_{0};
  std::atomic<int64_t> compacted_rv_{0};
  std::atomic<int64_t> transactions_{0};
};

}  // namespace berth::store
