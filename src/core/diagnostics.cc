#include "core/diagnostics.h"

#include <algorithm>

namespace berth::core {

bool Diagnostics::has_errors() const { return error_count() > 0; }

size_t Diagnostics::error_count() const {
  return static_cast<size_t>(
      std::count_if(entries_.begin(), entries_.end(),
                    [](const Diagnostic& d) { return d.severity == Severity::kError; }));
}

}  // namespace berth::core
