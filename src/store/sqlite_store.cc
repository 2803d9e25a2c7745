#include "store/sqlite_store.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <future>
#include <optional>
#include <utility>

#include "store/internal/clock.h"
#include "store/internal/errors.h"
#include "store/internal/row_codec.h"
#include "store/internal/schema.h"
#include "store/internal/sqlite_db.h"

namespace berth::store {

using internal::At;
using internal::Connection;
using internal::Statement;
using internal::SystemNow;
using internal::Unavailable;
using internal::WithObject;

// A caller's batch (or a compaction) waiting for the writer; the caller blocks on `done`.
struct SqliteStore::Request {
  bool compact = false;
  std::vector<Mutation> mutations;
  CompactOptions compact_options;
  std::promise<core::Result<std::vector<StoredObject>>> done;
};

namespace {

// Makes a directory entry durable: a new database file and its WAL survive power loss only
// once their directory is fsynced (SQLite syncs the directory of a new journal; this also
// covers the database file itself).
core::Status SyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return core::Internal("open directory " + dir + ": " + std::strerror(errno));
  }
  int rc = ::fsync(fd);
  int saved = errno;
  ::close(fd);
  if (rc != 0) {
    return core::Internal("fsync directory " + dir + ": " + std::strerror(saved));
  }
  return core::OkStatus();
}

const char* const kSelectObject =
    "SELECT grp, kind, ns, name, uid, rv, generation, created, deleted, labels, body "
    "FROM objects WHERE grp = ? AND kind = ? AND ns = ? AND name = ?";

void BindKey(Statement& stmt, const ObjectKey& key, int first) {
  stmt.Bind(first, key.group);
  stmt.Bind(first + 1, key.kind);
  stmt.Bind(first + 2, key.ns);
  stmt.Bind(first + 3, key.name);
}

// Reads one object by key on `db`; nullopt when absent.
core::Result<std::optional<StoredObject>> ReadOne(Connection& db, const ObjectKey& key) {
  BERTH_ASSIGN_OR_RETURN(Statement * stmt, db.Prepare(kSelectObject));
  BindKey(*stmt, key, 1);
  BERTH_ASSIGN_OR_RETURN(bool row, stmt->Step());
  if (!row) {
    return std::optional<StoredObject>();
  }
  StoredObject object = internal::ReadObject(*stmt, 0);
  stmt->Reset();
  return std::optional<StoredObject>(std::move(object));
}

}  // namespace

// A read connection borrowed from the pool for one call; returned on destruction.
class SqliteStore::ReaderLease {
 public:
  ReaderLease(SqliteStore& store, std::unique_ptr<Connection> db)
      : store_(store), db_(std::move(db)) {}
  ~ReaderLease() { store_.ReleaseReader(std::move(db_)); }
  ReaderLease(const ReaderLease&) = delete;
  ReaderLease& operator=(const ReaderLease&) = delete;
  Connection& db() { return *db_; }

 private:
  SqliteStore& store_;
  std::unique_ptr<Connection> db_;
};

core::Result<std::unique_ptr<SqliteStore>> SqliteStore::Open(const std::string& dir,
                                                             SqliteStoreOptions options) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return core::Internal("create data directory " + dir + ": " + std::strerror(errno));
  }
  std::string lock_path = dir + "/LOCK";
  int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return core::Internal("open " + lock_path + ": " + std::strerror(errno));
  }
  // flock belongs to this open file description: a second Open, in this process or another,
  // gets EWOULDBLOCK; the kernel releases it when the process dies, even by kill -9.
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int saved = errno;
    ::close(fd);
    if (saved == EWOULDBLOCK) {
      return Unavailable("data directory " + dir + " is in use by another berth hub (" +
                         lock_path + " is locked)");
    }
    return core::Internal("lock " + lock_path + ": " + std::strerror(saved));
  }
  if (!options.now_unix_s) {
    options.now_unix_s = SystemNow;
  }
  std::unique_ptr<SqliteStore> store(new SqliteStore(dir, std::move(options), fd));
  BERTH_RETURN_IF_ERROR(store->Start());
  return store;
}

SqliteStore::SqliteStore(std::string dir, SqliteStoreOptions options, int lock_fd)
    : dir_(std::move(dir)),
      db_path_(dir_ + "/berth.db"),
      options_(std::move(options)),
      lock_fd_(lock_fd),
      uid_rng_(std::random_device{}()) {}

core::Status SqliteStore::Start() {
  BERTH_ASSIGN_OR_RETURN(writer_, Connection::Open(db_path_, true, options_.busy_timeout_ms));
  BERTH_ASSIGN_OR_RETURN(std::string mode, writer_->QueryText("PRAGMA journal_mode=WAL"));
  if (mode != "wal") {
    return core::Internal("database " + db_path_ + " refused WAL mode (journal_mode " + mode + ")");
  }
  // FULL: each commit fsyncs the WAL, so an acknowledged write survives power loss.
  BERTH_RETURN_IF_ERROR(writer_->Exec("PRAGMA synchronous=FULL"));
  BERTH_RETURN_IF_ERROR(internal::Migrate(*writer_, db_path_));
  BERTH_ASSIGN_OR_RETURN(int64_t rv, internal::ReadMeta(*writer_, "rv"));
  BERTH_ASSIGN_OR_RETURN(int64_t compacted, internal::ReadMeta(*writer_, "compacted_rv"));
  // meta.rv is written in every write transaction; the maxima guard against a database whose
  // counter row was edited by hand: the RV must never go back.
  for (const char* sql : {"SELECT COALESCE(MAX(rv), 0) FROM events",
                          "SELECT COALESCE(MAX(rv), 0) FROM objects"}) {
    BERTH_ASSIGN_OR_RETURN(Statement * stmt, writer_->Prepare(sql));
    BERTH_ASSIGN_OR_RETURN(bool row, stmt->Step());
    if (row) {
      rv = std::max(rv, stmt->Int(0));
      stmt->Reset();
    }
  }
  current_rv_.store(rv);
  compacted_rv_.store(compacted);
  BERTH_RETURN_IF_ERROR(SyncDirectory(dir_));
  writer_thread_ = std::thread([this] { WriterLoop(); });
  return core::OkStatus();
}

SqliteStore::~SqliteStore() {
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    stopping_ = true;
  }
  queue_cv_.notify_all();
  if (writer_thread_.joinable()) {
    writer_thread_.join();
  }
  idle_readers_.clear();
  writer_.reset();  // the last connection to close checkpoints the WAL
  ::close(lock_fd_);  // releases the flock
}

// ---- writes -------------------------------------------------------------------------------

core::Result<std::vector<StoredObject>> SqliteStore::Commit(std::vector<Mutation> mutations) {
  if (mutations.empty()) {
    return std::vector<StoredObject>();
  }
  auto request = std::make_unique<Request>();
  request->mutations = std::move(mutations);
  return Enqueue(std::move(request));
}

core::Status SqliteStore::Compact(const CompactOptions& options) {
  auto request = std::make_unique<Request>();
  request->compact = true;
  request->compact_options = options;
  auto result = Enqueue(std::move(request));
  if (!result.has_value()) {
    return std::move(result).error();
  }
  return core::OkStatus();
}

core::Result<std::vector<StoredObject>> SqliteStore::Enqueue(std::unique_ptr<Request> request) {
  auto future = request->done.get_future();
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    if (stopping_) {
      return Unavailable("store " + dir_ + " is closing");
    }
    queued_mutations_ += static_cast<int64_t>(request->mutations.size()) + 1;
    queue_.push_back(std::move(request));
  }
  queue_cv_.notify_one();
  return future.get();
}

void SqliteStore::WriterLoop() {
  for (;;) {
    std::vector<std::unique_ptr<Request>> group;
    {
      std::unique_lock<std::mutex> lock(queue_mu_);
      queue_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) {
        return;  // stopping, and every queued request has been answered
      }
      if (options_.group_window_us > 0 && !stopping_) {
        auto deadline =
            std::chrono::steady_clock::now() + std::chrono::microseconds(options_.group_window_us);
        queue_cv_.wait_until(lock, deadline, [&] {
          return stopping_ || queued_mutations_ >= options_.max_batch_mutations;
        });
      }
      // At least one request; then whole requests while the group stays under the cap.
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

// One transaction for the whole group; each request inside its own savepoint so that one
// caller's failure (Conflict, AlreadyExists) rolls back that caller's batch only. RVs are
// handed out in queue order, so they increase in commit order across callers; a rolled-back
// batch gives its RVs back, keeping the sequence dense.
void SqliteStore::WriteGroup(std::vector<std::unique_ptr<Request>>& group) {
  std::vector<std::optional<core::Result<std::vector<StoredObject>>>> outcomes(group.size());
  int64_t rv = current_rv_.load();
  int64_t compacted = compacted_rv_.load();
  std::optional<core::Error> fatal;  // the transaction itself failed: everyone gets it

  core::Status begin = writer_->Exec("BEGIN IMMEDIATE");
  if (!begin.ok()) {
    fatal = std::move(begin).error();
  }
  for (size_t i = 0; i < group.size() && !fatal; ++i) {
    Request& request = *group[i];
    core::Status savepoint = writer_->Exec("SAVEPOINT request");
    if (!savepoint.ok()) {
      fatal = std::move(savepoint).error();
      break;
    }
    int64_t rv_mark = rv;
    int64_t compacted_mark = compacted;
    core::Result<std::vector<StoredObject>> result =
        request.compact ? [&]() -> core::Result<std::vector<StoredObject>> {
          BERTH_RETURN_IF_ERROR(ApplyCompact(request.compact_options, rv, compacted));
          return std::vector<StoredObject>();
        }()
                        : ApplyBatch(request.mutations, rv);
    if (sqlite3_get_autocommit(writer_->raw()) != 0) {
      // SQLite rolled the whole transaction back itself (I/O error, disk full).
      fatal = result.has_value() ? core::Internal("transaction rolled back by SQLite")
                                 : result.error();
      break;
    }
    if (!result.has_value()) {
      rv = rv_mark;
      compacted = compacted_mark;
      core::Status undo = writer_->Exec("ROLLBACK TO request");
      if (!undo.ok()) {
        fatal = std::move(undo).error();
        break;
      }
    }
    core::Status release = writer_->Exec("RELEASE request");
    if (!release.ok()) {
      fatal = std::move(release).error();
      break;
    }
    outcomes[i] = std::move(result);
  }
  if (!fatal) {
    core::Status counters = [&]() -> core::Status {
      BERTH_ASSIGN_OR_RETURN(Statement * stmt,
                             writer_->Prepare("UPDATE meta SET value = ? WHERE name = ?"));
      stmt->Bind(1, rv);
      stmt->Bind(2, std::string_view("rv"));
      BERTH_RETURN_IF_ERROR(stmt->Run());
      stmt->Bind(1, compacted);
      stmt->Bind(2, std::string_view("compacted_rv"));
      BERTH_RETURN_IF_ERROR(stmt->Run());
      // COMMIT returns once the WAL is fsynced (synchronous=FULL): the acknowledgement point.
      return writer_->Exec("COMMIT");
    }();
    if (!counters.ok()) {
      fatal = std::move(counters).error();
    }
  }
  if (fatal) {
    if (sqlite3_get_autocommit(writer_->raw()) == 0) {
      (void)writer_->Exec("ROLLBACK");
    }
    for (auto& request : group) {
      core::Error error = *fatal;
      request->done.set_value(core::Internal("store " + db_path_ +
                                             ": transaction failed, nothing written: " +
                                             error.ToString()));
    }
    return;
  }
  current_rv_.store(rv);
  compacted_rv_.store(compacted);
  transactions_.fetch_add(1);
  for (size_t i = 0; i < group.size(); ++i) {
    group[i]->done.set_value(std::move(*outcomes[i]));
  }
}

core::Result<std::vector<StoredObject>> SqliteStore::ApplyBatch(
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

core::Result<StoredObject> SqliteStore::ApplyMutation(const Mutation& m, int64_t& rv) {
  if (m.key.kind.empty() || m.key.name.empty()) {
    return core::InvalidArgument("an object needs a kind and a name", At(m.key));
  }
  BERTH_ASSIGN_OR_RETURN(std::optional<StoredObject> stored, ReadOne(*writer_, m.key));
  if (m.type == MutationType::kCreate) {
    if (stored) {
      return core::Error(core::ErrorCode::kAlreadyExists, "already exists", At(m.key));
    }
    StoredObject object;
    object.key = m.key;
    object.meta.uid = m.uid.empty() ? NewUid() : m.uid;
    object.meta.resource_version = ++rv;
    object.meta.generation = 1;
    object.meta.creation_unix_s = options_.now_unix_s();
    object.meta.labels = m.labels;
    object.json = m.json;
    BERTH_ASSIGN_OR_RETURN(
        Statement * insert,
        writer_->Prepare("INSERT INTO objects (grp, kind, ns, name, uid, rv, generation, created,"
                         " deleted, labels, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    BindKey(*insert, object.key, 1);
    insert->Bind(5, object.meta.uid);
    insert->Bind(6, object.meta.resource_version);
    insert->Bind(7, object.meta.generation);
    insert->Bind(8, object.meta.creation_unix_s);
    insert->Bind(9, object.meta.deletion_unix_s);
    insert->Bind(10, internal::EncodeLabels(object.meta.labels));
    insert->Bind(11, object.json);
    BERTH_RETURN_IF_ERROR(insert->Run());
    BERTH_RETURN_IF_ERROR(InsertEvent(EventType::kAdded, object));
    return object;
  }

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
    BERTH_ASSIGN_OR_RETURN(
        Statement * erase,
        writer_->Prepare("DELETE FROM objects WHERE grp = ? AND kind = ? AND ns = ? AND name = ?"));
    BindKey(*erase, object.key, 1);
    BERTH_RETURN_IF_ERROR(erase->Run());
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
  BERTH_ASSIGN_OR_RETURN(
      Statement * update,
      writer_->Prepare("UPDATE objects SET rv = ?, generation = ?, deleted = ?, labels = ?,"
                       " body = ? WHERE grp = ? AND kind = ? AND ns = ? AND name = ?"));
  update->Bind(1, object.meta.resource_version);
  update->Bind(2, object.meta.generation);
  update->Bind(3, object.meta.deletion_unix_s);
  update->Bind(4, internal::EncodeLabels(object.meta.labels));
  update->Bind(5, object.json);
  BindKey(*update, object.key, 6);
  BERTH_RETURN_IF_ERROR(update->Run());
  BERTH_RETURN_IF_ERROR(InsertEvent(EventType::kModified, object));
  return object;
}

core::Status SqliteStore::InsertEvent(EventType type, const StoredObject& object) {
  BERTH_ASSIGN_OR_RETURN(
      Statement * insert,
      writer_->Prepare("INSERT INTO events (rv, type, grp, kind, ns, name, uid, generation,"
                       " created, deleted, labels, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  insert->Bind(1, object.meta.resource_version);
  insert->Bind(2, static_cast<int64_t>(type));
  BindKey(*insert, object.key, 3);
  insert->Bind(7, object.meta.uid);
  insert->Bind(8, object.meta.generation);
  insert->Bind(9, object.meta.creation_unix_s);
  insert->Bind(10, object.meta.deletion_unix_s);
  insert->Bind(11, internal::EncodeLabels(object.meta.labels));
  insert->Bind(12, object.json);
  return insert->Run();
}

core::Status SqliteStore::ApplyCompact(const CompactOptions& options, int64_t rv,
                                       int64_t& compacted) {
  int64_t horizon = compacted;
  if (options.before_rv) {
    horizon = std::max(horizon, std::min(*options.before_rv - 1, rv));
  }
  if (options.keep_last) {
    if (*options.keep_last < 0) {
      return core::InvalidArgument("compaction: keep_last must not be negative");
    }
    // The RV of the newest event to drop: the (keep_last + 1)-th newest.
    BERTH_ASSIGN_OR_RETURN(
        Statement * nth, writer_->Prepare("SELECT rv FROM events ORDER BY rv DESC LIMIT 1 OFFSET ?"));
    nth->Bind(1, *options.keep_last);
    BERTH_ASSIGN_OR_RETURN(bool row, nth->Step());
    if (row) {
      horizon = std::max(horizon, nth->Int(0));
      nth->Reset();
    }
  }
  BERTH_ASSIGN_OR_RETURN(Statement * erase, writer_->Prepare("DELETE FROM events WHERE rv <= ?"));
  erase->Bind(1, horizon);
  BERTH_RETURN_IF_ERROR(erase->Run());
  compacted = horizon;
  return core::OkStatus();
}

// A random (version 4) UUID, as the API server gives every object.
std::string SqliteStore::NewUid() {
  uint64_t hi = uid_rng_();
  uint64_t lo = uid_rng_();
  hi = (hi & ~uint64_t{0xF000}) | 0x4000;                          // version 4
  lo = (lo & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);     // variant 10
  char text[37];
  std::snprintf(text, sizeof(text), "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(hi >> 32), static_cast<unsigned>((hi >> 16) & 0xFFFF),
                static_cast<unsigned>(hi & 0xFFFF), static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFULL));
  return text;
}

// ---- reads --------------------------------------------------------------------------------

core::Result<std::unique_ptr<Connection>> SqliteStore::AcquireReader() {
  {
    std::lock_guard<std::mutex> lock(readers_mu_);
    if (!idle_readers_.empty()) {
      auto reader = std::move(idle_readers_.back());
      idle_readers_.pop_back();
      return reader;
    }
  }
  BERTH_ASSIGN_OR_RETURN(auto reader, Connection::Open(db_path_, false, options_.busy_timeout_ms));
  BERTH_RETURN_IF_ERROR(reader->Exec("PRAGMA query_only=1"));
  return reader;
}

void SqliteStore::ReleaseReader(std::unique_ptr<Connection> reader) {
  std::lock_guard<std::mutex> lock(readers_mu_);
  if (static_cast<int>(idle_readers_.size()) < options_.max_idle_readers) {
    idle_readers_.push_back(std::move(reader));
  }
}

core::Result<StoredObject> SqliteStore::Get(const ObjectKey& key) {
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

namespace {

// Runs `body` inside one read transaction, so everything it reads is one WAL snapshot.
template <typename Body>
auto InSnapshot(Connection& db, Body body) -> decltype(body()) {
  BERTH_RETURN_IF_ERROR(db.Exec("BEGIN"));
  auto result = body();
  (void)db.Exec(result.has_value() ? "COMMIT" : "ROLLBACK");
  return result;
}

}  // namespace

core::Result<ListPage> SqliteStore::List(const ListOptions& options) {
  if (options.kind.empty() || options.limit < 0) {
    return core::InvalidArgument("list needs a kind and a limit >= 0");
  }
  BERTH_ASSIGN_OR_RETURN(auto db, AcquireReader());
  ReaderLease lease(*this, std::move(db));
  Connection& conn = lease.db();
  return InSnapshot(conn, [&]() -> core::Result<ListPage> {
    ListPage page;
    BERTH_ASSIGN_OR_RETURN(page.resource_version, internal::ReadMeta(conn, "rv"));
    // Key-ordered range scans on the primary key: O(log n + page) per page. Row values keep
    // the (ns, name) > cursor condition on the index in SQLite and PostgreSQL alike.
    std::string sql = std::string("SELECT ") + internal::kObjectColumns +
                      " FROM objects WHERE grp = ?1 AND kind = ?2";
    if (options.ns) {
      sql += " AND ns = ?3";
      if (options.start_after) sql += " AND name > ?5";
    } else if (options.start_after) {
      sql += " AND (ns, name) > (?4, ?5)";
    }
    sql += " ORDER BY ns, name LIMIT ?6";
    BERTH_ASSIGN_OR_RETURN(Statement * stmt, conn.Prepare(sql));
    stmt->Bind(1, options.group);
    stmt->Bind(2, options.kind);
    if (options.ns) stmt->Bind(3, *options.ns);
    if (options.start_after) {
      stmt->Bind(4, options.start_after->ns);
      stmt->Bind(5, options.start_after->name);
    }
    // One row past the page tells whether another page follows.
    stmt->Bind(6, options.limit > 0 ? options.limit + 1 : int64_t{-1});
    for (;;) {
      BERTH_ASSIGN_OR_RETURN(bool row, stmt->Step());
      if (!row) break;
      if (options.limit > 0 && static_cast<int64_t>(page.items.size()) == options.limit) {
        const ObjectKey& last = page.items.back().key;
        page.next = ListCursor{last.ns, last.name};
        stmt->Reset();
        break;
      }
      page.items.push_back(internal::ReadObject(*stmt, 0));
    }
    return page;
  });
}

core::Result<EventPage> SqliteStore::EventsSince(const WatchOptions& options) {
  if (options.limit < 0 || options.since_rv < 0) {
    return core::InvalidArgument("events since a negative RV or with a negative limit");
  }
  BERTH_ASSIGN_OR_RETURN(auto db, AcquireReader());
  ReaderLease lease(*this, std::move(db));
  Connection& conn = lease.db();
  return InSnapshot(conn, [&]() -> core::Result<EventPage> {
    EventPage page;
    BERTH_ASSIGN_OR_RETURN(page.resource_version, internal::ReadMeta(conn, "rv"));
    BERTH_ASSIGN_OR_RETURN(int64_t compacted, internal::ReadMeta(conn, "compacted_rv"));
    if (options.since_rv < compacted) {
      return core::OutOfRange("resourceVersion " + std::to_string(options.since_rv) +
                              " is too old: events up to " + std::to_string(compacted) +
                              " are compacted (Gone)");
    }
    std::string sql = std::string("SELECT rv, type, grp, kind, ns, name, uid, rv, generation,"
                                  " created, deleted, labels, body FROM events WHERE rv > ?1");
    if (!options.kind.empty()) sql += " AND grp = ?2 AND kind = ?3";
    if (options.ns) sql += " AND ns = ?4";
    sql += " ORDER BY rv LIMIT ?5";
    BERTH_ASSIGN_OR_RETURN(Statement * stmt, conn.Prepare(sql));
    stmt->Bind(1, options.since_rv);
    if (!options.kind.empty()) {
      stmt->Bind(2, options.group);
      stmt->Bind(3, options.kind);
    }
    if (options.ns) stmt->Bind(4, *options.ns);
    stmt->Bind(5, options.limit > 0 ? options.limit : int64_t{-1});
    for (;;) {
      BERTH_ASSIGN_OR_RETURN(bool row, stmt->Step());
      if (!row) break;
      WatchEvent event;
      event.type = static_cast<EventType>(stmt->Int(1));
      event.object = internal::ReadObject(*stmt, 2);
      page.events.push_back(std::move(event));
    }
    return page;
  });
}

int64_t SqliteStore::CurrentResourceVersion() { return current_rv_.load(); }
int64_t SqliteStore::CompactedResourceVersion() { return compacted_rv_.load(); }

}  // namespace berth::store
