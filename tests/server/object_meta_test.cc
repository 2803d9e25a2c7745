// The registry's metadata rules on create and update (generic registry BeforeCreate /
// BeforeUpdate, apiextensions' custom resource strategy).
#include "server/api/object_meta.h"

#include <gtest/gtest.h>

namespace berth::server {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

RequestInfo Route(std::string_view method, std::string_view path) {
  auto r = ParseRequest(method, path, QueryParams{});
  EXPECT_TRUE(r.has_value()) << path;
  return r.value();
}

CreateContext Ctx() {
  CreateContext c;
  c.uid = "uid-1";
  c.resource_version = 10;
  c.now = core::Timestamp::Parse("2026-01-01T00:00:00Z").value();
  c.generate_suffix = "x7k2p";
  return c;
}

const char* kWorkloads = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";

TEST(ObjectMetaTest, CreateFillsWhatTheRegistrySets) {
  const Json in = Json::parse(R"({"metadata":{"name":"w1"},"spec":{"queueName":"lq"},
      "status":{"conditions":[]}})");
  auto out = PrepareCreate(Route("POST", kWorkloads), in, Ctx());
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(out->dump(),
            R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload","metadata":{"name":"w1",)"
            R"("namespace":"team-a","uid":"uid-1","resourceVersion":"10","generation":1,)"
            R"("creationTimestamp":"2026-01-01T00:00:00Z"},"spec":{"queueName":"lq"}})");
  // generateName.
  auto gen = PrepareCreate(Route("POST", kWorkloads),
                           Json::parse(R"({"metadata":{"generateName":"job-"}})"), Ctx());
  ASSERT_TRUE(gen.has_value());
  EXPECT_EQ((*gen)["metadata"]["name"], "job-x7k2p");
  // Cluster-scoped kinds drop a namespace.
  auto cq = PrepareCreate(Route("POST", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues"),
                          Json::parse(R"({"metadata":{"name":"cq","namespace":"x"}})"), Ctx());
  ASSERT_TRUE(cq.has_value());
  EXPECT_FALSE((*cq)["metadata"].contains("namespace"));
  // Kinds without a status subresource keep status on create.
  auto rf = PrepareCreate(Route("POST", "/apis/kueue.x-k8s.io/v1beta2/resourceflavors"),
                          Json::parse(R"({"metadata":{"name":"f"},"status":{"a":1}})"), Ctx());
  ASSERT_TRUE(rf.has_value());
  EXPECT_EQ((*rf)["status"]["a"], 1);
}

TEST(ObjectMetaTest, CreateRefusals) {
  const RequestInfo r = Route("POST", kWorkloads);
  auto other_ns = PrepareCreate(r, Json::parse(R"({"metadata":{"name":"w","namespace":"b"}})"), Ctx());
  ASSERT_FALSE(other_ns.has_value());
  EXPECT_EQ(other_ns.error().code, 400);
  EXPECT_EQ(other_ns.error().message,
            "the namespace of the provided object does not match the namespace sent on the request");
  auto no_name = PrepareCreate(r, Json::parse(R"({"metadata":{}})"), Ctx());
  ASSERT_FALSE(no_name.has_value());
  EXPECT_EQ(no_name.error().code, 422);
  EXPECT_EQ(no_name.error().details->causes[0].field, "metadata.name");
  auto version = PrepareCreate(
      r, Json::parse(R"({"apiVersion":"kueue.x-k8s.io/v1beta1","metadata":{"name":"w"}})"), Ctx());
  ASSERT_FALSE(version.has_value());
  EXPECT_EQ(version.error().message,
            "the API version in the data (kueue.x-k8s.io/v1beta1) does not match the expected API "
            "version (kueue.x-k8s.io/v1beta2)");
  EXPECT_EQ(PrepareCreate(r, Json::parse(R"({"kind":"Job","metadata":{"name":"w"}})"), Ctx())
                .error().code, 400);
  EXPECT_EQ(PrepareCreate(r, Json::parse(R"({"metadata":{"name":"w","resourceVersion":"3"}})"), Ctx())
                .error().code, 400);
  EXPECT_EQ(PrepareCreate(r, Json::array(), Ctx()).error().code, 400);
}

Json Stored() {
  return Json::parse(R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload",
      "metadata":{"name":"w1","namespace":"team-a","uid":"u1","resourceVersion":"10","generation":1,
      "creationTimestamp":"2026-01-01T00:00:00Z","labels":{"a":"b"}},
      "spec":{"queueName":"lq","active":true},"status":{"conditions":[{"type":"QuotaReserved"}]}})");
}

TEST(ObjectMetaTest, UpdateBumpsGenerationOnSpecChangesOnly) {
  const RequestInfo r = Route("PUT", std::string(kWorkloads) + "/w1");
  Json changed_spec = Stored();
  changed_spec["spec"]["active"] = false;
  changed_spec["status"] = Json::object();  // ignored: status goes through /status
  changed_spec["metadata"].erase("uid");
  auto out = PrepareUpdate(r, Stored(), changed_spec, 11);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_TRUE(out->changed);
  EXPECT_EQ(out->object["metadata"]["generation"], 2);
  EXPECT_EQ(out->object["metadata"]["resourceVersion"], "11");
  EXPECT_EQ(out->object["metadata"]["uid"], "u1");
  EXPECT_EQ(out->object["status"], Stored()["status"]);

  Json labels_only = Stored();
  labels_only["metadata"]["labels"]["c"] = "d";
  auto meta = PrepareUpdate(r, Stored(), labels_only, 11);
  ASSERT_TRUE(meta.has_value());
  EXPECT_TRUE(meta->changed);
  EXPECT_EQ(meta->object["metadata"]["generation"], 1);

  auto same = PrepareUpdate(r, Stored(), Stored(), 11);
  ASSERT_TRUE(same.has_value());
  EXPECT_FALSE(same->changed);
  EXPECT_EQ(same->object["metadata"]["resourceVersion"], "10");
}

TEST(ObjectMetaTest, StatusSubresourceChangesOnlyStatus) {
  const RequestInfo r = Route("PUT", std::string(kWorkloads) + "/w1/status");
  Json in = Stored();
  in["spec"]["queueName"] = "other";
  in["status"]["conditions"][0]["status"] = "True";
  auto out = PrepareUpdate(r, Stored(), in, 12);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_TRUE(out->changed);
  EXPECT_EQ(out->object["spec"]["queueName"], "lq");
  EXPECT_EQ(out->object["status"]["conditions"][0]["status"], "True");
  EXPECT_EQ(out->object["metadata"]["generation"], 1);
  EXPECT_EQ(out->object["metadata"]["resourceVersion"], "12");
}

TEST(ObjectMetaTest, UpdateConcurrencyAndIdentity) {
  const RequestInfo r = Route("PUT", std::string(kWorkloads) + "/w1");
  Json stale = Stored();
  stale["metadata"]["resourceVersion"] = "9";
  auto conflict = PrepareUpdate(r, Stored(), stale, 11);
  ASSERT_FALSE(conflict.has_value());
  EXPECT_EQ(conflict.error().code, 409);
  EXPECT_EQ(conflict.error().reason, "Conflict");
  Json unconditional = Stored();
  unconditional["metadata"].erase("resourceVersion");
  auto crd = PrepareUpdate(r, Stored(), unconditional, 11);
  ASSERT_FALSE(crd.has_value());
  EXPECT_EQ(crd.error().code, 422);
  EXPECT_EQ(crd.error().details->causes[0].field, "metadata.resourceVersion");
  Json renamed = Stored();
  renamed["metadata"]["name"] = "w2";
  auto name = PrepareUpdate(r, Stored(), renamed, 11);
  ASSERT_FALSE(name.has_value());
  EXPECT_EQ(name.error().message, "the name of the object (w2) does not match the name on the URL (w1)");
  Json other_uid = Stored();
  other_uid["metadata"]["uid"] = "u2";
  EXPECT_EQ(PrepareUpdate(r, Stored(), other_uid, 11).error().code, 409);

  // Built-in kinds allow unconditional updates.
  const RequestInfo node = Route("PUT", "/api/v1/nodes/n1");
  const Json stored_node = Json::parse(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1",
      "uid":"n","resourceVersion":"3","generation":1},"spec":{}})");
  auto cordon = PrepareUpdate(node, stored_node,
                              Json::parse(R"({"metadata":{"name":"n1"},"spec":{"unschedulable":true}})"), 4);
  ASSERT_TRUE(cordon.has_value()) << cordon.error().message;
  EXPECT_EQ(cordon->object["metadata"]["generation"], 2);
  EXPECT_EQ(cordon->object["metadata"]["uid"], "n");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
