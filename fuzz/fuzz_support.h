// Shared pieces of berth's libFuzzer targets (fuzz/README.md): the input as text, the
// fixed-kind document prefix the object targets build, and the harness bound on counts.
// Header-only; every target is one process, one input at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace berth::fuzz {

inline std::string_view AsText(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A property of the code under test does not hold: print why and abort, so libFuzzer
// records the input as a crash like any sanitizer report.
[[noreturn]] inline void PropertyFailed(const char* what, std::string_view detail) {
  std::fprintf(stderr, "berth fuzz property failed: %s: %.*s\n", what,
               static_cast<int>(detail.size() > 400 ? 400 : detail.size()), detail.data());
  std::abort();
}

// True when `text` may spell a count between 10,000 and 10,000,000. Such counts are refused
// by the harness's expansion bounds (fuzz_expansion.h) or expand thousands of pods, seconds
// per input under ASan, so the targets that expand workloads skip them: runs of 5 to 7
// digits, exponents 4 to 6 ("1e5"), and hex or octal integers. Larger counts stay in: the
// reader refuses them, which is what the fuzzer should check, and products of small counts
// (JobSet replicas x parallelism) still reach the bounds.
inline bool MayAskForHugeCounts(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] < '0' || text[i] > '9') {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    const size_t digits = i - start;
    if (digits >= 5 && digits <= 7) return true;
    if (i < text.size() && digits == 1 && text[start] == '0' &&
        (text[i] == 'x' || text[i] == 'o' || text[i] == 'X')) {
      return true;
    }
    if (i + 1 < text.size() && (text[i] == 'e' || text[i] == 'E')) {
      size_t j = i + 1;
      if (j < text.size() && text[j] == '+') ++j;
      size_t exponent = 0;
      size_t exponent_digits = 0;
      while (j < text.size() && text[j] >= '0' && text[j] <= '9' && exponent_digits < 3) {
        exponent = exponent * 10 + static_cast<size_t>(text[j] - '0');
        ++j;
        ++exponent_digits;
      }
      if (exponent_digits > 0 && exponent + digits >= 5 && exponent + digits <= 7) return true;
    }
  }
  return false;
}

}  // namespace berth::fuzz
