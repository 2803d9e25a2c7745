// The error values both stores build: an object's location, an unavailable store. Private
// to src/store.
#pragma once

#include <string>
#include <utility>

#include "core/result.h"
#include "store/object.h"

namespace berth::store::internal {

// The object `key` as an error's location.
inline core::Location At(const ObjectKey& key) { return core::Location{"", key.ToString(), ""}; }

// `error` naming the object `key`.
inline core::Error WithObject(core::Error error, const ObjectKey& key) {
  error.WithObject(key.ToString());
  return error;
}

// The store cannot serve now (closed, fenced, its database gone); a retry may succeed.
inline core::Error Unavailable(std::string message) {
  return core::Error(core::ErrorCode::kUnavailable, std::move(message));
}

}  // namespace berth::store::internal
