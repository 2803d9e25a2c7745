// NewUuid: a random (version 4) UUID for metadata.uid, as the API server makes them. Used by
// the REST handler's creates and by the scheduling loop's, which must agree on the form.
#pragma once

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

namespace berth::server {

inline std::string NewUuid(std::mt19937_64& rng) {
  const uint64_t a = rng(), b = rng();
  char buf[37];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xfff),
                static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3fff)),
                static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

}  // namespace berth::server
