#include "store/internal/pg_schema.h"

#include <vector>

namespace berth::store::internal {

namespace {

// Key for pg_advisory_xact_lock: migrations of one database run one at a time.
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(7463521093)";

// kSteps[i] takes the schema from version i to i + 1. Append, never edit a shipped step.
// Key columns are COLLATE "C" so that list order (and so paging) is byte order whatever the
// database's locale, as in SQLite. Bodies and labels are BYTEA: any bytes round-trip.
const std::vector<std::vector<const char*>>& PostgresSteps() {
  static const std::vector<std::vector<const char*>> kSteps = {
      {
          // v0 -> v1
          "CREATE TABLE berth_objects ("
          " grp TEXT COLLATE \"C\" NOT NULL, kind TEXT COLLATE \"C\" NOT NULL,"
          " ns TEXT COLLATE \"C\" NOT NULL, name TEXT COLLATE \"C\" NOT NULL,"
          " uid TEXT NOT NULL, rv BIGINT NOT NULL, generation BIGINT NOT NULL,"
          " created BIGINT NOT NULL, deleted BIGINT NOT NULL,"
          " labels BYTEA NOT NULL, body BYTEA NOT NULL,"
          " PRIMARY KEY (grp, kind, ns, name))",
          "CREATE INDEX berth_objects_rv ON berth_objects (rv)",
          "CREATE TABLE berth_events ("
          " rv BIGINT PRIMARY KEY, type BIGINT NOT NULL,"
          " grp TEXT COLLATE \"C\" NOT NULL, kind TEXT COLLATE \"C\" NOT NULL,"
          " ns TEXT COLLATE \"C\" NOT NULL, name TEXT COLLATE \"C\" NOT NULL,"
          " uid TEXT NOT NULL, generation BIGINT NOT NULL,"
          " created BIGINT NOT NULL, deleted BIGINT NOT NULL,"
          " labels BYTEA NOT NULL, body BYTEA NOT NULL)",
          "CREATE TABLE berth_lease ("
          " id BIGINT PRIMARY KEY CHECK (id = 1), holder TEXT NOT NULL, epoch BIGINT NOT NULL,"
          " renew_at TIMESTAMPTZ NOT NULL, expires_at TIMESTAMPTZ NOT NULL)",
          "INSERT INTO berth_lease VALUES (1, '', 0, 'epoch', 'epoch')",
          "INSERT INTO berth_meta (name, value) VALUES ('rv', 0), ('compacted_rv', 0)",
      },
  };
  return kSteps;
}

}  // namespace

core::Result<int64_t> PgReadMeta(PgConnection& db, const char* name) {
  BERTH_ASSIGN_OR_RETURN(PgResult rows, db.Query("SELECT value FROM berth_meta WHERE name = $1",
                                                 {std::string_view(name)}));
  return rows.Rows() > 0 ? rows.Int(0, 0) : int64_t{0};
}

core::Status PgMigrate(PgConnection& db, const std::string& target) {
  static_assert(kPgSchemaVersion >= 1);
  BERTH_CHECK(PostgresSteps().size() == static_cast<size_t>(kPgSchemaVersion),
              "one migration step per schema version");
  for (;;) {
    BERTH_RETURN_IF_ERROR(db.Exec("BEGIN"));
    core::Status status = [&]() -> core::Status {
      BERTH_RETURN_IF_ERROR(db.Exec(kMigrationLock));
      BERTH_RETURN_IF_ERROR(db.Exec(
          "CREATE TABLE IF NOT EXISTS berth_meta (name TEXT PRIMARY KEY, value BIGINT NOT NULL)"));
      BERTH_ASSIGN_OR_RETURN(int64_t version, PgReadMeta(db, "schema_version"));
      if (version > kPgSchemaVersion) {
        return core::FailedPrecondition("database " + target + " has schema version " +
                                        std::to_string(version) + ", newer than this berth's " +
                                        std::to_string(kPgSchemaVersion) +
                                        "; run the berth that wrote it, or a newer one");
      }
      if (version == kPgSchemaVersion) {
        return core::Error(core::ErrorCode::kAlreadyExists, "up to date");
      }
      // One step and its version bump commit together (PostgreSQL's DDL is transactional).
      for (const char* sql : PostgresSteps()[static_cast<size_t>(version)]) {
        BERTH_RETURN_IF_ERROR(db.Exec(sql));
      }
      return db.Exec("INSERT INTO berth_meta (name, value) VALUES ('schema_version', " +
                     std::to_string(version + 1) +
                     ") ON CONFLICT (name) DO UPDATE SET value = excluded.value");
    }();
    if (!status.ok()) {
      (void)db.Exec("ROLLBACK");
      if (status.error().code() == core::ErrorCode::kAlreadyExists) {
        return core::OkStatus();
      }
      return status;
    }
    BERTH_RETURN_IF_ERROR(db.Exec("COMMIT"));
  }
}

}  // namespace berth::store::internal
