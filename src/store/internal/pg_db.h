// A thin RAII layer over libpq for PostgresStore: a connection that prepares each distinct SQL
// text once (named server-side statements) and runs it with binary parameters and binary
// results, and a result whose errors come back as core::Status. Private to src/store. A
// PgConnection is used by one thread at a time (the caller serializes).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "core/result.h"

struct pg_conn;
struct pg_result;

namespace berth::store::internal {

// A query parameter: BIGINT, TEXT (valid UTF-8) or BYTEA (any bytes).
struct PgBytes {
  std::string_view bytes;
};
using PgParam = std::variant<int64_t, std::string_view, PgBytes>;

class PgResult {
 public:
  PgResult() = default;
  explicit PgResult(pg_result* result) : result_(result) {}
  ~PgResult();
  PgResult(PgResult&& other) noexcept : result_(other.result_) { other.result_ = nullptr; }
  PgResult& operator=(PgResult&& other) noexcept;
  PgResult(const PgResult&) = delete;
  PgResult& operator=(const PgResult&) = delete;

  int Rows() const;
  int64_t Affected() const;  // rows an INSERT/UPDATE/DELETE changed
  // Binary-format columns, 0-based: BIGINT (also INTEGER, BOOLEAN), TEXT or BYTEA.
  int64_t Int(int row, int column) const;
  std::string Text(int row, int column) const;
  bool IsNull(int row, int column) const;

 private:
  pg_result* result_ = nullptr;
};

class PgConnection {
 public:
  // Connects with a libpq connection string (URI or key=value). kUnavailable when the server
  // cannot be reached, naming the target and libpq's message.
  static core::Result<std::unique_ptr<PgConnection>> Open(const std::string& conninfo);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Runs SQL without parameters (several statements allowed), discarding rows.
  core::Status Exec(const std::string& sql);
  // Runs `sql` ($1, $2 ... placeholders) with `params`, prepared once per connection.
  core::Result<PgResult> Query(const std::string& sql, const std::vector<PgParam>& params = {});

  // False once the connection to the server is lost; Reset reconnects.
  bool Healthy() const;
  core::Status Reset();
  // The SQLSTATE of the last failed command ("" when none), e.g. "40001".
  const std::string& LastSqlState() const { return last_sqlstate_; }

 private:
  explicit PgConnection(pg_conn* conn) : conn_(conn) {}
  core::Error Failure(pg_result* result, std::string_view what);

  pg_conn* conn_;
  std::unordered_map<std::string, std::string> prepared_;  // SQL -> statement name
  std::string last_sqlstate_;
};

}  // namespace berth::store::internal
