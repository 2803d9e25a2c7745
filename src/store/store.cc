#include "store/store.h"

#include <utility>

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

}  // namespace berth::store
