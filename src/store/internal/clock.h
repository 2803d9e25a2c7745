// The wall clock the stores stamp creationTimestamp and deletions with, unless a test gives
// its own. Private to src/store.
#pragma once

#include <chrono>
#include <cstdint>

namespace berth::store::internal {

// Seconds since the Unix epoch.
inline int64_t SystemNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace berth::store::internal
