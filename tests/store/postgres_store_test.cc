// PostgresStore against a throwaway PostgreSQL 15 (postgres_server.h): the Store conformance
// suite, OpenStore's postgres:// form, and leadership: the lease, takeover with a higher epoch
// and the fence that stops a deposed leader's writes. If PostgreSQL cannot start, every test
// here fails with the reason (CI installs postgresql-15); none is skipped.
#include "store/postgres_store.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "store/postgres_server.h"
#include "store/store_conformance.h"

namespace berth::store::testing {
namespace BERTH_UNITY_ID {

// The one server of this test binary, started on first use and stopped at exit (its watchdog
// stops it if the binary dies first).
class SharedServer {
 public:
  static SharedServer& Get() {
    static SharedServer shared;
    return shared;
  }

  // A fresh database for `tag` (created on first use), as a connection string; the same tag
  // gives the same database, so a store reopened in one test sees its data.
  core::Result<std::string> Database(const std::string& tag) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!server_) {
      if (start_error_) return *start_error_;
      auto started = PostgresServer::Start();
      if (!started.has_value()) {
        start_error_ = started.error();
        return *start_error_;
      }
      server_ = std::move(started).value();
    }
    std::string db = "berth_" + std::to_string(std::hash<std::string>{}(tag) % 1000000007ULL);
    if (created_.insert(db).second) {
      auto made = server_->CreateDatabase(db);
      if (!made.has_value()) {
        created_.erase(db);
        return made;
      }
    }
    return server_->ConnInfo(db);
  }

  int port() const { return server_ ? server_->port() : 0; }

 private:
  std::mutex mu_;
  std::unique_ptr<PostgresServer> server_;
  std::optional<core::Error> start_error_;
  std::set<std::string> created_;
};

core::Result<std::unique_ptr<Store>> OpenPostgres(const std::string& dir) {
  BERTH_ASSIGN_OR_RETURN(std::string conninfo, SharedServer::Get().Database(dir));
  PostgresStoreOptions options;
  options.lease.holder = "conformance";  // a reopen in the same test is the same replica
  BERTH_ASSIGN_OR_RETURN(auto store, PostgresStore::Open(conninfo, options));
  return std::unique_ptr<Store>(std::move(store));
}

INSTANTIATE_TEST_SUITE_P(Postgres, StoreConformanceTest,
                         ::testing::Values(StoreFactory{"postgres", OpenPostgres}), FactoryName);

ObjectKey Key(const std::string& name) { return ObjectKey{"", "ConfigMap", "default", name}; }

// Leadership tests share a database between two stores, replicas "a" and "b", with a short
// lease and fast renewal.
class PostgresLeaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conninfo = SharedServer::Get().Database(tmp_.path());
    ASSERT_TRUE(conninfo.has_value()) << conninfo.error().ToString();
    conninfo_ = *conninfo;
  }

  std::unique_ptr<PostgresStore> OpenReplica(const std::string& holder, bool acquire) {
    PostgresStoreOptions options;
    options.lease.holder = holder;
    options.lease.lease_ms = 300;
    options.lease.renew_every_ms = 50;
    options.lease.acquire_on_open = acquire;
    auto store = PostgresStore::Open(conninfo_, options);
    EXPECT_TRUE(store.has_value()) << (store.has_value() ? "" : store.error().ToString());
    return store.has_value() ? std::move(store).value() : nullptr;
  }

  // Acquire until it succeeds or 10 s pass (the lease under test expires after 300 ms).
  static core::Status AcquireWithin10s(PostgresStore& store) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (;;) {
      core::Status status = store.Acquire();
      if (status.ok() || std::chrono::steady_clock::now() > deadline) return status;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }

  TempDir tmp_;
  std::string conninfo_;
};

TEST_F(PostgresLeaseTest, DeposedLeaderIsFencedAndTheNewLeaderContinues) {
  auto a = OpenReplica("a", true);
  auto b = OpenReplica("b", false);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  const int64_t epoch_a = a->Epoch();
  EXPECT_GE(epoch_a, 1);
  EXPECT_EQ(b->Epoch(), 0);

  auto first = a->Create(Mutation::Create(Key("one"), R"({"by":"a"})"));
  ASSERT_TRUE(first.has_value()) << first.error().ToString();

  // b cannot lead while a renews, and cannot write without the lease.
  core::Status refused = b->Acquire();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code(), core::ErrorCode::kUnavailable);
  EXPECT_NE(refused.error().message().find("held by a"), std::string::npos)
      << refused.error().ToString();
  auto not_leader = b->Create(Mutation::Create(Key("early"), "{}"));
  ASSERT_FALSE(not_leader.has_value());
  EXPECT_EQ(not_leader.error().code(), core::ErrorCode::kUnavailable);
  EXPECT_NE(not_leader.error().message().find("not the leader"), std::string::npos);

  // a stops renewing (a stalled process); b takes over once the lease expires.
  a->PauseRenewForTest(true);
  core::Status took = AcquireWithin10s(*b);
  ASSERT_TRUE(took.ok()) << took.error().ToString();
  EXPECT_GT(b->Epoch(), epoch_a);
  EXPECT_EQ(a->Epoch(), epoch_a);  // a has not noticed: only the fence stops it

  // a's writes, single and batched, are refused and store nothing.
  auto late = a->Create(Mutation::Create(Key("late"), R"({"by":"a"})"));
  ASSERT_FALSE(late.has_value());
  EXPECT_EQ(late.error().code(), core::ErrorCode::kUnavailable);
  EXPECT_NE(late.error().message().find("fenced"), std::string::npos) << late.error().ToString();
  std::vector<Mutation> batch;
  batch.push_back(Mutation::Update(Key("one"), R"({"by":"a","v":2})"));
  batch.push_back(Mutation::Create(Key("late2"), "{}"));
  auto late_batch = a->Commit(std::move(batch));
  ASSERT_FALSE(late_batch.has_value());
  EXPECT_EQ(late_batch.error().code(), core::ErrorCode::kUnavailable);
  EXPECT_EQ(a->Epoch(), 0);
  core::Status renew = a->Renew();
  EXPECT_FALSE(renew.ok());

  // b sees only a's acknowledged write and continues the RV sequence after it.
  EXPECT_EQ(b->Get(Key("late")).error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(b->Get(Key("late2")).error().code(), core::ErrorCode::kNotFound);
  auto one = b->Get(Key("one"));
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->json, R"({"by":"a"})");
  auto second = b->Create(Mutation::Create(Key("two"), R"({"by":"b"})"));
  ASSERT_TRUE(second.has_value()) << second.error().ToString();
  EXPECT_EQ(second->meta.resource_version, first->meta.resource_version + 1);
  auto updated =
      b->Update(Mutation::Update(Key("one"), R"({"by":"b"})", first->meta.resource_version));
  ASSERT_TRUE(updated.has_value()) << updated.error().ToString();

  WatchOptions all;
  auto events = b->EventsSince(all);
  ASSERT_TRUE(events.has_value()) << events.error().ToString();
  ASSERT_EQ(events->events.size(), 3u);
  for (const WatchEvent& event : events->events) {
    EXPECT_NE(event.object.key.name, "late");
    EXPECT_NE(event.object.key.name, "late2");
  }
  ListOptions list;
  list.kind = "ConfigMap";
  auto page = b->List(list);
  ASSERT_TRUE(page.has_value());
  EXPECT_EQ(page->items.size(), 2u);
  EXPECT_EQ(page->resource_version, updated->meta.resource_version);

  // a, resumed, cannot take the lease back while b renews it.
  a->PauseRenewForTest(false);
  core::Status back = a->Acquire();
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().message().find("held by b"), std::string::npos);
}

TEST_F(PostgresLeaseTest, CleanCloseStepsDownAtOnce) {
  auto a = OpenReplica("a", true);
  ASSERT_NE(a, nullptr);
  int64_t epoch_a = a->Epoch();
  ASSERT_TRUE(a->Create(Mutation::Create(Key("x"), "{}")).has_value());
  a.reset();
  // No waiting for expiry: the closed leader marked its lease expired.
  auto b = OpenReplica("b", true);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->Epoch(), epoch_a + 1);
  EXPECT_EQ(b->CurrentResourceVersion(), 1);
  auto y = b->Create(Mutation::Create(Key("y"), "{}"));
  ASSERT_TRUE(y.has_value()) << y.error().ToString();
  EXPECT_EQ(y->meta.resource_version, 2);
}

TEST_F(PostgresLeaseTest, OpenFailsWhileAnotherReplicaLeads) {
  auto a = OpenReplica("a", true);
  ASSERT_NE(a, nullptr);
  PostgresStoreOptions options;
  options.lease.holder = "b";
  auto b = PostgresStore::Open(conninfo_, options);
  ASSERT_FALSE(b.has_value());
  EXPECT_EQ(b.error().code(), core::ErrorCode::kUnavailable);
  EXPECT_NE(b.error().message().find("held by a"), std::string::npos) << b.error().ToString();
}

// One byte from `fd` within `timeout_ms`; -1 on timeout or EOF.
int ReadByte(int fd, int timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, timeout_ms) != 1) return -1;
  unsigned char byte = 0;
  return ::read(fd, &byte, 1) == 1 ? byte : -1;
}

// The leader in its own process, stalled with SIGSTOP (as a GC pause or an overloaded host
// would): renewal stops with it, b takes over, and once resumed its write is refused.
TEST_F(PostgresLeaseTest, SigstoppedLeaderProcessIsFencedAfterResuming) {
  int to_child[2];
  int from_child[2];
  ASSERT_EQ(::pipe(to_child), 0);
  ASSERT_EQ(::pipe(from_child), 0);
  // No store (so no thread) exists in this process here: the child may use the allocator and
  // start its own threads after fork. It answers each command byte with one result byte and
  // never returns into the test runner (_exit), so the shared server is left alone.
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(to_child[1]);
    ::close(from_child[0]);
    auto reply = [&](unsigned char byte) { (void)!::write(from_child[1], &byte, 1); };
    {
      auto leader = OpenReplica("child", true);
      bool ok = leader != nullptr &&
                leader->Create(Mutation::Create(Key("from-child"), "{}")).has_value();
      reply(ok ? 'r' : 'x');
      for (int command = ReadByte(to_child[0], 30000); command == 'w';
           command = ReadByte(to_child[0], 30000)) {
        auto late = leader->Create(Mutation::Create(Key("child-late"), "{}"));
        reply(late.has_value()                                       ? 'o'
              : late.error().code() == core::ErrorCode::kUnavailable ? 'u'
                                                                     : 'e');
      }
    }
    ::_exit(0);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  auto cleanup = [&] {
    ::kill(child, SIGCONT);
    ::close(to_child[1]);  // EOF: the child leaves its loop and exits
    for (int i = 0; i < 200 && ::waitpid(child, nullptr, WNOHANG) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, WNOHANG);
    ::close(from_child[0]);
  };

  int ready = ReadByte(from_child[0], 30000);
  if (ready != 'r') {
    cleanup();
    FAIL() << "the child leader did not start and write (reply " << ready << ")";
  }
  auto b = OpenReplica("b", false);
  ASSERT_NE(b, nullptr);
  ASSERT_FALSE(b->Acquire().ok());  // the child renews
  ASSERT_EQ(::kill(child, SIGSTOP), 0);
  core::Status took = AcquireWithin10s(*b);
  bool b_wrote = took.ok() && b->Create(Mutation::Create(Key("from-b"), "{}")).has_value();
  ASSERT_EQ(::kill(child, SIGCONT), 0);
  unsigned char command = 'w';
  (void)!::write(to_child[1], &command, 1);
  int answer = ReadByte(from_child[0], 30000);
  cleanup();

  ASSERT_TRUE(took.ok()) << took.error().ToString();
  EXPECT_TRUE(b_wrote);
  EXPECT_EQ(answer, 'u') << "the resumed leader's write must be refused with kUnavailable";
  EXPECT_TRUE(b->Get(Key("from-child")).has_value());
  EXPECT_EQ(b->Get(Key("child-late")).error().code(), core::ErrorCode::kNotFound);
  auto still = b->Create(Mutation::Create(Key("after"), "{}"));
  ASSERT_TRUE(still.has_value()) << still.error().ToString();
  EXPECT_EQ(still->meta.resource_version, 3);  // from-child 1, from-b 2
}

TEST(PostgresOpenStoreTest, PostgresUriOpensThePostgresStore) {
  TempDir tmp;
  auto conninfo = SharedServer::Get().Database(tmp.path());
  ASSERT_TRUE(conninfo.has_value()) << conninfo.error().ToString();
  std::string db = conninfo->substr(conninfo->find("dbname=") + 7);
  db = db.substr(0, db.find(' '));
  std::string uri =
      "postgresql://postgres@127.0.0.1:" + std::to_string(SharedServer::Get().port()) + "/" + db;
  auto store = OpenStore(uri, "");
  ASSERT_TRUE(store.has_value()) << store.error().ToString();
  auto made = (*store)->Create(Mutation::Create(Key("via-uri"), "{}"));
  ASSERT_TRUE(made.has_value()) << made.error().ToString();
  EXPECT_NE(dynamic_cast<PostgresStore*>(store->get()), nullptr);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::store::testing
