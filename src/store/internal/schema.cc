#include "store/internal/schema.h"

#include <string>
#include <vector>

namespace berth::store::internal {

namespace {

// Migration steps: kSteps[i] takes the schema from version i to i + 1. Append, never edit a
// shipped step. The SQL stays close to what PostgreSQL accepts (TEXT, BIGINT), except that
// events.rv is SQLite's INTEGER PRIMARY KEY, the rowid, so the log is stored in RV order.
const std::vector<std::vector<const char*>>& SqliteSteps() {
  static const std::vector<std::vector<const char*>> kSteps = {
      {
          // v0 -> v1
          "CREATE TABLE objects ("
          " grp TEXT NOT NULL, kind TEXT NOT NULL, ns TEXT NOT NULL, name TEXT NOT NULL,"
          " uid TEXT NOT NULL, rv BIGINT NOT NULL, generation BIGINT NOT NULL,"
          " created BIGINT NOT NULL, deleted BIGINT NOT NULL,"
          " labels TEXT NOT NULL, body TEXT NOT NULL,"
          " PRIMARY KEY (grp, kind, ns, name))",
          "CREATE INDEX objects_rv ON objects (rv)",
          "CREATE TABLE events ("
          " rv INTEGER PRIMARY KEY, type INTEGER NOT NULL,"
          " grp TEXT NOT NULL, kind TEXT NOT NULL, ns TEXT NOT NULL, name TEXT NOT NULL,"
          " uid TEXT NOT NULL, generation BIGINT NOT NULL,"
          " created BIGINT NOT NULL, deleted BIGINT NOT NULL,"
          " labels TEXT NOT NULL, body TEXT NOT NULL)",
          "INSERT INTO meta (name, value) VALUES ('rv', 0), ('compacted_rv', 0)",
      },
  };
  return kSteps;
}

}  // namespace

core::Result<int64_t> ReadMeta(Connection& db, const char* name) {
  BERTH_ASSIGN_OR_RETURN(Statement * stmt, db.Prepare("SELECT value FROM meta WHERE name = ?"));
  stmt->Bind(1, std::string_view(name));
  BERTH_ASSIGN_OR_RETURN(bool row, stmt->Step());
  if (!row) {
    return int64_t{0};
  }
  int64_t value = stmt->Int(0);
  stmt->Reset();
  return value;
}

core::Status Migrate(Connection& db, const std::string& path) {
  static_assert(kSchemaVersion >= 1);
  BERTH_RETURN_IF_ERROR(db.Exec(
      "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BIGINT NOT NULL)"));
  BERTH_ASSIGN_OR_RETURN(int64_t version, ReadMeta(db, "schema_version"));
  if (version > kSchemaVersion) {
    return core::FailedPrecondition("database " + path + " has schema version " +
                                    std::to_string(version) + ", newer than this berth's " +
                                    std::to_string(kSchemaVersion) +
                                    "; run the berth that wrote it, or a newer one");
  }
  BERTH_CHECK(SqliteSteps().size() == static_cast<size_t>(kSchemaVersion),
              "one migration step per schema version");
  for (int64_t v = version; v < kSchemaVersion; ++v) {
    // BEGIN IMMEDIATE: the step and its version bump commit together or not at all.
    BERTH_RETURN_IF_ERROR(db.Exec("BEGIN IMMEDIATE"));
    core::Status status;
    for (const char* sql : SqliteSteps()[static_cast<size_t>(v)]) {
      status = db.Exec(sql);
      if (!status.ok()) {
        break;
      }
    }
    if (status.ok()) {
      status = db.Exec("INSERT INTO meta (name, value) VALUES ('schema_version', " +
                       std::to_string(v + 1) +
                       ") ON CONFLICT (name) DO UPDATE SET value = excluded.value");
    }
    if (!status.ok()) {
      (void)db.Exec("ROLLBACK");
      return status;
    }
    BERTH_RETURN_IF_ERROR(db.Exec("COMMIT"));
  }
  return core::OkStatus();
}

}  // namespace berth::store::internal
