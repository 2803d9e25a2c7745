// Fuzz target: a whole input file through io's public reader (io/reader.h): YAML or JSON,
// multi-document streams, `kind: List`, every kind of the table of kinds and its decoder,
// duplicate detection, then Finish (priorities, workload expansion, Kueue Workloads,
// template claims). What a user's `-f FILE` meets before the plan runs. Mutated with the
// structure-aware YAML mutator (yaml_mutator.h) three times in four.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/diagnostics.h"
#include "fuzz/fuzz_expansion.h"
#include "fuzz/fuzz_support.h"
#include "fuzz/yaml_mutator.h"
#include "io/reader.h"

BERTH_FUZZ_YAML_MUTATOR()

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = berth::fuzz::AsText(data, size);
  if (berth::fuzz::MayAskForHugeCounts(text)) return 0;
  berth::core::Diagnostics diags;
  berth::io::Reader reader(diags);
  reader.ReadText(text, "fuzz.yaml");
  (void)reader.Finish(berth::fuzz::kFuzzExpansionLimits);
  return 0;
}
