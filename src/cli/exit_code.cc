#include "cli/exit_code.h"

namespace berth::cli {

int ToInt(ExitCode code) { return static_cast<int>(code); }

ExitCode ExitCodeFor(const core::Diagnostics& diags, size_t objects_read) {
  if (objects_read == 0) return ExitCode::kFailed;
  return diags.has_errors() ? ExitCode::kPartial : ExitCode::kOk;
}

void PrintError(const core::Error& error, std::ostream& err) {
  err << "berth: error: " << error.ToString() << '\n';
}

void PrintDiagnostics(const core::Diagnostics& diags, std::ostream& err) {
  for (const core::Diagnostic& d : diags.entries()) {
    err << (d.severity == core::Severity::kError ? "berth: error: " : "berth: warning: ")
        << d.error.ToString() << '\n';
  }
}

}  // namespace berth::cli
