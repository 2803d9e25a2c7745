// The store's SQLite schema and its migrations: meta(name, value) holds schema_version, the
// last committed resourceVersion (rv) and the compacted horizon (compacted_rv); objects and
// events as docs/store.md describes. Private to src/store; run by SqliteStore::Open.
#pragma once

#include <cstdint>

#include "core/result.h"
#include "store/internal/sqlite_db.h"

namespace berth::store::internal {

inline constexpr int64_t kSchemaVersion = 1;  // the newest version this berth knows

// Brings the database to kSchemaVersion, one step per transaction. A database written by a
// newer berth (schema_version > kSchemaVersion) is refused with kFailedPrecondition naming both
// versions; nothing is changed then.
core::Status Migrate(Connection& db, const std::string& path);

// Reads a meta counter (0 when absent).
core::Result<int64_t> ReadMeta(Connection& db, const char* name);

}  // namespace berth::store::internal
