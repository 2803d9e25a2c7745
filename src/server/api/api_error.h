// ApiError: a request refused, as the `Status` object kube-apiserver writes for it (kind Status,
// apiVersion v1, status Failure, message, reason, details, code), with constructors worded as
// apimachinery's k8s.io/apimachinery/pkg/api/errors words them. ApiResult<T> is a T or an
// ApiError (the std::expected shape of core::Result). Called by every function of server/api
// and by the HTTP layer, which writes ToJson() as the body and code() as the status line.
// Plain values; thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/check.h"
#include "core/result.h"

namespace berth::server {

// Go's %q for the names and values messages quote: a backslash before '"' and '\\', control
// bytes as \xNN; printable text, UTF-8 included, as is.
std::string GoQuote(std::string_view s);

// metav1.StatusCause: one field's problem in an Invalid error.
struct StatusCause {
  std::string reason;  // "FieldValueInvalid", "FieldValueRequired", ...
  std::string message;
  std::string field;  // "spec.queueName"

  bool operator==(const StatusCause&) const = default;
};

// metav1.StatusDetails. Empty members are left out of the JSON, as upstream's omitempty does.
struct StatusDetails {
  std::string name;
  std::string group;
  std::string kind;  // the resource ("workloads") for most reasons, the Kind for Invalid
  std::vector<StatusCause> causes;
  int64_t retry_after_s = 0;  // TooManyRequests: also the Retry-After header

  bool operator==(const StatusDetails&) const = default;
};

// A group and a lower-case plural: "workloads.kueue.x-k8s.io", or "pods" in the core group
// (schema.GroupResource.String()).
struct GroupResource {
  std::string group;
  std::string resource;
  std::string String() const;
};

struct ApiError {
  int code = 500;       // HTTP status
  std::string reason;   // metav1.StatusReason: "NotFound", "Invalid", ...; empty for 500s
  std::string message;  // what kubectl prints after "Error from server (Reason): "
  std::optional<StatusDetails> details;
  std::string continue_token;  // metadata.continue of an Expired list (see ListOptions)

  bool operator==(const ApiError&) const = default;
  // The Status object in kube-apiserver's field order.
  nlohmann::ordered_json ToJson() const;
  // Seconds for the Retry-After header; 0 when none is due.
  int64_t retry_after_s() const { return details ? details->retry_after_s : 0; }
};

// 404 `workloads.kueue.x-k8s.io "w1" not found`; details {name, group, kind: resource}.
ApiError NotFoundError(const GroupResource& gr, std::string_view name);
// 404 for a path no route serves: "the server could not find the requested resource".
ApiError PathNotFoundError();
// 409 AlreadyExists: `workloads.kueue.x-k8s.io "w1" already exists`.
ApiError AlreadyExistsError(const GroupResource& gr, std::string_view name);
// 409 Conflict: `Operation cannot be fulfilled on workloads.kueue.x-k8s.io "w1": WHY`.
ApiError ConflictError(const GroupResource& gr, std::string_view name, std::string_view why);
// The Conflict a stale resourceVersion gets on update (the registry's optimistic lock).
// 409 of a server-side apply that would change fields other managers own
// (errors.NewApplyConflict): `message` as upstream words it ("Apply failed with 1 conflict:
// conflict with \"mgr\": .spec.replicas"), one FieldManagerConflict cause per field, no name.
ApiError ApplyConflictError(std::vector<StatusCause> causes, std::string message);

ApiError StaleResourceVersionError(const GroupResource& gr, std::string_view name);
// 422 Invalid from berth's validation errors: `Workload.kueue.x-k8s.io "w1" is invalid:
// spec.queueName: MESSAGE`, one cause per error with its Location::field. Several errors
// are listed as "[a, b]", as apimachinery's aggregate prints them.
ApiError InvalidError(std::string_view group, std::string_view kind, std::string_view name,
                      std::span<const core::Error> errors);
ApiError InvalidError(std::string_view group, std::string_view kind, std::string_view name,
                      std::span<const StatusCause> causes);
// The cause berth reports for `error`: its field, its message, and a reason read from the
// message's first words ("required value" -> FieldValueRequired, else FieldValueInvalid).
StatusCause CauseOf(const core::Error& error);
// 403: `workloads.kueue.x-k8s.io "w1" is forbidden: WHY` ("... is forbidden: WHY" without a
// name).
ApiError ForbiddenError(const GroupResource& gr, std::string_view name, std::string_view why);
// The authorizer's WHY for a resource request: `User "alice" cannot list resource
// "workloads" in API group "kueue.x-k8s.io" in the namespace "ns"` (or "at the cluster
// scope"); `subresource` is appended to the resource as "workloads/status".
std::string ForbiddenReason(std::string_view user, std::string_view verb, const GroupResource& gr,
                            std::string_view subresource, std::string_view ns);
// 401 "Unauthorized".
ApiError UnauthorizedError();
// 429 with details.retryAfterSeconds (and the Retry-After header) set to retry_after_s.
ApiError TooManyRequestsError(std::string_view message, int64_t retry_after_s);
// 413 "Request entity too large: limit is N".
ApiError RequestEntityTooLargeError(int64_t limit_bytes);
// 413 "Request entity too large: DETAIL".
ApiError RequestEntityTooLargeError(std::string_view detail);
// 411 (reason BadRequest): a request body of unknown length (Transfer-Encoding), which the
// server does not read: "a request body must have a Content-Length (at most N bytes)".
ApiError LengthRequiredError(int64_t limit_bytes);
// 410 reason Expired (a compacted resourceVersion or continue token).
ApiError ExpiredError(std::string_view message);
// 410 reason Gone.
ApiError GoneError(std::string_view message);
// 400 BadRequest with `message` as given.
ApiError BadRequestError(std::string_view message);
// 405 `ACTION is not supported on resources of kind "namespaces"`.
ApiError MethodNotSupportedError(const GroupResource& gr, std::string_view action);
// 405 for a method no route of the path serves: "the server does not allow this method on
// the requested resource".
ApiError MethodNotAllowedError();
// 415 "the body of the request was in an unknown format - accepted media types include: ...".
ApiError UnsupportedMediaTypeError(std::span<const std::string_view> accepted);
// 406 NotAcceptable: "only the following media types are accepted: ...".
ApiError NotAcceptableError(std::span<const std::string_view> accepted);
// 500 "Internal error occurred: MESSAGE".
ApiError InternalApiError(std::string_view message);

// A T or the ApiError refusing the request.
template <typename T>
class [[nodiscard]] ApiResult {
 public:
  ApiResult(T value) : v_(std::move(value)) {}           // NOLINT(google-explicit-constructor)
  ApiResult(ApiError error) : v_(std::move(error)) {}    // NOLINT(google-explicit-constructor)

  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & {
    BERTH_CHECK(has_value(), "ApiResult::value() on an error");
    return std::get<0>(v_);
  }
  const T& value() const& {
    BERTH_CHECK(has_value(), "ApiResult::value() on an error");
    return std::get<0>(v_);
  }
  T&& value() && {
    BERTH_CHECK(has_value(), "ApiResult::value() on an error");
    return std::get<0>(std::move(v_));
  }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const ApiError& error() const& {
    BERTH_CHECK(!has_value(), "ApiResult::error() on a value");
    return std::get<1>(v_);
  }
  ApiError&& error() && {
    BERTH_CHECK(!has_value(), "ApiResult::error() on a value");
    return std::get<1>(std::move(v_));
  }

 private:
  std::variant<T, ApiError> v_;
};

}  // namespace berth::server
