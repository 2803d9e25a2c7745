#include "sim/trace_test_util.h"

#include <cstdlib>

namespace berth::sim::testing {

std::string TraceFixturePath(const std::string& rel) {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  std::string base = root != nullptr ? std::string(root) + "/" : std::string();
  return base + "tests/fixtures/sim/" + rel;
}

std::string DumpDiagnostics(const core::Diagnostics& diags) {
  std::string out;
  for (const core::Diagnostic& d : diags.entries()) {
    out += d.severity == core::Severity::kError ? "error " : "warning ";
    out += d.error.ToString();
    out += "\n";
  }
  return out;
}

}  // namespace berth::sim::testing
