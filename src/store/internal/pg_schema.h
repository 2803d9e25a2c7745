// PostgresStore's schema and its migrations: berth_meta(name, value) holds schema_version, the
// last committed resourceVersion (rv) and the compacted horizon (compacted_rv); berth_objects
// and berth_events as in SQLite; berth_lease, one row {holder, epoch, renew_at, expires_at}
// for leader election and fencing (docs/store.md). Private to src/store.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "store/internal/pg_db.h"

namespace berth::store::internal {

inline constexpr int64_t kPgSchemaVersion = 1;  // the newest version this berth knows

// Brings the database to kPgSchemaVersion, one step per transaction, under a transaction-level
// advisory lock so that replicas starting together migrate once. A database of a newer schema
// is refused with kFailedPrecondition naming both versions; nothing is changed then.
core::Status PgMigrate(PgConnection& db, const std::string& target);

// Reads a berth_meta counter (0 when absent).
core::Result<int64_t> PgReadMeta(PgConnection& db, const char* name);

}  // namespace berth::store::internal
