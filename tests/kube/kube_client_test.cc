// kube::Client: the requests it builds (paths, escaped queries, patch content types, delete
// options) against a recording transport, and the whole round trip against a real RestHandler
// over SQLite, both in-process and over HTTP on 127.0.0.1: CRUD of a Job and a Node, the
// server's Status errors surfacing (404, 409, 422), list paging, server-side apply with
// fieldManager and force, and watch events.
#include "server/kube/kube_client.h"

#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <thread>
#include <vector>

#include "kube/kube_test_hub.h"
#include "server/kube/http_transport.h"
#include "server/kube/in_process_transport.h"

namespace berth::server::kube {
namespace BERTH_UNITY_ID {

using testing::JobBody;
using testing::NodeBody;
using testing::TestHub;

// Records every request and answers from a script (200 "{}" when the script is empty).
class RecordingTransport : public Transport {
 public:
  core::Result<Reply> Send(const Request& request) override {
    requests.push_back(request);
    if (replies.empty()) return Reply{200, "{}", {}};
    Reply r = std::move(replies.front());
    replies.pop_front();
    return r;
  }
  core::Result<int> Stream(const Request& request,
                           const std::function<bool(std::string_view line)>& on_line) override {
    requests.push_back(request);
    for (const std::string& line : lines) {
      if (!on_line(line)) break;
    }
    return 200;
  }

  std::vector<Request> requests;
  std::deque<Reply> replies;
  std::vector<std::string> lines;
};

// Counts the requests another transport answers.
class CountingTransport : public Transport {
 public:
  explicit CountingTransport(std::unique_ptr<Transport> inner) : inner_(std::move(inner)) {}
  core::Result<Reply> Send(const Request& request) override {
    ++sends;
    return inner_->Send(request);
  }
  core::Result<int> Stream(const Request& request,
                           const std::function<bool(std::string_view line)>& on_line) override {
    return inner_->Stream(request, on_line);
  }
  std::atomic<int> sends{0};

 private:
  std::unique_ptr<Transport> inner_;
};

Resource JobsResource() {
  auto r = ResourceFor("batch/v1", "Job");
  EXPECT_TRUE(r) << r.error().ToString();
  return r ? *r : Resource{};
}
Resource NodesResource() {
  auto r = ResourceFor("v1", "Node");
  EXPECT_TRUE(r) << r.error().ToString();
  return r ? *r : Resource{};
}

TEST(KubeResourceTest, PathsAndApiVersions) {
  const Resource jobs = JobsResource();
  EXPECT_EQ(jobs.group, "batch");
  EXPECT_EQ(jobs.resource, "jobs");
  EXPECT_EQ(jobs.kind, "Job");
  EXPECT_TRUE(jobs.namespaced);
  EXPECT_EQ(jobs.ApiVersion(), "batch/v1");
  EXPECT_EQ(jobs.Path("ns"), "/apis/batch/v1/namespaces/ns/jobs");
  EXPECT_EQ(jobs.Path(""), "/apis/batch/v1/jobs") << "every namespace";
  EXPECT_EQ(jobs.Path("ns", "train"), "/apis/batch/v1/namespaces/ns/jobs/train");
  EXPECT_EQ(jobs.Path("ns", "train", "status"), "/apis/batch/v1/namespaces/ns/jobs/train/status");
  EXPECT_EQ(jobs.Path("ns", "a b/c"), "/apis/batch/v1/namespaces/ns/jobs/a%20b%2Fc")
      << "a name is one path segment";

  const Resource nodes = NodesResource();
  EXPECT_EQ(nodes.ApiVersion(), "v1");
  EXPECT_FALSE(nodes.namespaced);
  EXPECT_EQ(nodes.Path("ignored", "n1"), "/api/v1/nodes/n1");
  EXPECT_EQ(nodes.Path("", "n1", "status"), "/api/v1/nodes/n1/status");

  auto cq = ResourceFor("kueue.x-k8s.io/v1beta2", "ClusterQueue");
  ASSERT_TRUE(cq) << cq.error().ToString();
  EXPECT_EQ(cq->Path("", "team-a"), "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/team-a");

  auto unknown = ResourceFor("example.com/v1", "Widget");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code(), core::ErrorCode::kNotFound);
  EXPECT_FALSE(ResourceFor("batch/v7", "Job")) << "a version berth does not read";
}

TEST(KubeReplyTest, MessageAndReasonOfAStatus) {
  Reply status{404,
               R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"jobs.batch \"x\" not found","reason":"NotFound","code":404})",
               {}};
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.Message(), "jobs.batch \"x\" not found");
  EXPECT_EQ(status.Reason(), "NotFound");
  EXPECT_EQ(status.Parsed()["code"], 404);

  Reply plain{502, "bad gateway " + std::string(300, 'x'), {}};
  EXPECT_EQ(plain.Reason(), "");
  EXPECT_EQ(plain.Message(), "HTTP 502: bad gateway " + std::string(200 - 12, 'x'));
  EXPECT_TRUE(plain.Parsed().is_discarded());
  EXPECT_EQ((Reply{500, "", {}}).Message(), "HTTP 500");
  EXPECT_TRUE((Reply{201, "{}", {}}).ok());
}

TEST(KubeClientRequestTest, QueriesAreEscapedAndPatchTypesMapped) {
  auto owned = std::make_unique<RecordingTransport>();
  RecordingTransport& t = *owned;
  Client client(std::move(owned));
  const Resource jobs = JobsResource();

  ListQuery query;
  query.label_selector = "app in (a,b),tier!=x";
  query.field_selector = "metadata.name=train";
  query.limit = 5;
  query.continue_token = "tok+/=";
  ASSERT_TRUE(client.List(jobs, "ns", query));
  EXPECT_EQ(t.requests.back().method, "GET");
  EXPECT_EQ(t.requests.back().path, "/apis/batch/v1/namespaces/ns/jobs");
  EXPECT_EQ(t.requests.back().query,
            "labelSelector=app%20in%20%28a%2Cb%29%2Ctier%21%3Dx&fieldSelector=metadata.name%3Dtrain"
            "&limit=5&continue=tok%2B%2F%3D");

  struct Case {
    const char* type;
    const char* content_type;
  };
  for (const Case& c : {Case{"merge", "application/merge-patch+json"},
                        Case{"json", "application/json-patch+json"},
                        Case{"strategic", "application/strategic-merge-patch+json"}}) {
    ASSERT_TRUE(client.Patch(jobs, "ns", "train", c.type, "{}"));
    EXPECT_EQ(t.requests.back().method, "PATCH");
    EXPECT_EQ(t.requests.back().content_type, c.content_type) << c.type;
    EXPECT_EQ(t.requests.back().query, "") << c.type;
  }
  PatchOptions apply;
  apply.field_manager = "berth agent";
  apply.force = true;
  apply.subresource = "status";
  ASSERT_TRUE(client.Patch(jobs, "ns", "train", "apply", "{}", apply));
  EXPECT_EQ(t.requests.back().content_type, "application/apply-patch+yaml");
  EXPECT_EQ(t.requests.back().path, "/apis/batch/v1/namespaces/ns/jobs/train/status");
  EXPECT_EQ(t.requests.back().query, "fieldManager=berth%20agent&force=true");
  apply.force = false;
  apply.subresource = "";
  ASSERT_TRUE(client.Patch(jobs, "ns", "train", "apply", "{}", apply));
  EXPECT_EQ(t.requests.back().query, "fieldManager=berth%20agent&force=false");

  const size_t sent = t.requests.size();
  auto unknown = client.Patch(jobs, "ns", "train", "yaml", "{}");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_FALSE(client.Patch(jobs, "ns", "train", "apply", "{}")) << "apply needs a manager";
  EXPECT_EQ(t.requests.size(), sent) << "refused before sending";

  DeleteOptions del;
  del.propagation_policy = "Foreground";
  del.precondition_uid = "u-1";
  ASSERT_TRUE(client.Delete(jobs, "ns", "train", del));
  EXPECT_EQ(t.requests.back().method, "DELETE");
  const Json body = Json::parse(t.requests.back().body);
  EXPECT_EQ(body["kind"], "DeleteOptions");
  EXPECT_EQ(body["propagationPolicy"], "Foreground");
  EXPECT_EQ(body["preconditions"]["uid"], "u-1");
  ASSERT_TRUE(client.Delete(jobs, "ns", "other"));
  EXPECT_EQ(t.requests.back().body, "") << "no options, no body";

  WatchQuery watch;
  watch.resource_version = "42";
  watch.timeout_s = 30;
  watch.label_selector = "app=x";
  t.lines = {"a", "b", "c"};
  std::vector<std::string> seen;
  auto status = client.Watch(jobs, "", watch, [&](std::string_view line) {
    seen.emplace_back(line);
    return seen.size() < 2;
  });
  ASSERT_TRUE(status);
  EXPECT_EQ(*status, 200);
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b"})) << "false stops the stream";
  EXPECT_EQ(t.requests.back().path, "/apis/batch/v1/jobs");
  EXPECT_EQ(t.requests.back().query,
            "watch=1&allowWatchBookmarks=true&timeoutSeconds=30&resourceVersion=42&labelSelector=app%3Dx");
}

// client-go's ListPager: pages until no continue token; the first page's RV; an expired token
// mid-way falls back to one unpaged list.
TEST(KubeClientRequestTest, ListAllPagesAndFallsBackWhenATokenExpires) {
  auto owned = std::make_unique<RecordingTransport>();
  RecordingTransport& t = *owned;
  Client client(std::move(owned));
  t.replies.push_back(Reply{200, R"({"kind":"NodeList","metadata":{"resourceVersion":"7","continue":"c1","remainingItemCount":3},"items":[{"n":1},{"n":2}]})", {}});
  t.replies.push_back(Reply{200, R"({"kind":"NodeList","metadata":{"resourceVersion":"9","continue":"c2"},"items":[{"n":3}]})", {}});
  t.replies.push_back(Reply{200, R"({"kind":"NodeList","metadata":{"resourceVersion":"9"},"items":[{"n":4}]})", {}});
  auto all = client.ListAll(NodesResource(), "");
  ASSERT_TRUE(all);
  ASSERT_EQ(t.requests.size(), 3u);
  EXPECT_EQ(t.requests[0].query, "limit=500") << "a page size when the query gives none";
  EXPECT_EQ(t.requests[1].query, "limit=500&continue=c1");
  EXPECT_EQ(t.requests[2].query, "limit=500&continue=c2");
  const Json list = all->Parsed();
  EXPECT_EQ(list["items"].size(), 4u);
  EXPECT_EQ(list["items"][3]["n"], 4);
  EXPECT_EQ(list["metadata"]["resourceVersion"], "7");
  EXPECT_FALSE(list["metadata"].contains("continue"));
  EXPECT_FALSE(list["metadata"].contains("remainingItemCount"));

  t.requests.clear();
  t.replies.push_back(Reply{200, R"({"metadata":{"resourceVersion":"7","continue":"c1"},"items":[{"n":1}]})", {}});
  t.replies.push_back(Reply{410, R"({"kind":"Status","code":410,"reason":"Expired"})", {}});
  t.replies.push_back(Reply{200, R"({"metadata":{"resourceVersion":"12"},"items":[{"n":1},{"n":2}]})", {}});
  ListQuery query;
  query.limit = 1;
  query.label_selector = "a=b";
  auto fallback = client.ListAll(NodesResource(), "", query);
  ASSERT_TRUE(fallback);
  ASSERT_EQ(t.requests.size(), 3u);
  EXPECT_EQ(t.requests[2].query, "labelSelector=a%3Db") << "unpaged, same selector";
  EXPECT_EQ(fallback->Parsed()["items"].size(), 2u);
  EXPECT_EQ(fallback->Parsed()["metadata"]["resourceVersion"], "12");

  t.requests.clear();
  t.replies.push_back(Reply{403, R"({"kind":"Status","code":403,"reason":"Forbidden","message":"no"})", {}});
  auto refused = client.ListAll(NodesResource(), "");
  ASSERT_TRUE(refused) << "an HTTP error is a reply";
  EXPECT_EQ(refused->status, 403);
  EXPECT_EQ(refused->Reason(), "Forbidden");
}

enum class Via { kInProcess, kHttp };

class KubeClientRoundTripTest : public ::testing::TestWithParam<Via> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(hub_.ok());
    std::unique_ptr<Transport> inner;
    if (GetParam() == Via::kInProcess) {
      inner = hub_.InProcess();
    } else {
      const std::string url = hub_.Serve();
      ASSERT_FALSE(url.empty());
      HttpConfig config;
      config.server = url;
      config.read_timeout = std::chrono::milliseconds(5000);
      auto made = NewHttpTransport(config);
      ASSERT_TRUE(made) << made.error().ToString();
      inner = std::move(made).value();
    }
    auto counting = std::make_unique<CountingTransport>(std::move(inner));
    counting_ = counting.get();
    client_ = std::make_unique<Client>(std::move(counting));
  }

  TestHub hub_;
  CountingTransport* counting_ = nullptr;
  std::unique_ptr<Client> client_;
};

TEST_P(KubeClientRoundTripTest, JobCrudAndStatusErrors) {
  const Resource jobs = JobsResource();
  auto created = client_->Create(jobs, "default", JobBody("train"));
  ASSERT_TRUE(created) << created.error().ToString();
  ASSERT_EQ(created->status, 201) << created->body;
  EXPECT_EQ(created->headers["content-type"].substr(0, 16), "application/json");
  const Json job = created->Parsed();
  EXPECT_FALSE(job["metadata"]["uid"].get<std::string>().empty());

  auto got = client_->Get(jobs, "default", "train");
  ASSERT_TRUE(got);
  ASSERT_EQ(got->status, 200);
  EXPECT_EQ(got->Parsed()["spec"]["parallelism"], 1);

  Json changed = got->Parsed();
  changed["spec"]["parallelism"] = 3;
  auto updated = client_->Update(jobs, "default", "train", changed);
  ASSERT_TRUE(updated);
  ASSERT_EQ(updated->status, 200) << updated->body;
  EXPECT_EQ(updated->Parsed()["spec"]["parallelism"], 3);

  // 409: the update above moved the resourceVersion past `changed`'s.
  auto stale = client_->Update(jobs, "default", "train", changed);
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->status, 409);
  EXPECT_EQ(stale->Reason(), "Conflict");
  EXPECT_NE(stale->Message().find("the object has been modified"), std::string::npos)
      << stale->Message();

  auto twice = client_->Create(jobs, "default", JobBody("train"));
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->status, 409);
  EXPECT_EQ(twice->Reason(), "AlreadyExists");
  EXPECT_EQ(twice->Message(), "jobs.batch \"train\" already exists");

  auto invalid = client_->Create(jobs, "default", JobBody("bad", -1));
  ASSERT_TRUE(invalid);
  EXPECT_EQ(invalid->status, 422);
  EXPECT_EQ(invalid->Reason(), "Invalid");
  EXPECT_NE(invalid->Message().find("spec.parallelism"), std::string::npos) << invalid->Message();

  auto merged = client_->Patch(jobs, "default", "train", "merge", R"({"metadata":{"labels":{"team":"a"}}})");
  ASSERT_TRUE(merged);
  ASSERT_EQ(merged->status, 200) << merged->body;
  EXPECT_EQ(merged->Parsed()["metadata"]["labels"]["team"], "a");
  auto json_patch = client_->Patch(jobs, "default", "train", "json",
                                   R"([{"op":"replace","path":"/spec/parallelism","value":2}])");
  ASSERT_TRUE(json_patch);
  ASSERT_EQ(json_patch->status, 200) << json_patch->body;
  EXPECT_EQ(json_patch->Parsed()["spec"]["parallelism"], 2);

  DeleteOptions wrong_uid;
  wrong_uid.precondition_uid = "not-the-uid";
  auto refused = client_->Delete(jobs, "default", "train", wrong_uid);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 409) << refused->body;
  auto deleted = client_->Delete(jobs, "default", "train");
  ASSERT_TRUE(deleted);
  EXPECT_EQ(deleted->status, 200) << deleted->body;

  auto gone = client_->Get(jobs, "default", "train");
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->status, 404);
  EXPECT_EQ(gone->Reason(), "NotFound");
  EXPECT_EQ(gone->Message(), "jobs.batch \"train\" not found");
}

TEST_P(KubeClientRoundTripTest, NodesPageAndSelect) {
  const Resource nodes = NodesResource();
  for (int i = 0; i < 7; ++i) {
    auto created = client_->Create(nodes, "", NodeBody("n" + std::to_string(i), i % 2 ? "b" : "a"));
    ASSERT_TRUE(created);
    ASSERT_EQ(created->status, 201) << created->body;
  }
  auto one = client_->Get(nodes, "", "n3");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->Parsed()["metadata"]["labels"]["topology.kubernetes.io/zone"], "b");

  const int before = counting_->sends.load();
  ListQuery paged;
  paged.limit = 3;
  auto all = client_->ListAll(nodes, "", paged);
  ASSERT_TRUE(all);
  ASSERT_EQ(all->status, 200) << all->body;
  EXPECT_EQ(counting_->sends.load() - before, 3) << "7 nodes in pages of 3";
  const Json list = all->Parsed();
  ASSERT_EQ(list["items"].size(), 7u);
  EXPECT_EQ(list["items"][6]["metadata"]["name"], "n6");
  EXPECT_FALSE(list["metadata"]["resourceVersion"].get<std::string>().empty());

  ListQuery zone_b;
  zone_b.label_selector = "topology.kubernetes.io/zone in (b)";
  auto selected = client_->ListAll(nodes, "", zone_b);
  ASSERT_TRUE(selected);
  ASSERT_EQ(selected->status, 200) << selected->body;
  EXPECT_EQ(selected->Parsed()["items"].size(), 3u);

  ListQuery by_name;
  by_name.field_selector = "metadata.name=n5";
  auto named = client_->List(nodes, "", by_name);
  ASSERT_TRUE(named);
  ASSERT_EQ(named->Parsed()["items"].size(), 1u);
  EXPECT_EQ(named->Parsed()["items"][0]["metadata"]["name"], "n5");

  ListQuery bad;
  bad.label_selector = "a in (";
  auto refused = client_->List(nodes, "", bad);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400);
  EXPECT_EQ(refused->Reason(), "BadRequest");
}

TEST_P(KubeClientRoundTripTest, ServerSideApplyWithFieldManagers) {
  const Resource jobs = JobsResource();
  PatchOptions agent;
  agent.field_manager = "berth-agent";
  auto created = client_->Patch(jobs, "default", "ssa", "apply", JobBody("ssa", 2).dump(), agent);
  ASSERT_TRUE(created);
  ASSERT_EQ(created->status, 201) << created->body;
  // berth records each manager's applied configuration in an annotation (docs/api.md).
  const Json annotations = created->Parsed()["metadata"]["annotations"];
  ASSERT_TRUE(annotations.is_object()) << created->body;
  EXPECT_TRUE(annotations.contains("berth.dev/applied-berth-agent")) << annotations.dump();

  PatchOptions other;
  other.field_manager = "someone-else";
  auto conflict = client_->Patch(jobs, "default", "ssa", "apply", JobBody("ssa", 5).dump(), other);
  ASSERT_TRUE(conflict);
  EXPECT_EQ(conflict->status, 409) << conflict->body;
  EXPECT_EQ(conflict->Reason(), "Conflict");
  EXPECT_NE(conflict->Message().find("berth-agent"), std::string::npos) << conflict->Message();

  other.force = true;
  auto forced = client_->Patch(jobs, "default", "ssa", "apply", JobBody("ssa", 5).dump(), other);
  ASSERT_TRUE(forced);
  ASSERT_EQ(forced->status, 200) << forced->body;
  EXPECT_EQ(forced->Parsed()["spec"]["parallelism"], 5);
}

TEST_P(KubeClientRoundTripTest, WatchSeesAddedModifiedDeleted) {
  const Resource jobs = JobsResource();
  auto listed = client_->List(jobs, "default");
  ASSERT_TRUE(listed);
  WatchQuery query;
  query.resource_version = listed->Parsed()["metadata"]["resourceVersion"];
  query.timeout_s = 10;
  std::atomic<bool> cancel{false};
  query.cancel = &cancel;
  std::mutex mu;
  std::vector<std::string> events;
  std::thread watcher([&] {
    auto status = client_->Watch(jobs, "default", query, [&](std::string_view line) {
      const Json event = Json::parse(line, nullptr, false);
      std::lock_guard<std::mutex> lock(mu);
      events.push_back(event.value("type", "?") + " " +
                       event["object"]["metadata"].value("name", "?"));
      return events.size() < 3;
    });
    EXPECT_TRUE(status);
    if (status) {
      EXPECT_EQ(*status, 200);
    }
  });
  ASSERT_EQ(client_->Create(jobs, "default", JobBody("w"))->status, 201);
  ASSERT_EQ(client_->Patch(jobs, "default", "w", "merge", R"({"spec":{"parallelism":4}})")->status, 200);
  ASSERT_EQ(client_->Delete(jobs, "default", "w")->status, 200);
  // The stream ends on its third event; the cancel is only a bound should it not come.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (events.size() >= 3) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  cancel = true;
  watcher.join();
  EXPECT_EQ(events, (std::vector<std::string>{"ADDED w", "MODIFIED w", "DELETED w"}));
}

TEST_P(KubeClientRoundTripTest, CancelEndsAQuietWatchPromptly) {
  WatchQuery query;
  query.timeout_s = 60;
  query.resource_version = "0";
  std::atomic<bool> cancel{false};
  query.cancel = &cancel;
  std::atomic<bool> returned{false};
  std::thread watcher([&] {
    auto status = client_->Watch(JobsResource(), "default", query, [](std::string_view) { return true; });
    EXPECT_TRUE(status) << status.error().ToString();
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(returned.load());
  const auto asked = std::chrono::steady_clock::now();
  cancel = true;
  watcher.join();
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::milliseconds(1000));
}

INSTANTIATE_TEST_SUITE_P(Transports, KubeClientRoundTripTest,
                         ::testing::Values(Via::kInProcess, Via::kHttp),
                         [](const ::testing::TestParamInfo<Via>& info) {
                           return info.param == Via::kInProcess ? "InProcess" : "Http";
                         });

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::kube
