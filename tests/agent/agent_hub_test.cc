// The hub's side of the sync over a real SqliteStore: registration and acceptance, the
// ManagedCluster's status, inventories stored once per hash, statuses kept by sequence, the
// works to apply and remove, leases that lapse and come back, and refusals.
#include "server/agent/agent_hub.h"

#include <gtest/gtest.h>

#include <string>

#include "server/rest/stored_json.h"
#include "store/sqlite_store.h"
#include "store/temp_dir.h"

namespace berth::server::agent {
namespace BERTH_UNITY_ID {

class AgentHubTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = store::SqliteStore::Open(dir_.Sub("db"));
    ASSERT_TRUE(opened) << opened.error().ToString();
    store_ = std::move(opened).value();
    MakeHub(false);
  }

  void MakeHub(bool auto_accept, SyncLimits limits = {}) {
    AgentHubOptions options;
    options.lease_duration = std::chrono::seconds(40);
    options.sync_period = std::chrono::seconds(10);
    options.auto_accept = auto_accept;
    options.limits = limits;
    options.now_unix_s = [this] { return now_; };
    hub_ = std::make_unique<AgentHub>(*store_, feed_, nullptr, options);
    ASSERT_TRUE(hub_->Load().ok());
  }

  RestReply Post(const std::string& cluster, const std::string& body, const UserInfo* user = nullptr) {
    HttpRequest req;
    req.method = "POST";
    req.path = SyncPath(cluster);
    req.body = body;
    req.user = user;
    return hub_->Serve(req);
  }

  SyncReply Sync(const SyncRequest& request) {
    RestReply r = Post(request.cluster, EncodeSyncRequest(request));
    EXPECT_EQ(r.response.status, 200) << r.response.body;
    auto reply = ParseSyncReply(r.response.body);
    EXPECT_TRUE(reply) << r.response.body;
    return reply ? *reply : SyncReply{};
  }

  Json Get(const store::ObjectKey& key) {
    auto stored = store_->Get(key);
    if (!stored) return Json();
    auto served = ServedObject(*stored, "");
    return served ? *served : Json();
  }

  static store::ObjectKey ClusterKey(const std::string& name) {
    return {"cluster.open-cluster-management.io", "ManagedCluster", "", name};
  }
  static store::ObjectKey WorkKey(const std::string& ns, const std::string& name) {
    return {"work.open-cluster-management.io", "ManifestWork", ns, name};
  }

  void Accept(const std::string& name) {
    Json mc = Get(ClusterKey(name));
    mc["spec"]["hubAcceptsClient"] = true;
    auto stored = store_->Get(ClusterKey(name));
    ASSERT_TRUE(stored);
    ASSERT_TRUE(store_->Commit({store::Mutation::Update(ClusterKey(name), StoredBody(mc), stored->meta.resource_version)}));
  }

  void PutWork(const std::string& ns, const std::string& name) {
    Json w = {{"apiVersion", "work.open-cluster-management.io/v1"},
              {"kind", "ManifestWork"},
              {"metadata", {{"name", name}, {"namespace", ns}}},
              {"spec", {{"workload", {{"manifests", Json::array({{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                                                                 {"metadata", {{"name", "c"}, {"namespace", "default"}}}}})}}}}}};
    ASSERT_TRUE(store_->Commit({store::Mutation::Create(WorkKey(ns, name), StoredBody(w))}));
  }

  static SyncRequest Request(const std::string& cluster) {
    SyncRequest r;
    r.cluster = cluster;
    r.agent_id = "agent-1";
    return r;
  }

  static std::string Condition(const Json& mc, const std::string& type) {
    const Json status = mc.value("status", Json::object());
    for (const Json& c : status.value("conditions", Json::array())) {
      if (c["type"] == type) return c["status"].get<std::string>();
    }
    return "";
  }

  store::testing::TempDir dir_;
  std::unique_ptr<store::SqliteStore> store_;
  ChangeFeed feed_;
  int64_t now_ = 1'800'000'000;
  std::unique_ptr<AgentHub> hub_;
};

TEST_F(AgentHubTest, RegistersAndWaitsForAcceptance) {
  SyncReply reply = Sync(Request("eu-1"));
  EXPECT_FALSE(reply.accepted);
  EXPECT_NE(reply.message.find("hubAcceptsClient"), std::string::npos) << reply.message;
  EXPECT_FALSE(reply.hub_id.empty());
  Json mc = Get(ClusterKey("eu-1"));
  ASSERT_TRUE(mc.is_object());
  EXPECT_EQ(mc["spec"]["hubAcceptsClient"], false);
  // Not accepted: no namespace, no works, no Available condition.
  EXPECT_FALSE(store_->Get({"", "Namespace", "", "eu-1"}));
  EXPECT_EQ(Condition(mc, "ManagedClusterConditionAvailable"), "");

  Accept("eu-1");
  reply = Sync(Request("eu-1"));
  EXPECT_TRUE(reply.accepted);
  mc = Get(ClusterKey("eu-1"));
  EXPECT_EQ(Condition(mc, "ManagedClusterConditionAvailable"), "True");
  EXPECT_EQ(Condition(mc, "ManagedClusterJoined"), "True");
  EXPECT_EQ(Condition(mc, "HubAcceptedManagedCluster"), "True");
  EXPECT_TRUE(store_->Get({"", "Namespace", "", "eu-1"}));
}

TEST_F(AgentHubTest, AutoAcceptAndTheHubIdentityPersists) {
  MakeHub(true);
  SyncReply first = Sync(Request("us-2"));
  EXPECT_TRUE(first.accepted);
  EXPECT_EQ(first.epoch, 1);
  MakeHub(true);  // a restart reads the same identity
  SyncReply second = Sync(Request("us-2"));
  EXPECT_EQ(second.hub_id, first.hub_id);
}

TEST_F(AgentHubTest, InventoryIsStoredOncePerHashWithTheClusterAnnotation) {
  MakeHub(true);
  SyncRequest r = Request("eu-1");
  r.inventory_hash = "h1";
  r.inventory = std::vector<Json>{
      {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n1"}, {"annotations", {{"berth.dev/cluster", "other"}}}}},
       {"status", {{"capacity", {{"cpu", "8"}, {"nvidia.com/gpu", "4"}}}, {"allocatable", {{"cpu", "7500m"}, {"nvidia.com/gpu", "4"}}}}}},
      {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n2"}}},
       {"status", {{"capacity", {{"cpu", "8"}}}, {"allocatable", {{"cpu", "8"}}}}}}};
  r.claims = {{"region.open-cluster-management.io", "eu-west"}};
  SyncReply reply = Sync(r);
  EXPECT_EQ(reply.inventory_hash, "h1");
  const store::ObjectKey inv{kInventoryGroup, kInventoryKind, "", "eu-1"};
  auto stored = store_->Get(inv);
  ASSERT_TRUE(stored);
  Json body = Json::parse(stored->json);
  // The hub, not the agent, names the cluster.
  EXPECT_EQ(body["objects"][0]["metadata"]["annotations"]["berth.dev/cluster"], "eu-1");
  EXPECT_EQ(body["objects"][1]["metadata"]["annotations"]["berth.dev/cluster"], "eu-1");
  Json mc = Get(ClusterKey("eu-1"));
  EXPECT_EQ(mc["status"]["allocatable"]["cpu"], "15500m");
  EXPECT_EQ(mc["status"]["capacity"]["nvidia.com/gpu"], "4");
  EXPECT_EQ(mc["status"]["clusterClaims"][0]["value"], "eu-west");
  // The same hash again: nothing written.
  const int64_t rv = store_->CurrentResourceVersion();
  r.inventory.reset();
  reply = Sync(r);
  EXPECT_EQ(reply.inventory_hash, "h1");
  EXPECT_EQ(store_->CurrentResourceVersion(), rv);
  // A new hash replaces it.
  r.inventory_hash = "h2";
  r.inventory = std::vector<Json>{{{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n3"}}}}};
  reply = Sync(r);
  EXPECT_EQ(reply.inventory_hash, "h2");
  body = Json::parse(store_->Get(inv)->json);
  EXPECT_EQ(body["objects"].size(), 1u);
}

TEST_F(AgentHubTest, WorksToApplyAndRemoveByGeneration) {
  MakeHub(true);
  Sync(Request("eu-1"));
  PutWork("eu-1", "w1");
  PutWork("eu-1", "w2");
  PutWork("us-2", "other");  // another cluster's
  SyncRequest r = Request("eu-1");
  SyncReply reply = Sync(r);
  ASSERT_EQ(reply.apply.size(), 2u);
  EXPECT_EQ(reply.apply[0]["metadata"]["name"], "w1");
  // Held at the hub's (uid, generation): not sent again; a held work the hub lacks is removed.
  auto w1 = store_->Get(WorkKey("eu-1", "w1"));
  auto w2 = store_->Get(WorkKey("eu-1", "w2"));
  r.works = {{"w1", w1->meta.uid, w1->meta.generation}, {"w2", w2->meta.uid, w2->meta.generation}, {"gone", "u", 1}};
  reply = Sync(r);
  EXPECT_TRUE(reply.apply.empty());
  ASSERT_EQ(reply.remove.size(), 1u);
  EXPECT_EQ(reply.remove[0], "gone");
  // A held work with an older generation or another uid is sent again.
  r.works[0].generation = 0;
  r.works[1].uid = "recreated";
  reply = Sync(r);
  EXPECT_EQ(reply.apply.size(), 2u);
}

// A cluster never holds more works than a sync carries (SyncLimits::max_works): the agent's
// decoder refuses a reply with more to apply, and its own request would list them all. New
// works wait, in the store's order, until the agent holds fewer; changed held ones are sent
// whatever their number.
TEST_F(AgentHubTest, NewWorksWaitOnceTheClusterHoldsTheMostASyncCarries) {
  SyncLimits limits;
  limits.max_works = 2;
  MakeHub(true, limits);
  Sync(Request("eu-1"));
  PutWork("eu-1", "w1");
  PutWork("eu-1", "w2");
  PutWork("eu-1", "w3");
  SyncRequest r = Request("eu-1");
  SyncReply reply = Sync(r);
  ASSERT_EQ(reply.apply.size(), 2u);
  EXPECT_EQ(reply.apply[0]["metadata"]["name"], "w1");
  EXPECT_EQ(reply.apply[1]["metadata"]["name"], "w2");
  EXPECT_EQ(reply.message, "1 ManifestWorks wait: the cluster holds the 2 works a sync carries");
  // Holding two: the third still waits, a changed held one is sent.
  auto w1 = store_->Get(WorkKey("eu-1", "w1"));
  auto w2 = store_->Get(WorkKey("eu-1", "w2"));
  r.works = {{"w1", w1->meta.uid, 0}, {"w2", w2->meta.uid, w2->meta.generation}};
  reply = Sync(r);
  ASSERT_EQ(reply.apply.size(), 1u);
  EXPECT_EQ(reply.apply[0]["metadata"]["name"], "w1");
  // w1 deleted on the hub: removed, and w3 goes once the agent no longer lists w1.
  ASSERT_TRUE(store_->Commit({store::Mutation::Delete(WorkKey("eu-1", "w1"))}));
  reply = Sync(r);
  EXPECT_TRUE(reply.apply.empty());
  EXPECT_EQ(reply.remove, std::vector<std::string>{"w1"});
  r.works.erase(r.works.begin());
  reply = Sync(r);
  ASSERT_EQ(reply.apply.size(), 1u);
  EXPECT_EQ(reply.apply[0]["metadata"]["name"], "w3");
  EXPECT_TRUE(reply.message.empty());
  // What the hub sent the agent decodes with the same limits.
  EXPECT_TRUE(ParseSyncReply(Post("eu-1", EncodeSyncRequest(r)).response.body, limits));
}

TEST_F(AgentHubTest, StatusesAreKeptByTheirSequence) {
  MakeHub(true);
  Sync(Request("eu-1"));
  PutWork("eu-1", "w1");
  auto w1 = store_->Get(WorkKey("eu-1", "w1"));
  SyncRequest r = Request("eu-1");
  r.statuses = {{"w1", w1->meta.uid, 1, 10, Json{{"conditions", Json::array({{{"type", "Applied"}, {"status", "True"}}})}}}};
  SyncReply reply = Sync(r);
  EXPECT_EQ(reply.status_acks.at("w1"), 10);
  EXPECT_EQ(Get(WorkKey("eu-1", "w1"))["status"]["conditions"][0]["type"], "Applied");
  // An older report (reordered, or repeated late) changes nothing.
  r.statuses[0].sequence = 7;
  r.statuses[0].status = Json{{"conditions", Json::array({{{"type", "Stale"}, {"status", "True"}}})}};
  const int64_t rv = store_->CurrentResourceVersion();
  reply = Sync(r);
  EXPECT_EQ(reply.status_acks.at("w1"), 10);
  EXPECT_EQ(store_->CurrentResourceVersion(), rv);
  EXPECT_EQ(Get(WorkKey("eu-1", "w1"))["status"]["conditions"][0]["type"], "Applied");
  // A report for a work of another uid (deleted and made again) is not written.
  r.statuses[0].sequence = 20;
  r.statuses[0].uid = "someone-else";
  reply = Sync(r);
  EXPECT_FALSE(reply.status_acks.contains("w1"));
  EXPECT_EQ(store_->CurrentResourceVersion(), rv);
}

TEST_F(AgentHubTest, ALapsedLeaseTurnsTheClusterUnknownAndTainted) {
  MakeHub(true);
  Sync(Request("eu-1"));
  now_ += 30;
  EXPECT_EQ(hub_->CheckLeases(), 0u);
  now_ += 15;  // 45 s since the last sync, past the 40 s lease
  EXPECT_EQ(hub_->CheckLeases(), 1u);
  Json mc = Get(ClusterKey("eu-1"));
  EXPECT_EQ(Condition(mc, "ManagedClusterConditionAvailable"), "Unknown");
  ASSERT_TRUE(mc["spec"].contains("taints"));
  EXPECT_EQ(mc["spec"]["taints"][0]["key"], "cluster.open-cluster-management.io/unreachable");
  EXPECT_EQ(mc["spec"]["taints"][0]["effect"], "NoSelect");
  // The condition's time is the lease's expiry: when the hub lost the cluster.
  for (const Json& c : mc["status"]["conditions"]) {
    if (c["type"] == "ManagedClusterConditionAvailable") {
      EXPECT_EQ(c["lastTransitionTime"], core::Timestamp{1'800'000'040}.ToString());
      EXPECT_EQ(c["reason"], "ManagedClusterLeaseUpdateStopped");
    }
  }
  EXPECT_EQ(hub_->CheckLeases(), 0u);  // once
  // The agent is back: Available again, the taint gone.
  Sync(Request("eu-1"));
  mc = Get(ClusterKey("eu-1"));
  EXPECT_EQ(Condition(mc, "ManagedClusterConditionAvailable"), "True");
  EXPECT_FALSE(mc["spec"].contains("taints"));
}

TEST_F(AgentHubTest, ARestartedHubGivesEveryClusterAWholeLease) {
  MakeHub(true);
  Sync(Request("eu-1"));
  now_ += 100;  // the hub was down this long
  MakeHub(true);
  EXPECT_EQ(hub_->CheckLeases(), 0u);
  now_ += 41;
  EXPECT_EQ(hub_->CheckLeases(), 1u);
}

// Fields of another type than the hub expects, in an agent's inventory or in a ManagedCluster
// an admin edited, read as absent: the sync is served, the lease checked, the hub loaded.
// Json::value(key, default) threw on each of them (type_error 302/306) out of Serve, Load and
// CheckLeases.
TEST_F(AgentHubTest, MistypedFieldsReadAsAbsent) {
  MakeHub(true);
  SyncRequest r = Request("eu-1");
  r.inventory_hash = "h1";
  r.inventory = std::vector<Json>{
      {{"apiVersion", "v1"}, {"kind", 5}, {"metadata", {{"name", "x"}}}},
      {{"apiVersion", 1}, {"kind", "Node"}, {"metadata", {{"name", "y"}}}},
      {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n1"}}}, {"status", "Ready"}},
      {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n2"}}},
       {"status", {{"capacity", "8"}, {"allocatable", {{"cpu", "4"}, {"memory", 5}}}}}}};
  Sync(r);
  Json mc = Get(ClusterKey("eu-1"));
  EXPECT_EQ(mc["status"]["allocatable"].dump(), R"({"cpu":"4"})");
  EXPECT_EQ(mc["status"]["capacity"].dump(), "{}");

  // An admin's edit: a condition and a taint with mistyped fields, beside berth's taint.
  mc["status"]["conditions"].push_back({{"type", 5}, {"status", true}});
  mc["spec"]["taints"] = Json::array({{{"key", 7}, {"effect", "NoSelect"}},
                                      {{"key", "cluster.open-cluster-management.io/unreachable"},
                                       {"effect", "NoSelect"}}});
  auto stored = store_->Get(ClusterKey("eu-1"));
  ASSERT_TRUE(stored);
  ASSERT_TRUE(store_->Commit({store::Mutation::Update(ClusterKey("eu-1"), StoredBody(mc),
                                                      stored->meta.resource_version)}));
  r.inventory.reset();
  Sync(r);
  mc = Get(ClusterKey("eu-1"));
  EXPECT_EQ(Condition(mc, "ManagedClusterConditionAvailable"), "True");
  ASSERT_EQ(mc["spec"]["taints"].size(), 1u) << mc["spec"].dump();
  EXPECT_EQ(mc["spec"]["taints"][0]["key"], 7);
  // A restarted hub reads the clusters' conditions; the lease still lapses.
  MakeHub(true);
  now_ += 41;
  EXPECT_EQ(hub_->CheckLeases(), 1u);
  mc = Get(ClusterKey("eu-1"));
  EXPECT_EQ(mc["spec"]["taints"].size(), 2u) << mc["spec"].dump();
  // A status that is not an object at all.
  mc["status"] = "broken";
  stored = store_->Get(ClusterKey("eu-1"));
  ASSERT_TRUE(stored);
  ASSERT_TRUE(store_->Commit({store::Mutation::Update(ClusterKey("eu-1"), StoredBody(mc),
                                                      stored->meta.resource_version)}));
  MakeHub(true);
  Sync(Request("eu-1"));
  EXPECT_EQ(Condition(Get(ClusterKey("eu-1")), "ManagedClusterConditionAvailable"), "True");
}

TEST_F(AgentHubTest, RefusesBadRequests) {
  RestReply wrong_method = [&] {
    HttpRequest req;
    req.method = "GET";
    req.path = SyncPath("eu-1");
    return hub_->Serve(req);
  }();
  EXPECT_EQ(wrong_method.response.status, 405);
  RestReply malformed = Post("eu-1", R"({"cluster":"eu-1","works":[{"name":3}]})");
  EXPECT_EQ(malformed.response.status, 400);
  EXPECT_NE(malformed.response.body.find("works[0].name"), std::string::npos) << malformed.response.body;
  RestReply mismatch = Post("eu-1", R"({"cluster":"us-2"})");
  EXPECT_EQ(mismatch.response.status, 400);
  EXPECT_NE(mismatch.response.body.find("path names"), std::string::npos);
  // Nothing was registered by the refused requests.
  EXPECT_FALSE(store_->Get(ClusterKey("eu-1")));
  EXPECT_FALSE(store_->Get(ClusterKey("us-2")));
}

TEST_F(AgentHubTest, AnAgentMayOnlySyncTheClusterItsRoleNames) {
  // RBAC: agent-eu may update managedclusters/status of eu-1 only.
  auto put = [&](const store::ObjectKey& key, const Json& body) {
    ASSERT_TRUE(store_->Commit({store::Mutation::Create(key, StoredBody(body))}));
  };
  put({"rbac.authorization.k8s.io", "ClusterRole", "", "agent-eu"},
      {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "ClusterRole"}, {"metadata", {{"name", "agent-eu"}}},
       {"rules", Json::array({{{"apiGroups", {"cluster.open-cluster-management.io"}},
                               {"resources", {"managedclusters/status"}},
                               {"resourceNames", {"eu-1"}},
                               {"verbs", {"update"}}}})}});
  put({"rbac.authorization.k8s.io", "ClusterRoleBinding", "", "agent-eu"},
      {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "ClusterRoleBinding"}, {"metadata", {{"name", "agent-eu"}}},
       {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "agent-eu"}}},
       {"subjects", Json::array({{{"kind", "User"}, {"name", "agent-eu"}}})}});
  RbacAuthorizer authorizer(*store_);
  AgentHubOptions options;
  options.auto_accept = true;
  options.now_unix_s = [this] { return now_; };
  hub_ = std::make_unique<AgentHub>(*store_, feed_, &authorizer, options);
  ASSERT_TRUE(hub_->Load().ok());
  UserInfo agent{"agent-eu", "agent-eu", {}};
  EXPECT_EQ(Post("eu-1", R"({"cluster":"eu-1"})", &agent).response.status, 200);
  RestReply other = Post("us-2", R"({"cluster":"us-2"})", &agent);
  EXPECT_EQ(other.response.status, 403) << other.response.body;
  EXPECT_FALSE(store_->Get(ClusterKey("us-2")));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::agent
