// Routing cases after kube-apiserver's RequestInfoFactory tests (request_test.go) and its
// route table: which paths exist, which methods each takes, and what each means.
#include "server/api/request_info.h"

#include <gtest/gtest.h>

namespace berth::server {
namespace BERTH_UNITY_ID {

ApiResult<RequestInfo> Parse(std::string_view method, std::string_view path,
                             std::string_view query = "") {
  auto q = ParseQuery(query);
  EXPECT_TRUE(q.has_value());
  return ParseRequest(method, path, q.value());
}

RequestInfo Ok(std::string_view method, std::string_view path, std::string_view query = "") {
  auto r = Parse(method, path, query);
  EXPECT_TRUE(r.has_value()) << method << " " << path << ": "
                             << (r ? "" : r.error().message);
  return r.has_value() ? r.value() : RequestInfo{};
}

int Code(std::string_view method, std::string_view path, std::string_view query = "") {
  auto r = Parse(method, path, query);
  return r.has_value() ? 200 : r.error().code;
}

TEST(RequestInfoTest, Discovery) {
  EXPECT_EQ(Ok("GET", "/api").discovery, DiscoveryTarget::kCoreVersions);
  EXPECT_EQ(Ok("GET", "/api/v1").discovery, DiscoveryTarget::kCoreResources);
  EXPECT_EQ(Ok("GET", "/apis").discovery, DiscoveryTarget::kGroups);
  EXPECT_EQ(Ok("GET", "/apis/kueue.x-k8s.io").discovery, DiscoveryTarget::kGroup);
  const RequestInfo gv = Ok("GET", "/apis/kueue.x-k8s.io/v1beta2/");
  EXPECT_EQ(gv.discovery, DiscoveryTarget::kGroupResources);
  EXPECT_EQ(gv.group, "kueue.x-k8s.io");
  EXPECT_EQ(gv.version, "v1beta2");
  EXPECT_EQ(Code("GET", "/apis/kueue.x-k8s.io/v9"), 404);
  EXPECT_EQ(Code("GET", "/apis/nope.example.com"), 404);
  EXPECT_EQ(Code("GET", "/api/v2"), 404);
  EXPECT_EQ(Code("POST", "/apis"), 405);
  EXPECT_EQ(Code("GET", "/healthz"), 404);
  EXPECT_EQ(Code("GET", "/"), 404);
}

TEST(RequestInfoTest, NamespacedCollectionsAndItems) {
  const RequestInfo list = Ok("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads");
  EXPECT_EQ(list.verb, RequestVerb::kList);
  EXPECT_EQ(list.namespace_, "team-a");
  EXPECT_EQ(list.resource, "workloads");
  ASSERT_NE(list.kind, nullptr);
  EXPECT_EQ(list.kind->kind, "Workload");
  EXPECT_EQ(list.api_version(), "kueue.x-k8s.io/v1beta2");
  EXPECT_EQ(list.group_resource().String(), "workloads.kueue.x-k8s.io");

  const RequestInfo get = Ok("GET", "/apis/kueue.x-k8s.io/v1beta1/namespaces/team-a/workloads/w1");
  EXPECT_EQ(get.verb, RequestVerb::kGet);
  EXPECT_EQ(get.name, "w1");
  EXPECT_EQ(get.version, "v1beta1");

  EXPECT_EQ(Ok("POST", "/api/v1/namespaces/ns/pods").verb, RequestVerb::kCreate);
  EXPECT_EQ(Ok("PUT", "/api/v1/namespaces/ns/pods/p").verb, RequestVerb::kUpdate);
  EXPECT_EQ(Ok("PATCH", "/api/v1/namespaces/ns/pods/p").verb, RequestVerb::kPatch);
  EXPECT_EQ(Ok("DELETE", "/api/v1/namespaces/ns/pods/p").verb, RequestVerb::kDelete);
  EXPECT_EQ(Ok("DELETE", "/api/v1/namespaces/ns/pods").verb, RequestVerb::kDeleteCollection);
}

TEST(RequestInfoTest, WatchByParameterOrPrefix) {
  EXPECT_EQ(Ok("GET", "/api/v1/namespaces/ns/pods", "watch=true").verb, RequestVerb::kWatch);
  EXPECT_EQ(Ok("GET", "/api/v1/namespaces/ns/pods", "watch=1").verb, RequestVerb::kWatch);
  EXPECT_EQ(Ok("GET", "/api/v1/namespaces/ns/pods", "watch=false").verb, RequestVerb::kList);
  EXPECT_EQ(Ok("GET", "/api/v1/namespaces/ns/pods", "watch=0").verb, RequestVerb::kList);
  const RequestInfo legacy = Ok("GET", "/api/v1/watch/namespaces/ns/pods/p");
  EXPECT_EQ(legacy.verb, RequestVerb::kWatch);
  EXPECT_EQ(legacy.name, "p");
  EXPECT_EQ(Ok("GET", "/api/v1/pods", "watch=true").verb, RequestVerb::kWatch);
  EXPECT_EQ(Code("POST", "/api/v1/watch/namespaces/ns/pods"), 405);
}

TEST(RequestInfoTest, AllNamespacesPathListsAndWatchesOnly) {
  const RequestInfo all = Ok("GET", "/apis/kueue.x-k8s.io/v1beta2/workloads");
  EXPECT_EQ(all.verb, RequestVerb::kList);
  EXPECT_EQ(all.namespace_, "");
  EXPECT_EQ(Code("GET", "/api/v1/pods/p"), 404);  // items live under /namespaces/NS
  EXPECT_EQ(Code("POST", "/api/v1/pods"), 405);
  EXPECT_EQ(Code("DELETE", "/api/v1/pods"), 405);
}

TEST(RequestInfoTest, ClusterScopedResources) {
  const RequestInfo cq = Ok("GET", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq");
  EXPECT_EQ(cq.verb, RequestVerb::kGet);
  EXPECT_FALSE(cq.kind->namespaced());
  EXPECT_EQ(Ok("GET", "/api/v1/nodes").verb, RequestVerb::kList);
  EXPECT_EQ(Ok("POST", "/api/v1/nodes").verb, RequestVerb::kCreate);
  EXPECT_EQ(Code("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/ns/clusterqueues"), 404);
  EXPECT_EQ(Code("GET", "/api/v1/namespaces/ns/nodes/n1"), 404);
}

TEST(RequestInfoTest, TheNamespacesResourceItself) {
  EXPECT_EQ(Ok("GET", "/api/v1/namespaces").verb, RequestVerb::kList);
  EXPECT_EQ(Ok("POST", "/api/v1/namespaces").verb, RequestVerb::kCreate);
  const RequestInfo ns = Ok("GET", "/api/v1/namespaces/team-a");
  EXPECT_EQ(ns.resource, "namespaces");
  EXPECT_EQ(ns.name, "team-a");
  EXPECT_EQ(ns.namespace_, "team-a");  // as upstream's RequestInfo, for RBAC
  const RequestInfo status = Ok("PUT", "/api/v1/namespaces/team-a/status");
  EXPECT_EQ(status.subresource, "status");
  EXPECT_EQ(status.verb, RequestVerb::kUpdate);
  EXPECT_EQ(Ok("DELETE", "/api/v1/namespaces/team-a").verb, RequestVerb::kDelete);
  // Namespaces have no deletecollection: the verb is refused as upstream refuses it.
  auto dc = Parse("DELETE", "/api/v1/namespaces");
  ASSERT_FALSE(dc.has_value());
  EXPECT_EQ(dc.error().code, 405);
  EXPECT_EQ(dc.error().message,
            R"(deletecollection is not supported on resources of kind "namespaces")");
}

TEST(RequestInfoTest, Subresources) {
  const RequestInfo st = Ok("PATCH", "/apis/kueue.x-k8s.io/v1beta2/namespaces/ns/workloads/w/status");
  EXPECT_EQ(st.subresource, "status");
  EXPECT_EQ(st.verb, RequestVerb::kPatch);
  EXPECT_EQ(Ok("GET", "/apis/apps/v1/namespaces/ns/deployments/d/scale").subresource, "scale");
  EXPECT_EQ(Code("GET", "/apis/batch/v1/namespaces/ns/jobs/j/scale"), 404);  // jobs have no scale
  EXPECT_EQ(Code("GET", "/apis/kueue.x-k8s.io/v1beta2/resourceflavors/f/status"), 404);
  EXPECT_EQ(Code("GET", "/api/v1/namespaces/ns/pods/p/log"), 404);
  EXPECT_EQ(Code("DELETE", "/api/v1/namespaces/ns/pods/p/status"), 405);
  EXPECT_EQ(Code("POST", "/api/v1/namespaces/ns/pods/p/status"), 405);
  EXPECT_EQ(Code("GET", "/api/v1/namespaces/ns/pods/p/status", "watch=true"), 200);
}

TEST(RequestInfoTest, UnknownAndMalformedPaths) {
  EXPECT_EQ(Code("GET", "/api/v1/namespaces/ns/secrets"), 404);
  EXPECT_EQ(Code("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/ns/workloads/w/status/x"), 404);
  EXPECT_EQ(Code("GET", "/api/v1//pods"), 404);
  EXPECT_EQ(Code("GET", "/api/v1/namespaces/ns/pods/%zz"), 404);
  EXPECT_EQ(Code("GET", "/api/v1/namespaces/ns/pods/.."), 404);
  EXPECT_EQ(Code("GET", "api/v1/pods"), 404);
  // Component configuration kinds are files, not resources.
  EXPECT_EQ(Code("GET", "/apis/config.kueue.x-k8s.io/v1beta2/configurations"), 404);
  // A version the kind is not served in (Cohort v1alpha1 is only read from files).
  EXPECT_EQ(Code("GET", "/apis/kueue.x-k8s.io/v1alpha1/cohorts"), 404);
  EXPECT_EQ(Code("HEAD", "/api/v1/nodes"), 405);
  // Escaped names are decoded.
  EXPECT_EQ(Ok("GET", "/api/v1/nodes/node%2Dx").name, "node-x");
}

TEST(RequestInfoTest, QueryParsing) {
  auto q = ParseQuery("labelSelector=app%3Dweb%2Ctier+in+(a)&limit=5&limit=6&empty&=x");
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->Get("labelSelector").value(), "app=web,tier in (a)");
  EXPECT_EQ(q->Get("limit").value(), "5");  // the first value, as url.Values.Get
  EXPECT_EQ(q->Get("empty").value(), "");
  EXPECT_FALSE(q->Get("missing").has_value());
  EXPECT_FALSE(ParseQuery("a=%z1").has_value());
  EXPECT_EQ(ParseQuery("a=%2").error().code, 400);
  EXPECT_TRUE(QueryBool(ParseQuery("watch=").value(), "watch"));  // Go: only 0/false are false
  EXPECT_FALSE(QueryBool(ParseQuery("watch=FALSE").value(), "watch"));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
