#include "store/postgres_store.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <optional>
#include <utility>

#include "store/internal/clock.h"
#include "store/internal/errors.h"
#include "store/internal/pg_db.h"
#include "store/internal/pg_schema.h"
#include "store/internal/row_codec.h"

namespace berth::store {

using internal::At;
using internal::PgBytes;
using internal::PgConnection;
using internal::PgParam;
using internal::PgResult;
using internal::SystemNow;
using internal::Unavailable;
using internal::WithObject;

// A caller's batch (or a compaction) waiting for the writer; the caller blocks on `done`.
struct PostgresStore::Request {
  bool compact = false;
  std::vector<Mutation> mutations;
  CompactOptions compact_options;
  std::promise<core::Result<std::vector<StoredObject>>> done;
};

namespace {

// The connection string for messages: a URI up to its '@' loses its credentials.
std::string Redact(const std::string& conninfo) {
  size_t at = conninfo.find('@');
  size_t scheme = conninfo.find("://");
  if (scheme != std::string::npos && at != std::string::npos && at > scheme) {
    return conninfo.substr(0, scheme + 3) + "..." + conninfo.substr(at);
  }
  return conninfo.find("password") != std::string::npos ? std::string("postgres") : conninfo;
}

constexpr const char* kColumns =
    "grp, kind, ns, name, uid, rv, generation, created, deleted, labels, body";

// Reads the 11 columns of kColumns starting at `first` of row `row`.
StoredObject ReadObject(const PgResult& rows, int row, int first) {
  StoredObject object;
  object.key.group = rows.Text(row, first);
  object.key.kind = rows.Text(row, first + 1);
  object.key.ns = rows.Text(row, first + 2);
  object.key.name = rows.Text(row, first + 3);
  object.meta.uid = rows.Text(row, first + 4);
  object.meta.resource_version = rows.Int(row, first + 5);
  object.meta.generation = rows.Int(row, first + 6);
  object.meta.creation_unix_s = rows.Int(row, first + 7);
  object.meta.deletion_unix_s = rows.Int(row, first + 8);
  object.meta.labels = internal::DecodeLabels(rows.Text(row, first + 9));
  object.json = rows.Text(row, first + 10);
  return object;
}

std::vector<PgParam> KeyParams(const ObjectKey& key) {
  return {std::string_view(key.group), std::string_view(key.kind), std::string_view(key.ns),
          std::string_view(key.name)};
}

core::Result<std::optional<StoredObject>> ReadOne(PgConnection& db, const ObjectKey& key) {
  BERTH_ASSIGN_OR_RETURN(
      PgResult rows,
      db.Query(std::string("SELECT ") + kColumns +
                   " FROM berth_objects WHERE grp = $1 AND kind = $2 AND ns = $3 AND name = $4",
               KeyParams(key)));
  if (rows.Rows() == 0) {
    return std::optional<StoredObject>();
  }
  return std::optional<StoredObject>(ReadObject(rows, 0, 0));
}

// Runs `body` in one read-only REPEATABLE READ transaction: everything it reads is one snapshot.
template <typename Body>
auto InSnapshot(PgConnection& db, Body body) -> decltype(body()) {
  BERTH_RETURN_IF_ERROR(db.Exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
  auto result = body();
  (void)db.Exec(result.has_value() ? "COMMIT" : "ROLLBACK");
  return result;
}

}  // namespace

// A read connection borrowed from the pool for one call; returned on destruction unless the
// connection to the server broke.
class PostgresStore::ReaderLease {
 public:
  ReaderLease(PostgresStore& store, std::unique_ptr<PgConnection> db)
      : store_(store), db_(std::move(db)) {}
  ~ReaderLease() { store_.ReleaseReader(std::move(db_)); }
  ReaderLease(const ReaderLease&) = delete;
  ReaderLease& operator=(const ReaderLease&) = delete;
  PgConnection& db() { return *db_; }

 private:
  PostgresStore& store_;
  std::unique_ptr<PgConnection> db_;
};

core::Result<std::unique_ptr<PostgresStore>> PostgresStore::Open(const std::string& conninfo,
                                                                 PostgresStoreOptions options) {
  if (!options.now_unix_s) {
    options.now_unix_s = SystemNow;
  }
  if (options.lease.lease_ms <= 0 || options.lease.renew_every_ms < 0) {
    return core::InvalidArgument("postgres store: lease_ms must be > 0, renew_every_ms >= 0");
  }
  std::unique_ptr<PostgresStore> store(new PostgresStore(conninfo, std::move(options)));
  BERTH_RETURN_IF_ERROR(store->Start());
  return store;
}

PostgresStore::PostgresStore(std::string conninfo, PostgresStoreOptions options)
    : conninfo_(std::move(conninfo)),
      target_(Redact(conninfo_)),
      options_(std::move(options)),
      uid_rng_(std::random_device{}()) {
  holder_ = options_.lease.holder;
  if (holder_.empty()) {
    char host[256] = {};
    (void)::gethostname(host, sizeof(host) - 1);
    holder_ = std::string(host) + ":" + std::to_string(::getpid()) + ":" +
              std::to_string(uid_rng_() % 1000000);
  }
}

core::Status PostgresStore::Start() {
  BERTH_ASSIGN_OR_RETURN(writer_, PgConnection::Open(conninfo_));
  BERTH_RETURN_IF_ERROR(internal::PgMigrate(*writer_, target_));
  // Acknowledge a commit only once its WAL is flushed, whatever the server's default.
  BERTH_RETURN_IF_ERROR(writer_->Exec("SET synchronous_commit = on"));
  BERTH_ASSIGN_OR_RETURN(int64_t rv, internal::PgReadMeta(*writer_, "rv"));
  BERTH_ASSIGN_OR_RETURN(int64_t compacted, internal::PgReadMeta(*writer_, "compacted_rv"));
  current_rv_.store(rv);
  compacted_rv_.store(compacted);
  // A leader stalled inside a write transaction (SIGSTOP, a hung host) holds the lease row
  // FOR SHARE, which would block every takeover: the server ends such a session after
  // lease_ms idle in its transaction, releasing the lock (the group is not committed, so
  // nothing of it is acknowledged). And a takeover waits for the row at most lease_ms.
  // At least 2 s, so that a loaded machine's pause between two statements of a healthy
  // group does not end the session.
  const std::string lease_ms = std::to_string(options_.lease.lease_ms);
  BERTH_RETURN_IF_ERROR(
      writer_->Exec("SET idle_in_transaction_session_timeout = " +
                    std::to_string(std::max<int64_t>(2000, options_.lease.lease_ms))));
  BERTH_ASSIGN_OR_RETURN(lease_conn_, PgConnection::Open(conninfo_));
  BERTH_RETURN_IF_ERROR(lease_conn_->Exec("SET lock_timeout = " + lease_ms));
  if (options_.lease.acquire_on_open) {
    BERTH_RETURN_IF_ERROR(Acquire());
  }
  writer_thread_ = std::thread([this] { WriterLoop(); });
  if (options_.lease.renew_every_ms > 0) {
    renew_thread_ = std::thread([this] { RenewLoop(); });
  }
  return core::OkStatus();
}

PostgresStore::~PostgresStore() {
  {
    std::lock_guard<std::mutex> lock(renew_mu_);
    renew_stopping_ = true;
  }
  renew_cv_.notify_all();
  if (renew_thread_.joinable()) {
    renew_thread_.join();
  }
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    stopping_ = true;
  }
  queue_cv_.notify_all();
  if (writer_thread_.joinable()) {
    writer_thread_.join();
  }
  // Step down: a clean close lets a successor take over at once (with a new epoch) instead of
  // after lease_ms. Best effort: a failure leaves the lease to expire.
  int64_t epoch = epoch_.exchange(0);
  if (epoch != 0 && lease_conn_ && lease_conn_->Healthy()) {
    (void)lease_conn_->Query(
        "UPDATE berth_lease SET expires_at = clock_timestamp() WHERE id = 1 AND holder = $1"
        " AND epoch = $2",
        {std::string_view(holder_), epoch});
  }
}

// ---- leadership ---------------------------------------------------------------------------

core::Status PostgresStore::Acquire() {
  std::lock_guard<std::mutex> lock(lease_mu_);
  PgConnection& db = *lease_conn_;
  if (!db.Healthy()) {
    BERTH_RETURN_IF_ERROR(db.Reset());
  }
  BERTH_RETURN_IF_ERROR(db.Exec("BEGIN"));
  core::Result<int64_t> taken = [&]() -> core::Result<int64_t> {
    // FOR UPDATE: concurrent Acquires of the row run one after the other, and a takeover waits
    // for every write transaction that holds the row FOR SHARE (CheckFence) to finish.
    BERTH_ASSIGN_OR_RETURN(
        PgResult row, db.Query("SELECT holder, epoch, expires_at <= clock_timestamp(),"
                               " to_char(expires_at, 'YYYY-MM-DD HH24:MI:SS.MS') FROM berth_lease"
                               " WHERE id = 1 FOR UPDATE"));
    if (row.Rows() != 1) {
      return core::Internal("postgres store " + target_ + ": the lease row is missing");
    }
    std::string holder = row.Text(0, 0);
    int64_t epoch = row.Int(0, 1);
    bool expired = row.Int(0, 2) != 0;
    if (holder != holder_ && !holder.empty() && !expired) {
      return Unavailable("postgres store " + target_ + ": the lease is held by " + holder +
                         " (epoch " + std::to_string(epoch) + ") until " + row.Text(0, 3));
    }
    // Ours and current: a renewal. Otherwise a takeover, or this holder name restarted: a new
    // epoch fences every write of the previous one.
    int64_t next = holder == holder_ && epoch == epoch_.load() ? epoch : epoch + 1;
    BERTH_ASSIGN_OR_RETURN(
        PgResult updated,
        db.Query("UPDATE berth_lease SET holder = $1, epoch = $2, renew_at = clock_timestamp(),"
                 " expires_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE id = 1",
                 {std::string_view(holder_), next, options_.lease.lease_ms}));
    (void)updated;
    return next;
  }();
  if (!taken.has_value()) {
    bool lock_timeout = db.LastSqlState() == "55P03";  // lock_not_available
    (void)db.Exec("ROLLBACK");
    if (lock_timeout) {
      return Unavailable("postgres store " + target_ +
                         ": the lease row stayed locked by a write transaction for lease_ms; "
                         "retry Acquire");
    }
    return std::move(taken).error();
  }
  BERTH_RETURN_IF_ERROR(db.Exec("COMMIT"));
  epoch_.store(*taken);
  return core::OkStatus();
}

core::Status PostgresStore::Renew() {
  std::lock_guard<std::mutex> lock(lease_mu_);
  int64_t epoch = epoch_.load();
  if (epoch == 0) {
    return Unavailable("postgres store " + target_ + ": not the leader, nothing to renew");
  }
  PgConnection& db = *lease_conn_;
  if (!db.Healthy()) {
    BERTH_RETURN_IF_ERROR(db.Reset());
  }
  // Still ours when nobody bumped the epoch, even if it expired meanwhile: no one else wrote.
  BERTH_ASSIGN_OR_RETURN(PgResult updated,
                         db.Query("UPDATE berth_lease SET renew_at = clock_timestamp(),"
                                  " expires_at = clock_timestamp() + $3 * interval '1 millisecond'"
                                  " WHERE id = 1 AND holder = $1 AND epoch = $2",
                                  {std::string_view(holder_), epoch, options_.lease.lease_ms}));
  if (updated.Affected() != 1) {
    epoch_.compare_exchange_strong(epoch, 0);
    return Unavailable("postgres store " + target_ + ": lease lost: epoch " +
                       std::to_string(epoch) + " was taken over by another replica");
  }
  return core::OkStatus();
}

void PostgresStore::PauseRenewForTest(bool paused) {
  {
    std::lock_guard<std::mutex> lock(renew_mu_);
    renew_paused_ = paused;
  }
  renew_cv_.notify_all();
}

void PostgresStore::RenewLoop() {
  std::unique_lock<std::mutex> lock(renew_mu_);
  for (;;) {
    renew_cv_.wait_for(lock, std::chrono::milliseconds(options_.lease.renew_every_ms),
                       [&] { return renew_stopping_; });
    if (renew_stopping_) {
      return;
    }
    if (renew_paused_ || epoch_.load() == 0) {
      continue;
    }
    lock.unlock();
    (void)Renew();  // a lost lease shows as Epoch() == 0 and fenced writes
    lock.lock();
  }
}

// ---- writes -------------------------------------------------------------------------------

core::Result<std::vector<StoredObject>> PostgresStore::Commit(std::vector<Mutation> mutations) {
  if (mutations.empty()) {
    return std::vector<StoredObject>();
  }
  auto request = std::make_unique<Request>();
  request->mutations = std::move(mutations);
  return Enqueue(std::move(request));
}

core::Status PostgresStore::Compact(const CompactOptions& options) {
  auto request = std::make_unique<Request>();
  request->compact = true;
  request->compact_options = options;
  auto result = Enqueue(std::move(request));
  if (!result.has_value()) {
    return std::move(result).error();
  }
  return core::OkStatus();
}

core::Result<std::vector<StoredObject>> PostgresStore::Enqueue(std::unique_ptr<Request> request) {
  auto future = request->done.get_future();
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    if (stopping_) {
      return Unavailable("store " + target_ + " is closing");
    }
    queued_mutations_ += static_cast<int64_t>(request->mutations.size()) + 1;
    queue_.push_back(std::move(request));
  }
  queue_cv_.notify_one();
  return future.get();
}

void PostgresStore::WriterLoop() {
  for (;;) {
    std::vector<std::unique_ptr<Request>> group;
    {
      std::unique_lock<std::mutex> lock(queue_mu_);
      queue_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) {
        return;
      }
      if (options_.group_window_us > 0 && !stopping_) {
        auto deadline =
            std::chrono::steady_clock::now() + std::chrono::microseconds(options_.group_window_us);
        queue_cv_.wait_until(lock, deadline, [&] {
          return stopping_ || queued_mutations_ >= options_.max_batch_mutations;
        });
      }
      int64_t taken = 0;
      while (!queue_.empty() &&
             (group.empty() || taken + static_cast<int64_t>(queue_.front()->mutations.size()) <=
                                   options_.max_batch_mutations)) {
        taken += static_cast<int64_t>(queue_.front()->mutations.size()) + 1;
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      queued_mutations_ -= taken;
    }
    WriteGroup(group);
  }
}

// The fence, first statement of every write transaction: the lease row's epoch must still be
// ours. FOR SHARE holds the row until COMMIT, so a takeover's UPDATE (Acquire, FOR UPDATE)
// waits for this transaction: a write either commits before the takeover or sees the new epoch
// and stores nothing.
core::Status PostgresStore::CheckFence() {
  int64_t mine = epoch_.load();
  if (mine == 0) {
    return Unavailable("postgres store " + target_ + ": not the leader (holder " + holder_ +
                       " has no lease); writes go to the leading replica");
  }
  BERTH_ASSIGN_OR_RETURN(PgResult row,
                         writer_->Query("SELECT holder, epoch FROM berth_lease WHERE id = 1"
                                        " FOR SHARE"));
  if (row.Rows() != 1 || row.Int(0, 1) != mine || row.Text(0, 0) != holder_) {
    std::string now_holder = row.Rows() == 1 ? row.Text(0, 0) : std::string("?");
    int64_t now_epoch = row.Rows() == 1 ? row.Int(0, 1) : 0;
    epoch_.compare_exchange_strong(mine, 0);
    return Unavailable("postgres store " + target_ + ": fenced: epoch " + std::to_string(mine) +
                       " of " + holder_ + " was superseded by epoch " + std::to_string(now_epoch) +
                       " of " + now_holder + "; nothing was written");
  }
  return core::OkStatus();
}

// One transaction for the whole group; each request inside its own savepoint so that one
// caller's failure rolls back that caller's batch only. The counters are read inside the
// transaction (FOR UPDATE), so a new leader continues where the previous one stopped.
void PostgresStore::WriteGroup(std::vector<std::unique_ptr<Request>>& group) {
  std::vector<std::optional<core::Result<std::vector<StoredObject>>>> outcomes(group.size());
  int64_t rv = 0;
  int64_t compacted = 0;
  std::optional<core::Error> fatal;
  bool fenced = false;

  if (!writer_->Healthy()) {
    core::Status reset = writer_->Reset();
    if (!reset.ok()) {
      fatal = std::move(reset).error();
    }
  }
  if (!fatal) {
    core::Status begin = [&]() -> core::Status {
      BERTH_RETURN_IF_ERROR(writer_->Exec("BEGIN"));
      core::Status fence = CheckFence();
      if (!fence.ok()) {
        fenced = true;
        return fence;
      }
      BERTH_ASSIGN_OR_RETURN(
          PgResult counters,
          writer_->Query("SELECT name, value FROM berth_meta WHERE name IN ('rv', 'compacted_rv')"
                         " FOR UPDATE"));
      for (int i = 0; i < counters.Rows(); ++i) {
        (counters.Text(i, 0) == "rv" ? rv : compacted) = counters.Int(i, 1);
      }
      return core::OkStatus();
    }();
    if (!begin.ok()) {
      fatal = std::move(begin).error();
    }
  }
  if (!fatal) {
    core::Status savepoint = writer_->Exec("SAVEPOINT request");
    if (!savepoint.ok()) {
      fatal = std::move(savepoint).error();
    }
  }
  // The savepoint "request" is open at the start of each request. After a failure ROLLBACK TO
  // keeps it open for the next; after a success, RELEASE and a new SAVEPOINT go in one round
  // trip (COMMIT releases the last one).
  for (size_t i = 0; i < group.size() && !fatal; ++i) {
    Request& request = *group[i];
    int64_t rv_mark = rv;
    int64_t compacted_mark = compacted;
    core::Result<std::vector<StoredObject>> result =
        request.compact ? [&]() -> core::Result<std::vector<StoredObject>> {
      BERTH_RETURN_IF_ERROR(ApplyCompact(request.compact_options, rv, compacted));
      return std::vector<StoredObject>();
    }()
        : ApplyBatch(request.mutations, rv);
    if (!writer_->Healthy()) {
      fatal = result.has_value() ? Unavailable("postgres: connection lost") : result.error();
      break;
    }
    if (!result.has_value()) {
      rv = rv_mark;
      compacted = compacted_mark;
      core::Status undo = writer_->Exec("ROLLBACK TO SAVEPOINT request");
      if (!undo.ok()) {
        fatal = std::move(undo).error();
        break;
      }
    }
    if (result.has_value() && i + 1 < group.size()) {
      core::Status next = writer_->Exec("RELEASE SAVEPOINT request; SAVEPOINT request");
      if (!next.ok()) {
        fatal = std::move(next).error();
        break;
      }
    }
    outcomes[i] = std::move(result);
  }
  if (!fatal) {
    core::Status done = [&]() -> core::Status {
      BERTH_ASSIGN_OR_RETURN(
          PgResult set, writer_->Query("UPDATE berth_meta SET value = CASE name WHEN 'rv' THEN $1"
                                       " ELSE $2 END WHERE name IN ('rv', 'compacted_rv')",
                                       {rv, compacted}));
      (void)set;
      // COMMIT returns once the WAL is flushed (synchronous_commit=on): the acknowledgement.
      core::Status commit = writer_->Exec("COMMIT");
      if (!commit.ok() && !writer_->Healthy()) {
        // The server may have committed before the connection broke: say so.
        return Unavailable("postgres store " + target_ +
                           ": the connection broke during COMMIT, so whether this write was "
                           "stored is unknown (a retried create finds AlreadyExists if it was): " +
                           commit.error().message());
      }
      return commit;
    }();
    if (!done.ok()) {
      fatal = std::move(done).error();
    }
  }
  if (fatal) {
    if (writer_->Healthy()) {
      (void)writer_->Exec("ROLLBACK");
    }
    for (auto& request : group) {
      core::Error error = *fatal;
      if (fenced || error.code() == core::ErrorCode::kUnavailable) {
        request->done.set_value(std::move(error));
      } else {
        request->done.set_value(core::Internal(
            "store " + target_ + ": transaction failed, nothing written: " + error.ToString()));
      }
    }
    return;
  }
  NoteRv(rv, compacted);
  transactions_.fetch_add(1);
  for (size_t i = 0; i < group.size(); ++i) {
    group[i]->done.set_value(std::move(*outcomes[i]));
  }
}

void PostgresStore::NoteRv(int64_t rv, int64_t compacted) {
  int64_t seen = current_rv_.load();
  while (seen < rv && !current_rv_.compare_exchange_weak(seen, rv)) {
  }
  seen = compacted_rv_.load();
  while (seen < compacted && !compacted_rv_.compare_exchange_weak(seen, compacted)) {
  }
}

core::Result<std::vector<StoredObject>> PostgresStore::ApplyBatch(
    const std::vector<Mutation>& mutations, int64_t& rv) {
  std::vector<StoredObject> results;
  results.reserve(mutations.size());
  for (size_t i = 0; i < mutations.size(); ++i) {
    core::Result<StoredObject> result = ApplyMutation(mutations[i], rv);
    if (!result.has_value()) {
      core::Error error = std::move(result).error();
      if (mutations.size() > 1) {
        return core::Error(error.code(),
                           "mutation " + std::to_string(i + 1) + " of " +
                               std::to_string(mutations.size()) + ": " + error.message(),
                           error.location());
      }
      return error;
    }
    results.push_back(std::move(result).value());
  }
  return results;
}

core::Result<StoredObject> PostgresStore::ApplyMutation(const Mutation& m, int64_t& rv) {
  if (m.key.kind.empty() || m.key.name.empty()) {
    return core::InvalidArgument("an object needs a kind and a name", At(m.key));
  }
  auto located = [&](core::Error error) { return WithObject(std::move(error), m.key); };
  if (m.type == MutationType::kCreate) {
    return ApplyCreate(m, rv);
  }
  auto found = ReadOne(*writer_, m.key);
  if (!found.has_value()) {
    return located(std::move(found).error());
  }
  std::optional<StoredObject> stored = std::move(found).value();
  if (!stored) {
    return core::NotFound("not found", At(m.key));
  }
  if (m.expected_rv != 0 && m.expected_rv != stored->meta.resource_version) {
    return core::Error(kConflict,
                       "the object has been modified: resourceVersion " +
                           std::to_string(m.expected_rv) + " expected, " +
                           std::to_string(stored->meta.resource_version) + " stored",
                       At(m.key));
  }
  StoredObject object = std::move(*stored);
  if (m.type == MutationType::kDelete) {
    if (!m.expected_uid.empty() && m.expected_uid != object.meta.uid) {
      return core::Error(kConflict,
                         "precondition failed: uid " + m.expected_uid + " expected, " +
                             object.meta.uid + " stored",
                         At(m.key));
    }
    auto erased = writer_->Query(
        "DELETE FROM berth_objects WHERE grp = $1 AND kind = $2 AND ns = $3 AND name = $4",
        KeyParams(object.key));
    if (!erased.has_value()) return located(std::move(erased).error());
    object.meta.resource_version = ++rv;
    BERTH_RETURN_IF_ERROR(InsertEvent(EventType::kDeleted, object));
    return object;
  }

  object.meta.resource_version = ++rv;
  if (m.bump_generation) {
    ++object.meta.generation;
  }
  if (m.deletion_unix_s) {
    object.meta.deletion_unix_s = *m.deletion_unix_s;
  }
  object.meta.labels = m.labels;
  object.json = m.json;
  std::string labels = internal::EncodeLabels(object.meta.labels);
  std::vector<PgParam> params = {object.meta.resource_version, object.meta.generation,
                                 object.meta.deletion_unix_s, PgBytes{labels},
                                 PgBytes{object.json}};
  for (PgParam& p : KeyParams(object.key)) params.push_back(p);
  auto updated = writer_->Query(
      "UPDATE berth_objects SET rv = $1, generation = $2, deleted = $3, labels = $4, body = $5"
      " WHERE grp = $6 AND kind = $7 AND ns = $8 AND name = $9",
      params);
  if (!updated.has_value()) return located(std::move(updated).error());
  BERTH_RETURN_IF_ERROR(InsertEvent(EventType::kModified, object));
  return object;
}

// A create is one statement, one round trip: the object row (nothing on a key conflict) and,
// only when it was inserted, its ADDED event.
core::Result<StoredObject> PostgresStore::ApplyCreate(const Mutation& m, int64_t& rv) {
  StoredObject object;
  object.key = m.key;
  object.meta.uid = m.uid.empty() ? NewUid() : m.uid;
  object.meta.resource_version = rv + 1;
  object.meta.generation = 1;
  object.meta.creation_unix_s = options_.now_unix_s();
  object.meta.labels = m.labels;
  object.json = m.json;
  std::string labels = internal::EncodeLabels(object.meta.labels);
  std::vector<PgParam> params = KeyParams(object.key);
  params.insert(params.end(),
                {std::string_view(object.meta.uid), object.meta.resource_version,
                 object.meta.generation, object.meta.creation_unix_s, object.meta.deletion_unix_s,
                 PgBytes{labels}, PgBytes{object.json}, static_cast<int64_t>(EventType::kAdded)});
  auto inserted = writer_->Query(
      "WITH created AS (INSERT INTO berth_objects (grp, kind, ns, name, uid, rv, generation,"
      " created, deleted, labels, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
      " ON CONFLICT DO NOTHING RETURNING 1)"
      " INSERT INTO berth_events (rv, type, grp, kind, ns, name, uid, generation, created,"
      " deleted, labels, body) SELECT $6, $12, $1, $2, $3, $4, $5, $7, $8, $9, $10, $11"
      " FROM created",
      params);
  if (!inserted.has_value()) {
    return WithObject(std::move(inserted).error(), m.key);
  }
  if (inserted->Affected() != 1) {
    return core::Error(core::ErrorCode::kAlreadyExists, "already exists", At(m.key));
  }
  ++rv;
  return object;
}

core::Status PostgresStore::InsertEvent(EventType type, const StoredObject& object) {
  std::string labels = internal::EncodeLabels(object.meta.labels);
  std::vector<PgParam> params = {object.meta.resource_version, static_cast<int64_t>(type)};
  for (PgParam& p : KeyParams(object.key)) params.push_back(p);
  params.insert(params.end(), {std::string_view(object.meta.uid), object.meta.generation,
                               object.meta.creation_unix_s, object.meta.deletion_unix_s,
                               PgBytes{labels}, PgBytes{object.json}});
  auto inserted = writer_->Query(
      "INSERT INTO berth_events (rv, type, grp, kind, ns, name, uid, generation, created,"
      " deleted, labels, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
      params);
  if (!inserted.has_value()) return WithObject(std::move(inserted).error(), object.key);
  return core::OkStatus();
}

core::Status PostgresStore::ApplyCompact(const CompactOptions& options, int64_t rv,
                                         int64_t& compacted) {
  int64_t horizon = compacted;
  if (options.before_rv) {
    horizon = std::max(horizon, std::min(*options.before_rv - 1, rv));
  }
  if (options.keep_last) {
    if (*options.keep_last < 0) {
      return core::InvalidArgument("compaction: keep_last must not be negative");
    }
    // The RV of the newest event to drop, the (keep_last + 1)-th newest: a backward index scan.
    BERTH_ASSIGN_OR_RETURN(
        PgResult nth,
        writer_->Query("SELECT rv FROM berth_events ORDER BY rv DESC LIMIT 1 OFFSET $1",
                       {*options.keep_last}));
    if (nth.Rows() > 0) {
      horizon = std::max(horizon, nth.Int(0, 0));
    }
  }
  BERTH_ASSIGN_OR_RETURN(PgResult erased,
                         writer_->Query("DELETE FROM berth_events WHERE rv <= $1", {horizon}));
  (void)erased;
  compacted = horizon;
  return core::OkStatus();
}

// A random (version 4) UUID, as the API server gives every object.
std::string PostgresStore::NewUid() {
  uint64_t hi = uid_rng_();
  uint64_t lo = uid_rng_();
  hi = (hi & ~uint64_t{0xF000}) | 0x4000;
  lo = (lo & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);
  char text[37];
  std::snprintf(text, sizeof(text), "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xFFFF), static_cast<unsigned>(hi & 0xFFFF),
                static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFULL));
  return text;
}

// ---- reads --------------------------------------------------------------------------------

core::Result<std::unique_ptr<PgConnection>> PostgresStore::AcquireReader() {
  {
    std::lock_guard<std::mutex> lock(readers_mu_);
    if (!idle_readers_.empty()) {
      auto reader = std::move(idle_readers_.back());
      idle_readers_.pop_back();
      return reader;
    }
  }
  return PgConnection::Open(conninfo_);
}

void PostgresStore::ReleaseReader(std::unique_ptr<PgConnection> reader) {
  if (!reader->Healthy()) {
    return;
  }
  std::lock_guard<std::mutex> lock(readers_mu_);
  if (static_cast<int>(idle_readers_.size()) < options_.max_idle_readers) {
    idle_readers_.push_back(std::move(reader));
  }
}

core::Result<StoredObject> PostgresStore::Get(const ObjectKey& key) {
  BERTH_ASSIGN_OR_RETURN(auto db, AcquireReader());
  ReaderLease lease(*this, std::move(db));
  auto found = ReadOne(lease.db(), key);
  if (!found.has_value()) {
    return WithObject(std::move(found).error(), key);
  }
  if (!found.value()) {
    return core::NotFound("not found", At(key));
  }
  return std::move(*found.value());
}

core::Result<ListPage> PostgresStore::List(const ListOptions& options) {
  if (options.kind.empty() || options.limit < 0) {
    return core::InvalidArgument("list needs a kind and a limit >= 0");
  }
  BERTH_ASSIGN_OR_RETURN(auto db, AcquireReader());
  ReaderLease lease(*this, std::move(db));
  PgConnection& conn = lease.db();
  return InSnapshot(conn, [&]() -> core::Result<ListPage> {
    ListPage page;
    BERTH_ASSIGN_OR_RETURN(page.resource_version, internal::PgReadMeta(conn, "rv"));
    NoteRv(page.resource_version, 0);
    // Range scans on the primary key (grp, kind, ns, name): O(log n + page) per page.
    std::vector<PgParam> params = {std::string_view(options.group), std::string_view(options.kind)};
    std::string sql =
        std::string("SELECT ") + kColumns + " FROM berth_objects WHERE grp = $1 AND kind = $2";
    auto next = [&](PgParam p) {
      params.push_back(p);
      return "$" + std::to_string(params.size());
    };
    if (options.ns) {
      sql += " AND ns = " + next(std::string_view(*options.ns));
      if (options.start_after)
        sql += " AND name > " + next(std::string_view(options.start_after->name));
    } else if (options.start_after) {
      std::string ns = next(std::string_view(options.start_after->ns));
      sql += " AND (ns, name) > (" + ns + ", " + next(std::string_view(options.start_after->name)) +
             ")";
    }
    sql += " ORDER BY ns, name";
    if (options.limit > 0) {
      // One row past the page tells whether another page follows.
      sql += " LIMIT " + next(options.limit + 1);
    }
    BERTH_ASSIGN_OR_RETURN(PgResult rows, conn.Query(sql, params));
    for (int r = 0; r < rows.Rows(); ++r) {
      if (options.limit > 0 && static_cast<int64_t>(page.items.size()) == options.limit) {
        const ObjectKey& last = page.items.back().key;
        page.next = ListCursor{last.ns, last.name};
        break;
      }
      page.items.push_back(ReadObject(rows, r, 0));
    }
    return page;
  });
}

core::Result<EventPage> PostgresStore::EventsSince(const WatchOptions& options) {
  if (options.limit < 0 || options.since_rv < 0) {
    return core::InvalidArgument("events since a negative RV or with a negative limit");
  }
  BERTH_ASSIGN_OR_RETURN(auto db, AcquireReader());
  ReaderLease lease(*this, std::move(db));
  PgConnection& conn = lease.db();
  return InSnapshot(conn, [&]() -> core::Result<EventPage> {
    EventPage page;
    BERTH_ASSIGN_OR_RETURN(page.resource_version, internal::PgReadMeta(conn, "rv"));
    BERTH_ASSIGN_OR_RETURN(int64_t compacted, internal::PgReadMeta(conn, "compacted_rv"));
    NoteRv(page.resource_version, compacted);
    if (options.since_rv < compacted) {
      return core::OutOfRange("resourceVersion " + std::to_string(options.since_rv) +
                              " is too old: events up to " + std::to_string(compacted) +
                              " are compacted (Gone)");
    }
    std::vector<PgParam> params = {options.since_rv};
    auto next = [&](PgParam p) {
      params.push_back(p);
      return "$" + std::to_string(params.size());
    };
    std::string sql =
        "SELECT rv, type, grp, kind, ns, name, uid, rv, generation, created,"
        " deleted, labels, body FROM berth_events WHERE rv > $1";
    if (!options.kind.empty()) {
      sql += " AND grp = " + next(std::string_view(options.group));
      sql += " AND kind = " + next(std::string_view(options.kind));
    }
    if (options.ns) sql += " AND ns = " + next(std::string_view(*options.ns));
    sql += " ORDER BY rv";
    if (options.limit > 0) sql += " LIMIT " + next(options.limit);
    BERTH_ASSIGN_OR_RETURN(PgResult rows, conn.Query(sql, params));
    for (int r = 0; r < rows.Rows(); ++r) {
      WatchEvent event;
      event.type = static_cast<EventType>(rows.Int(r, 1));
      event.object = ReadObject(rows, r, 2);
      page.events.push_back(std::move(event));
    }
    return page;
  });
}

int64_t PostgresStore::CurrentResourceVersion() { return current_rv_.load(); }
int64_t PostgresStore::CompactedResourceVersion() { return compacted_rv_.load(); }

}  // namespace berth::store
