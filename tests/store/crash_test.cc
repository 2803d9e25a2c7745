// kill -9 durability: a child process creates objects from several threads (and, from one
// more, cycles of several creates committed as one batch) and reports each one on a pipe only
// after its commit returned; the parent SIGKILLs it at seeded random points,
// reopens the store and checks that every acknowledged object is there exactly once, with the
// RV it was acknowledged with, that no cycle is half stored, and that RVs only increase across
// restarts.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "store/sqlite_store.h"
#include "store/temp_dir.h"

namespace berth::store {
namespace BERTH_UNITY_ID {

using testing::TempDir;

constexpr int kWriterThreads = 4;
constexpr int kPerThread = 400;
constexpr int kCycles = 100;
constexpr int kCycleSize = 5;

// The child: never returns. Exit 0 when every create was acknowledged, 3 when the store
// would not open, 4 on a failed create.
[[noreturn]] void CreateAndReport(const std::string& dir, int round, int ack_fd) {
  auto opened = SqliteStore::Open(dir);
  if (!opened.has_value()) _exit(3);
  auto store = std::move(opened).value();
  std::vector<std::thread> threads;
  std::atomic<bool> failed{false};
  for (int t = 0; t < kWriterThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        char text[64];
        std::snprintf(text, sizeof(text), "r%d-t%d-%d", round, t, i);
        std::string name = text;
        auto created = store->Create(Mutation::Create(ObjectKey{"", "ConfigMap", "crash", name},
                                                      "{\"n\":" + std::to_string(i) + "}"));
        if (!created.has_value()) {
          failed = true;
          return;
        }
        // One write() of less than PIPE_BUF bytes: lines from the threads never interleave.
        std::string line = name + " " + std::to_string(created->meta.resource_version) + "\n";
        if (::write(ack_fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
          failed = true;
          return;
        }
      }
    });
  }
  // A scheduling loop's stand-in: cycles of kCycleSize creates committed as one batch, all
  // acknowledged together (in one write()) once the batch returned.
  threads.emplace_back([&] {
    for (int j = 0; j < kCycles; ++j) {
      std::vector<Mutation> cycle;
      for (int k = 0; k < kCycleSize; ++k) {
        char text[64];
        std::snprintf(text, sizeof(text), "r%d-c%d-%d", round, j, k);
        cycle.push_back(Mutation::Create(ObjectKey{"", "ConfigMap", "crash", text}, "{}"));
      }
      auto committed = store->Commit(std::move(cycle));
      if (!committed.has_value()) {
        failed = true;
        return;
      }
      std::string lines;
      for (const auto& object : *committed) {
        lines += object.key.name + " " + std::to_string(object.meta.resource_version) + "\n";
      }
      if (::write(ack_fd, lines.data(), lines.size()) != static_cast<ssize_t>(lines.size())) {
        failed = true;
        return;
      }
    }
  });
  for (auto& thread : threads) thread.join();
  _exit(failed ? 4 : 0);
}

TEST(SqliteStoreCrashTest, KillNineLosesNoAcknowledgedWrite) {
  TempDir tmp;
  const std::string dir = tmp.Sub("data");
  std::mt19937 rng(15);  // seeded: the kill points are the same every run
  std::map<std::string, int64_t> acked;  // every acknowledged name -> its RV, over all rounds
  int64_t rv_after_restart = 0;
  constexpr int kRounds = 5;
  for (int round = 0; round < kRounds; ++round) {
    const size_t kill_after = std::uniform_int_distribution<size_t>(1, 600)(rng);
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(fds[0]);
      CreateAndReport(dir, round, fds[1]);
    }
    ::close(fds[1]);

    // Read acknowledgements; SIGKILL after kill_after of them; then drain to EOF (the kernel
    // closes the child's end when it dies). Bounded by a 120 s deadline.
    std::string buffer;
    size_t acks_this_round = 0;
    bool killed = false;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    for (;;) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid, SIGKILL);
        ADD_FAILURE() << "round " << round << ": child did not finish in time";
        break;
      }
      pollfd pfd{fds[0], POLLIN, 0};
      if (::poll(&pfd, 1, 1000) <= 0) continue;
      char chunk[4096];
      ssize_t n = ::read(fds[0], chunk, sizeof(chunk));
      if (n <= 0) break;  // EOF: the child is gone
      buffer.append(chunk, static_cast<size_t>(n));
      size_t newline;
      while ((newline = buffer.find('\n')) != std::string::npos) {
        std::istringstream line(buffer.substr(0, newline));
        buffer.erase(0, newline + 1);
        std::string name;
        int64_t rv = 0;
        line >> name >> rv;
        EXPECT_TRUE(acked.emplace(name, rv).second) << name << " acknowledged twice";
        EXPECT_GT(rv, rv_after_restart) << name << ": RV went back across a restart";
        ++acks_this_round;
      }
      if (!killed && acks_this_round >= kill_after) {
        ::kill(pid, SIGKILL);
        killed = true;
      }
    }
    ::close(fds[0]);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    if (!killed) {
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "round " << round;
    }
    EXPECT_GE(acks_this_round,
              std::min<size_t>(kill_after, kWriterThreads * kPerThread + kCycles * kCycleSize));

    // Restart: every acknowledged object, once, with its RV; the counter did not go back.
    auto opened = SqliteStore::Open(dir);
    ASSERT_TRUE(opened.has_value()) << opened.error().ToString();
    auto store = std::move(opened).value();
    std::map<std::string, int64_t> stored;
    ListOptions options{"", "ConfigMap", std::string("crash"), std::nullopt, 1000};
    for (int page = 0; page < 1000; ++page) {
      auto listed = store->List(options);
      ASSERT_TRUE(listed.has_value());
      for (const auto& item : listed->items) {
        EXPECT_TRUE(stored.emplace(item.key.name, item.meta.resource_version).second);
      }
      if (!listed->next) break;
      options.start_after = listed->next;
    }
    for (const auto& [name, rv] : acked) {
      auto it = stored.find(name);
      ASSERT_NE(it, stored.end()) << "round " << round << ": acknowledged " << name << " lost";
      EXPECT_EQ(it->second, rv) << name;
    }
    // Never half a cycle: a cycle's creates are all stored or none is.
    std::map<std::string, int> per_cycle;
    for (const auto& [name, rv] : stored) {
      size_t c = name.find("-c");
      if (c != std::string::npos) ++per_cycle[name.substr(0, name.rfind('-'))];
    }
    for (const auto& [cycle, count] : per_cycle) EXPECT_EQ(count, kCycleSize) << cycle;
    // Objects committed but killed before their acknowledgement reached the pipe may exist
    // too; each exactly once, with one ADDED event.
    auto events = store->EventsSince(WatchOptions{});
    ASSERT_TRUE(events.has_value());
    std::map<std::string, int> added;
    for (const auto& event : events->events) {
      if (event.type == EventType::kAdded) ++added[event.object.key.name];
    }
    EXPECT_EQ(added.size(), stored.size());
    for (const auto& [name, count] : added) EXPECT_EQ(count, 1) << name;
    // A watch that saw everything up to the previous restart resumes: exactly this round's
    // committed creates follow, in RV order (the log is not compacted here, so never Gone).
    WatchOptions resume;
    resume.since_rv = rv_after_restart;
    auto resumed = store->EventsSince(resume);
    ASSERT_TRUE(resumed.has_value()) << resumed.error().ToString();
    int64_t previous = rv_after_restart;
    size_t this_round = 0;
    char prefix[16];
    std::snprintf(prefix, sizeof(prefix), "r%d-", round);
    for (const auto& event : resumed->events) {
      EXPECT_GT(event.object.meta.resource_version, previous);
      previous = event.object.meta.resource_version;
      EXPECT_EQ(event.object.key.name.rfind(prefix, 0), 0u);
      ++this_round;
    }
    EXPECT_GE(this_round, acks_this_round);
    int64_t current = store->CurrentResourceVersion();
    EXPECT_GE(current, rv_after_restart);
    for (const auto& [name, rv] : stored) EXPECT_LE(rv, current);
    rv_after_restart = current;
  }
  EXPECT_GT(acked.size(), static_cast<size_t>(kRounds));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::store
