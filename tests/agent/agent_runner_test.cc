// The agent against a real hub (AgentHub behind a RestHandler over SQLite) and a real member
// API (another RestHandler over SQLite), both in-process: registration, inventory, works
// applied and reported, works removed after their grace, a partition that drops, repeats and
// reorders syncs, a hub whose identity changed, and a reply from an older leader epoch.
#include "server/agent/agent_runner.h"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <filesystem>
#include <fstream>
#include <string>

#include "server/agent/agent_hub.h"
#include "server/kube/in_process_transport.h"
#include "server/rest/rest_handler.h"
#include "server/rest/stored_json.h"
#include "store/sqlite_store.h"
#include "store/temp_dir.h"

namespace berth::server::agent {
namespace BERTH_UNITY_ID {

// One API server: store, feed, handler (and, for a hub, the agents' endpoint).
struct Api {
  explicit Api(const std::string& dir, bool hub) {
    auto opened = store::SqliteStore::Open(dir);
    EXPECT_TRUE(opened) << opened.error().ToString();
    store = std::move(opened).value();
    handler = std::make_unique<RestHandler>(*store, feed, nullptr, RestOptions{});
    EXPECT_TRUE(handler->EnsureSystemNamespaces().ok());
    if (hub) {
      AgentHubOptions options;
      options.auto_accept = true;
      options.sync_period = std::chrono::seconds(10);
      agents = std::make_unique<AgentHub>(*store, feed, nullptr, options);
      EXPECT_TRUE(agents->Load().ok());
      AgentHub* a = agents.get();
      handler->Mount(std::string(kSyncPathPrefix), [a](const HttpRequest& r) { return a->Serve(r); });
    }
  }
  std::unique_ptr<store::SqliteStore> store;
  ChangeFeed feed;
  std::unique_ptr<RestHandler> handler;
  std::unique_ptr<AgentHub> agents;
};

// Between the agent and the hub: drops replies, repeats requests and sends old requests again
// before new ones, on a fixed schedule; can also make replies look older than they are.
class PartitionProxy : public kube::Transport {
 public:
  explicit PartitionProxy(std::unique_ptr<kube::Transport> inner) : inner_(std::move(inner)) {}
  core::Result<kube::Reply> Send(const kube::Request& request) override {
    ++calls_;
    if (replay_old && !sent_.empty()) (void)inner_->Send(sent_.front());  // reordered: an old one lands late
    sent_.push_back(request);
    if (sent_.size() > 3) sent_.pop_front();
    auto reply = inner_->Send(request);
    if (duplicate) (void)inner_->Send(request);
    if (drop_every > 0 && calls_ % drop_every == 0) return core::Error(core::ErrorCode::kUnavailable, "dropped");
    if (reply && lower_epoch) {
      Json body = Json::parse(reply->body);
      body["epoch"] = 0;
      reply->body = body.dump();
    }
    return reply;
  }
  core::Result<int> Stream(const kube::Request& request,
                           const std::function<bool(std::string_view)>& on_line) override {
    return inner_->Stream(request, on_line);
  }
  bool replay_old = false;
  bool duplicate = false;
  int drop_every = 0;
  bool lower_epoch = false;

 private:
  std::unique_ptr<kube::Transport> inner_;
  std::deque<kube::Request> sent_;
  int calls_ = 0;
};

class AgentRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hub_ = std::make_unique<Api>(dir_.Sub("hub"), true);
    member_ = std::make_unique<Api>(dir_.Sub("member"), false);
  }

  std::unique_ptr<AgentRunner> MakeAgent(PartitionProxy** proxy_out = nullptr, Api* hub = nullptr,
                                         const std::function<void(AgentOptions&)>& tweak = {}) {
    auto proxy = std::make_unique<PartitionProxy>(
        std::make_unique<kube::InProcessTransport>(*(hub != nullptr ? hub : hub_.get())->handler));
    if (proxy_out != nullptr) *proxy_out = proxy.get();
    AgentOptions options;
    options.cluster = "eu-1";
    options.hub_server = "https://hub.test:443";
    options.state_dir = dir_.Sub("agent");
    options.orphan_grace = std::chrono::seconds(0);
    options.watch_inventory = false;
    if (tweak) tweak(options);
    auto agent = std::make_unique<AgentRunner>(
        std::move(proxy), std::make_unique<kube::Client>(std::make_unique<kube::InProcessTransport>(*member_->handler)),
        options);
    EXPECT_TRUE(agent->Load().ok());
    agent->SetInventoryForTest({{{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n1"}}}}});
    return agent;
  }

  void PutWork(const std::string& name, const std::string& job, int parallelism = 1) {
    Json w = {{"apiVersion", "work.open-cluster-management.io/v1"},
              {"kind", "ManifestWork"},
              {"metadata", {{"name", name}, {"namespace", "eu-1"}}},
              {"spec", {{"workload", {{"manifests", Json::array({JobManifest(job, parallelism)})}}}}}};
    const store::ObjectKey key{"work.open-cluster-management.io", "ManifestWork", "eu-1", name};
    auto stored = hub_->store->Get(key);
    if (stored) {
      store::Mutation m = store::Mutation::Update(key, StoredBody(w), stored->meta.resource_version);
      m.bump_generation = true;
      ASSERT_TRUE(hub_->store->Commit({m}));
    } else {
      ASSERT_TRUE(hub_->store->Commit({store::Mutation::Create(key, StoredBody(w))}));
    }
  }

  static Json JobManifest(const std::string& name, int parallelism) {
    return {{"apiVersion", "batch/v1"},
            {"kind", "Job"},
            {"metadata", {{"name", name}, {"namespace", "default"}}},
            {"spec", {{"parallelism", parallelism},
                      {"template", {{"spec", {{"restartPolicy", "Never"},
                                              {"containers", Json::array({{{"name", "c"}, {"image", "busybox"}}})}}}}}}}};
  }

  std::optional<store::StoredObject> MemberJob(const std::string& name) {
    auto stored = member_->store->Get({"batch", "Job", "default", name});
    if (!stored) return std::nullopt;
    return *stored;
  }

  Json HubWork(const std::string& name) {
    auto stored = hub_->store->Get({"work.open-cluster-management.io", "ManifestWork", "eu-1", name});
    if (!stored) return Json();
    return *ServedObject(*stored, "");
  }

  static int64_t Sequence(const Json& work) {
    const Json& a = work["metadata"].value("annotations", Json::object());
    return a.contains(kStatusSequenceAnnotation) ? std::stoll(a[kStatusSequenceAnnotation].get<std::string>()) : 0;
  }

  store::testing::TempDir dir_;
  std::unique_ptr<Api> hub_;
  std::unique_ptr<Api> member_;
};

TEST_F(AgentRunnerTest, RegistersSendsInventoryAppliesReportsAndRemoves) {
  auto agent = MakeAgent();
  auto first = agent->Round();
  ASSERT_TRUE(first) << first.error().ToString();
  EXPECT_TRUE(first->accepted);
  EXPECT_TRUE(first->sent_inventory);
  EXPECT_TRUE(hub_->store->Get({kInventoryGroup, kInventoryKind, "", "eu-1"}));
  // The same inventory is not sent twice.
  auto second = agent->Round();
  ASSERT_TRUE(second);
  EXPECT_FALSE(second->sent_inventory);

  PutWork("w1", "train");
  auto applied = agent->Round();
  ASSERT_TRUE(applied);
  EXPECT_EQ(applied->applied, 1);
  ASSERT_TRUE(MemberJob("train").has_value());
  // Its status reaches the hub with the next sync.
  auto reported = agent->Round();
  ASSERT_TRUE(reported);
  EXPECT_GE(reported->statuses_sent, 1);
  Json work = HubWork("w1");
  ASSERT_TRUE(work["status"].contains("conditions")) << work.dump();
  bool applied_true = false;
  for (const Json& c : work["status"]["conditions"]) applied_true |= c["type"] == "Applied" && c["status"] == "True";
  EXPECT_TRUE(applied_true) << work["status"].dump();
  EXPECT_GT(Sequence(work), 0);

  // A new generation is applied over the old one.
  PutWork("w1", "train", 3);
  ASSERT_TRUE(agent->Round());
  Json job = *ServedObject(*MemberJob("train"), "");
  EXPECT_EQ(job["spec"]["parallelism"], 3);

  // The hub deletes the work: the agent removes what it applied (grace 0 here).
  ASSERT_TRUE(hub_->store->Commit(
      {store::Mutation::Delete({"work.open-cluster-management.io", "ManifestWork", "eu-1", "w1"})}));
  auto removed = agent->Round();
  ASSERT_TRUE(removed);
  EXPECT_EQ(removed->removed, 1);
  EXPECT_FALSE(MemberJob("train").has_value());
  EXPECT_TRUE(agent->HeldWorks().empty());
}

// Between resyncs a held work's objects are only read back (a drifted field stays until the
// resync, as OCM's manifest controller leaves it until then), except that an object deleted
// from the member cluster is applied again at once.
TEST_F(AgentRunnerTest, HeldWorksAreReadBackBetweenResyncsAndReappliedWhenGoneOrDue) {
  int64_t now = 1'800'000'000;
  auto agent = MakeAgent(nullptr, nullptr, [&now](AgentOptions& o) {
    o.now_unix_s = [&now] { return now; };
    o.resync = std::chrono::seconds(300);
  });
  ASSERT_TRUE(agent->Round());
  PutWork("w1", "train");
  auto applied = agent->Round();
  ASSERT_TRUE(applied);
  ASSERT_EQ(applied->applied, 1);
  auto parallelism = [&]() -> int64_t {
    auto job = MemberJob("train");
    return job ? (*ServedObject(*job, ""))["spec"].value("parallelism", int64_t{-1}) : -1;
  };
  auto drift = [&](int64_t to) {
    auto stored = MemberJob("train");
    ASSERT_TRUE(stored.has_value());
    Json job = *ServedObject(*stored, "");
    job["spec"]["parallelism"] = to;
    ASSERT_TRUE(member_->store->Commit({store::Mutation::Update({"batch", "Job", "default", "train"}, StoredBody(job),
                                                                stored->meta.resource_version)}));
  };
  drift(5);
  now += 10;
  auto refreshed = agent->Round();
  ASSERT_TRUE(refreshed);
  EXPECT_EQ(refreshed->refreshed, 1);
  EXPECT_EQ(refreshed->resynced, 0);
  EXPECT_EQ(parallelism(), 5);  // read back, not applied

  ASSERT_TRUE(member_->store->Commit({store::Mutation::Delete({"batch", "Job", "default", "train"})}));
  now += 10;
  ASSERT_TRUE(agent->Round());
  EXPECT_EQ(parallelism(), 1);  // gone: applied again at once

  drift(7);
  now += 300;
  auto resynced = agent->Round();
  ASSERT_TRUE(resynced);
  EXPECT_EQ(resynced->resynced, 1);
  EXPECT_EQ(parallelism(), 1);  // the resync restores the work's spec
}

// A work the hub deleted (its event log shows it) is removed at the next sync, whatever the
// orphan grace; one that vanished without a trace (the log compacted past the agent's
// version, as after a restore) waits for the grace.
TEST_F(AgentRunnerTest, WorksDeletedOnTheHubGoAtOnceOthersAfterTheGrace) {
  auto agent = MakeAgent(nullptr, nullptr, [](AgentOptions& o) { o.orphan_grace = std::chrono::seconds(3600); });
  ASSERT_TRUE(agent->Round());
  PutWork("w1", "train");
  PutWork("w2", "serve");
  ASSERT_TRUE(agent->Round());  // applied
  ASSERT_TRUE(agent->Round());  // the statuses sent; the agent knows the hub's works version
  ASSERT_TRUE(MemberJob("train").has_value());

  ASSERT_TRUE(hub_->store->Commit(
      {store::Mutation::Delete({"work.open-cluster-management.io", "ManifestWork", "eu-1", "w1"})}));
  auto removed = agent->Round();
  ASSERT_TRUE(removed);
  EXPECT_EQ(removed->removed, 1);
  EXPECT_FALSE(MemberJob("train").has_value());

  // w2 vanishes and the log no longer reaches back to the agent's version: kept for the grace.
  ASSERT_TRUE(hub_->store->Commit(
      {store::Mutation::Delete({"work.open-cluster-management.io", "ManifestWork", "eu-1", "w2"})}));
  ASSERT_TRUE(hub_->store->Compact({.keep_last = 0, .before_rv = std::nullopt}).ok());
  auto kept = agent->Round();
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->removed, 0);
  EXPECT_TRUE(MemberJob("serve").has_value());
  EXPECT_TRUE(agent->HeldWorks().contains("w2"));
}

TEST(StatusForSyncTest, AStatusOverTheLimitLosesFeedbackThenManifests) {
  const Json conditions = Json::array({{{"type", "Applied"}, {"status", "True"}}});
  Json status = {{"conditions", conditions},
                 {"resourceStatus",
                  {{"manifests", Json::array({{{"resourceMeta", {{"name", "big"}}},
                                               {"statusFeedback", {{"values", std::string(5000, 'x')}}}}})}}}};
  EXPECT_EQ(StatusForSync(status, 100000), status);
  const Json no_feedback = StatusForSync(status, 1000);
  EXPECT_EQ(no_feedback["conditions"], conditions);
  EXPECT_EQ(no_feedback["resourceStatus"]["manifests"][0]["resourceMeta"]["name"], "big");
  EXPECT_FALSE(no_feedback["resourceStatus"]["manifests"][0].contains("statusFeedback"));
  status["resourceStatus"]["manifests"][0]["resourceMeta"]["name"] = std::string(5000, 'y');
  EXPECT_EQ(StatusForSync(status, 1000), Json({{"conditions", conditions}}));
  EXPECT_EQ(StatusForSync(status, 10), Json::object());
}

// A damaged state file is an error naming the file, not an exception.
TEST_F(AgentRunnerTest, ADamagedStateFileIsAnError) {
  std::filesystem::create_directories(dir_.Sub("agent"));
  for (const char* text : {R"({"epoch":"x"})", R"({"works":{"w":{"sequence":"7"}}})", R"({"works":[1]})"}) {
    std::ofstream(dir_.Sub("agent") + "/agent-state.json", std::ios::trunc) << text;
    AgentOptions options;
    options.cluster = "eu-1";
    options.state_dir = dir_.Sub("agent");
    options.watch_inventory = false;
    AgentRunner agent(std::make_unique<kube::InProcessTransport>(*hub_->handler),
                      std::make_unique<kube::Client>(std::make_unique<kube::InProcessTransport>(*member_->handler)),
                      options);
    auto loaded = agent.Load();
    ASSERT_FALSE(loaded.ok()) << text;
    EXPECT_NE(loaded.error().message().find("agent-state.json"), std::string::npos) << loaded.error().message();
  }
}

TEST_F(AgentRunnerTest, APartitionNeverRunsWorkTwiceNorMovesStatusesBack) {
  PartitionProxy* proxy = nullptr;
  auto agent = MakeAgent(&proxy);
  proxy->replay_old = true;
  proxy->duplicate = true;
  proxy->drop_every = 3;
  PutWork("w1", "train");
  std::string job_uid;
  int64_t last_sequence = 0;
  for (int i = 0; i < 12; ++i) {
    (void)agent->Round();  // a dropped reply is an error: the next round repeats the levels
    if (auto job = MemberJob("train")) {
      if (job_uid.empty()) job_uid = job->meta.uid;
      EXPECT_EQ(job->meta.uid, job_uid) << "the job was made again in round " << i;
    }
    const int64_t seq = Sequence(HubWork("w1"));
    EXPECT_GE(seq, last_sequence) << "round " << i;
    last_sequence = seq;
  }
  EXPECT_FALSE(job_uid.empty());
  EXPECT_GT(last_sequence, 0);
  // Everything acknowledged stays: the hub holds the status and the agent the work.
  EXPECT_EQ(agent->HeldWorks().size(), 1u);
}

TEST_F(AgentRunnerTest, WorksOfAHubWhoseIdentityChangedStay) {
  auto agent = MakeAgent();
  PutWork("w1", "train");
  ASSERT_TRUE(agent->Round());
  ASSERT_TRUE(MemberJob("train").has_value());
  const std::string old_hub = agent->hub_id();
  // A wiped hub: a new store, a new identity, no works. The agent keeps what it runs.
  Api fresh(dir_.Sub("hub2"), true);
  auto moved = MakeAgent(nullptr, &fresh);  // the same state folder: a restarted agent
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(moved->Round());
  EXPECT_NE(moved->hub_id(), old_hub);
  EXPECT_TRUE(MemberJob("train").has_value());
}

TEST_F(AgentRunnerTest, ARestartedAgentConvergesWithoutApplyingAgain) {
  {
    auto agent = MakeAgent();
    PutWork("w1", "train");
    ASSERT_TRUE(agent->Round());
    ASSERT_TRUE(agent->Round());
  }
  const std::string uid = MemberJob("train")->meta.uid;
  const int64_t rv = MemberJob("train")->meta.resource_version;
  auto restarted = MakeAgent();
  auto round = restarted->Round();
  ASSERT_TRUE(round);
  EXPECT_EQ(round->applied, 0);  // held at the hub's generation already
  EXPECT_EQ(MemberJob("train")->meta.uid, uid);
  EXPECT_EQ(restarted->HeldWorks().size(), 1u);
  (void)rv;
}

TEST_F(AgentRunnerTest, RepliesFromAnOlderEpochAreIgnored) {
  PartitionProxy* proxy = nullptr;
  auto agent = MakeAgent(&proxy);
  ASSERT_TRUE(agent->Round());  // epoch 1 seen
  PutWork("w1", "train");
  proxy->lower_epoch = true;
  auto round = agent->Round();
  ASSERT_TRUE(round);
  EXPECT_TRUE(round->stale_reply);
  EXPECT_FALSE(MemberJob("train").has_value());
  proxy->lower_epoch = false;
  ASSERT_TRUE(agent->Round());
  EXPECT_TRUE(MemberJob("train").has_value());
}

TEST_F(AgentRunnerTest, RefusedAndUnknownManifestsAreReportedAndOthersApplied) {
  auto agent = MakeAgent();
  // A work whose Job names a namespace the member does not have (the API refuses it), one of
  // a kind berth does not serve, and a good one.
  auto put = [&](const std::string& name, const Json& manifest) {
    Json w = {{"apiVersion", "work.open-cluster-management.io/v1"},
              {"kind", "ManifestWork"},
              {"metadata", {{"name", name}, {"namespace", "eu-1"}}},
              {"spec", {{"workload", {{"manifests", Json::array({manifest})}}}}}};
    ASSERT_TRUE(hub_->store->Commit({store::Mutation::Create(
        {"work.open-cluster-management.io", "ManifestWork", "eu-1", name}, StoredBody(w))}));
  };
  Json missing_ns = JobManifest("lost", 1);
  missing_ns["metadata"]["namespace"] = "nowhere";
  put("refused", missing_ns);
  put("unknown", {{"apiVersion", "example.com/v1"}, {"kind", "Frobnicator"}, {"metadata", {{"name", "f"}, {"namespace", "default"}}}});
  PutWork("good", "train");
  ASSERT_TRUE(agent->Round());
  ASSERT_TRUE(agent->Round());  // the statuses reach the hub
  EXPECT_TRUE(MemberJob("train").has_value());
  auto applied = [&](const std::string& work) -> Json {
    for (const Json& c : HubWork(work)["status"].value("conditions", Json::array())) {
      if (c["type"] == "Applied") return c;
    }
    return Json();
  };
  EXPECT_EQ(applied("good")["status"], "True");
  Json refused = applied("refused");
  EXPECT_EQ(refused["status"], "False") << HubWork("refused").dump();
  const std::string refused_status = HubWork("refused")["status"].dump();
  EXPECT_NE(refused_status.find("nowhere"), std::string::npos) << refused_status;  // the API server's words
  Json unknown = applied("unknown");
  EXPECT_EQ(unknown["status"], "False") << HubWork("unknown").dump();
  EXPECT_NE(HubWork("unknown")["status"].dump().find("Frobnicator"), std::string::npos);
}

TEST_F(AgentRunnerTest, AnUnreachableHubChangesNothing) {
  PartitionProxy* proxy = nullptr;
  auto agent = MakeAgent(&proxy);
  PutWork("w1", "train");
  ASSERT_TRUE(agent->Round());
  ASSERT_TRUE(MemberJob("train").has_value());
  proxy->drop_every = 1;
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(agent->Round());
  EXPECT_TRUE(MemberJob("train").has_value());
  EXPECT_EQ(agent->HeldWorks().size(), 1u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::agent
