#include "store/internal/pg_db.h"

#include <libpq-fe.h>

#include <cstring>
#include <utility>

namespace berth::store::internal {

namespace {

// PostgreSQL type OIDs (pg_type.dat) of the parameters we send.
constexpr Oid kInt8Oid = 20;
constexpr Oid kTextOid = 25;
constexpr Oid kByteaOid = 17;

uint64_t FromBigEndian(const char* p, int length) {
  uint64_t value = 0;
  for (int i = 0; i < length; ++i) {
    value = (value << 8) | static_cast<unsigned char>(p[i]);
  }
  return value;
}

}  // namespace

PgResult::~PgResult() {
  if (result_ != nullptr) {
    PQclear(result_);
  }
}

PgResult& PgResult::operator=(PgResult&& other) noexcept {
  if (this != &other) {
    if (result_ != nullptr) {
      PQclear(result_);
    }
    result_ = other.result_;
    other.result_ = nullptr;
  }
  return *this;
}

int PgResult::Rows() const { return result_ != nullptr ? PQntuples(result_) : 0; }

int64_t PgResult::Affected() const {
  const char* text = result_ != nullptr ? PQcmdTuples(result_) : "";
  return text[0] != '\0' ? std::strtoll(text, nullptr, 10) : 0;
}

int64_t PgResult::Int(int row, int column) const {
  if (PQgetisnull(result_, row, column)) {
    return 0;
  }
  int length = PQgetlength(result_, row, column);
  uint64_t raw = FromBigEndian(PQgetvalue(result_, row, column), length);
  // Sign-extend INTEGER (4 bytes) and BOOLEAN (1 byte) columns.
  if (length < 8) {
    uint64_t sign = uint64_t{1} << (length * 8 - 1);
    raw = (raw ^ sign) - sign;
  }
  return static_cast<int64_t>(raw);
}

std::string PgResult::Text(int row, int column) const {
  return std::string(PQgetvalue(result_, row, column),
                     static_cast<size_t>(PQgetlength(result_, row, column)));
}

bool PgResult::IsNull(int row, int column) const { return PQgetisnull(result_, row, column) != 0; }

core::Result<std::unique_ptr<PgConnection>> PgConnection::Open(const std::string& conninfo) {
  pg_conn* conn = PQconnectdb(conninfo.c_str());
  if (conn == nullptr) {
    return core::Error(core::ErrorCode::kUnavailable, "postgres: out of memory connecting");
  }
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = PQerrorMessage(conn);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    PQfinish(conn);
    return core::Error(core::ErrorCode::kUnavailable, "postgres: cannot connect (" + message + ")");
  }
  std::unique_ptr<PgConnection> connection(new PgConnection(conn));
  // Quiet NOTICEs (e.g. "relation already exists, skipping") that libpq would print to stderr.
  BERTH_RETURN_IF_ERROR(connection->Exec("SET client_min_messages = warning"));
  return connection;
}

PgConnection::~PgConnection() { PQfinish(conn_); }

bool PgConnection::Healthy() const { return PQstatus(conn_) == CONNECTION_OK; }

core::Status PgConnection::Reset() {
  PQreset(conn_);
  prepared_.clear();  // server-side statements die with the session
  if (!Healthy()) {
    return core::Error(core::ErrorCode::kUnavailable,
                       std::string("postgres: reconnect failed (") + PQerrorMessage(conn_) + ")");
  }
  return Exec("SET client_min_messages = warning");
}

core::Error PgConnection::Failure(pg_result* result, std::string_view what) {
  const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  last_sqlstate_ = state != nullptr ? state : "";
  std::string message = result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
  while (!message.empty() && message.back() == '\n') message.pop_back();
  if (result != nullptr) {
    PQclear(result);
  }
  std::string text = std::string("postgres: ") + std::string(what) + ": " + message;
  if (!last_sqlstate_.empty()) {
    text += " (SQLSTATE " + last_sqlstate_ + ")";
  }
  // A lost connection is the server being unreachable, not a broken database.
  return core::Error(Healthy() ? core::ErrorCode::kInternal : core::ErrorCode::kUnavailable,
                     std::move(text));
}

core::Status PgConnection::Exec(const std::string& sql) {
  pg_result* result = PQexec(conn_, sql.c_str());
  ExecStatusType status = result != nullptr ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    return Failure(result, sql.substr(0, 60));
  }
  PQclear(result);
  last_sqlstate_.clear();
  return core::OkStatus();
}

core::Result<PgResult> PgConnection::Query(const std::string& sql,
                                           const std::vector<PgParam>& params) {
  const int n = static_cast<int>(params.size());
  std::vector<Oid> types(params.size());
  std::vector<const char*> values(params.size());
  std::vector<int> lengths(params.size());
  std::vector<int> formats(params.size(), 1);
  std::vector<char> ints(params.size() * 8);
  for (int i = 0; i < n; ++i) {
    const PgParam& param = params[static_cast<size_t>(i)];
    if (const int64_t* v = std::get_if<int64_t>(&param)) {
      char* out = &ints[static_cast<size_t>(i) * 8];
      auto u = static_cast<uint64_t>(*v);
      for (int b = 7; b >= 0; --b) {
        out[b] = static_cast<char>(u & 0xFF);
        u >>= 8;
      }
      types[static_cast<size_t>(i)] = kInt8Oid;
      values[static_cast<size_t>(i)] = out;
      lengths[static_cast<size_t>(i)] = 8;
    } else if (const std::string_view* s = std::get_if<std::string_view>(&param)) {
      types[static_cast<size_t>(i)] = kTextOid;
      values[static_cast<size_t>(i)] = s->data() != nullptr ? s->data() : "";
      lengths[static_cast<size_t>(i)] = static_cast<int>(s->size());
    } else {
      const PgBytes& b = std::get<PgBytes>(param);
      types[static_cast<size_t>(i)] = kByteaOid;
      values[static_cast<size_t>(i)] = b.bytes.data() != nullptr ? b.bytes.data() : "";
      lengths[static_cast<size_t>(i)] = static_cast<int>(b.bytes.size());
    }
  }
  auto it = prepared_.find(sql);
  if (it == prepared_.end()) {
    std::string name = "s" + std::to_string(prepared_.size());
    pg_result* prepared = PQprepare(conn_, name.c_str(), sql.c_str(), n, types.data());
    if (prepared == nullptr || PQresultStatus(prepared) != PGRES_COMMAND_OK) {
      return Failure(prepared, "prepare " + sql.substr(0, 60));
    }
    PQclear(prepared);
    it = prepared_.emplace(sql, std::move(name)).first;
  }
  pg_result* result = PQexecPrepared(conn_, it->second.c_str(), n, values.data(), lengths.data(),
                                     formats.data(), /*resultFormat=*/1);
  ExecStatusType status = result != nullptr ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    return Failure(result, sql.substr(0, 60));
  }
  last_sqlstate_.clear();
  return PgResult(result);
}

}  // namespace berth::store::internal
