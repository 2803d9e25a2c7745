// Reflector: list then watch into a cache, against a real RestHandler (in-process and over
// HTTP): creates, updates and deletes arrive in the cache and at the handler; a watch whose
// resourceVersion the store compacted away (410 ERROR event) relists; a 410 status relists; a
// transport failure backs off and resumes from the same resourceVersion; stop is prompt.
#include "server/kube/reflector.h"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <thread>

#include "kube/kube_test_hub.h"
#include "server/kube/http_transport.h"

namespace berth::server::kube {
namespace BERTH_UNITY_ID {

using testing::JobBody;
using testing::TestHub;
using Clock = std::chrono::steady_clock;

// Polls `done` every 5 ms for up to 5 s.
bool Eventually(const std::function<bool()>& done) {
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  while (Clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return done();
}

// Records what the reflector delivers.
class RecordingHandler : public ReflectorHandler {
 public:
  void OnReplace(std::vector<Json> items, std::string resource_version) override {
    std::lock_guard<std::mutex> lock(mu_);
    replaces_.push_back(std::to_string(items.size()) + "@" + resource_version);
  }
  void OnEvent(std::string_view type, const Json& object) override {
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back(std::string(type) + " " + object["metadata"].value("name", "?"));
  }
  std::vector<std::string> replaces() const {
    std::lock_guard<std::mutex> lock(mu_);
    return replaces_;
  }
  std::vector<std::string> events() const {
    std::lock_guard<std::mutex> lock(mu_);
    return events_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> replaces_;
  std::vector<std::string> events_;
};

// Runs a reflector on its own thread; stops and joins it on destruction.
class Running {
 public:
  explicit Running(Reflector& r) : thread_([&r, this] { r.Run(stop_); }) {}
  ~Running() { Stop(); }
  // Sets stop and joins; how long the join took.
  Clock::duration Stop() {
    const auto asked = Clock::now();
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    return Clock::now() - asked;
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

Resource Jobs() {
  auto r = ResourceFor("batch/v1", "Job");
  EXPECT_TRUE(r);
  return r ? *r : Resource{};
}

enum class Via { kInProcess, kHttp };

class ReflectorTest : public ::testing::TestWithParam<Via> {
 protected:
  ReflectorTest() : hub_(std::chrono::milliseconds(50)) {}

  std::unique_ptr<Client> NewClient() {
    if (GetParam() == Via::kInProcess) return std::make_unique<Client>(hub_.InProcess());
    if (url_.empty()) url_ = hub_.Serve();
    HttpConfig config;
    config.server = url_;
    auto made = NewHttpTransport(config);
    EXPECT_TRUE(made) << made.error().ToString();
    return std::make_unique<Client>(std::move(made).value());
  }

  TestHub hub_;
  std::string url_;
};

TEST_P(ReflectorTest, SeesCreatesUpdatesAndDeletes) {
  ASSERT_TRUE(hub_.ok());
  auto writer = std::make_unique<Client>(hub_.InProcess());
  ASSERT_EQ(writer->Create(Jobs(), "default", JobBody("before"))->status, 201);
  ASSERT_EQ(writer->Create(Jobs(), "kube-system", JobBody("elsewhere", 1, "kube-system"))->status, 201);

  auto client = NewClient();
  RecordingHandler handler;
  ReflectorOptions options;
  options.ns = "default";
  options.watch_timeout_s = 2;
  options.page_size = 1;
  Reflector reflector(*client, Jobs(), options, &handler);
  EXPECT_FALSE(reflector.Synced());
  Running running(reflector);
  ASSERT_TRUE(Eventually([&] { return reflector.Synced(); })) << reflector.LastError();
  EXPECT_EQ(reflector.Snapshot().count("default/before"), 1u);
  EXPECT_EQ(reflector.Snapshot().count("kube-system/elsewhere"), 0u) << "one namespace";
  ASSERT_EQ(handler.replaces().size(), 1u);
  EXPECT_EQ(handler.replaces()[0].substr(0, 2), "1@");

  ASSERT_EQ(writer->Create(Jobs(), "default", JobBody("new"))->status, 201);
  ASSERT_EQ(writer->Patch(Jobs(), "default", "before", "merge", R"({"spec":{"parallelism":9}})")->status, 200);
  ASSERT_EQ(writer->Delete(Jobs(), "default", "new")->status, 200);
  ASSERT_TRUE(Eventually([&] { return handler.events().size() >= 3; }));
  EXPECT_EQ(handler.events(),
            (std::vector<std::string>{"ADDED new", "MODIFIED before", "DELETED new"}));
  auto snapshot = reflector.Snapshot();
  EXPECT_EQ(snapshot.size(), 1u);
  EXPECT_EQ(snapshot["default/before"]["spec"]["parallelism"], 9);
  EXPECT_EQ(reflector.ResourceVersion(),
            std::to_string(hub_.store().CurrentResourceVersion()));

  // Bookmarks (every 50 ms here) move the resourceVersion past other kinds' writes.
  auto nodes = ResourceFor("v1", "Node");
  ASSERT_TRUE(nodes);
  ASSERT_EQ(writer->Create(*nodes, "", testing::NodeBody("n1"))->status, 201);
  const std::string after_node = std::to_string(hub_.store().CurrentResourceVersion());
  ASSERT_TRUE(Eventually([&] { return reflector.ResourceVersion() == after_node; }))
      << reflector.ResourceVersion() << " vs " << after_node;
  EXPECT_GT(reflector.counts().bookmarks, 0);

  const auto took = running.Stop();
  EXPECT_LT(took, std::chrono::milliseconds(1000)) << "stop is prompt";
  const ReflectorCounts counts = reflector.counts();
  EXPECT_EQ(counts.lists, 1);
  EXPECT_EQ(counts.relists, 0);
  EXPECT_EQ(counts.events, 3);
  EXPECT_GE(counts.watches, 1);
  EXPECT_EQ(counts.failures, 0) << reflector.LastError();
}

TEST_P(ReflectorTest, ResumesAfterTheWatchTimesOut) {
  ASSERT_TRUE(hub_.ok());
  auto client = NewClient();
  ReflectorOptions options;
  options.watch_timeout_s = 1;
  Reflector reflector(*client, Jobs(), options);
  Running running(reflector);
  ASSERT_TRUE(Eventually([&] { return reflector.counts().watches >= 2; }));
  auto writer = std::make_unique<Client>(hub_.InProcess());
  ASSERT_EQ(writer->Create(Jobs(), "default", JobBody("late"))->status, 201);
  ASSERT_TRUE(Eventually([&] { return reflector.Snapshot().count("default/late") == 1; }));
  running.Stop();
  EXPECT_EQ(reflector.counts().lists, 1) << "a clean end resumes the watch, no relist";
  EXPECT_EQ(reflector.counts().failures, 0) << reflector.LastError();
}

INSTANTIATE_TEST_SUITE_P(Transports, ReflectorTest, ::testing::Values(Via::kInProcess, Via::kHttp),
                         [](const ::testing::TestParamInfo<Via>& info) {
                           return info.param == Via::kInProcess ? "InProcess" : "Http";
                         });

// Holds each new watch at a gate while the test changes the store, and can end the current
// watch at its next line (bookmarks arrive every 50 ms), so the test decides exactly where
// the reflector's resourceVersion stands when it watches again.
class GatedTransport : public Transport {
 public:
  explicit GatedTransport(std::unique_ptr<Transport> inner) : inner_(std::move(inner)) {}
  core::Result<Reply> Send(const Request& request) override { return inner_->Send(request); }
  core::Result<int> Stream(const Request& request,
                           const std::function<bool(std::string_view line)>& on_line) override {
    while (closed.load() && (request.cancel == nullptr || !request.cancel->load())) {
      waiting = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    waiting = false;
    return inner_->Stream(request, [&](std::string_view line) {
      if (end_current.exchange(false)) return false;
      return on_line(line);
    });
  }
  std::atomic<bool> closed{false};
  std::atomic<bool> waiting{false};
  std::atomic<bool> end_current{false};

 private:
  std::unique_ptr<Transport> inner_;
};

TEST(ReflectorGoneTest, RelistsWhenTheStoreCompactedItsResourceVersion) {
  TestHub hub(std::chrono::milliseconds(50));
  ASSERT_TRUE(hub.ok());
  auto writer = std::make_unique<Client>(hub.InProcess());
  ASSERT_EQ(writer->Create(Jobs(), "default", JobBody("a"))->status, 201);

  auto gated_owned = std::make_unique<GatedTransport>(hub.InProcess());
  GatedTransport& gated = *gated_owned;
  Client client(std::move(gated_owned));
  RecordingHandler handler;
  Reflector reflector(client, Jobs(), ReflectorOptions{}, &handler);
  Running running(reflector);
  ASSERT_TRUE(Eventually([&] { return reflector.counts().watches == 1; }));

  // Park the next watch, end this one, then write and compact past the reflector's RV.
  gated.closed = true;
  gated.end_current = true;
  ASSERT_TRUE(Eventually([&] { return gated.waiting.load(); }));
  const std::string parked_at = reflector.ResourceVersion();
  ASSERT_EQ(writer->Create(Jobs(), "default", JobBody("b"))->status, 201);
  ASSERT_TRUE(hub.store().Compact({.keep_last = 0, .before_rv = std::nullopt}).ok());
  ASSERT_LT(std::stoll(parked_at), hub.store().CompactedResourceVersion());
  gated.closed = false;

  ASSERT_TRUE(Eventually([&] { return reflector.counts().relists == 1; })) << reflector.LastError();
  EXPECT_EQ(reflector.counts().gone, 1);
  EXPECT_EQ(reflector.Snapshot().count("default/b"), 1u) << "the relist brought the missed create";
  const auto replaces = handler.replaces();
  ASSERT_EQ(replaces.size(), 2u);
  EXPECT_EQ(replaces[0].substr(0, 2), "1@");
  EXPECT_EQ(replaces[1], "2@" + std::to_string(hub.store().CurrentResourceVersion()));
  EXPECT_TRUE(handler.events().empty()) << "b came by the relist, not as an event";
  EXPECT_EQ(reflector.counts().failures, 0) << reflector.LastError();
  EXPECT_LT(running.Stop(), std::chrono::milliseconds(1000));
}

// A scripted server: list replies and watch outcomes in order, each request recorded.
class ScriptedTransport : public Transport {
 public:
  struct WatchOutcome {
    std::vector<std::string> lines;
    int status = 200;
    bool fail = false;  // a transport error instead of a status
  };
  core::Result<Reply> Send(const Request& request) override {
    std::lock_guard<std::mutex> lock(mu);
    sends.push_back(request.query);
    if (lists.empty()) return Reply{500, "", {}};
    Reply r = lists.front();
    lists.pop_front();
    return r;
  }
  core::Result<int> Stream(const Request& request,
                           const std::function<bool(std::string_view line)>& on_line) override {
    WatchOutcome outcome;
    {
      std::lock_guard<std::mutex> lock(mu);
      watch_queries.push_back(request.query);
      if (watches.empty()) {
        outcome.fail = true;
      } else {
        outcome = watches.front();
        watches.pop_front();
      }
    }
    for (const std::string& line : outcome.lines) {
      if (!on_line(line)) break;
    }
    if (outcome.fail) return core::Error(core::ErrorCode::kUnavailable, "connection refused");
    return outcome.status;
  }
  std::vector<std::string> WatchQueries() {
    std::lock_guard<std::mutex> lock(mu);
    return watch_queries;
  }

  std::mutex mu;
  std::deque<Reply> lists;
  std::deque<WatchOutcome> watches;
  std::vector<std::string> sends;
  std::vector<std::string> watch_queries;
};

std::string ListOf(const std::string& rv, const std::string& name) {
  return R"({"kind":"JobList","metadata":{"resourceVersion":")" + rv +
         R"("},"items":[{"metadata":{"name":")" + name + R"(","namespace":"d","resourceVersion":")" + rv +
         R"("}}]})";
}
std::string Event(const std::string& type, const std::string& name, const std::string& rv) {
  return R"({"type":")" + type + R"(","object":{"metadata":{"name":")" + name +
         R"(","namespace":"d","resourceVersion":")" + rv + R"("}}})";
}

// kube-apiserver's List items carry no kind or apiVersion (ListOf's don't either): the
// reflector's cache holds whole objects, as its readers (the agent's inventory) need.
TEST(ReflectorScriptTest, ListedItemsGetTheirKindAndApiVersion) {
  auto owned = std::make_unique<ScriptedTransport>();
  ScriptedTransport& t = *owned;
  t.lists.push_back(Reply{200, ListOf("10", "a"), {}});
  t.watches.push_back({{}, 200, false});
  Client client(std::move(owned));
  ReflectorOptions options;
  options.backoff_initial = std::chrono::milliseconds(1);
  Reflector reflector(client, Jobs(), options, nullptr);
  Running running(reflector);
  ASSERT_TRUE(Eventually([&] { return reflector.Synced(); }));
  running.Stop();
  const auto cache = reflector.Snapshot();
  ASSERT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.begin()->second["kind"], "Job");
  EXPECT_EQ(cache.begin()->second["apiVersion"], "batch/v1");
}

TEST(ReflectorScriptTest, GoneStatusRelistsAndFailuresResumeFromTheLastVersion) {
  auto owned = std::make_unique<ScriptedTransport>();
  ScriptedTransport& t = *owned;
  t.lists.push_back(Reply{500, R"({"kind":"Status","code":500,"message":"store down"})", {}});
  t.lists.push_back(Reply{200, ListOf("10", "a"), {}});
  t.lists.push_back(Reply{200, ListOf("30", "c"), {}});
  // Watch 1: an event and a bookmark, then the connection drops.
  t.watches.push_back({{Event("ADDED", "b", "11"),
                        R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"15"}}})"},
                       200,
                       true});
  // Watch 2 (from 15): refused as gone by status; the body's Status line too.
  t.watches.push_back({{R"({"kind":"Status","code":410,"reason":"Expired"})"}, 410, false});
  // Watch 3 (from the relist's 30): an ERROR event that is not 410, then nothing more.
  t.watches.push_back({{Event("MODIFIED", "c", "31"),
                        R"({"type":"ERROR","object":{"kind":"Status","code":500,"message":"boom"}})"},
                       200,
                       false});
  t.watches.push_back({{}, 200, false});
  Client client(std::move(owned));
  RecordingHandler handler;
  ReflectorOptions options;
  options.label_selector = "app=x";
  options.backoff_initial = std::chrono::milliseconds(1);
  options.backoff_max = std::chrono::milliseconds(4);
  Reflector reflector(client, Jobs(), options, &handler);
  Running running(reflector);
  ASSERT_TRUE(Eventually([&] { return t.WatchQueries().size() >= 4; }));
  running.Stop();

  const auto queries = t.WatchQueries();
  auto rv_of = [](const std::string& q) {
    const size_t at = q.find("resourceVersion=");
    return q.substr(at + 16, q.find('&', at) - at - 16);
  };
  EXPECT_EQ(rv_of(queries[0]), "10");
  EXPECT_EQ(rv_of(queries[1]), "15") << "resumed from the bookmark after the drop";
  EXPECT_EQ(rv_of(queries[2]), "30") << "after the 410, from the relist";
  EXPECT_EQ(rv_of(queries[3]), "31") << "after the ERROR event, resumed, not relisted";
  EXPECT_NE(queries[0].find("labelSelector=app%3Dx"), std::string::npos) << queries[0];
  EXPECT_NE(queries[0].find("allowWatchBookmarks=true"), std::string::npos) << queries[0];
  EXPECT_NE(queries[0].find("timeoutSeconds=300"), std::string::npos) << queries[0];

  const ReflectorCounts counts = reflector.counts();
  EXPECT_EQ(counts.lists, 2);
  EXPECT_EQ(counts.relists, 1);
  EXPECT_EQ(counts.gone, 1);
  EXPECT_GE(counts.failures, 3) << "the failed list, the drop, the ERROR event";
  EXPECT_EQ(counts.bookmarks, 1);
  EXPECT_EQ(handler.replaces(), (std::vector<std::string>{"1@10", "1@30"}));
  EXPECT_EQ(handler.events(), (std::vector<std::string>{"ADDED b", "MODIFIED c"}));
  EXPECT_EQ(reflector.Snapshot().size(), 1u) << "the relist replaced a and b by c";
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::kube
