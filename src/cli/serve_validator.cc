#include "cli/serve_validator.h"

#include "core/diagnostics.h"
#include "io/reader.h"

namespace berth::cli {

std::vector<core::Error> IoValidator::Validate(const model::KindInfo& /*kind*/,
                                               const nlohmann::ordered_json& object) const {
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(object.dump(), "request");
  std::vector<core::Error> errors;
  for (const core::Diagnostic& d : diags.entries()) {
    if (d.severity != core::Severity::kError) continue;
    // The request is the file; a client knows the object it sent, so only the field stays.
    errors.emplace_back(d.error.code(), d.error.message(),
                        core::Location{"", "", d.error.location().field});
  }
  return errors;
}

}  // namespace berth::cli
