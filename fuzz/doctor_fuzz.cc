// Fuzz target: berth doctor (diag/doctor.h) on the small fleet of plan_fleet.h with the
// input's objects added: read, Finish, every rule. The rules read what the reader kept of
// any kind (ConfigMaps through the device plugin's config reader, quotas, PDBs, Kueue, DRA,
// OCM), so a crash, a CHECK, a sanitizer report or a hang in a rule is a finding. The
// structure-aware YAML mutator edits the objects' trees.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/diagnostics.h"
#include "core/time.h"
#include "diag/doctor.h"
#include "fuzz/fuzz_expansion.h"
#include "fuzz/fuzz_support.h"
#include "fuzz/plan_fleet.h"
#include "fuzz/yaml_mutator.h"
#include "io/reader.h"

BERTH_FUZZ_YAML_MUTATOR()

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = berth::fuzz::AsText(data, size);
  if (berth::fuzz::MayAskForHugeCounts(text)) return 0;
  berth::core::Diagnostics diags;
  berth::io::Reader reader(diags);
  reader.ReadText(berth::fuzz::kPlanFleetYaml, "fleet.yaml");
  reader.ReadText(text, "fuzz.yaml");
  const berth::io::Input input = reader.Finish(berth::fuzz::kFuzzExpansionLimits);
  berth::diag::DoctorOptions options;
  options.now = berth::core::Timestamp::Parse("2026-01-01T00:00:00Z").value();
  const berth::diag::DoctorReport report = berth::diag::RunDoctor(input.snapshot, diags, options);
  // Each finding names a rule of the catalogue.
  for (const berth::diag::Finding& f : report.findings) {
    if (berth::diag::FindRule(f.rule) == nullptr) __builtin_trap();
  }
  return 0;
}
