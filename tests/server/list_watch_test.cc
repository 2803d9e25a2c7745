// List documents, watch events and the scale subresource as kube-apiserver writes them.
#include "server/api/list_watch.h"

#include <gtest/gtest.h>

#include "server/api/list_options.h"

namespace berth::server {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

const model::KindInfo& Kind(std::string_view group, std::string_view kind) {
  const model::KindInfo* k = model::FindKind(group, kind);
  EXPECT_NE(k, nullptr);
  return *k;
}

TEST(ListWatchTest, ListDocument) {
  const std::vector<Json> items{Json{{"metadata", {{"name", "a"}}}}};
  const Json list = ListDocument(Kind("kueue.x-k8s.io", "Workload"), "kueue.x-k8s.io/v1beta2",
                                 items, 17, "tok", 3);
  EXPECT_EQ(list.dump(),
            R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"WorkloadList","metadata":)"
            R"({"resourceVersion":"17","continue":"tok","remainingItemCount":3},)"
            R"("items":[{"metadata":{"name":"a"}}]})");
  const Json empty = ListDocument(Kind("", "Pod"), "v1", {}, 5, "");
  EXPECT_EQ(empty.dump(),
            R"({"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"5"},"items":[]})");
}

TEST(ListWatchTest, WatchEvents) {
  EXPECT_EQ(WatchEvent(WatchEventType::kModified, Json{{"kind", "Pod"}}).dump(),
            R"({"type":"MODIFIED","object":{"kind":"Pod"}})");
  EXPECT_EQ(BookmarkEvent(Kind("kueue.x-k8s.io", "Workload"), "kueue.x-k8s.io/v1beta2", 99).dump(),
            R"({"type":"BOOKMARK","object":{"kind":"Workload","apiVersion":"kueue.x-k8s.io/v1beta2",)"
            R"("metadata":{"resourceVersion":"99"}}})");
  const Json err = ErrorEvent(TooOldResourceVersionError(3, 10));
  EXPECT_EQ(err["type"], "ERROR");
  EXPECT_EQ(err["object"]["code"], 410);
  EXPECT_EQ(err["object"]["reason"], "Expired");
}

TEST(ListWatchTest, ScaleOfDeploymentAndPyTorchJob) {
  const Json dep = Json::parse(R"({"metadata":{"name":"d","namespace":"ns","uid":"u",
      "resourceVersion":"4","labels":{"x":"y"}},"spec":{"replicas":3,"selector":{"matchLabels":
      {"app":"web"},"matchExpressions":[{"key":"tier","operator":"NotIn","values":["db"]}]}},
      "status":{"replicas":2}})");
  const Json scale = ScaleOf(Kind("apps", "Deployment"), dep);
  EXPECT_EQ(scale.dump(),
            R"({"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"d","namespace":"ns",)"
            R"("uid":"u","resourceVersion":"4"},"spec":{"replicas":3},"status":{"replicas":2,)"
            R"j("selector":"app=web,tier notin (db)"}})j");
  const auto& pt = Kind("kubeflow.org", "PyTorchJob");
  const Json job = Json::parse(R"({"metadata":{"name":"p"},"spec":{"pytorchReplicaSpecs":
      {"Worker":{"replicas":4}}},"status":{"replicaStatuses":{"Worker":{"active":1,
      "selector":"training.kubeflow.org/job-name=p"}}}})");
  const Json s2 = ScaleOf(pt, job);
  EXPECT_EQ(s2["spec"]["replicas"], 4);
  EXPECT_EQ(s2["status"]["replicas"], 1);
  EXPECT_EQ(s2["status"]["selector"], "training.kubeflow.org/job-name=p");

  auto scaled = ApplyScale(pt, job, Json::parse(R"({"spec":{"replicas":8}})"));
  ASSERT_TRUE(scaled.has_value());
  EXPECT_EQ((*scaled)["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"], 8);
  EXPECT_EQ((*scaled)["status"], job["status"]);
  auto bad = ApplyScale(pt, job, Json::parse(R"({"spec":{"replicas":-1}})"));
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, 422);
  EXPECT_EQ(bad.error().details->causes[0].field, "spec.replicas");
}

TEST(ListWatchTest, LabelSelectorText) {
  EXPECT_EQ(LabelSelectorText(Json::parse(R"({"matchExpressions":[{"key":"b","operator":"Exists"},
      {"key":"a","operator":"DoesNotExist"},{"key":"c","operator":"In","values":["z","y"]}]})")),
            std::string("!a,b,c in (y,z)"));
  EXPECT_EQ(LabelSelectorText(Json::object()), "");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
