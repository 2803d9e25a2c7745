// SqliteStore beyond the Store contract: the conformance suite instantiated for it, the
// injected clock, the directory lock, the schema version check, OpenStore, and one caller's
// failure inside a shared group commit. kill -9: crash_test.cc.
#include "store/sqlite_store.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "store/internal/sqlite_db.h"
#include "store/store_conformance.h"
#include "store/temp_dir.h"

namespace berth::store {
namespace BERTH_UNITY_ID {

using testing::StoreConformanceTest;
using testing::TempDir;

INSTANTIATE_TEST_SUITE_P(
    Sqlite, StoreConformanceTest,
    ::testing::Values(testing::StoreFactory{
        "sqlite",
        [](const std::string& dir) -> core::Result<std::unique_ptr<Store>> {
          BERTH_ASSIGN_OR_RETURN(auto store, SqliteStore::Open(dir));
          return std::unique_ptr<Store>(std::move(store));
        }}),
    testing::FactoryName);

ObjectKey Key(const std::string& ns, const std::string& name) {
  return ObjectKey{"kueue.x-k8s.io", "Workload", ns, name};
}

std::unique_ptr<SqliteStore> OpenOrDie(const std::string& dir, SqliteStoreOptions options = {}) {
  auto store = SqliteStore::Open(dir, std::move(options));
  EXPECT_TRUE(store.has_value()) << (store.has_value() ? "" : store.error().ToString());
  return store.has_value() ? std::move(store).value() : nullptr;
}

TEST(SqliteStoreTest, CreationTimestampComesFromTheInjectedClock) {
  TempDir tmp;
  SqliteStoreOptions options;
  options.now_unix_s = [] { return int64_t{1767225600}; };
  auto store = OpenOrDie(tmp.Sub("data"), options);
  ASSERT_NE(store, nullptr);
  auto created = store->Create(Mutation::Create(Key("ns", "a"), "{}"));
  ASSERT_TRUE(created.has_value());
  EXPECT_EQ(created->meta.creation_unix_s, 1767225600);
  auto updated = store->Update(Mutation::Update(Key("ns", "a"), "{}"));
  ASSERT_TRUE(updated.has_value());
  EXPECT_EQ(updated->meta.creation_unix_s, 1767225600);
}

TEST(SqliteStoreTest, SecondOpenerOfTheDirectoryIsRefused) {
  TempDir tmp;
  auto first = OpenOrDie(tmp.Sub("data"));
  ASSERT_NE(first, nullptr);
  auto second = SqliteStore::Open(tmp.Sub("data"));
  ASSERT_FALSE(second.has_value());
  EXPECT_EQ(second.error().code(), core::ErrorCode::kUnavailable);
  EXPECT_NE(second.error().message().find("in use by another berth hub"), std::string::npos);
  first.reset();
  EXPECT_TRUE(SqliteStore::Open(tmp.Sub("data")).has_value());
}

TEST(SqliteStoreTest, ReadsDoNotWaitForAWriter) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("data"));
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Create(Mutation::Create(Key("ns", "a"), "a")).has_value());
  // Another connection holds SQLite's write lock with an uncommitted change, as the writer
  // does during a group's transaction. Readers see the last commit, at once (in rollback-journal
  // mode they would wait busy_timeout and fail).
  auto raw = internal::Connection::Open(tmp.Sub("data") + "/berth.db", false, 0);
  ASSERT_TRUE(raw.has_value());
  ASSERT_TRUE((*raw)->Exec("BEGIN IMMEDIATE").ok());
  ASSERT_TRUE((*raw)->Exec("UPDATE objects SET body = 'uncommitted'").ok());
  auto got = store->Get(Key("ns", "a"));
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ(got->json, "a");
  auto page = store->List(ListOptions{"kueue.x-k8s.io", "Workload", std::nullopt, std::nullopt, 0});
  ASSERT_TRUE(page.has_value());
  EXPECT_EQ(page->items.size(), 1u);
  EXPECT_EQ(page->resource_version, 1);
  ASSERT_TRUE((*raw)->Exec("ROLLBACK").ok());
}

TEST(SqliteStoreTest, NewerSchemaIsRefused) {
  TempDir tmp;
  { ASSERT_NE(OpenOrDie(tmp.Sub("data")), nullptr); }
  {
    auto db = internal::Connection::Open(tmp.Sub("data") + "/berth.db", false, 1000);
    ASSERT_TRUE(db.has_value());
    ASSERT_TRUE((*db)->Exec("UPDATE meta SET value = 99 WHERE name = 'schema_version'").ok());
  }
  auto store = SqliteStore::Open(tmp.Sub("data"));
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error().code(), core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(store.error().message().find("schema version 99, newer than this berth's 1"),
            std::string::npos)
      << store.error().message();
}

TEST(OpenStoreTest, NamesTheImplementation) {
  TempDir tmp;
  auto by_default = OpenStore("", tmp.Sub("default"));
  ASSERT_TRUE(by_default.has_value()) << by_default.error().ToString();
  ASSERT_TRUE((*by_default)->Create(Mutation::Create(Key("ns", "a"), "{}")).has_value());
  auto named = OpenStore("sqlite:" + tmp.Sub("named"), tmp.Sub("unused"));
  ASSERT_TRUE(named.has_value());
  EXPECT_EQ((*named)->CurrentResourceVersion(), 0);
  // The same directory is held by the first store.
  auto busy = OpenStore("sqlite:" + tmp.Sub("default"), "");
  ASSERT_FALSE(busy.has_value());
  EXPECT_EQ(busy.error().code(), core::ErrorCode::kUnavailable);
  // Port 1 on loopback refuses: the PostgreSQL store is chosen and reports the server down.
  auto postgres = OpenStore("postgres://127.0.0.1:1/berth?connect_timeout=2", "");
  ASSERT_FALSE(postgres.has_value());
  EXPECT_EQ(postgres.error().code(), core::ErrorCode::kUnavailable) << postgres.error().ToString();
  auto bad = OpenStore("mysql://x", "");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), core::ErrorCode::kInvalidArgument);
}


TEST(SqliteStoreTest, OneCallersConflictDoesNotFailItsGroup) {
  TempDir tmp;
  SqliteStoreOptions options;
  options.group_window_us = 50'000;  // wide, so the batches below usually share a group
  auto opened = SqliteStore::Open(tmp.Sub("data"), options);
  ASSERT_TRUE(opened.has_value());
  auto store = std::move(opened).value();
  ObjectKey shared{"", "ConfigMap", "ns", "shared"};
  ASSERT_TRUE(store->Create(Mutation::Create(shared, "{}")).has_value());

  constexpr int kThreads = 6;
  std::vector<std::optional<core::Result<std::vector<StoredObject>>>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<Mutation> batch;
      batch.push_back(Mutation::Create(ObjectKey{"", "ConfigMap", "ns", "own-" + std::to_string(t)}, "{}"));
      // Odd threads also update `shared` with a stale RV: their whole batch must fail.
      if (t % 2 == 1) batch.push_back(Mutation::Update(shared, "{}", /*expected_rv=*/99));
      results[t] = store->Commit(std::move(batch));
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(results[t].has_value());
    auto own = store->Get(ObjectKey{"", "ConfigMap", "ns", "own-" + std::to_string(t)});
    if (t % 2 == 1) {
      ASSERT_FALSE(results[t]->has_value());
      EXPECT_EQ(results[t]->error().code(), kConflict);
      EXPECT_FALSE(own.has_value());
    } else {
      EXPECT_TRUE(results[t]->has_value());
      EXPECT_TRUE(own.has_value());
    }
  }
  // Only the three good creates took RVs, densely.
  EXPECT_EQ(store->CurrentResourceVersion(), 1 + kThreads / 2);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::store
