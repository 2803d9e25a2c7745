// PartsHash: a 64-bit hash of a sequence of parts (strings and integers), order- and
// boundary-sensitive: ("ab", "c") and ("a", "bc") differ. Not cryptographic and not stable
// across builds: for identities and fingerprints compared within one process that must be
// cheap (one per object of a dump, one per Workload of a hub cycle). Each string is hashed
// by the standard library's word-at-a-time hash, not byte by byte. Header-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace berth::core {

class PartsHash {
 public:
  PartsHash& Add(std::string_view part) {
    Mix(std::hash<std::string_view>{}(part));
    Mix(part.size());
    return *this;
  }
  PartsHash& Add(int64_t value) {
    Mix(static_cast<uint64_t>(value));
    return *this;
  }
  uint64_t value() const { return h_; }

 private:
  // The 64-bit golden-ratio combine; the length after each string marks its end.
  void Mix(uint64_t x) { h_ ^= x + 0x9e3779b97f4a7c15ULL + (h_ << 6) + (h_ >> 2); }
  uint64_t h_ = 0;
};

}  // namespace berth::core
