#include "sim/trace/values.h"

#include "sim/trace/internal/fields.h"

namespace berth::sim {

// Forwards, so that flags, scenario files and trace columns accept the same text while the
// cell parsers stay private to sim/trace.
core::Result<int64_t> ParseDurationSeconds(std::string_view text) {
  return trace_internal::ParseDuration(text);
}

core::Result<int32_t> ParseCountValue(std::string_view text) {
  return trace_internal::ParseCount(text);
}

}  // namespace berth::sim
