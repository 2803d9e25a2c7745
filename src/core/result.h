// Result<T>, Status and Error: how berth reports that the outside world is wrong.
// Every error names where it was found (file, object, field) so the CLI can print a message
// a user can act on. Used at every module edge; named after std::expected so that moving to
// C++23 changes only an alias. Values are immutable once built; thread-compatible.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "core/check.h"

namespace berth::core {

// abseil's canonical subset (STYLE.md).
enum class ErrorCode {
  kInvalidArgument,
  kNotFound,
  kAlreadyExists,
  kFailedPrecondition,
  kOutOfRange,
  kResourceExhausted,
  kUnavailable,
  kUnimplemented,
  kInternal,
};

const char* ErrorCodeName(ErrorCode code);

// Where a problem was found. Any part may be empty: a YAML syntax error has a file but no
// object; a quantity parsed on its own has only a field once the caller adds it.
struct Location {
  std::string file;    // path as given on the command line, or "<stdin>"
  std::string object;  // "Kind/namespace/name" or "Kind/name"
  std::string field;   // JSON path, e.g. "spec.containers[0].resources.requests.cpu"

  bool operator==(const Location&) const = default;
};

class [[nodiscard]] Error {
 public:
  Error(ErrorCode code, std::string message, Location location = {})
      : code_(code), message_(std::move(message)), location_(std::move(location)) {}

  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const Location& location() const { return location_; }

  // Fills in the parts of the location that are still empty; an inner layer (the quantity
  // parser) knows the least, outer layers (the reader) add the field, object and file.
  Error& WithFile(std::string file);
  Error& WithObject(std::string object);
  // Prefixes the field path: an error at "cpu" seen from "resources.requests" becomes
  // "resources.requests.cpu".
  Error& WithFieldPrefix(const std::string& prefix);

  // "file: Kind/ns/name: field: message" with empty parts left out.
  std::string ToString() const;

 private:
  ErrorCode code_;
  std::string message_;
  Location location_;
};

Error InvalidArgument(std::string message, Location location = {});
Error NotFound(std::string message, Location location = {});
Error OutOfRange(std::string message, Location location = {});
Error FailedPrecondition(std::string message, Location location = {});
Error Unimplemented(std::string message, Location location = {});
Error Internal(std::string message, Location location = {});

// Result<T> holds a T or an Error.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  // Precondition: has_value(). Violations are bugs, so they abort.
  T& value() & {
    BERTH_CHECK(has_value(), "Result::value() on an error");
    return std::get<0>(v_);
  }
  const T& value() const& {
    BERTH_CHECK(has_value(), "Result::value() on an error");
    return std::get<0>(v_);
  }
  T&& value() && {
    BERTH_CHECK(has_value(), "Result::value() on an error");
    return std::get<0>(std::move(v_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // Precondition: !has_value().
  const Error& error() const& {
    BERTH_CHECK(!has_value(), "Result::error() on a value");
    return std::get<1>(v_);
  }
  Error&& error() && {
    BERTH_CHECK(!has_value(), "Result::error() on a value");
    return std::get<1>(std::move(v_));
  }

 private:
  std::variant<T, Error> v_;
};

// Status is Result<void>: ok, or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return !error_.has_value(); }
  bool has_value() const { return ok(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const& {
    BERTH_CHECK(!ok(), "Status::error() on ok");
    return *error_;
  }
  Error&& error() && {
    BERTH_CHECK(!ok(), "Status::error() on ok");
    return std::move(*error_);
  }

 private:
  std::optional<Error> error_;
};

inline Status OkStatus() { return Status(); }

}  // namespace berth::core

#define BERTH_INTERNAL_CONCAT2(a, b) a##b
#define BERTH_INTERNAL_CONCAT(a, b) BERTH_INTERNAL_CONCAT2(a, b)

// Returns the error of a Status or Result expression from the enclosing function.
#define BERTH_RETURN_IF_ERROR(expr)            \
  do {                                         \
    auto berth_status_ = (expr);               \
    if (!berth_status_.has_value()) {          \
      return std::move(berth_status_).error(); \
    }                                          \
  } while (false)

// BERTH_ASSIGN_OR_RETURN(auto x, ParseThing(...)); declares x or returns the error.
#define BERTH_ASSIGN_OR_RETURN(lhs, expr) \
  BERTH_INTERNAL_ASSIGN_OR_RETURN(BERTH_INTERNAL_CONCAT(berth_result_, __LINE__), lhs, expr)
#define BERTH_INTERNAL_ASSIGN_OR_RETURN(tmp, lhs, expr) \
  auto tmp = (expr);                                    \
  if (!tmp.has_value()) {                               \
    return std::move(tmp).error();                      \
  }                                                     \
  lhs = std::move(tmp).value()
