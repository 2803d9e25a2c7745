// berth_store_bench: the hub store's figures (issue #15), SqliteStore with synchronous=FULL in
// a temporary directory on the machine's disk, or with --postgres the same phases on
// PostgresStore against a throwaway PostgreSQL 15 on 127.0.0.1 (the tests' fixture,
// tests/store/postgres_server.h; default settings, so fsync and synchronous_commit are on),
// one fresh database per phase.
//
//  1. throughput: acknowledged creates/s from C concurrent client threads, each create its own
//     Commit (so the figure is what group commit makes of single-object API writes);
//  2. latency: p50/p99/max of creates issued at a paced rate (open loop: each create's latency
//     runs from its scheduled start, so a stall delays the ones behind it too);
//  3. list: the whole kind paged (limit 500) after N objects are stored;
//  4. restart: reopen-to-ready (Open returns: lock, schema check, counters) and the first page.
//
// It checks its answers and exits 1 when one is wrong: every create acknowledged exactly once
// with unique RVs, the list returns every object once in key order, the reopened store has
// the same RV and objects. Goals are printed beside the figures, not enforced (the machine is
// shared). Exit 2 on bad flags.
//
//   berth_store_bench [--scale] [--postgres] [--clients 16] [--creates N] [--rate 200]
//                     [--paced-s S] [--objects N] [--body-bytes 1200] [--window-us 0]
//                     [--dir PARENT]
// Without --scale: a smoke run at small sizes (CTest bench_smoke_store).
#include <stdlib.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "store/postgres_server.h"
#include "store/postgres_store.h"
#include "store/sqlite_store.h"

namespace berth::bench {
namespace {

using Clock = std::chrono::steady_clock;
using store::Mutation;
using store::ObjectKey;
using store::PostgresStore;
using store::SqliteStore;
using store::Store;

struct Flags {
  bool scale = false;
  bool want_postgres = false;
  store::testing::PostgresServer* postgres = nullptr;  // set: phases run on PostgreSQL
  int clients = 16;
  int creates = 400;
  int rate = 200;
  double paced_s = 1;
  int objects = 2000;
  int body_bytes = 1200;
  int64_t window_us = 0;
  std::string dir_parent = std::filesystem::temp_directory_path().string();
};

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

bool failed = false;
void Check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "CHECK FAILED: %s\n", what.c_str());
    failed = true;
  }
}

// A Workload-like body of about `bytes` bytes (the store never parses it).
std::string Body(int bytes, int n) {
  std::string body = R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload","spec":{"n":)" +
                     std::to_string(n) + R"(,"pad":")";
  body.append(static_cast<size_t>(std::max(0, bytes - static_cast<int>(body.size()) - 4)), 'x');
  return body + "\"}}";
}

ObjectKey Key(const std::string& ns, int n) {
  return ObjectKey{"kueue.x-k8s.io", "Workload", ns, "w-" + std::to_string(n)};
}

// Opens the phase's store: SQLite in `dir`, or on PostgreSQL the database named after the
// directory's last component (created on first use).
std::unique_ptr<Store> Open(const std::string& dir, const Flags& flags) {
  core::Result<std::unique_ptr<Store>> opened = core::Internal("not opened");
  if (flags.postgres != nullptr) {
    std::string db = "bench_" + std::filesystem::path(dir).filename().string();
    static std::set<std::string> created;
    std::string conninfo = flags.postgres->ConnInfo(db);
    if (created.insert(db).second) {
      auto made = flags.postgres->CreateDatabase(db);
      if (!made.has_value()) {
        std::fprintf(stderr, "create database %s: %s\n", db.c_str(),
                     made.error().ToString().c_str());
        std::exit(1);
      }
    }
    store::PostgresStoreOptions options;
    options.group_window_us = flags.window_us;
    options.lease.holder = "bench";
    auto pg = PostgresStore::Open(conninfo, options);
    if (pg.has_value()) {
      opened = std::unique_ptr<Store>(std::move(pg).value());
    } else {
      opened = std::move(pg).error();
    }
  } else {
    store::SqliteStoreOptions options;
    options.group_window_us = flags.window_us;
    auto lite = SqliteStore::Open(dir, options);
    if (lite.has_value()) {
      opened = std::unique_ptr<Store>(std::move(lite).value());
    } else {
      opened = std::move(lite).error();
    }
  }
  if (!opened.has_value()) {
    std::fprintf(stderr, "open %s: %s\n", dir.c_str(), opened.error().ToString().c_str());
    std::exit(1);
  }
  return std::move(opened).value();
}

int64_t Transactions(Store& store) {
  if (auto* pg = dynamic_cast<PostgresStore*>(&store)) return pg->TransactionsForTest();
  if (auto* lite = dynamic_cast<SqliteStore*>(&store)) return lite->TransactionsForTest();
  return 0;
}

void Throughput(const std::string& dir, const Flags& flags) {
  auto store = Open(dir, flags);
  std::vector<std::vector<int64_t>> rvs(static_cast<size_t>(flags.clients));
  std::atomic<int> next{0};
  std::atomic<int> errors{0};
  auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < flags.clients; ++c) {
    threads.emplace_back([&, c] {
      for (int n = next++; n < flags.creates; n = next++) {
        auto created = store->Create(Mutation::Create(Key("tput", n), Body(flags.body_bytes, n)));
        if (created.has_value()) {
          rvs[static_cast<size_t>(c)].push_back(created->meta.resource_version);
        } else {
          ++errors;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  double elapsed = Seconds(Clock::now() - start);
  std::set<int64_t> unique;
  for (const auto& r : rvs) unique.insert(r.begin(), r.end());
  Check(errors == 0, "every create acknowledged");
  Check(unique.size() == static_cast<size_t>(flags.creates), "one unique RV per create");
  Check(store->CurrentResourceVersion() == flags.creates, "RV = number of creates");
  double per_s = flags.creates / elapsed;
  std::printf("throughput: %d creates from %d clients in %.2f s = %.0f acknowledged creates/s "
              "(%lld transactions, %.1f creates each) [goal >= 2,000/s: %s]\n",
              flags.creates, flags.clients, elapsed, per_s,
              static_cast<long long>(Transactions(*store)),
              static_cast<double>(flags.creates) / std::max<int64_t>(1, Transactions(*store)),
              per_s >= 2000 ? "met" : "NOT met");
}

void Latency(const std::string& dir, const Flags& flags) {
  auto store = Open(dir, flags);
  const int total = static_cast<int>(flags.rate * flags.paced_s);
  const auto interval = std::chrono::nanoseconds(1'000'000'000LL / flags.rate);
  // 8 senders, create i scheduled at start + i x interval, so a slow create does not hold the
  // schedule back (open loop) unless all 8 are busy.
  constexpr int kSenders = 8;
  std::vector<double> latencies_ms(static_cast<size_t>(total));
  std::atomic<int> errors{0};
  auto start = Clock::now() + std::chrono::milliseconds(10);
  std::vector<std::thread> threads;
  for (int s = 0; s < kSenders; ++s) {
    threads.emplace_back([&, s] {
      for (int i = s; i < total; i += kSenders) {
        auto scheduled = start + i * interval;
        std::this_thread::sleep_until(scheduled);
        auto created = store->Create(Mutation::Create(Key("paced", i), Body(flags.body_bytes, i)));
        if (!created.has_value()) ++errors;
        latencies_ms[static_cast<size_t>(i)] = Seconds(Clock::now() - scheduled) * 1000;
      }
    });
  }
  for (auto& t : threads) t.join();
  Check(errors == 0, "every paced create acknowledged");
  std::sort(latencies_ms.begin(), latencies_ms.end());
  auto pct = [&](double p) {
    return latencies_ms[std::min(latencies_ms.size() - 1,
                                 static_cast<size_t>(p * static_cast<double>(latencies_ms.size())))];
  };
  std::printf("latency: %d creates paced at %d/s: p50 %.2f ms, p99 %.2f ms, max %.2f ms "
              "[goal p99 < 25 ms: %s]\n",
              total, flags.rate, pct(0.50), pct(0.99), latencies_ms.back(),
              pct(0.99) < 25 ? "met" : "NOT met");
}

// Fills `objects` Workloads in batches of 1,000 over 10 namespaces.
void Fill(Store& store, const Flags& flags) {
  auto start = Clock::now();
  for (int base = 0; base < flags.objects; base += 1000) {
    std::vector<Mutation> batch;
    for (int n = base; n < std::min(flags.objects, base + 1000); ++n) {
      batch.push_back(Mutation::Create(Key("team-" + std::to_string(n % 10), n),
                                       Body(flags.body_bytes, n)));
    }
    auto committed = store.Commit(std::move(batch));
    Check(committed.has_value(), "fill batch committed");
  }
  std::printf("fill: %d objects of %d bytes in batches of 1,000: %.2f s\n", flags.objects,
              flags.body_bytes, Seconds(Clock::now() - start));
}

size_t ListAll(Store& store, int64_t limit, double* seconds) {
  auto start = Clock::now();
  store::ListOptions options{"kueue.x-k8s.io", "Workload", std::nullopt, std::nullopt, limit};
  size_t count = 0;
  std::string last;
  for (int page = 0; page < 1'000'000; ++page) {
    auto listed = store.List(options);
    Check(listed.has_value(), "list page");
    if (!listed.has_value()) break;
    for (const auto& item : listed->items) {
      std::string key = item.key.ns + "/" + item.key.name;
      Check(last.empty() || last < key, "list in key order, no repeats");
      last = std::move(key);
      ++count;
    }
    if (!listed->next) break;
    options.start_after = listed->next;
  }
  *seconds = Seconds(Clock::now() - start);
  return count;
}

void ListAndRestart(const std::string& dir, const Flags& flags) {
  int64_t rv = 0;
  {
    auto store = Open(dir, flags);
    Fill(*store, flags);
    double seconds = 0;
    size_t count = ListAll(*store, 500, &seconds);
    Check(count == static_cast<size_t>(flags.objects), "list returns every object");
    std::printf("list: %zu objects paged by 500 in %.3f s (%.1f us/object)\n", count, seconds,
                seconds * 1e6 / static_cast<double>(std::max<size_t>(1, count)));
    rv = store->CurrentResourceVersion();
  }
  std::error_code ignored;
  auto db_bytes = flags.postgres != nullptr
                      ? 0
                      : std::filesystem::file_size(dir + "/berth.db", ignored);
  auto start = Clock::now();
  auto store = Open(dir, flags);
  double open_s = Seconds(Clock::now() - start);
  store::ListOptions first{"kueue.x-k8s.io", "Workload", std::nullopt, std::nullopt, 500};
  auto page = store->List(first);
  double ready_s = Seconds(Clock::now() - start);
  Check(store->CurrentResourceVersion() == rv, "reopened RV unchanged");
  Check(page.has_value() && page->items.size() == std::min<size_t>(500, flags.objects),
        "first page after reopen");
  char size[64] = "PostgreSQL";
  if (flags.postgres == nullptr) {
    std::snprintf(size, sizeof(size), "%.0f MB", static_cast<double>(db_bytes) / 1e6);
  }
  std::printf("restart: %d objects (%s database): open %.3f s, first page served %.3f s "
              "[goal < 10 s: %s]\n",
              flags.objects, size, open_s, ready_s, ready_s < 10 ? "met" : "NOT met");
}

bool ParseFlags(int argc, char** argv, Flags& flags) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (arg == "--postgres") {
      flags.want_postgres = true;
    } else if (arg == "--scale") {
      flags.scale = true;
      flags.creates = 20000;
      flags.paced_s = 15;
      flags.objects = 100000;
    } else if ((arg == "--clients" || arg == "--creates" || arg == "--rate" ||
                arg == "--objects" || arg == "--body-bytes" || arg == "--window-us" ||
                arg == "--paced-s" || arg == "--dir") &&
               (v = value()) != nullptr) {
      if (arg == "--clients") flags.clients = std::atoi(v);
      if (arg == "--creates") flags.creates = std::atoi(v);
      if (arg == "--rate") flags.rate = std::atoi(v);
      if (arg == "--objects") flags.objects = std::atoi(v);
      if (arg == "--body-bytes") flags.body_bytes = std::atoi(v);
      if (arg == "--window-us") flags.window_us = std::atoll(v);
      if (arg == "--paced-s") flags.paced_s = std::atof(v);
      if (arg == "--dir") flags.dir_parent = v;
    } else {
      std::fprintf(stderr, "usage: berth_store_bench [--scale] [--postgres] [--clients N] "
                           "[--creates N] "
                           "[--rate N] [--paced-s S] [--objects N] [--body-bytes N] "
                           "[--window-us N] [--dir PARENT]\n");
      return false;
    }
  }
  return flags.clients > 0 && flags.creates > 0 && flags.rate > 0 && flags.paced_s > 0 &&
         flags.objects > 0;
}

int Main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, flags)) return 2;
  std::string pattern = flags.dir_parent + "/berth-store-bench-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    std::fprintf(stderr, "mkdtemp in %s: %s\n", flags.dir_parent.c_str(), std::strerror(errno));
    return 2;
  }
  const std::string root = pattern;
  std::unique_ptr<store::testing::PostgresServer> server;
  if (flags.want_postgres) {
    auto started = store::testing::PostgresServer::Start();
    if (!started.has_value()) {
      std::fprintf(stderr, "%s\n", started.error().ToString().c_str());
      std::filesystem::remove_all(root);
      return 1;
    }
    server = std::move(started).value();
    flags.postgres = server.get();
    std::printf("berth_store_bench: PostgresStore on a throwaway PostgreSQL 15 at 127.0.0.1:%d "
                "(fsync=on, synchronous_commit=on, group window %lld us); ",
                server->port(), static_cast<long long>(flags.window_us));
  } else {
    std::printf("berth_store_bench: SqliteStore (WAL, synchronous=FULL, group window %lld us) "
                "in %s; ",
                static_cast<long long>(flags.window_us), root.c_str());
  }
  std::printf("%u hardware threads, load average now: ", std::thread::hardware_concurrency());
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) == 3) std::printf("%.2f %.2f %.2f\n", load[0], load[1], load[2]);
  Throughput(root + "/throughput", flags);
  Latency(root + "/latency", flags);
  ListAndRestart(root + "/list", flags);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("peak RSS %.0f MiB\n", static_cast<double>(usage.ru_maxrss) / 1024);
  std::error_code ignored;
  std::filesystem::remove_all(root, ignored);
  std::printf("%s\n", failed ? "FAILED" : "all checks passed");
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) { return berth::bench::Main(argc, argv); }
