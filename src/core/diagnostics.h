// Diagnostics: the sink readers report bad objects to while they keep going, so one bad
// object never hides the good ones (STYLE.md). The CLI prints the collected entries and
// picks the exit code from them. Not thread-safe; one sink per reading pass.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace berth::core {

enum class Severity { kWarning, kError };

struct Diagnostic {
  Severity severity;
  Error error;
};

class Diagnostics {
 public:
  void Warn(Error error) { entries_.push_back({Severity::kWarning, std::move(error)}); }
  void Report(Error error) { entries_.push_back({Severity::kError, std::move(error)}); }

  const std::vector<Diagnostic>& entries() const { return entries_; }
  bool has_errors() const;
  size_t error_count() const;

 private:
  std::vector<Diagnostic> entries_;
};

}  // namespace berth::core
