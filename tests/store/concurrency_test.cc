// Concurrent writers: group commit must acknowledge every write exactly once, hand out unique
// RVs that increase in commit order, and keep one caller's failure from failing its group.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "store/sqlite_store.h"
#include "store/temp_dir.h"

namespace berth::store {
namespace {

using testing::TempDir;

TEST(SqliteStoreConcurrencyTest, EightWritersEachAcknowledgedOnceInRvOrder) {
  TempDir tmp;
  auto opened = SqliteStore::Open(tmp.Sub("data"));
  ASSERT_TRUE(opened.has_value());
  auto store = std::move(opened).value();
  constexpr int kThreads = 8;
  constexpr int kPerThread = 150;
  std::vector<std::vector<int64_t>> rvs(kThreads);
  std::vector<int> errors(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        ObjectKey key{"", "ConfigMap", "ns-" + std::to_string(t), "c-" + std::to_string(i)};
        auto created = store->Create(Mutation::Create(key, "{}"));
        if (created.has_value()) {
          rvs[t].push_back(created->meta.resource_version);
        } else {
          ++errors[t];
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();

  std::set<int64_t> all;
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(errors[t], 0);
    ASSERT_EQ(rvs[t].size(), static_cast<size_t>(kPerThread));
    // A thread's next write is committed after its previous one returned: a larger RV.
    EXPECT_TRUE(std::is_sorted(rvs[t].begin(), rvs[t].end()));
    all.insert(rvs[t].begin(), rvs[t].end());
  }
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kPerThread));  // unique
  EXPECT_EQ(*all.rbegin(), kThreads * kPerThread);                    // dense: 1..N
  EXPECT_EQ(store->CurrentResourceVersion(), kThreads * kPerThread);
  EXPECT_LE(store->TransactionsForTest(), kThreads * kPerThread);

  // The event log holds each create once, in RV order.
  auto events = store->EventsSince(WatchOptions{});
  ASSERT_TRUE(events.has_value());
  ASSERT_EQ(events->events.size(), all.size());
  std::set<std::string> names;
  for (size_t i = 0; i < events->events.size(); ++i) {
    const auto& object = events->events[i].object;
    EXPECT_EQ(object.meta.resource_version, static_cast<int64_t>(i + 1));
    names.insert(object.key.ns + "/" + object.key.name);
  }
  EXPECT_EQ(names.size(), all.size());
}

TEST(SqliteStoreConcurrencyTest, OneCallersConflictDoesNotFailItsGroup) {
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

}  // namespace
}  // namespace berth::store
