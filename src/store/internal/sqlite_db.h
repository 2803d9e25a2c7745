// A thin RAII layer over the SQLite C API for the store's implementation: a connection with a
// cache of prepared statements, and statements whose errors come back as core::Status.
// Private to src/store. A Connection is used by one thread at a time (the caller serializes).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace berth::store::internal {

class Statement {
 public:
  explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are 1-based as in SQLite. Text is copied (SQLITE_TRANSIENT).
  void Bind(int index, int64_t value);
  void Bind(int index, std::string_view value);
  // true when a row is ready, false when done; an error otherwise. Resets itself on done/error.
  core::Result<bool> Step();
  // Runs to completion, expecting no rows (INSERT/UPDATE/DELETE).
  core::Status Run();
  void Reset();  // ready to bind and step again

  int64_t Int(int column) const;  // 0-based as in SQLite
  std::string Text(int column) const;

 private:
  sqlite3_stmt* stmt_;
};

class Connection {
 public:
  // Opens (creating if asked) the database at `path` without SQLite's own mutex: the caller
  // serializes use. Sets busy_timeout.
  static core::Result<std::unique_ptr<Connection>> Open(const std::string& path, bool create,
                                                        int busy_timeout_ms);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  core::Status Exec(const std::string& sql);
  // The cached statement for `sql`, reset and unbound. The reference lives as long as the
  // connection.
  core::Result<Statement*> Prepare(const std::string& sql);
  // The first column of the first row of `sql` as text ("" when no row), e.g. for PRAGMAs.
  core::Result<std::string> QueryText(const std::string& sql);

  sqlite3* raw() { return db_; }

 private:
  explicit Connection(sqlite3* db) : db_(db) {}
  sqlite3* db_;
  std::unordered_map<std::string, std::unique_ptr<Statement>> statements_;
};

// "what: sqlite message (code)" as an Internal error.
core::Error SqliteError(sqlite3* db, int rc, std::string_view what);

}  // namespace berth::store::internal
