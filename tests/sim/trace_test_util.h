// Helpers shared by the sim/trace tests: fixture paths and a readable dump of diagnostics.
#pragma once

#include <string>

#include "core/diagnostics.h"

namespace berth::sim::testing {

// tests/fixtures/sim/<rel>, rooted at $BERTH_SOURCE_DIR when set (ctest sets it), else the
// working directory (the repository root).
std::string TraceFixturePath(const std::string& rel);

// Every diagnostic as "warning|error TEXT" lines, for failure messages and checks.
std::string DumpDiagnostics(const core::Diagnostics& diags);

}  // namespace berth::sim::testing
