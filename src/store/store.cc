#include "store/store.h"

#include <algorithm>
#include <utility>

#include "store/postgres_store.h"
#include "store/sqlite_store.h"

namespace berth::store {

namespace {
// A one-mutation Commit returns exactly one object on success (Commit's contract).
core::Result<StoredObject> Single(core::Result<std::vector<StoredObject>> result) {
  if (!result.has_value()) {
    return std::move(result).error();
  }
  BERTH_CHECK(result->size() == 1, "Commit of one mutation returned another count");
  return std::move(result->front());
}
}  // namespace

core::Result<StoredObject> Store::Create(Mutation create) {
  create.type = MutationType::kCreate;
  std::vector<Mutation> batch;
  batch.push_back(std::move(create));
  return Single(Commit(std::move(batch)));
}

core::Result<StoredObject> Store::Update(Mutation update) {
  update.type = MutationType::kUpdate;
  std::vector<Mutation> batch;
  batch.push_back(std::move(update));
  return Single(Commit(std::move(batch)));
}

core::Result<StoredObject> Store::Delete(const ObjectKey& key, int64_t expected_rv) {
  std::vector<Mutation> batch;
  batch.push_back(Mutation::Delete(key, expected_rv));
  return Single(Commit(std::move(batch)));
}

core::Result<std::unique_ptr<Store>> OpenStore(const std::string& spec,
                                               const std::string& data_dir,
                                               const OpenOptions& options) {
  std::string dir;
  if (spec.empty()) {
    dir = data_dir;
  } else if (spec.rfind("sqlite:", 0) == 0) {
    dir = spec.substr(7);
  } else if (spec.rfind("postgres://", 0) == 0 || spec.rfind("postgresql://", 0) == 0) {
    PostgresStoreOptions pg;
    pg.lease.lease_ms = options.lease_ms;
    pg.lease.renew_every_ms = std::max<int64_t>(1, options.lease_ms / 5);
    pg.lease.acquire_on_open = !options.standby;
    BERTH_ASSIGN_OR_RETURN(auto postgres, PostgresStore::Open(spec, pg));
    if (options.standby) (void)postgres->TryLead();  // a standby until the leader's lease lapses
    return std::unique_ptr<Store>(std::move(postgres));
  } else {
    return core::InvalidArgument("--store " + spec +
                                 ": expected sqlite:DIR or postgres://HOST/DB");
  }
  if (dir.empty()) {
    return core::InvalidArgument("--store " + spec + ": no directory given");
  }
  BERTH_ASSIGN_OR_RETURN(auto sqlite, SqliteStore::Open(dir));
  return std::unique_ptr<Store>(std::move(sqlite));
}

}  // namespace berth::store
