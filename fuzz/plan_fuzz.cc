// Fuzz target: the plan itself (engine/plan.h) on a small fleet (plan_fleet.h) with the
// input's objects added: read, Finish, one settled plan (or one Kueue cycle, for one input
// size in five) and the printed List (YAML, JSON or table by input size), as `berth plan`
// runs. The structure-aware YAML mutator (yaml_mutator.h) edits the objects' trees, so most
// mutants reach queueing, placement and binding. A crash, a CHECK, a sanitizer report, a
// hang (libFuzzer's -timeout) or a blow-up (-rss_limit_mb) is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>
#include <utility>

#include "core/diagnostics.h"
#include "cli/plan_items.h"
#include "core/time.h"
#include "engine/plan.h"
#include "fuzz/fuzz_expansion.h"
#include "fuzz/fuzz_support.h"
#include "fuzz/plan_fleet.h"
#include "fuzz/yaml_mutator.h"
#include "io/reader.h"
#include "io/writer.h"

BERTH_FUZZ_YAML_MUTATOR()

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = berth::fuzz::AsText(data, size);
  if (berth::fuzz::MayAskForHugeCounts(text)) return 0;
  berth::core::Diagnostics diags;
  berth::io::Reader reader(diags);
  reader.ReadText(berth::fuzz::kPlanFleetYaml, "fleet.yaml");
  reader.ReadText(text, "fuzz.yaml");
  berth::io::Input input = reader.Finish(berth::fuzz::kFuzzExpansionLimits);

  berth::engine::PlanOptions options;
  options.now = berth::core::Timestamp::Parse("2026-01-01T00:00:00Z").value();
  if (size % 5 == 0) options.cycles = 1;
  const berth::engine::Plan plan = berth::engine::RunPlan(std::move(input.snapshot), options);

  const berth::io::PlanItems items = berth::cli::PlanItemsOf(plan);
  const berth::io::OutputFormat formats[] = {berth::io::OutputFormat::kYaml,
                                             berth::io::OutputFormat::kJson,
                                             berth::io::OutputFormat::kTable};
  std::ostringstream out;
  berth::io::WritePlan(plan.planned, items, input.documents, formats[size % 3], out);
  return 0;
}
