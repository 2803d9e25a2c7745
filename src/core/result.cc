#include "core/result.h"

#include <cstdio>
#include <cstdlib>

namespace berth::core {

namespace internal {
void CheckFailed(const char* expr, const char* message, const char* file, int line) {
  std::fprintf(stderr, "berth: internal error: CHECK(%s) failed at %s:%d: %s\n", expr, file, line,
               message);
  std::abort();
}
}  // namespace internal

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return "InvalidArgument";
    case ErrorCode::kNotFound:
      return "NotFound";
    case ErrorCode::kAlreadyExists:
      return "AlreadyExists";
    case ErrorCode::kFailedPrecondition:
      return "FailedPrecondition";
    case ErrorCode::kOutOfRange:
      return "OutOfRange";
    case ErrorCode::kResourceExhausted:
      return "ResourceExhausted";
    case ErrorCode::kUnavailable:
      return "Unavailable";
    case ErrorCode::kUnimplemented:
      return "Unimplemented";
    case ErrorCode::kInternal:
      return "Internal";
  }
  return "Unknown";
}

Error& Error::WithFile(std::string file) {
  if (location_.file.empty()) location_.file = std::move(file);
  return *this;
}

Error& Error::WithObject(std::string object) {
  if (location_.object.empty()) location_.object = std::move(object);
  return *this;
}

Error& Error::WithFieldPrefix(const std::string& prefix) {
  if (prefix.empty()) return *this;
  if (location_.field.empty()) {
    location_.field = prefix;
  } else if (location_.field.front() == '[') {
    location_.field = prefix + location_.field;
  } else {
    location_.field = prefix + "." + location_.field;
  }
  return *this;
}

std::string Error::ToString() const {
  std::string out;
  auto append = [&out](const std::string& part) {
    if (part.empty()) return;
    out += part;
    out += ": ";
  };
  append(location_.file);
  append(location_.object);
  append(location_.field);
  out += message_;
  return out;
}

Error InvalidArgument(std::string message, Location location) {
  return Error(ErrorCode::kInvalidArgument, std::move(message), std::move(location));
}
Error NotFound(std::string message, Location location) {
  return Error(ErrorCode::kNotFound, std::move(message), std::move(location));
}
Error OutOfRange(std::string message, Location location) {
  return Error(ErrorCode::kOutOfRange, std::move(message), std::move(location));
}
Error FailedPrecondition(std::string message, Location location) {
  return Error(ErrorCode::kFailedPrecondition, std::move(message), std::move(location));
}
Error Unimplemented(std::string message, Location location) {
  return Error(ErrorCode::kUnimplemented, std::move(message), std::move(location));
}
Error Internal(std::string message, Location location) {
  return Error(ErrorCode::kInternal, std::move(message), std::move(location));
}

}  // namespace berth::core
