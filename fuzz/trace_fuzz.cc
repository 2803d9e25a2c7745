// Fuzz target: the simulator's trace readers (sim/trace/reader.h): Philly, Pollux, berth
// CSV and berth JSON Lines, plus the tenant mapping file (sim/trace/tenant_mapping.h). The
// first input byte picks the reader (low three bits) and skip_bad_rows (bit 3); the rest is
// the file. Format detection runs on every input too.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/diagnostics.h"
#include "fuzz/fuzz_support.h"
#include "sim/trace/reader.h"
#include "sim/trace/tenant_mapping.h"
#include "sim/trace/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t pick = data[0];
  const std::string_view text = berth::fuzz::AsText(data + 1, size - 1);
  (void)berth::sim::DetectTraceFormat(text);
  berth::core::Diagnostics diags;
  berth::sim::TraceReadOptions options;
  options.skip_bad_rows = (pick & 8) != 0;
  switch (pick & 7) {
    case 0:
      (void)berth::sim::ParseTrace(text, "philly.csv", berth::sim::TraceFormat::kPhilly, options,
                                   diags);
      break;
    case 1:
      (void)berth::sim::ParseTrace(text, "workload-1.csv", berth::sim::TraceFormat::kPollux,
                                   options, diags);
      break;
    case 2:
      (void)berth::sim::ParseTrace(text, "jobs.csv", berth::sim::TraceFormat::kBerthCsv, options,
                                   diags);
      break;
    case 3:
      (void)berth::sim::ParseTrace(text, "jobs.jsonl", berth::sim::TraceFormat::kBerthJsonl,
                                   options, diags);
      break;
    default:
      (void)berth::sim::ParseTenantMapping(text, "tenants.csv");
      break;
  }
  return 0;
}
