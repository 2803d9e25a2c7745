// PostgresStore: the Store (store.h) on a PostgreSQL database, for several hub replicas that
// share one database. Same contract as SqliteStore: one writer thread groups concurrent
// callers' batches into one transaction (a savepoint per caller), acknowledged once the commit
// is flushed (synchronous_commit=on); reads on their own connections, each call one
// REPEATABLE READ snapshot. Leadership: one lease row {holder, epoch, renew_at, expires_at};
// Acquire takes it when free or expired (bumping the epoch), a background thread renews it,
// and every write transaction checks under a row lock that this store's epoch is still the
// current one (fencing): a deposed leader's writes fail with kUnavailable ("fenced") and store
// nothing. Thread-safe. docs/store.md.
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
class PgConnection;
}  // namespace internal

struct PostgresLeaseOptions {
  std::string holder;             // this replica's name in the lease row; "" = host:pid:random
  int64_t lease_ms = 15000;       // a lease not renewed for this long may be taken over
  int64_t renew_every_ms = 2000;  // background renewal period; 0 = the caller calls Renew
  bool acquire_on_open = true;    // Open fails with kUnavailable when another replica leads
};

struct PostgresStoreOptions {
  // Group commit, as SqliteStoreOptions.
  int64_t group_window_us = 0;
  int64_t max_batch_mutations = 2000;
  int max_idle_readers = 8;
  PostgresLeaseOptions lease;
  // creationTimestamp source; default: the system clock.
  std::function<int64_t()> now_unix_s;
};

class PostgresStore final : public Store {
 public:
  // Connects to `conninfo` (a libpq URI "postgres://user@host:port/db" or key=value string),
  // migrates the schema and, when options.lease.acquire_on_open, takes the lease. Errors:
  // kUnavailable when the server cannot be reached or another replica holds the lease,
  // kFailedPrecondition for a database of a newer schema, kInternal for database failures.
  static core::Result<std::unique_ptr<PostgresStore>> Open(const std::string& conninfo,
                                                           PostgresStoreOptions options = {});
  // Finishes the queued writes, stops the writer and the renewer, and steps down: the lease
  // is marked expired so that a successor takes over at once (with a new epoch).
  ~PostgresStore() override;
  PostgresStore(const PostgresStore&) = delete;
  PostgresStore& operator=(const PostgresStore&) = delete;

  // Writes: kUnavailable "not the leader" without the lease, kUnavailable "fenced" once another
  // replica took the lease over (nothing of the batch is stored). Otherwise as Store.
  core::Result<std::vector<StoredObject>> Commit(std::vector<Mutation> mutations) override;
  core::Result<StoredObject> Get(const ObjectKey& key) override;
  core::Result<ListPage> List(const ListOptions& options) override;
  core::Result<EventPage> EventsSince(const WatchOptions& options) override;
  core::Status Compact(const CompactOptions& options) override;
  // The newest RV this store has committed or read (a follower's view lags until it reads).
  int64_t CurrentResourceVersion() override;
  int64_t CompactedResourceVersion() override;

  // Leadership. Acquire takes the lease when it is free, expired or held under our holder
  // name (a replica's holder name must be unique to it); it only renews when we hold it
  // already, else it sets epoch = previous epoch + 1. kUnavailable naming the holder
  // when another replica's lease is live. Expiry is judged by the database server's clock.
  core::Status Acquire();
  // Extends our lease by lease_ms. kUnavailable ("lease lost") when another replica has taken
  // it over since; this store then stops writing (Epoch() becomes 0).
  core::Status Renew();
  int64_t Epoch() const { return epoch_.load(); }  // 0 = not the leader
  int64_t LeaderEpoch() override { return Epoch(); }
  bool Leading() override { return Epoch() != 0; }
  core::Status TryLead() override { return Acquire(); }
  const std::string& Holder() const { return holder_; }
  // Stops / resumes the background renewal, to let a lease expire in tests.
  void PauseRenewForTest(bool paused);

  int64_t TransactionsForTest() const { return transactions_.load(); }

 private:
  struct Request;
  class ReaderLease;

  PostgresStore(std::string conninfo, PostgresStoreOptions options);
  core::Status Start();
  core::Result<std::vector<StoredObject>> Enqueue(std::unique_ptr<Request> request);
  void WriterLoop();
  void RenewLoop();
  void WriteGroup(std::vector<std::unique_ptr<Request>>& group);
  core::Status CheckFence();
  core::Result<std::vector<StoredObject>> ApplyBatch(const std::vector<Mutation>& mutations,
                                                     int64_t& rv);
  core::Result<StoredObject> ApplyMutation(const Mutation& mutation, int64_t& rv);
  core::Result<StoredObject> ApplyCreate(const Mutation& mutation, int64_t& rv);
  core::Status ApplyCompact(const CompactOptions& options, int64_t rv, int64_t& compacted);
  core::Status InsertEvent(EventType type, const StoredObject& object);
  std::string NewUid();
  core::Result<std::unique_ptr<internal::PgConnection>> AcquireReader();
  void ReleaseReader(std::unique_ptr<internal::PgConnection> reader);
  void NoteRv(int64_t rv, int64_t compacted);

  const std::string conninfo_;
  const std::string target_;  // conninfo without a password, for messages
  const PostgresStoreOptions options_;
  std::string holder_;

  // Written only by the writer thread (and Start, before it runs).
  std::unique_ptr<internal::PgConnection> writer_;
  std::mt19937_64 uid_rng_;

  std::mutex queue_mu_;
  std::condition_variable queue_cv_;
  std::deque<std::unique_ptr<Request>> queue_;  // GUARDED_BY(queue_mu_)
  int64_t queued_mutations_ = 0;                // GUARDED_BY(queue_mu_)
  bool stopping_ = false;                       // GUARDED_BY(queue_mu_)
  std::thread writer_thread_;

  std::mutex lease_mu_;                                 // serializes Acquire/Renew on lease_conn_
  std::unique_ptr<internal::PgConnection> lease_conn_;  // GUARDED_BY(lease_mu_)
  std::mutex renew_mu_;
  std::condition_variable renew_cv_;
  bool renew_paused_ = false;    // GUARDED_BY(renew_mu_)
  bool renew_stopping_ = false;  // GUARDED_BY(renew_mu_)
  std::thread renew_thread_;
  std::atomic<int64_t> epoch_{0};

  std::mutex readers_mu_;
  std::vector<std::unique_ptr<internal::PgConnection>> idle_readers_;  // GUARDED_BY(readers_mu_)

  std::atomic<int64_t> current_rv_{0};
  std::atomic<int64_t> compacted_rv_{0};
  std::atomic<int64_t> transactions_{0};
};

}  // namespace berth::store
