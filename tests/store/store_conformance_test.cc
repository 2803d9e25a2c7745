// The Store contract (store.h), tested against every implementation: each instantiates
// StoreConformanceTest with a factory (SQLite: sqlite_store_test.cc). Single-object CRUD and
// errors, preconditions, paging, the event log and compaction, reopen, all-or-nothing batches,
// concurrent writers.
#include "store/store_conformance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace berth::store::testing {
namespace BERTH_UNITY_ID {

ObjectKey Key(const std::string& ns, const std::string& name) {
  return ObjectKey{"kueue.x-k8s.io", "Workload", ns, name};
}

WatchOptions Since(int64_t rv) {
  WatchOptions options;
  options.since_rv = rv;
  return options;
}

TEST_P(StoreConformanceTest, CreateGetUpdateDelete) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->CurrentResourceVersion(), 0);

  auto created = store->Create(Mutation::Create(Key("team-a", "w1"), R"({"spec":1})", {{"app", "x"}}));
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  EXPECT_EQ(created->meta.resource_version, 1);
  EXPECT_EQ(created->meta.generation, 1);
  EXPECT_GT(created->meta.creation_unix_s, 0);
  EXPECT_EQ(created->meta.uid.size(), 36u);
  EXPECT_EQ(created->meta.labels.at("app"), "x");

  auto got = store->Get(Key("team-a", "w1"));
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, *created);

  Mutation update = Mutation::Update(Key("team-a", "w1"), R"({"spec":2})", 1, {{"app", "y"}});
  update.bump_generation = true;
  auto updated = store->Update(update);
  ASSERT_TRUE(updated.has_value()) << updated.error().ToString();
  EXPECT_EQ(updated->meta.resource_version, 2);
  EXPECT_EQ(updated->meta.generation, 2);
  EXPECT_EQ(updated->meta.uid, created->meta.uid);
  EXPECT_EQ(updated->meta.creation_unix_s, created->meta.creation_unix_s);
  EXPECT_EQ(updated->json, R"({"spec":2})");

  // A status-only update keeps the generation; the deletion mark is kept once set.
  Mutation status = Mutation::Update(Key("team-a", "w1"), R"({"status":1})");
  status.deletion_unix_s = 1767225700;
  auto marked = store->Update(status);
  ASSERT_TRUE(marked.has_value());
  EXPECT_EQ(marked->meta.generation, 2);
  EXPECT_EQ(marked->meta.deletion_unix_s, 1767225700);
  EXPECT_TRUE(marked->meta.labels.empty());

  auto deleted = store->Delete(Key("team-a", "w1"));
  ASSERT_TRUE(deleted.has_value());
  EXPECT_EQ(deleted->meta.resource_version, 4);
  EXPECT_EQ(deleted->json, R"({"status":1})");
  auto gone = store->Get(Key("team-a", "w1"));
  ASSERT_FALSE(gone.has_value());
  EXPECT_EQ(gone.error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(gone.error().location().object, "Workload.kueue.x-k8s.io/team-a/w1");
  EXPECT_EQ(store->CurrentResourceVersion(), 4);
}

TEST_P(StoreConformanceTest, ErrorsNameTheObjectAndReason) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Create(Mutation::Create(Key("ns", "a"), "{}")).has_value());

  auto again = store->Create(Mutation::Create(Key("ns", "a"), "{}"));
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().code(), core::ErrorCode::kAlreadyExists);
  EXPECT_EQ(again.error().location().object, "Workload.kueue.x-k8s.io/ns/a");

  auto stale = store->Update(Mutation::Update(Key("ns", "a"), "{}", /*expected_rv=*/7));
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().code(), kConflict);
  EXPECT_NE(stale.error().message().find("7 expected, 1 stored"), std::string::npos);

  auto missing = store->Update(Mutation::Update(Key("ns", "b"), "{}"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), core::ErrorCode::kNotFound);

  auto bad = store->Create(Mutation::Create(ObjectKey{"", "Pod", "ns", ""}, "{}"));
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), core::ErrorCode::kInvalidArgument);
  // Failed writes consumed no resourceVersion and wrote no event.
  EXPECT_EQ(store->CurrentResourceVersion(), 1);
  auto events = store->EventsSince(WatchOptions{});
  ASSERT_TRUE(events.has_value());
  EXPECT_EQ(events->events.size(), 1u);
}

TEST_P(StoreConformanceTest, DeletePreconditions) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  auto a = store->Create(Mutation::Create(Key("ns", "a"), "{}"));
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(store->Update(Mutation::Update(Key("ns", "a"), "{}")).has_value());  // rv 2

  auto stale = store->Delete(Key("ns", "a"), /*expected_rv=*/1);
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().code(), kConflict);

  Mutation wrong_uid = Mutation::Delete(Key("ns", "a"));
  wrong_uid.expected_uid = "not-the-uid";
  auto uid = store->Commit({wrong_uid});
  ASSERT_FALSE(uid.has_value());
  EXPECT_EQ(uid.error().code(), kConflict);
  EXPECT_TRUE(store->Get(Key("ns", "a")).has_value());

  Mutation right = Mutation::Delete(Key("ns", "a"), 2);
  right.expected_uid = a->meta.uid;
  ASSERT_TRUE(store->Commit({right}).has_value());
  auto twice = store->Delete(Key("ns", "a"));
  ASSERT_FALSE(twice.has_value());
  EXPECT_EQ(twice.error().code(), core::ErrorCode::kNotFound);
}

TEST_P(StoreConformanceTest, PagesTenThousandObjectsWithoutGapsOrDuplicates) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  std::set<std::pair<std::string, std::string>> want;
  for (int batch = 0; batch < 20; ++batch) {
    std::vector<Mutation> creates;
    for (int i = 0; i < 500; ++i) {
      int n = batch * 500 + i;
      std::string ns = "ns-" + std::to_string(n % 7);
      std::string name = "w-" + std::to_string(n);
      want.emplace(ns, name);
      creates.push_back(Mutation::Create(Key(ns, name), "{}"));
    }
    ASSERT_TRUE(store->Commit(std::move(creates)).has_value());
  }
  // Another kind must not show up in the list.
  ASSERT_TRUE(store->Create(Mutation::Create(ObjectKey{"", "Pod", "ns-0", "p"}, "{}")).has_value());

  std::vector<std::pair<std::string, std::string>> seen;
  ListOptions options{"kueue.x-k8s.io", "Workload", std::nullopt, std::nullopt, 777};
  int pages = 0;
  for (; pages < 100; ++pages) {  // bounded: 10,000 / 777 needs 13
    auto page = store->List(options);
    ASSERT_TRUE(page.has_value()) << page.error().ToString();
    EXPECT_EQ(page->resource_version, 10001);
    for (const auto& item : page->items) seen.emplace_back(item.key.ns, item.key.name);
    if (!page->next) break;
    EXPECT_EQ(page->items.size(), 777u);
    options.start_after = page->next;
  }
  EXPECT_EQ(pages, 12);
  EXPECT_EQ(seen.size(), want.size());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(std::set(seen.begin(), seen.end()), want);

  // One namespace, paged.
  ListOptions one_ns{"kueue.x-k8s.io", "Workload", std::string("ns-3"), std::nullopt, 100};
  size_t count = 0;
  for (int i = 0; i < 100; ++i) {
    auto page = store->List(one_ns);
    ASSERT_TRUE(page.has_value());
    for (const auto& item : page->items) EXPECT_EQ(item.key.ns, "ns-3");
    count += page->items.size();
    if (!page->next) break;
    one_ns.start_after = page->next;
  }
  size_t want_ns3 = 0;
  for (const auto& [ns, name] : want) want_ns3 += ns == "ns-3" ? 1 : 0;
  EXPECT_EQ(count, want_ns3);
}

TEST_P(StoreConformanceTest, EventsSinceInOrderAndGoneAfterCompaction) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Create(Mutation::Create(Key("ns", "a"), "a1")).has_value());        // 1
  ASSERT_TRUE(store->Create(Mutation::Create(ObjectKey{"", "Pod", "ns", "p"}, "p")).has_value());  // 2
  ASSERT_TRUE(store->Update(Mutation::Update(Key("ns", "a"), "a2")).has_value());        // 3
  ASSERT_TRUE(store->Delete(Key("ns", "a")).has_value());                               // 4

  auto all = store->EventsSince(Since(1));
  ASSERT_TRUE(all.has_value());
  ASSERT_EQ(all->events.size(), 3u);
  EXPECT_EQ(all->events[0].type, EventType::kAdded);
  EXPECT_EQ(all->events[0].object.meta.resource_version, 2);
  EXPECT_EQ(all->events[1].type, EventType::kModified);
  EXPECT_EQ(all->events[1].object.json, "a2");
  EXPECT_EQ(all->events[2].type, EventType::kDeleted);
  EXPECT_EQ(all->events[2].object.meta.resource_version, 4);
  EXPECT_EQ(all->events[2].object.json, "a2");
  EXPECT_EQ(all->resource_version, 4);

  WatchOptions workloads{0, 0, "kueue.x-k8s.io", "Workload", std::nullopt};
  auto filtered = store->EventsSince(workloads);
  ASSERT_TRUE(filtered.has_value());
  ASSERT_EQ(filtered->events.size(), 3u);
  EXPECT_EQ(filtered->events[1].object.meta.resource_version, 3);

  ASSERT_TRUE(store->Compact(CompactOptions{2, std::nullopt}).ok());  // keep rv 3, 4
  EXPECT_EQ(store->CompactedResourceVersion(), 2);
  auto gone = store->EventsSince(Since(1));
  ASSERT_FALSE(gone.has_value());
  EXPECT_EQ(gone.error().code(), core::ErrorCode::kOutOfRange);
  auto resumed = store->EventsSince(Since(2));
  ASSERT_TRUE(resumed.has_value());
  EXPECT_EQ(resumed->events.size(), 2u);

  ASSERT_TRUE(store->Compact(CompactOptions{std::nullopt, 4}).ok());  // drop rv < 4
  EXPECT_EQ(store->CompactedResourceVersion(), 3);
  EXPECT_FALSE(store->EventsSince(Since(2)).has_value());
  auto last = store->EventsSince(Since(3));
  ASSERT_TRUE(last.has_value());
  ASSERT_EQ(last->events.size(), 1u);
  EXPECT_EQ(last->events[0].type, EventType::kDeleted);
  // The horizon never goes back.
  ASSERT_TRUE(store->Compact(CompactOptions{100, std::nullopt}).ok());
  EXPECT_EQ(store->CompactedResourceVersion(), 3);
}

TEST_P(StoreConformanceTest, ReopenKeepsObjectsAndTheCounter) {
  std::string uid;
  {
    auto store = Open();
    ASSERT_NE(store, nullptr);
    auto a = store->Create(Mutation::Create(Key("ns", "a"), "a", {{"k", "v=1\n%"}}));
    ASSERT_TRUE(a.has_value());
    uid = a->meta.uid;
    ASSERT_TRUE(store->Create(Mutation::Create(Key("ns", "b"), "b")).has_value());
    ASSERT_TRUE(store->Delete(Key("ns", "b")).has_value());
    ASSERT_TRUE(store->Compact(CompactOptions{1, std::nullopt}).ok());
  }
  auto store = Open();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->CurrentResourceVersion(), 3);
  EXPECT_EQ(store->CompactedResourceVersion(), 2);
  auto a = store->Get(Key("ns", "a"));
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->meta.uid, uid);
  EXPECT_EQ(a->meta.labels.at("k"), "v=1\n%");
  // The deleted object's RV is not reused.
  auto c = store->Create(Mutation::Create(Key("ns", "c"), "c"));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->meta.resource_version, 4);
}

TEST_P(StoreConformanceTest, BatchIsAllOrNothing) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Create(Mutation::Create(Key("ns", "c"), "c")).has_value());  // rv 1

  std::vector<Mutation> cycle = {
      Mutation::Create(Key("ns", "a"), "a"),
      Mutation::Update(Key("ns", "c"), "c2", 1),
      Mutation::Update(Key("ns", "c"), "c3", 1),  // stale: the previous mutation made it rv 3
  };
  auto failed = store->Commit(cycle);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().code(), kConflict);
  EXPECT_EQ(failed.error().message().rfind("mutation 3 of 3: ", 0), 0u) << failed.error().message();
  EXPECT_FALSE(store->Get(Key("ns", "a")).has_value());
  EXPECT_EQ(store->Get(Key("ns", "c"))->json, "c");
  EXPECT_EQ(store->CurrentResourceVersion(), 1);
  EXPECT_EQ(store->EventsSince(WatchOptions{})->events.size(), 1u);

  cycle.back().expected_rv = 3;
  auto ok = store->Commit(cycle);
  ASSERT_TRUE(ok.has_value()) << ok.error().ToString();
  ASSERT_EQ(ok->size(), 3u);
  EXPECT_EQ((*ok)[0].meta.resource_version, 2);
  EXPECT_EQ((*ok)[2].meta.resource_version, 4);
  EXPECT_EQ(store->Get(Key("ns", "c"))->json, "c3");
}

TEST_P(StoreConformanceTest, EightWritersEachAcknowledgedOnceInRvOrder) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
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

}  // namespace BERTH_UNITY_ID
}  // namespace berth::store::testing
