// Status objects compared byte for byte with what kube-apiserver writes (the shapes below are
// those of `kubectl get --raw` / `curl` against a cluster: apimachinery errors package).
#include "server/api/api_error.h"

#include <gtest/gtest.h>

namespace berth::server {
namespace BERTH_UNITY_ID {

const GroupResource kWorkloads{"kueue.x-k8s.io", "workloads"};
const GroupResource kPods{"", "pods"};

TEST(ApiErrorTest, NotFoundMatchesUpstreamBytes) {
  EXPECT_EQ(NotFoundError(kWorkloads, "w1").ToJson().dump(),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
            R"("message":"workloads.kueue.x-k8s.io \"w1\" not found","reason":"NotFound",)"
            R"("details":{"name":"w1","group":"kueue.x-k8s.io","kind":"workloads"},"code":404})");
  // The core group has no group suffix and no details.group.
  EXPECT_EQ(NotFoundError(kPods, "p").ToJson().dump(),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
            R"("message":"pods \"p\" not found","reason":"NotFound",)"
            R"("details":{"name":"p","kind":"pods"},"code":404})");
}

TEST(ApiErrorTest, PathNotFoundHasEmptyDetails) {
  EXPECT_EQ(PathNotFoundError().ToJson().dump(),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
            R"("message":"the server could not find the requested resource","reason":"NotFound",)"
            R"("details":{},"code":404})");
}

TEST(ApiErrorTest, AlreadyExistsAndConflict) {
  const ApiError exists = AlreadyExistsError(kWorkloads, "w1");
  EXPECT_EQ(exists.code, 409);
  EXPECT_EQ(exists.reason, "AlreadyExists");
  EXPECT_EQ(exists.message, R"(workloads.kueue.x-k8s.io "w1" already exists)");
  const ApiError stale = StaleResourceVersionError(GroupResource{"kueue.x-k8s.io", "clusterqueues"}, "cq");
  EXPECT_EQ(stale.code, 409);
  EXPECT_EQ(stale.reason, "Conflict");
  EXPECT_EQ(stale.message,
            "Operation cannot be fulfilled on clusterqueues.kueue.x-k8s.io \"cq\": the object "
            "has been modified; please apply your changes to the latest version and try again");
  EXPECT_EQ(stale.ToJson()["details"]["kind"], "clusterqueues");
}

TEST(ApiErrorTest, InvalidNamesTheFieldsOfBerthErrors) {
  std::vector<core::Error> errors;
  errors.push_back(core::InvalidArgument("required value", core::Location{"", "", "spec.queueName"}));
  const ApiError one = InvalidError("kueue.x-k8s.io", "Workload", "w1", std::span(errors).first(1));
  EXPECT_EQ(one.code, 422);
  EXPECT_EQ(one.message, R"(Workload.kueue.x-k8s.io "w1" is invalid: spec.queueName: required value)");
  EXPECT_EQ(one.ToJson().dump(),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
            R"("message":"Workload.kueue.x-k8s.io \"w1\" is invalid: spec.queueName: required value",)"
            R"("reason":"Invalid","details":{"name":"w1","group":"kueue.x-k8s.io","kind":"Workload",)"
            R"("causes":[{"reason":"FieldValueRequired","message":"required value",)"
            R"("field":"spec.queueName"}]},"code":422})");
  errors.push_back(core::InvalidArgument("must be a quantity",
                                         core::Location{"", "", "spec.podSets[0].count"}));
  const ApiError two = InvalidError("", "Pod", "p", errors);
  EXPECT_EQ(two.message,
            R"(Pod "p" is invalid: [spec.queueName: required value, spec.podSets[0].count: must be a quantity])");
  ASSERT_EQ(two.details->causes.size(), 2u);
  EXPECT_EQ(two.details->causes[1].reason, "FieldValueInvalid");
  EXPECT_EQ(two.details->causes[1].field, "spec.podSets[0].count");
  EXPECT_FALSE(two.ToJson()["details"].contains("group"));
}

TEST(ApiErrorTest, ForbiddenWordedAsTheAuthorizer) {
  const std::string why = ForbiddenReason("alice", "list", kWorkloads, "", "team-b");
  EXPECT_EQ(why,
            R"(User "alice" cannot list resource "workloads" in API group "kueue.x-k8s.io" in the namespace "team-b")");
  const ApiError e = ForbiddenError(kWorkloads, "", why);
  EXPECT_EQ(e.code, 403);
  EXPECT_EQ(e.message, "workloads.kueue.x-k8s.io is forbidden: " + why);
  const std::string cluster =
      ForbiddenReason("bob", "update", GroupResource{"kueue.x-k8s.io", "clusterqueues"}, "status", "");
  EXPECT_EQ(cluster,
            R"(User "bob" cannot update resource "clusterqueues/status" in API group "kueue.x-k8s.io" at the cluster scope)");
  EXPECT_EQ(ForbiddenError(kPods, "p", "x").message, R"(pods "p" is forbidden: x)");
}

TEST(ApiErrorTest, TooManyRequestsCarriesRetryAfter) {
  const ApiError e = TooManyRequestsError("Too many requests, please try again later.", 3);
  EXPECT_EQ(e.code, 429);
  EXPECT_EQ(e.retry_after_s(), 3);
  EXPECT_EQ(e.ToJson()["details"]["retryAfterSeconds"], 3);
  EXPECT_EQ(TooManyRequestsError("x", 0).retry_after_s(), 1);  // a header of 0 means nothing
}

TEST(ApiErrorTest, OtherReasons) {
  EXPECT_EQ(UnauthorizedError().ToJson().dump(),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
            R"("message":"Unauthorized","reason":"Unauthorized","code":401})");
  EXPECT_EQ(RequestEntityTooLargeError(int64_t{3145728}).message,
            "Request entity too large: limit is 3145728");
  EXPECT_EQ(RequestEntityTooLargeError(int64_t{3145728}).code, 413);
  EXPECT_EQ(ExpiredError("too old").code, 410);
  EXPECT_EQ(ExpiredError("too old").reason, "Expired");
  EXPECT_EQ(GoneError("gone").reason, "Gone");
  EXPECT_EQ(BadRequestError("bad").ToJson().dump(),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
            R"("message":"bad","reason":"BadRequest","code":400})");
  const ApiError m = MethodNotSupportedError(GroupResource{"", "namespaces"}, "deletecollection");
  EXPECT_EQ(m.code, 405);
  EXPECT_EQ(m.message, R"(deletecollection is not supported on resources of kind "namespaces")");
  EXPECT_EQ(InternalApiError("boom").message, "Internal error occurred: boom");
  // Names are quoted as Go's %q does.
  EXPECT_EQ(NotFoundError(kPods, "a\"b").message, R"(pods "a\"b" not found)");
}

TEST(ApiErrorTest, ExpiredListCarriesContinueInMetadata) {
  ApiError e = ExpiredError("old");
  e.continue_token = "abc";
  EXPECT_EQ(e.ToJson()["metadata"]["continue"], "abc");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
