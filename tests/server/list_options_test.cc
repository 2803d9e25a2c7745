// List and watch options as kube-apiserver parses and validates them
// (meta/internalversion/validation, the etcd3 store's continue handling).
#include "server/api/list_options.h"

#include <gtest/gtest.h>

namespace berth::server {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

const model::KindInfo& Kind(std::string_view group, std::string_view kind) {
  const model::KindInfo* k = model::FindKind(group, kind);
  EXPECT_NE(k, nullptr);
  return *k;
}

ApiResult<ListOptions> Parse(std::string_view query, const model::KindInfo& kind, bool watch) {
  return ParseListOptions(ParseQuery(query).value(), kind, watch);
}

Json Object(std::string_view ns, std::string_view name, Json labels = Json::object()) {
  Json o = Json::object();
  o["metadata"] = {{"name", name}, {"namespace", ns}, {"labels", labels}};
  return o;
}

TEST(ListOptionsTest, SelectorsFilterObjects) {
  const auto& wl = Kind("kueue.x-k8s.io", "Workload");
  auto o = Parse("labelSelector=team%3Da,tier!=db&fieldSelector=metadata.namespace%3Dns1,"
                 "metadata.name!%3Dw2",
                 wl, false);
  ASSERT_TRUE(o.has_value()) << o.error().message;
  EXPECT_TRUE(o->Matches(Object("ns1", "w1", {{"team", "a"}})));
  EXPECT_FALSE(o->Matches(Object("ns1", "w2", {{"team", "a"}})));
  EXPECT_FALSE(o->Matches(Object("ns2", "w1", {{"team", "a"}})));
  EXPECT_FALSE(o->Matches(Object("ns1", "w1", {{"team", "a"}, {"tier", "db"}})));
  EXPECT_FALSE(o->Matches(Object("ns1", "w1", {{"team", "b"}})));
  auto eqeq = Parse("fieldSelector=metadata.name%3D%3Dw1", wl, false);
  ASSERT_TRUE(eqeq.has_value());
  EXPECT_TRUE(eqeq->Matches(Object("x", "w1")));
}

TEST(ListOptionsTest, FieldSelectorRefusals) {
  const auto& wl = Kind("kueue.x-k8s.io", "Workload");
  auto unsupported = Parse("fieldSelector=spec.queueName%3Dq", wl, false);
  ASSERT_FALSE(unsupported.has_value());
  EXPECT_EQ(unsupported.error().code, 400);
  EXPECT_EQ(unsupported.error().message, "field label not supported: spec.queueName");
  auto garbage = Parse("fieldSelector=metadata.name", wl, false);
  ASSERT_FALSE(garbage.has_value());
  EXPECT_EQ(garbage.error().code, 400);
  EXPECT_NE(garbage.error().message.find("invalid selector"), std::string::npos);
  auto label = Parse("labelSelector=a%20b%3Dc", wl, false);
  ASSERT_FALSE(label.has_value());
  EXPECT_EQ(label.error().code, 400);
}

TEST(ListOptionsTest, PodFieldsKubectlDescribeNodeUses) {
  const auto& pod = Kind("", "Pod");
  auto o = Parse("fieldSelector=spec.nodeName%3Dn1,status.phase!%3DSucceeded,"
                 "status.phase!%3DFailed",
                 pod, false);
  ASSERT_TRUE(o.has_value()) << o.error().message;
  Json p = Object("ns", "p");
  p["spec"] = {{"nodeName", "n1"}};
  p["status"] = {{"phase", "Running"}};
  EXPECT_TRUE(o->Matches(p));
  p["status"]["phase"] = "Failed";
  EXPECT_FALSE(o->Matches(p));
  // An unscheduled pod has spec.nodeName "".
  auto unscheduled = Parse("fieldSelector=spec.nodeName%3D", pod, false);
  ASSERT_TRUE(unscheduled.has_value());
  EXPECT_TRUE(unscheduled->Matches(Object("ns", "q")));
  // Nodes: spec.unschedulable as Go formats a bool.
  auto cordoned = Parse("fieldSelector=spec.unschedulable%3Dfalse", Kind("", "Node"), false);
  ASSERT_TRUE(cordoned.has_value());
  EXPECT_TRUE(cordoned->Matches(Object("", "n")));
  // Escaped separators in values.
  auto escaped = ParseFieldSelector(R"(metadata.name=a\,b)", pod);
  ASSERT_TRUE(escaped.has_value());
  EXPECT_EQ(escaped->at(0).value, "a,b");
  EXPECT_FALSE(ParseFieldSelector("spec.nodeName=x", Kind("", "Node")).has_value());
}

TEST(ListOptionsTest, NumbersAndFlags) {
  const auto& wl = Kind("kueue.x-k8s.io", "Workload");
  auto o = Parse("limit=50&timeoutSeconds=300&allowWatchBookmarks=true&resourceVersion=42", wl,
                 true);
  ASSERT_TRUE(o.has_value()) << o.error().message;
  EXPECT_EQ(o->limit, 50);
  EXPECT_EQ(o->timeout_s, 300);
  EXPECT_TRUE(o->allow_watch_bookmarks);
  EXPECT_TRUE(o->watch);
  EXPECT_EQ(o->resource_version_number, 42);
  EXPECT_EQ(Parse("limit=-3", wl, false)->limit, 0);
  EXPECT_EQ(Parse("limit=x", wl, false).error().code, 400);
  EXPECT_EQ(Parse("timeoutSeconds=1.5", wl, true).error().code, 400);
  EXPECT_EQ(Parse("resourceVersion=abc", wl, false).error().code, 400);
  EXPECT_EQ(Parse("resourceVersion=-1", wl, false).error().code, 400);
}

TEST(ListOptionsTest, ResourceVersionMatchRules) {
  const auto& wl = Kind("kueue.x-k8s.io", "Workload");
  auto exact = Parse("resourceVersion=7&resourceVersionMatch=Exact", wl, false);
  ASSERT_TRUE(exact.has_value());
  EXPECT_EQ(exact->resource_version_match, ResourceVersionMatch::kExact);
  auto no_rv = Parse("resourceVersionMatch=NotOlderThan", wl, false);
  ASSERT_FALSE(no_rv.has_value());
  EXPECT_EQ(no_rv.error().code, 422);
  EXPECT_EQ(no_rv.error().message,
            "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: "
            "resourceVersionMatch is forbidden unless resourceVersion is provided");
  EXPECT_EQ(no_rv.error().details->causes[0].field, "resourceVersionMatch");
  auto exact0 = Parse("resourceVersion=0&resourceVersionMatch=Exact", wl, false);
  ASSERT_FALSE(exact0.has_value());
  EXPECT_NE(exact0.error().message.find(R"(resourceVersionMatch "exact" is forbidden for resourceVersion "0")"),
            std::string::npos);
  auto bogus = Parse("resourceVersion=1&resourceVersionMatch=Newest", wl, false);
  ASSERT_FALSE(bogus.has_value());
  EXPECT_NE(bogus.error().message.find(
                R"(Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", "")"),
            std::string::npos);
  auto watch_match = Parse("resourceVersion=1&resourceVersionMatch=NotOlderThan", wl, true);
  ASSERT_FALSE(watch_match.has_value());
  EXPECT_NE(watch_match.error().message.find("forbidden for watch unless sendInitialEvents"),
            std::string::npos);
  EXPECT_EQ(Parse("sendInitialEvents=true", wl, false).error().code, 422);
  EXPECT_EQ(Parse("sendInitialEvents=true&resourceVersionMatch=NotOlderThan", wl, true).error().code,
            422);  // no WatchList in berth
}

TEST(ListOptionsTest, ContinueTokensRoundTrip) {
  const std::string token = ContinueAfter(1234, "ns1/w9");
  auto decoded = DecodeContinue(token);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
  EXPECT_EQ(decoded->resource_version, 1234);
  EXPECT_EQ(decoded->start_key, std::string("ns1/w9\0", 7));
  // Upstream's encoding: base64url without padding of the JSON.
  EXPECT_EQ(EncodeContinue(ContinueToken{5, "a"}), "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NSwic3RhcnQiOiJhIn0");
  auto o = Parse("continue=" + token + "&limit=2", Kind("kueue.x-k8s.io", "Workload"), false);
  ASSERT_TRUE(o.has_value());
  ASSERT_TRUE(o->continue_token.has_value());
  EXPECT_EQ(o->continue_token->resource_version, 1234);
}

TEST(ListOptionsTest, MalformedContinueIsBadRequest) {
  for (std::string_view bad : {"!!!", "e30", /* {} */ "eyJ2IjoieCIsInJ2IjoxLCJzdGFydCI6ImEifQ",
                               /* v x */ "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJhIn0",
                               /* rv 0 */ "a"}) {
    auto r = DecodeContinue(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code, 400);
    EXPECT_EQ(r.error().message.rfind("invalid continue token: continue key is not valid: ", 0), 0u)
        << r.error().message;
  }
  EXPECT_NE(DecodeContinue("eyJ2IjoieCIsInJ2IjoxLCJzdGFydCI6ImEifQ").error().message.find(
                R"(server does not recognize this encoded version "x")"),
            std::string::npos);
  const auto& wl = Kind("kueue.x-k8s.io", "Workload");
  auto with_rv = Parse("continue=" + ContinueAfter(3, "k") + "&resourceVersion=3", wl, false);
  ASSERT_FALSE(with_rv.has_value());
  EXPECT_EQ(with_rv.error().message,
            "specifying resource version is not allowed when using continue");
  EXPECT_TRUE(Parse("continue=" + ContinueAfter(3, "k") + "&resourceVersion=0", wl, false)
                  .has_value());
}

TEST(ListOptionsTest, ExpiredContinueIs410WithAnInconsistentToken) {
  const ContinueToken old{10, "ns/a"};
  EXPECT_TRUE(CheckContinueNotExpired(old, 10).has_value());
  auto r = CheckContinueNotExpired(old, 11);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, 410);
  EXPECT_EQ(r.error().reason, "Expired");
  EXPECT_EQ(r.error().message.rfind("The provided continue parameter is too old to display a "
                                    "consistent list result.",
                                    0),
            0u);
  auto next = DecodeContinue(r.error().continue_token);
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->resource_version, -1);
  EXPECT_EQ(next->start_key, "ns/a");
  EXPECT_TRUE(CheckContinueNotExpired(*next, 1000).has_value());  // -1 never expires
  const ApiError watch = TooOldResourceVersionError(5, 20);
  EXPECT_EQ(watch.code, 410);
  EXPECT_EQ(watch.message, "too old resource version: 5 (20)");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
