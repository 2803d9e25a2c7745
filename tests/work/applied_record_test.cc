// AppliedRecord: the AppliedManifestWork document round trip, its refusals, and the hub hash
// (OCM pkg/work/helper/helper_test.go TestHubHash: same address, same hash).
#include "server/work/applied_record.h"

#include <gtest/gtest.h>

namespace berth::server::work {
namespace BERTH_UNITY_ID {

AppliedRecord SampleRecord() {
  AppliedRecord r;
  r.hub_hash = HubHash("https://hub.example:6443");
  r.work_name = "train-cluster1";
  r.agent_id = "agent-7";
  r.resources = {
      {"apps", "v1", "deployments", "ns1", "web", "uid-web"},
      {"", "v1", "namespaces", "", "ns1", "uid-ns1"},
      {"batch", "v1", "jobs", "ns1", "train", ""},
  };
  SortAppliedResources(r.resources);
  return r;
}

TEST(AppliedRecordTest, SortsAsUpstream) {
  const AppliedRecord r = SampleRecord();
  ASSERT_EQ(r.resources.size(), 3u);
  EXPECT_EQ(r.resources[0].resource, "namespaces");  // group "" first
  EXPECT_EQ(r.resources[1].resource, "deployments");
  EXPECT_EQ(r.resources[2].resource, "jobs");
}

TEST(AppliedRecordTest, RoundTripsAsAnAppliedManifestWork) {
  const AppliedRecord r = SampleRecord();
  const Json doc = r.ToJson();
  EXPECT_EQ(doc["apiVersion"], "work.open-cluster-management.io/v1");
  EXPECT_EQ(doc["kind"], "AppliedManifestWork");
  EXPECT_EQ(doc["metadata"]["name"], r.hub_hash + "-train-cluster1");
  EXPECT_EQ(doc["spec"],
            Json::parse(R"({"hubHash":")" + r.hub_hash +
                        R"(","agentID":"agent-7","manifestWorkName":"train-cluster1"})"));
  EXPECT_EQ(doc["status"]["appliedResources"][0],
            Json::parse(R"({"group":"","resource":"namespaces","name":"ns1","namespace":"",
                            "version":"v1","uid":"uid-ns1"})"));
  EXPECT_FALSE(doc["status"]["appliedResources"][2].contains("uid"));  // omitempty
  auto back = AppliedRecord::FromJson(Json::parse(doc.dump()));
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(back->hub_hash, r.hub_hash);
  EXPECT_EQ(back->work_name, r.work_name);
  EXPECT_EQ(back->agent_id, r.agent_id);
  EXPECT_EQ(back->resources, r.resources);
  EXPECT_EQ(back->ToJson(), doc);

  AppliedRecord empty;
  empty.work_name = "w";
  EXPECT_EQ(empty.Name(), "w");
  auto empty_back = AppliedRecord::FromJson(empty.ToJson());
  ASSERT_TRUE(empty_back);
  EXPECT_TRUE(empty_back->resources.empty());
}

TEST(AppliedRecordTest, RefusesDocumentsThatAreNotRecords) {
  auto field_of = [](const char* doc) {
    auto r = AppliedRecord::FromJson(Json::parse(doc));
    EXPECT_FALSE(r) << doc;
    return r ? std::string() : r.error().location().field;
  };
  EXPECT_FALSE(AppliedRecord::FromJson(Json::array()));
  EXPECT_EQ(field_of(R"({"kind":"ManifestWork","spec":{"manifestWorkName":"w"}})"), "kind");
  EXPECT_EQ(field_of(R"({"kind":"AppliedManifestWork"})"), "spec");
  EXPECT_EQ(field_of(R"({"kind":"AppliedManifestWork","spec":{}})"), "spec.manifestWorkName");
  EXPECT_EQ(field_of(R"({"kind":"AppliedManifestWork","spec":{"manifestWorkName":7}})"),
            "spec.manifestWorkName");
  EXPECT_EQ(field_of(R"({"kind":"AppliedManifestWork","spec":{"manifestWorkName":"w"},
                         "status":{"appliedResources":{}}})"),
            "status.appliedResources");
  EXPECT_EQ(field_of(R"({"kind":"AppliedManifestWork","spec":{"manifestWorkName":"w"},
                         "status":{"appliedResources":[{"resource":"jobs","version":"v1"}]}})"),
            "status.appliedResources[0].name");
  EXPECT_EQ(field_of(R"({"kind":"AppliedManifestWork","spec":{"manifestWorkName":"w"},
                         "status":{"appliedResources":[{"resource":"jobs","version":"v1",
                                                        "name":"j","uid":5}]}})"),
            "status.appliedResources[0].uid");
}

TEST(AppliedRecordTest, UpstreamHubHash) {
  EXPECT_EQ(HubHash("http://localhost"), HubHash("http://localhost"));
  EXPECT_NE(HubHash("http://localhost"), HubHash("http://remotehost"));
  EXPECT_EQ(HubHash("http://localhost"),
            "8605b8ba08c20d42f9e455151871896d0e0de980596286fb736d11eec013e2a4");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::work
