// Result, Status, Error and the propagation macros; Diagnostics.
#include "core/result.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/diagnostics.h"

namespace berth::core {
namespace BERTH_UNITY_ID {

Result<int> Half(int v) {
  if (v % 2 != 0) return InvalidArgument("odd", Location{"", "", "count"});
  return v / 2;
}

Result<int> Quarter(int v) {
  BERTH_ASSIGN_OR_RETURN(int half, Half(v));
  BERTH_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

Status CheckEven(int v) {
  BERTH_RETURN_IF_ERROR(Half(v));
  return OkStatus();
}

Status Twice(int v) {
  BERTH_RETURN_IF_ERROR(CheckEven(v));
  BERTH_RETURN_IF_ERROR(CheckEven(v / 2));
  return OkStatus();
}

TEST(ResultTest, HoldsValueOrError) {
  Result<int> ok = Half(8);
  ASSERT_TRUE(ok.has_value());
  EXPECT_TRUE(static_cast<bool>(ok));
  EXPECT_EQ(ok.value(), 4);
  EXPECT_EQ(*ok, 4);

  Result<int> bad = Half(3);
  ASSERT_FALSE(bad.has_value());
  EXPECT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(bad.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad.error().message(), "odd");
  EXPECT_EQ(bad.error().location().field, "count");
}

TEST(ResultTest, HoldsMoveOnlyValues) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(7);
  ASSERT_TRUE(r.has_value());
  std::unique_ptr<int> p = std::move(r).value();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 7);
}

TEST(ResultTest, ArrowReachesMembers) {
  Result<std::string> r = std::string("abc");
  EXPECT_EQ(r->size(), 3u);
}

TEST(ResultTest, AssignOrReturnPropagates) {
  Result<int> q = Quarter(12);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(*q, 3);
  Result<int> odd_first = Quarter(5);
  ASSERT_FALSE(odd_first.has_value());
  EXPECT_EQ(odd_first.error().message(), "odd");
  Result<int> odd_second = Quarter(6);
  EXPECT_FALSE(odd_second.has_value());
}

TEST(ResultTest, ReturnIfErrorPropagates) {
  EXPECT_TRUE(Twice(8).ok());
  Status s = Twice(6);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(CheckEven(1).has_value());
}

TEST(ResultTest, StatusDefaultsToOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_TRUE(static_cast<bool>(s));
  EXPECT_TRUE(OkStatus().ok());
  Status bad = NotFound("no such file");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code(), ErrorCode::kNotFound);
  Error moved = std::move(bad).error();
  EXPECT_EQ(moved.message(), "no such file");
}

TEST(ResultTest, ErrorFactoriesSetCodes) {
  EXPECT_EQ(InvalidArgument("x").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(NotFound("x").code(), ErrorCode::kNotFound);
  EXPECT_EQ(OutOfRange("x").code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(FailedPrecondition("x").code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(Unimplemented("x").code(), ErrorCode::kUnimplemented);
  EXPECT_EQ(Internal("x").code(), ErrorCode::kInternal);
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kOutOfRange), "OutOfRange");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kAlreadyExists), "AlreadyExists");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kResourceExhausted), "ResourceExhausted");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kUnavailable), "Unavailable");
}

TEST(ErrorTest, OuterLayersFillOnlyEmptyLocationParts) {
  Error e = InvalidArgument("bad quantity");
  e.WithFieldPrefix("cpu");
  e.WithFieldPrefix("resources.requests");
  e.WithFieldPrefix("spec.containers[0]");
  e.WithObject("Pod/default/web");
  e.WithFile("pods.yaml");
  e.WithObject("Pod/default/other");  // already set: kept
  e.WithFile("other.yaml");
  EXPECT_EQ(e.location().field, "spec.containers[0].resources.requests.cpu");
  EXPECT_EQ(e.location().object, "Pod/default/web");
  EXPECT_EQ(e.location().file, "pods.yaml");
  EXPECT_EQ(e.ToString(),
            "pods.yaml: Pod/default/web: spec.containers[0].resources.requests.cpu: bad quantity");
}

TEST(ErrorTest, IndexFieldsJoinWithoutDot) {
  Error e = InvalidArgument("must be specified", Location{"", "", "[1].values"});
  e.WithFieldPrefix("matchExpressions");
  EXPECT_EQ(e.location().field, "matchExpressions[1].values");
  e.WithFieldPrefix("");
  EXPECT_EQ(e.location().field, "matchExpressions[1].values");
}

TEST(ErrorTest, ToStringLeavesOutEmptyParts) {
  EXPECT_EQ(InvalidArgument("just the message").ToString(), "just the message");
  EXPECT_EQ(NotFound("missing", Location{"a.yaml", "", ""}).ToString(), "a.yaml: missing");
  EXPECT_EQ(Internal("x", Location{"", "Node/n1", "spec"}).ToString(), "Node/n1: spec: x");
}

TEST(DiagnosticsTest, CountsErrorsNotWarnings) {
  Diagnostics d;
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(d.error_count(), 0u);
  d.Warn(InvalidArgument("unknown field"));
  EXPECT_FALSE(d.has_errors());
  d.Report(InvalidArgument("bad quantity"));
  d.Report(NotFound("no file"));
  EXPECT_TRUE(d.has_errors());
  EXPECT_EQ(d.error_count(), 2u);
  ASSERT_EQ(d.entries().size(), 3u);
  EXPECT_EQ(d.entries()[0].severity, Severity::kWarning);
  EXPECT_EQ(d.entries()[2].error.code(), ErrorCode::kNotFound);
}

TEST(ResultDeathTest, ValueOnErrorAborts) {
  Result<int> bad = Half(3);
  EXPECT_DEATH((void)bad.value(), "Result::value\\(\\) on an error");
  Result<int> ok = Half(2);
  EXPECT_DEATH((void)ok.error(), "Result::error\\(\\) on a value");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::core
