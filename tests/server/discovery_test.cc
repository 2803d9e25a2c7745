// Discovery documents as kubectl 1.32 reads them: the aggregated v2 form it asks for first,
// and the legacy forms it falls back to. Checked against the table of kinds.
#include "server/api/discovery.h"

#include <gtest/gtest.h>

#include "model/kind_info.h"

namespace berth::server {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

constexpr std::string_view kKubectlAccept =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;"
    "g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

const Json* FindResource(const Json& list, std::string_view name) {
  for (const Json& r : list["resources"]) {
    if (r["name"] == name) return &r;
  }
  return nullptr;
}

TEST(DiscoveryTest, NegotiatesTheAggregatedForm) {
  EXPECT_EQ(NegotiateDiscovery(kKubectlAccept), DiscoveryFormat::kAggregatedV2);
  EXPECT_EQ(DiscoveryContentType(DiscoveryFormat::kAggregatedV2),
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
  EXPECT_EQ(NegotiateDiscovery(
                "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList"),
            DiscoveryFormat::kAggregatedV2Beta1);
  EXPECT_EQ(NegotiateDiscovery("application/json"), DiscoveryFormat::kLegacy);
  EXPECT_EQ(NegotiateDiscovery(""), DiscoveryFormat::kLegacy);
  // Protobuf ranges are skipped; a q=0 range is refused.
  EXPECT_EQ(NegotiateDiscovery("application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;"
                               "as=APIGroupDiscoveryList, application/json;"
                               "g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"),
            DiscoveryFormat::kAggregatedV2);
  EXPECT_EQ(NegotiateDiscovery("application/json;g=apidiscovery.k8s.io;v=v2;"
                               "as=APIGroupDiscoveryList;q=0, application/json"),
            DiscoveryFormat::kLegacy);
  // Plain JSON first wins: the client prefers the legacy form.
  EXPECT_EQ(NegotiateDiscovery("application/json, application/json;g=apidiscovery.k8s.io;v=v2;"
                               "as=APIGroupDiscoveryList"),
            DiscoveryFormat::kLegacy);
}

TEST(DiscoveryTest, CoreVersionsAndResources) {
  const Json api = CoreApiVersions("127.0.0.1:8080");
  EXPECT_EQ(api.dump(),
            R"({"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":)"
            R"([{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:8080"}]})");
  auto v1 = ApiResourceList("", "v1");
  ASSERT_TRUE(v1.has_value());
  EXPECT_EQ((*v1)["groupVersion"], "v1");
  const Json* pods = FindResource(*v1, "pods");
  ASSERT_NE(pods, nullptr);
  EXPECT_EQ(pods->dump(),
            R"({"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod","verbs":)"
            R"(["create","delete","deletecollection","get","list","patch","update","watch"],)"
            R"("shortNames":["po"],"categories":["all"]})");
  const Json* status = FindResource(*v1, "pods/status");
  ASSERT_NE(status, nullptr);
  EXPECT_EQ(status->dump(),
            R"({"name":"pods/status","singularName":"","namespaced":true,"kind":"Pod",)"
            R"("verbs":["get","patch","update"]})");
  const Json* ns = FindResource(*v1, "namespaces");
  ASSERT_NE(ns, nullptr);
  EXPECT_EQ((*ns)["namespaced"], false);
  EXPECT_EQ((*ns)["verbs"].size(), 7u);  // no deletecollection
  // Sorted by name, subresources after their resource.
  std::vector<std::string> names;
  for (const Json& r : (*v1)["resources"]) names.push_back(r["name"]);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(DiscoveryTest, ScaleSubresourceNamesAutoscalingScale) {
  auto apps = ApiResourceList("apps", "v1");
  ASSERT_TRUE(apps.has_value());
  const Json* scale = FindResource(*apps, "deployments/scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->dump(),
            R"({"name":"deployments/scale","singularName":"","namespaced":true,)"
            R"("group":"autoscaling","version":"v1","kind":"Scale","verbs":["get","patch","update"]})");
  EXPECT_EQ((*FindResource(*apps, "deployments"))["shortNames"], Json::array({"deploy"}));
}

TEST(DiscoveryTest, GroupListHasEveryServedGroupWithPreferredVersion) {
  const Json groups = ApiGroupList();
  EXPECT_EQ(groups["kind"], "APIGroupList");
  std::vector<std::string> names;
  for (const Json& g : groups["groups"]) {
    names.push_back(g["name"]);
    EXPECT_EQ(g["preferredVersion"], g["versions"][0]);
  }
  for (const model::KindInfo& k : model::AllKinds()) {
    if (!k.served() || k.group.empty()) continue;
    EXPECT_NE(std::find(names.begin(), names.end(), k.group), names.end()) << k.group;
  }
  // Built-in groups first in kube-apiserver's priority order; batch before batch.volcano.sh,
  // so `kubectl get jobs` means batch/v1 Jobs.
  auto pos = [&](std::string_view g) { return std::find(names.begin(), names.end(), g) - names.begin(); };
  EXPECT_LT(pos("apps"), pos("batch"));
  EXPECT_LT(pos("batch"), pos("scheduling.k8s.io"));
  EXPECT_LT(pos("resource.k8s.io"), pos("batch.volcano.sh"));
  EXPECT_LT(pos("cluster.open-cluster-management.io"), pos("kueue.x-k8s.io"));
  EXPECT_EQ(std::count(names.begin(), names.end(), "config.kueue.x-k8s.io"), 0);

  const Json kueue = *ApiGroupDocument("kueue.x-k8s.io");
  EXPECT_EQ(kueue["kind"], "APIGroup");
  EXPECT_EQ(kueue["preferredVersion"]["groupVersion"], "kueue.x-k8s.io/v1beta2");
  EXPECT_EQ(kueue["versions"].size(), 2u);  // v1alpha1 is read from files, never served
  EXPECT_FALSE(ApiGroupDocument("nope.io").has_value());
  EXPECT_EQ(ApiGroupDocument("nope.io").error().code, 404);
  auto dra = ServedVersions("resource.k8s.io");
  EXPECT_EQ(dra, (std::vector<std::string>{"v1", "v1beta2", "v1beta1", "v1alpha3"}));
}

TEST(DiscoveryTest, VersionPriority) {
  std::vector<std::string> v{"v1alpha1", "foo", "v2", "v1beta1", "v1", "v1beta2", "v11alpha2", "bar"};
  std::sort(v.begin(), v.end(),
            [](const std::string& a, const std::string& b) { return VersionPriorityLess(a, b); });
  EXPECT_EQ(v, (std::vector<std::string>{"v2", "v1", "v1beta2", "v1beta1", "v11alpha2",
                                         "v1alpha1", "bar", "foo"}));
}

TEST(DiscoveryTest, ResourceListPerVersion) {
  auto v1beta2 = ApiResourceList("kueue.x-k8s.io", "v1beta2");
  ASSERT_TRUE(v1beta2.has_value());
  const Json* cq = FindResource(*v1beta2, "clusterqueues");
  ASSERT_NE(cq, nullptr);
  EXPECT_EQ(cq->dump(),
            R"({"name":"clusterqueues","singularName":"clusterqueue","namespaced":false,)"
            R"("kind":"ClusterQueue","verbs":["create","delete","deletecollection","get","list",)"
            R"("patch","update","watch"],"shortNames":["cq"]})");
  EXPECT_NE(FindResource(*v1beta2, "clusterqueues/status"), nullptr);
  EXPECT_EQ(FindResource(*v1beta2, "resourceflavors/status"), nullptr);
  // DeviceTaintRule is only served in v1alpha3.
  EXPECT_EQ(FindResource(*ApiResourceList("resource.k8s.io", "v1"), "devicetaintrules"), nullptr);
  EXPECT_NE(FindResource(*ApiResourceList("resource.k8s.io", "v1alpha3"), "devicetaintrules"),
            nullptr);
  EXPECT_EQ(ApiResourceList("kueue.x-k8s.io", "v1alpha1").error().code, 404);
}

TEST(DiscoveryTest, AggregatedV2Documents) {
  const Json core = AggregatedDiscovery(true, DiscoveryFormat::kAggregatedV2);
  EXPECT_EQ(core["kind"], "APIGroupDiscoveryList");
  EXPECT_EQ(core["apiVersion"], "apidiscovery.k8s.io/v2");
  ASSERT_EQ(core["items"].size(), 1u);
  const Json& item = core["items"][0];
  EXPECT_EQ(item["metadata"].dump(), R"({"creationTimestamp":null})");
  const Json& v1 = item["versions"][0];
  EXPECT_EQ(v1["version"], "v1");
  EXPECT_EQ(v1["freshness"], "Current");
  const Json* pods = nullptr;
  for (const Json& r : v1["resources"]) {
    if (r["resource"] == "pods") pods = &r;
  }
  ASSERT_NE(pods, nullptr);
  EXPECT_EQ(pods->dump(),
            R"({"resource":"pods","responseKind":{"group":"","version":"v1","kind":"Pod"},)"
            R"("scope":"Namespaced","singularResource":"pod","verbs":["create","delete",)"
            R"("deletecollection","get","list","patch","update","watch"],"shortNames":["po"],)"
            R"("categories":["all"],"subresources":[{"subresource":"status","responseKind":)"
            R"({"group":"","version":"v1","kind":"Pod"},"verbs":["get","patch","update"]}]})");

  const Json apis = AggregatedDiscovery(false, DiscoveryFormat::kAggregatedV2);
  const std::vector<std::string> groups = ServedGroups();
  ASSERT_EQ(apis["items"].size(), groups.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    EXPECT_EQ(apis["items"][i]["metadata"]["name"], groups[i]);
  }
  // Deployments carry scale before status, with autoscaling/v1 Scale.
  const Json& apps = apis["items"][0];
  ASSERT_EQ(apps["metadata"]["name"], "apps");
  for (const Json& r : apps["versions"][0]["resources"]) {
    if (r["resource"] != "deployments") continue;
    EXPECT_EQ(r["subresources"][0]["subresource"], "scale");
    EXPECT_EQ(r["subresources"][0]["responseKind"]["group"], "autoscaling");
    EXPECT_EQ(r["subresources"][1]["subresource"], "status");
  }
  EXPECT_EQ(AggregatedDiscovery(false, DiscoveryFormat::kAggregatedV2Beta1)["apiVersion"],
            "apidiscovery.k8s.io/v2beta1");
  // Deterministic bytes.
  EXPECT_EQ(apis.dump(), AggregatedDiscovery(false, DiscoveryFormat::kAggregatedV2).dump());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
