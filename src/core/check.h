// BERTH_CHECK and BERTH_DCHECK: guards for invariants whose violation is a bug in berth.
// Never use them on input (STYLE.md, errors of the third kind). Both abort with the
// expression, the message and the source position.
#pragma once

namespace berth::core::internal {
[[noreturn]] void CheckFailed(const char* expr, const char* message, const char* file, int line);
}  // namespace berth::core::internal

#define BERTH_CHECK(cond, message)                                              \
  do {                                                                          \
    if (!(cond)) {                                                              \
      ::berth::core::internal::CheckFailed(#cond, message, __FILE__, __LINE__); \
    }                                                                           \
  } while (false)

#ifdef NDEBUG
#define BERTH_DCHECK(cond, message) \
  do {                              \
  } while (false && (cond))
#else
#define BERTH_DCHECK(cond, message) BERTH_CHECK(cond, message)
#endif
