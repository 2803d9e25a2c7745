#include "store/internal/sqlite_db.h"

#include <sqlite3.h>

#include <utility>

namespace berth::store::internal {

core::Error SqliteError(sqlite3* db, int rc, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  message += " (sqlite code " + std::to_string(rc) + ")";
  // SQLITE_BUSY past busy_timeout is the outside world being busy, not a store bug.
  if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) {
    return core::Error(core::ErrorCode::kUnavailable, std::move(message));
  }
  return core::Internal(std::move(message));
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

void Statement::Bind(int index, int64_t value) { sqlite3_bind_int64(stmt_, index, value); }

void Statement::Bind(int index, std::string_view value) {
  sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

core::Result<bool> Statement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) {
    return true;
  }
  sqlite3* db = sqlite3_db_handle(stmt_);
  sqlite3_reset(stmt_);
  if (rc == SQLITE_DONE) {
    return false;
  }
  return SqliteError(db, rc, std::string("step \"") + sqlite3_sql(stmt_) + "\"");
}

core::Status Statement::Run() {
  BERTH_ASSIGN_OR_RETURN(bool row, Step());
  if (row) {
    Reset();
  }
  return core::OkStatus();
}

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int64_t Statement::Int(int column) const { return sqlite3_column_int64(stmt_, column); }

std::string Statement::Text(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  int size = sqlite3_column_bytes(stmt_, column);
  return text == nullptr ? std::string() : std::string(text, static_cast<size_t>(size));
}

core::Result<std::unique_ptr<Connection>> Connection::Open(const std::string& path, bool create,
                                                           int busy_timeout_ms) {
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    core::Error error = SqliteError(db, rc, "open " + path);
    sqlite3_close(db);
    return error;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, busy_timeout_ms);
  return std::unique_ptr<Connection>(new Connection(db));
}

Connection::~Connection() {
  statements_.clear();  // finalize before close, or close fails with SQLITE_BUSY
  sqlite3_close(db_);
}

core::Status Connection::Exec(const std::string& sql) {
  char* message = nullptr;
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    std::string what = "exec \"" + sql + "\"";
    sqlite3_free(message);
    return SqliteError(db_, rc, what);
  }
  return core::OkStatus();
}

core::Result<Statement*> Connection::Prepare(const std::string& sql) {
  auto it = statements_.find(sql);
  if (it != statements_.end()) {
    it->second->Reset();
    return it->second.get();
  }
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size() + 1),
                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    return SqliteError(db_, rc, "prepare \"" + sql + "\"");
  }
  auto pos = statements_.emplace(sql, std::make_unique<Statement>(stmt)).first;
  return pos->second.get();
}

core::Result<std::string> Connection::QueryText(const std::string& sql) {
  BERTH_ASSIGN_OR_RETURN(Statement * stmt, Prepare(sql));
  BERTH_ASSIGN_OR_RETURN(bool row, stmt->Step());
  if (!row) {
    return std::string();
  }
  std::string text = stmt->Text(0);
  stmt->Reset();
  return text;
}

}  // namespace berth::store::internal
