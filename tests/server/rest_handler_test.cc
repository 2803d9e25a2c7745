// RestHandler over a real SqliteStore in a temporary directory: the request paths kubectl and
// client libraries take, their Status errors, paging, subresources and watch sessions.
#include "server/rest/rest_handler.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "store/sqlite_store.h"
#include "store/temp_dir.h"

namespace berth::server {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

constexpr const char* kLocalQueues = "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/localqueues";
constexpr const char* kTableAccept =
    "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

// Refuses a LocalQueue whose spec.clusterQueue is "bad", at that field, as io would.
class FieldValidator : public ObjectValidator {
 public:
  std::vector<core::Error> Validate(const model::KindInfo& kind, const Json& object) const override {
    std::vector<core::Error> out;
    if (kind.kind == "LocalQueue" && object.contains("spec") &&
        object["spec"].value("clusterQueue", "") == "bad") {
      out.push_back(core::InvalidArgument("ClusterQueue name \"bad\" is refused",
                                          core::Location{"", "", "spec.clusterQueue"}));
    }
    return out;
  }
};

struct Reply {
  int status = 0;
  Json body;
  std::string content_type;
  std::unique_ptr<WatchSession> watch;
};

class RestHandlerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = store::SqliteStore::Open(dir_.Sub("db"));
    ASSERT_TRUE(opened) << opened.error().ToString();
    store_ = std::move(opened).value();
    RestOptions options;
    options.now = [] { return core::Timestamp{1'800'000'000}; };
    options.max_body_bytes = 64 * 1024;
    options.max_json_depth = 64;
    options.bookmark_interval = std::chrono::milliseconds(1);
    handler_ = std::make_unique<RestHandler>(*store_, feed_, &validator_, options);
    ASSERT_TRUE(handler_->EnsureSystemNamespaces().ok());
  }

  Reply Call(const std::string& method, const std::string& target, const std::string& body = "",
             const std::string& content_type = "application/json", const std::string& accept = "") {
    HttpRequest req;
    req.method = method;
    const size_t q = target.find('?');
    req.path = target.substr(0, q);
    if (q != std::string::npos) req.raw_query = target.substr(q + 1);
    req.body = body;
    if (!content_type.empty()) req.headers.emplace_back("Content-Type", content_type);
    if (!accept.empty()) req.headers.emplace_back("Accept", accept);
    RestReply r = handler_->Serve(req);
    Reply out;
    out.status = r.response.status;
    out.content_type = r.response.content_type;
    out.watch = std::move(r.watch);
    if (!r.response.body.empty()) {
      out.body = Json::parse(r.response.body, nullptr, /*allow_exceptions=*/false);
    }
    return out;
  }

  static std::string LocalQueue(const std::string& name, const std::string& cq = "team-a",
                                const std::string& labels = "{}") {
    return R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":")" +
           name + R"(","labels":)" + labels + R"(},"spec":{"clusterQueue":")" + cq + R"("}})";
  }

  static std::string Rv(const Json& object) {
    return object["metadata"]["resourceVersion"].get<std::string>();
  }

  store::testing::TempDir dir_;
  std::unique_ptr<store::SqliteStore> store_;
  ChangeFeed feed_;
  FieldValidator validator_;
  std::unique_ptr<RestHandler> handler_;
};

TEST_F(RestHandlerTest, CreateGetListDelete) {
  Reply created = Call("POST", kLocalQueues, LocalQueue("lq-a"));
  ASSERT_EQ(created.status, 201) << created.body.dump();
  EXPECT_EQ(created.body["metadata"]["namespace"], "default");
  EXPECT_EQ(created.body["metadata"]["generation"], 1);
  EXPECT_FALSE(created.body["metadata"]["uid"].get<std::string>().empty());

  Reply got = Call("GET", std::string(kLocalQueues) + "/lq-a");
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(Rv(got.body), Rv(created.body));
  EXPECT_EQ(got.body["spec"]["clusterQueue"], "team-a");

  Reply list = Call("GET", kLocalQueues);
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(list.body["kind"], "LocalQueueList");
  ASSERT_EQ(list.body["items"].size(), 1u);

  Reply deleted = Call("DELETE", std::string(kLocalQueues) + "/lq-a", "");
  ASSERT_EQ(deleted.status, 200) << deleted.body.dump();
  EXPECT_EQ(Call("GET", std::string(kLocalQueues) + "/lq-a").status, 404);
  Reply again = Call("DELETE", std::string(kLocalQueues) + "/lq-a", "");
  EXPECT_EQ(again.status, 404);
  EXPECT_EQ(again.body["reason"], "NotFound");
  EXPECT_EQ(again.body["message"], "localqueues.kueue.x-k8s.io \"lq-a\" not found");
}

TEST_F(RestHandlerTest, CreateRefusals) {
  ASSERT_EQ(Call("POST", kLocalQueues, LocalQueue("lq-a")).status, 201);
  Reply twice = Call("POST", kLocalQueues, LocalQueue("lq-a"));
  EXPECT_EQ(twice.status, 409);
  EXPECT_EQ(twice.body["reason"], "AlreadyExists");

  Reply no_ns = Call("POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/nowhere/localqueues",
                     LocalQueue("lq-b"));
  EXPECT_EQ(no_ns.status, 404);
  EXPECT_EQ(no_ns.body["message"], "namespaces \"nowhere\" not found");

  Reply invalid = Call("POST", kLocalQueues, LocalQueue("lq-c", "bad"));
  ASSERT_EQ(invalid.status, 422) << invalid.body.dump();
  EXPECT_EQ(invalid.body["reason"], "Invalid");
  EXPECT_EQ(invalid.body["details"]["causes"][0]["field"], "spec.clusterQueue");
  EXPECT_EQ(Call("GET", std::string(kLocalQueues) + "/lq-c").status, 404);

  EXPECT_EQ(Call("POST", kLocalQueues, "{not json").status, 400);
  EXPECT_EQ(Call("POST", kLocalQueues, "[1,2]").status, 400);
  EXPECT_EQ(Call("POST", kLocalQueues, LocalQueue("lq-d"), "application/yaml").status, 415);
  EXPECT_EQ(Call("POST", kLocalQueues, std::string(100, '[') + std::string(100, ']')).status, 400);
  Reply big = Call("POST", kLocalQueues, std::string(70 * 1024, ' '));
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(big.body["reason"], "RequestEntityTooLarge");

  // dryRun=All answers as a create would and stores nothing.
  Reply dry = Call("POST", std::string(kLocalQueues) + "?dryRun=All", LocalQueue("lq-dry"));
  EXPECT_EQ(dry.status, 201);
  EXPECT_EQ(Call("GET", std::string(kLocalQueues) + "/lq-dry").status, 404);
}

TEST_F(RestHandlerTest, UpdateConflictAndGeneration) {
  Reply created = Call("POST", kLocalQueues, LocalQueue("lq-a"));
  ASSERT_EQ(created.status, 201);
  Json spec_change = created.body;
  spec_change["spec"]["clusterQueue"] = "team-b";
  Reply updated = Call("PUT", std::string(kLocalQueues) + "/lq-a", spec_change.dump());
  ASSERT_EQ(updated.status, 200) << updated.body.dump();
  EXPECT_EQ(updated.body["metadata"]["generation"], 2);
  EXPECT_GT(std::stoll(Rv(updated.body)), std::stoll(Rv(created.body)));

  // The first write's resourceVersion is stale now.
  Reply stale = Call("PUT", std::string(kLocalQueues) + "/lq-a", spec_change.dump());
  EXPECT_EQ(stale.status, 409);
  EXPECT_EQ(stale.body["reason"], "Conflict");

  // A label is metadata: no new generation.
  Json relabel = updated.body;
  relabel["metadata"]["labels"] = Json{{"team", "a"}};
  Reply labelled = Call("PUT", std::string(kLocalQueues) + "/lq-a", relabel.dump());
  ASSERT_EQ(labelled.status, 200);
  EXPECT_EQ(labelled.body["metadata"]["generation"], 2);

  // A no-op update writes nothing.
  Reply same = Call("PUT", std::string(kLocalQueues) + "/lq-a", labelled.body.dump());
  ASSERT_EQ(same.status, 200);
  EXPECT_EQ(Rv(same.body), Rv(labelled.body));

  EXPECT_EQ(Call("PUT", std::string(kLocalQueues) + "/missing", LocalQueue("missing")).status, 404);
}

TEST_F(RestHandlerTest, Patches) {
  ASSERT_EQ(Call("POST", kLocalQueues, LocalQueue("lq-a")).status, 201);
  const std::string item = std::string(kLocalQueues) + "/lq-a";
  Reply merged = Call("PATCH", item, R"({"metadata":{"labels":{"x":"1"}}})",
                      "application/merge-patch+json");
  ASSERT_EQ(merged.status, 200) << merged.body.dump();
  EXPECT_EQ(merged.body["metadata"]["labels"]["x"], "1");

  Reply json_patch = Call("PATCH", item, R"([{"op":"replace","path":"/spec/clusterQueue","value":"team-c"}])",
                          "application/json-patch+json");
  ASSERT_EQ(json_patch.status, 200) << json_patch.body.dump();
  EXPECT_EQ(json_patch.body["spec"]["clusterQueue"], "team-c");

  // Strategic merge patch is for built-in kinds only, as upstream answers for CRDs.
  EXPECT_EQ(Call("PATCH", item, "{}", "application/strategic-merge-patch+json").status, 415);
  // A patch that makes the object invalid is refused and leaves it as it was.
  Reply invalid = Call("PATCH", item, R"({"spec":{"clusterQueue":"bad"}})", "application/merge-patch+json");
  EXPECT_EQ(invalid.status, 422);
  EXPECT_EQ(Call("GET", item).body["spec"]["clusterQueue"], "team-c");
  // A patch naming a stale resourceVersion is a precondition.
  Reply stale = Call("PATCH", item, R"({"metadata":{"resourceVersion":"1"},"spec":{"clusterQueue":"x"}})",
                     "application/merge-patch+json");
  EXPECT_EQ(stale.status, 409);
}

TEST_F(RestHandlerTest, StatusSubresource) {
  const std::string ns_path = "/apis/kueue.x-k8s.io/v1beta2/clusterqueues";
  const std::string cq =
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue","metadata":{"name":"cq"},)"
      R"("spec":{"namespaceSelector":{}},"status":{"pendingWorkloads":9}})";
  Reply created = Call("POST", ns_path, cq);
  ASSERT_EQ(created.status, 201) << created.body.dump();
  EXPECT_FALSE(created.body.contains("status"));  // status goes through /status only

  Reply status = Call("PATCH", ns_path + "/cq/status", R"({"status":{"pendingWorkloads":3}})",
                      "application/merge-patch+json");
  ASSERT_EQ(status.status, 200) << status.body.dump();
  EXPECT_EQ(status.body["status"]["pendingWorkloads"], 3);
  EXPECT_EQ(status.body["metadata"]["generation"], 1);

  // A main-resource write keeps the stored status.
  Json main = status.body;
  main["status"]["pendingWorkloads"] = 99;
  main["spec"]["stopPolicy"] = "Hold";
  Reply put = Call("PUT", ns_path + "/cq", main.dump());
  ASSERT_EQ(put.status, 200) << put.body.dump();
  EXPECT_EQ(put.body["status"]["pendingWorkloads"], 3);
  EXPECT_EQ(put.body["metadata"]["generation"], 2);
}

TEST_F(RestHandlerTest, ListPagingAndSelectors) {
  for (int i = 0; i < 25; ++i) {
    const std::string labels = i % 2 == 0 ? R"({"parity":"even"})" : R"({"parity":"odd"})";
    ASSERT_EQ(Call("POST", kLocalQueues, LocalQueue("lq-" + std::to_string(100 + i), "team-a", labels)).status, 201);
  }
  std::set<std::string> seen;
  std::string next;
  int pages = 0;
  do {
    std::string target = std::string(kLocalQueues) + "?limit=10";
    if (!next.empty()) target += "&continue=" + next;
    Reply page = Call("GET", target);
    ASSERT_EQ(page.status, 200) << page.body.dump();
    for (const Json& item : page.body["items"]) {
      EXPECT_TRUE(seen.insert(item["metadata"]["name"].get<std::string>()).second);
    }
    next = page.body["metadata"].value("continue", "");
    ++pages;
  } while (!next.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen.size(), 25u);

  Reply even = Call("GET", std::string(kLocalQueues) + "?labelSelector=parity%3Deven&limit=5");
  ASSERT_EQ(even.status, 200);
  EXPECT_EQ(even.body["items"].size(), 5u);
  EXPECT_FALSE(even.body["metadata"].value("continue", "").empty());
  Reply named = Call("GET", std::string(kLocalQueues) + "?fieldSelector=metadata.name%3Dlq-107");
  ASSERT_EQ(named.body["items"].size(), 1u);
  EXPECT_EQ(Call("GET", std::string(kLocalQueues) + "?fieldSelector=spec.x%3D1").status, 400);

  // Every namespace: the cluster-wide collection.
  Reply all = Call("GET", "/apis/kueue.x-k8s.io/v1beta2/localqueues");
  EXPECT_EQ(all.body["items"].size(), 25u);

  // A token from before a compaction is Expired (410) with a token to go on from.
  Reply first = Call("GET", std::string(kLocalQueues) + "?limit=10");
  const std::string token = first.body["metadata"]["continue"];
  ASSERT_TRUE(store_->Compact({.keep_last = 0, .before_rv = std::nullopt}).ok());
  ASSERT_EQ(Call("POST", kLocalQueues, LocalQueue("lq-late")).status, 201);
  ASSERT_TRUE(store_->Compact({.keep_last = 0, .before_rv = std::nullopt}).ok());
  Reply expired = Call("GET", std::string(kLocalQueues) + "?limit=10&continue=" + token);
  EXPECT_EQ(expired.status, 410) << expired.body.dump();
  EXPECT_EQ(expired.body["reason"], "Expired");
}

TEST_F(RestHandlerTest, TablesForKubectl) {
  ASSERT_EQ(Call("POST", kLocalQueues, LocalQueue("lq-a")).status, 201);
  Reply table = Call("GET", kLocalQueues, "", "", kTableAccept);
  ASSERT_EQ(table.status, 200);
  EXPECT_EQ(table.body["kind"], "Table");
  ASSERT_EQ(table.body["rows"].size(), 1u);
  EXPECT_EQ(table.body["rows"][0]["cells"][0], "lq-a");
  EXPECT_EQ(table.body["columnDefinitions"][1]["name"], "ClusterQueue");
  Reply one = Call("GET", std::string(kLocalQueues) + "/lq-a", "", "", kTableAccept);
  EXPECT_EQ(one.body["rows"].size(), 1u);
  EXPECT_EQ(Call("GET", kLocalQueues, "", "", "application/yaml").status, 406);
}

// A selecting watch reports crossings as the watch cache does: an object relabelled out of
// the selection is DELETED, one relabelled into it ADDED, and one outside it stays silent;
// a watch without a resourceVersion starts its selection from the ADDED it sent.
TEST_F(RestHandlerTest, SelectingWatchReportsObjectsLeavingAndEnteringTheSelection) {
  Reply a = Call("POST", kLocalQueues, LocalQueue("lq-a", "team-a", R"({"w":"yes"})"));
  ASSERT_EQ(a.status, 201);
  ASSERT_EQ(Call("POST", kLocalQueues, LocalQueue("lq-b", "team-a", R"({"w":"no"})")).status, 201);
  auto relabel = [&](const std::string& name, const std::string& value) {
    ASSERT_EQ(Call("PATCH", std::string(kLocalQueues) + "/" + name,
                   R"({"metadata":{"labels":{"w":")" + value + R"("}}})", "application/merge-patch+json")
                  .status,
              200);
  };
  for (const std::string from : {"rv", "now"}) {
    Reply watch = Call("GET", std::string(kLocalQueues) + "?watch=1&labelSelector=w%3Dyes" +
                                  (from == "rv" ? "&resourceVersion=" + Rv(a.body) : ""));
    ASSERT_TRUE(watch.watch);
    relabel("lq-a", "no");   // leaves: DELETED
    relabel("lq-b", "yes");  // enters: ADDED
    relabel("lq-b", "yes2"); // leaves again
    relabel("lq-a", "maybe");  // outside before and after: nothing
    std::vector<std::string> events;
    for (int i = 0; i < 40 && events.size() < (from == "rv" ? 3u : 4u); ++i) {
      auto chunk = watch.watch->Next(std::chrono::milliseconds(20));
      ASSERT_TRUE(chunk.has_value());
      std::istringstream lines(*chunk);
      for (std::string line; std::getline(lines, line);) {
        if (line.empty()) continue;
        const Json e = Json::parse(line);
        events.push_back(e["type"].get<std::string>() + " " + e["object"]["metadata"]["name"].get<std::string>());
      }
    }
    std::vector<std::string> want = {"DELETED lq-a", "ADDED lq-b", "DELETED lq-b"};
    if (from == "now") want.insert(want.begin(), "ADDED lq-a");  // the initial state
    EXPECT_EQ(events, want) << "watch from " << from;
    relabel("lq-a", "yes");
    relabel("lq-b", "no");
  }
}

// Finalizers hold a deleted object as the API server does: DELETE marks it (deletionTimestamp,
// generation + 1) and it stays readable; a second DELETE changes nothing; no finalizer may be
// added while it is being deleted (422 at metadata.finalizers); the update removing the
// last finalizer deletes it, and a watch sees MODIFIED then DELETED. DELETE of a collection
// marks such objects too.
TEST_F(RestHandlerTest, FinalizersHoldADeletedObjectUntilTheyAreRemoved) {
  const std::string held =
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":"held",)"
      R"("finalizers":["example.com/hold","example.com/other"]},"spec":{"clusterQueue":"team-a"}})";
  Reply created = Call("POST", kLocalQueues, held);
  ASSERT_EQ(created.status, 201) << created.body.dump();
  Reply watch = Call("GET", std::string(kLocalQueues) + "?watch=1&resourceVersion=" + Rv(created.body));
  ASSERT_TRUE(watch.watch);

  Reply deleted = Call("DELETE", std::string(kLocalQueues) + "/held");
  ASSERT_EQ(deleted.status, 200) << deleted.body.dump();
  EXPECT_FALSE(deleted.body["metadata"].value("deletionTimestamp", "").empty());
  EXPECT_EQ(deleted.body["metadata"]["generation"], 2);
  Reply still = Call("GET", std::string(kLocalQueues) + "/held");
  ASSERT_EQ(still.status, 200);
  EXPECT_FALSE(still.body["metadata"].value("deletionTimestamp", "").empty());
  Reply again = Call("DELETE", std::string(kLocalQueues) + "/held");
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(Rv(again.body), Rv(still.body)) << "a second delete writes nothing";

  Reply added = Call("PATCH", std::string(kLocalQueues) + "/held",
                     R"({"metadata":{"finalizers":["example.com/hold","example.com/other","example.com/new"]}})",
                     "application/merge-patch+json");
  EXPECT_EQ(added.status, 422) << added.body.dump();
  EXPECT_EQ(added.body["details"]["causes"][0]["field"], "metadata.finalizers");
  EXPECT_NE(added.body["message"].get<std::string>().find("no new finalizers"), std::string::npos);

  Reply one_left = Call("PATCH", std::string(kLocalQueues) + "/held",
                        R"({"metadata":{"finalizers":["example.com/other"]}})", "application/merge-patch+json");
  EXPECT_EQ(one_left.status, 200);
  EXPECT_EQ(Call("GET", std::string(kLocalQueues) + "/held").status, 200);
  Reply last = Call("PATCH", std::string(kLocalQueues) + "/held", R"({"metadata":{"finalizers":null}})",
                    "application/merge-patch+json");
  EXPECT_EQ(last.status, 200) << last.body.dump();
  EXPECT_EQ(Call("GET", std::string(kLocalQueues) + "/held").status, 404) << "the last finalizer removed: gone";
  std::string stream;
  for (int i = 0; i < 20 && stream.find("DELETED") == std::string::npos; ++i) {
    stream += watch.watch->Next(std::chrono::milliseconds(20)).value_or("");
  }
  EXPECT_NE(stream.find("\"MODIFIED\""), std::string::npos) << stream;
  EXPECT_NE(stream.find("\"DELETED\""), std::string::npos) << stream;

  // A collection delete marks the held object and deletes the free one.
  ASSERT_EQ(Call("POST", kLocalQueues, held).status, 201);
  ASSERT_EQ(Call("POST", kLocalQueues, LocalQueue("free")).status, 201);
  EXPECT_EQ(Call("DELETE", kLocalQueues).status, 200);
  EXPECT_EQ(Call("GET", std::string(kLocalQueues) + "/free").status, 404);
  Reply marked = Call("GET", std::string(kLocalQueues) + "/held");
  ASSERT_EQ(marked.status, 200);
  EXPECT_FALSE(marked.body["metadata"].value("deletionTimestamp", "").empty());
}

// A ClusterQueue written at v1beta1 is served at v1beta2 with v1beta2's field names (the
// dashboard and kubectl read cohortName), and at v1beta1 as written.
TEST_F(RestHandlerTest, KueueObjectsAreServedAtEitherVersion) {
  const std::string v1beta1 = "/apis/kueue.x-k8s.io/v1beta1/clusterqueues";
  const std::string v1beta2 = "/apis/kueue.x-k8s.io/v1beta2/clusterqueues";
  Reply created = Call("POST", v1beta1,
                       R"({"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ClusterQueue","metadata":)"
                       R"({"name":"old"},"spec":{"cohort":"research","namespaceSelector":{}}})");
  ASSERT_EQ(created.status, 201) << created.body.dump();
  Reply now = Call("GET", v1beta2 + "/old");
  ASSERT_EQ(now.status, 200);
  EXPECT_EQ(now.body["apiVersion"], "kueue.x-k8s.io/v1beta2");
  EXPECT_EQ(now.body["spec"]["cohortName"], "research");
  EXPECT_FALSE(now.body["spec"].contains("cohort"));
  Reply listed = Call("GET", v1beta2);
  ASSERT_EQ(listed.status, 200);
  bool found = false;
  for (const Json& item : listed.body["items"]) {
    if (item["metadata"]["name"] == "old") found = item["spec"].value("cohortName", "") == "research";
  }
  EXPECT_TRUE(found) << listed.body.dump();
  Reply then = Call("GET", v1beta1 + "/old");
  EXPECT_EQ(then.body["spec"]["cohort"], "research");
  EXPECT_FALSE(then.body["spec"].contains("cohortName"));
}

TEST_F(RestHandlerTest, WatchFollowsTheLogAndFilters) {
  Reply created = Call("POST", kLocalQueues, LocalQueue("lq-a", "team-a", R"({"w":"yes"})"));
  ASSERT_EQ(created.status, 201);
  // From the current state: ADDED first.
  Reply initial = Call("GET", std::string(kLocalQueues) + "?watch=1");
  ASSERT_TRUE(initial.watch);
  EXPECT_EQ(initial.content_type, "application/json;stream=watch");
  auto first = initial.watch->Next(std::chrono::milliseconds(10));
  ASSERT_TRUE(first.has_value());
  EXPECT_NE(first->find("\"ADDED\""), std::string::npos);

  // From a resourceVersion: only later changes that match the selector.
  Reply watch = Call("GET", std::string(kLocalQueues) + "?watch=true&labelSelector=w%3Dyes&resourceVersion=" +
                                Rv(created.body));
  ASSERT_TRUE(watch.watch);
  ASSERT_EQ(Call("POST", kLocalQueues, LocalQueue("lq-other")).status, 201);
  ASSERT_EQ(Call("PATCH", std::string(kLocalQueues) + "/lq-a", R"({"spec":{"clusterQueue":"x"}})",
                 "application/merge-patch+json").status, 200);
  std::string stream;
  for (int i = 0; i < 20 && stream.find("MODIFIED") == std::string::npos; ++i) {
    auto chunk = watch.watch->Next(std::chrono::milliseconds(50));
    ASSERT_TRUE(chunk.has_value());
    stream += *chunk;
  }
  EXPECT_NE(stream.find("\"MODIFIED\""), std::string::npos) << stream;
  EXPECT_EQ(stream.find("lq-other"), std::string::npos) << stream;

  // Bookmarks when allowed (the interval is 1 ms here).
  Reply bm = Call("GET", std::string(kLocalQueues) + "?watch=1&allowWatchBookmarks=true&resourceVersion=" +
                             Rv(created.body));
  std::string bookmarks;
  for (int i = 0; i < 5; ++i) bookmarks += bm.watch->Next(std::chrono::milliseconds(5)).value_or("");
  EXPECT_NE(bookmarks.find("\"BOOKMARK\""), std::string::npos) << bookmarks;

  // A resourceVersion the log no longer holds ends the stream with a 410 ERROR event.
  ASSERT_TRUE(store_->Compact({.keep_last = 0, .before_rv = std::nullopt}).ok());
  Reply old = Call("GET", std::string(kLocalQueues) + "?watch=1&resourceVersion=1");
  ASSERT_TRUE(old.watch);
  std::string gone;
  for (int i = 0; i < 3; ++i) {
    auto chunk = old.watch->Next(std::chrono::milliseconds(5));
    if (!chunk) break;
    gone += *chunk;
  }
  EXPECT_NE(gone.find("\"ERROR\""), std::string::npos) << gone;
  EXPECT_NE(gone.find("410"), std::string::npos) << gone;

  // timeoutSeconds ends a stream; so does the feed closing (shutdown).
  feed_.Close();
  EXPECT_FALSE(watch.watch->Next(std::chrono::milliseconds(5)).has_value());
}

TEST_F(RestHandlerTest, DeleteCollectionAndNamespace) {
  ASSERT_EQ(Call("POST", "/api/v1/namespaces", R"({"metadata":{"name":"team"}})").status, 201);
  const std::string team = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/localqueues";
  for (const char* n : {"a", "b", "c"}) {
    ASSERT_EQ(Call("POST", team, LocalQueue(n, "cq", std::string(R"({"n":")") + n + "\"}")).status, 201);
  }
  Reply dc = Call("DELETE", team + "?labelSelector=n%20in%20(a%2Cb)");
  ASSERT_EQ(dc.status, 200) << dc.body.dump();
  EXPECT_EQ(dc.body["items"].size(), 2u);
  EXPECT_EQ(Call("GET", team).body["items"].size(), 1u);

  Reply ns = Call("GET", "/api/v1/namespaces/team");
  EXPECT_EQ(ns.body["status"]["phase"], "Active");
  ASSERT_EQ(Call("DELETE", "/api/v1/namespaces/team").status, 200);
  EXPECT_EQ(Call("GET", team + "/c").status, 404);
}

TEST_F(RestHandlerTest, ScaleSubresource) {
  const std::string deployments = "/apis/apps/v1/namespaces/default/deployments";
  const std::string d =
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1,)"
      R"("selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},)"
      R"("spec":{"containers":[{"name":"c","image":"nginx"}]}}}})";
  ASSERT_EQ(Call("POST", deployments, d).status, 201);
  Reply scale = Call("GET", deployments + "/web/scale");
  ASSERT_EQ(scale.status, 200) << scale.body.dump();
  EXPECT_EQ(scale.body["kind"], "Scale");
  EXPECT_EQ(scale.body["spec"]["replicas"], 1);
  Reply patched = Call("PATCH", deployments + "/web/scale", R"({"spec":{"replicas":3}})",
                       "application/merge-patch+json");
  ASSERT_EQ(patched.status, 200) << patched.body.dump();
  EXPECT_EQ(patched.body["spec"]["replicas"], 3);
  EXPECT_EQ(Call("GET", deployments + "/web").body["spec"]["replicas"], 3);
}

TEST_F(RestHandlerTest, DiscoveryAndOpenApi) {
  Reply groups = Call("GET", "/apis", "", "",
                      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json");
  ASSERT_EQ(groups.status, 200);
  EXPECT_EQ(groups.content_type, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");

  Reply index = Call("GET", "/openapi/v3");
  ASSERT_EQ(index.status, 200);
  ASSERT_TRUE(index.body["paths"].contains("apis/kueue.x-k8s.io/v1beta2"));
  const std::string url = index.body["paths"]["apis/kueue.x-k8s.io/v1beta2"]["serverRelativeURL"];
  Reply doc = Call("GET", url.substr(0, url.find('?')));
  ASSERT_EQ(doc.status, 200);
  // What kubectl looks for before it leaves validation to the server.
  const Json& patch = doc.body["paths"]["/apis/kueue.x-k8s.io/v1beta2/namespaces/{namespace}/localqueues/{name}"]["patch"];
  EXPECT_EQ(patch["x-kubernetes-group-version-kind"]["kind"], "LocalQueue");
  bool field_validation = false;
  for (const Json& p : patch["parameters"]) field_validation = field_validation || p["name"] == "fieldValidation";
  EXPECT_TRUE(field_validation);
  EXPECT_EQ(Call("GET", "/openapi/v3/apis/nope/v1").status, 404);
}

TEST_F(RestHandlerTest, ServerSideApplyCreatesThenRemovesWhatTheManagerDropped) {
  const std::string item = std::string(kLocalQueues) + "/lq-a?fieldManager=kubectl";
  const std::string apply = "application/apply-patch+yaml";
  Reply created = Call("PATCH", item, LocalQueue("lq-a", "team-a", R"({"x":"1","y":"2"})"), apply);
  ASSERT_EQ(created.status, 201) << created.body.dump();
  EXPECT_EQ(created.body["metadata"]["labels"]["y"], "2");
  // Another writer's label stays; the label the manager no longer applies goes.
  ASSERT_EQ(Call("PATCH", std::string(kLocalQueues) + "/lq-a", R"({"metadata":{"labels":{"z":"3"}}})",
                 "application/merge-patch+json").status, 200);
  Reply again = Call("PATCH", item, LocalQueue("lq-a", "team-b", R"({"x":"1"})"), apply);
  ASSERT_EQ(again.status, 200) << again.body.dump();
  EXPECT_EQ(again.body["spec"]["clusterQueue"], "team-b");
  EXPECT_EQ(again.body["metadata"]["labels"].dump(), R"({"x":"1","z":"3"})");
  EXPECT_EQ(Call("PATCH", std::string(kLocalQueues) + "/lq-a", LocalQueue("lq-a"), apply).status, 400)
      << "fieldManager is required";
  EXPECT_EQ(Call("PATCH", item, LocalQueue("other"), apply).status, 400) << "the name must match";
  EXPECT_EQ(Call("PATCH", item, LocalQueue("lq-a", "bad"), apply).status, 422) << "validated";
}

// Two appliers: a field one applied is its own; the other changing it is a 409 naming the
// manager and the field (as upstream words it), applying the same value shares it, and a
// forced apply takes the field over, so the first manager's next apply without it leaves it.
TEST_F(RestHandlerTest, ServerSideApplyConflictsBetweenManagers) {
  const std::string apply = "application/apply-patch+yaml";
  const std::string as_a = std::string(kLocalQueues) + "/lq-a?fieldManager=team-a-ci";
  const std::string as_b = std::string(kLocalQueues) + "/lq-a?fieldManager=platform";
  ASSERT_EQ(Call("PATCH", as_a, LocalQueue("lq-a", "team-a", R"({"x":"1"})"), apply).status, 201);

  Reply same = Call("PATCH", as_b, LocalQueue("lq-a", "team-a", R"({"y":"2"})"), apply);
  EXPECT_EQ(same.status, 200) << "the same value is shared, not a conflict: " << same.body.dump();

  Reply conflict = Call("PATCH", as_b, LocalQueue("lq-a", "team-b", R"({"x":"9","y":"2"})"), apply);
  ASSERT_EQ(conflict.status, 409) << conflict.body.dump();
  EXPECT_EQ(conflict.body["reason"], "Conflict");
  EXPECT_EQ(conflict.body["message"],
            "Apply failed with 2 conflicts: conflicts with \"team-a-ci\":\n- .metadata.labels.x\n- "
            ".spec.clusterQueue");
  ASSERT_EQ(conflict.body["details"]["causes"].size(), 2u);
  EXPECT_EQ(conflict.body["details"]["causes"][1]["reason"], "FieldManagerConflict");
  EXPECT_EQ(conflict.body["details"]["causes"][1]["field"], ".spec.clusterQueue");
  EXPECT_EQ(conflict.body["details"]["causes"][1]["message"], "conflict with \"team-a-ci\"");
  Reply one = Call("PATCH", as_b, LocalQueue("lq-a", "team-b", R"({"y":"2"})"), apply);
  ASSERT_EQ(one.status, 409);
  EXPECT_EQ(one.body["message"], "Apply failed with 1 conflict: conflict with \"team-a-ci\": .spec.clusterQueue");
  EXPECT_EQ(Call("GET", std::string(kLocalQueues) + "/lq-a").body["spec"]["clusterQueue"], "team-a")
      << "a conflict writes nothing";

  EXPECT_EQ(Call("PATCH", as_b + "&force=false", LocalQueue("lq-a", "team-b", R"({"y":"2"})"), apply).status,
            409)
      << "force=false does not force";
  Reply forced = Call("PATCH", as_b + "&force=true", LocalQueue("lq-a", "team-b", R"({"y":"2"})"), apply);
  ASSERT_EQ(forced.status, 200) << forced.body.dump();
  EXPECT_EQ(forced.body["spec"]["clusterQueue"], "team-b");
  // team-a-ci no longer owns spec.clusterQueue: applying without it leaves platform's value,
  // and applying its old value again is a conflict with platform now.
  Reply without = Call("PATCH", as_a,
                       R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":"lq-a","labels":{"x":"1"}}})",
                       apply);
  ASSERT_EQ(without.status, 200) << without.body.dump();
  EXPECT_EQ(without.body["spec"]["clusterQueue"], "team-b");
  Reply back = Call("PATCH", as_a, LocalQueue("lq-a", "team-a", R"({"x":"1"})"), apply);
  EXPECT_EQ(back.status, 409) << back.body.dump();
}

TEST_F(RestHandlerTest, VisibilityPendingWorkloadsWithPositions) {
  ASSERT_EQ(Call("POST", "/api/v1/namespaces", R"({"metadata":{"name":"other"}})").status, 201);
  // Same-named LocalQueues in two namespaces, both feeding ClusterQueue cq.
  ASSERT_EQ(Call("POST", kLocalQueues, LocalQueue("main", "cq")).status, 201);
  ASSERT_EQ(Call("POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/other/localqueues",
                 LocalQueue("main", "cq")).status, 201);
  auto workload = [&](const std::string& ns, const std::string& name, int priority) {
    const std::string body = R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload","metadata":{"name":")" +
                             name + R"("},"spec":{"queueName":"main","priority":)" + std::to_string(priority) +
                             R"(,"podSets":[]}})";
    return Call("POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/" + ns + "/workloads", body).status;
  };
  ASSERT_EQ(workload("default", "low", 1), 201);
  ASSERT_EQ(workload("other", "high", 10), 201);
  ASSERT_EQ(workload("default", "mid", 5), 201);

  Reply cq = Call("GET", "/apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/cq/pendingworkloads");
  ASSERT_EQ(cq.status, 200) << cq.body.dump();
  EXPECT_EQ(cq.body["kind"], "PendingWorkloadsSummary");
  ASSERT_EQ(cq.body["items"].size(), 3u);
  EXPECT_EQ(cq.body["items"][0]["metadata"]["name"], "high");
  EXPECT_EQ(cq.body["items"][0]["positionInClusterQueue"], 0);
  EXPECT_EQ(cq.body["items"][2]["metadata"]["name"], "low");
  EXPECT_EQ(cq.body["items"][2]["positionInLocalQueue"], 1);

  // The LocalQueue view: this namespace's workloads only, positions in the whole queue kept.
  Reply lq = Call("GET", "/apis/visibility.kueue.x-k8s.io/v1beta2/namespaces/default/localqueues/main/pendingworkloads");
  ASSERT_EQ(lq.status, 200) << lq.body.dump();
  ASSERT_EQ(lq.body["items"].size(), 2u);
  EXPECT_EQ(lq.body["items"][0]["metadata"]["name"], "mid");
  EXPECT_EQ(lq.body["items"][0]["positionInClusterQueue"], 1);
  EXPECT_EQ(lq.body["items"][0]["positionInLocalQueue"], 0);

  Reply paged = Call("GET", "/apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/cq/pendingworkloads?limit=1&offset=1");
  ASSERT_EQ(paged.body["items"].size(), 1u);
  EXPECT_EQ(paged.body["items"][0]["metadata"]["name"], "mid");
  EXPECT_EQ(Call("GET", "/apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/cq/pendingworkloads?limit=x").status, 400);
  EXPECT_EQ(Call("GET", "/apis/visibility.kueue.x-k8s.io/v1beta2/namespaces/default/localqueues/none/pendingworkloads").status, 404);
  EXPECT_EQ(Call("GET", "/apis/visibility.kueue.x-k8s.io/v1/clusterqueues/cq/pendingworkloads").status, 404);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
