// Readers of berth's own trace format, for users' exports (docs/simulate.md, "Trace
// formats"): CSV with a header, and JSON Lines with one object per line, both with the
// fields id, submit, duration, gpus (required) and cpu, memory, tenant, gpu_model, priority
// (optional). Called through reader.h; the CLI's --format csv|jsonl. Thread-compatible.
#pragma once

#include <string_view>

#include "core/diagnostics.h"
#include "core/result.h"
#include "sim/trace/trace.h"

namespace berth::sim {

// Parses CSV text; `file` names it in messages. The header must name every required column
// and only known ones (an unknown column is an error naming it, so a typo is never silently
// ignored); columns may come in any order. Bad rows: "FILE:LINE: column NAME: why", handled
// per options.skip_bad_rows (warnings go to `diags`). Blank lines are skipped.
// Cost: O(bytes + rows log rows) when the rows are not already in submit order.
core::Result<Trace> ParseBerthCsv(std::string_view text, std::string_view file,
                                  const TraceReadOptions& options, core::Diagnostics& diags);

// Parses JSON Lines: each non-blank line one JSON object with the same fields as the CSV
// columns; values are strings or numbers, null means absent. An unknown key is a bad row
// naming it; a line that is not a JSON object is a bad row.
core::Result<Trace> ParseBerthJsonl(std::string_view text, std::string_view file,
                                    const TraceReadOptions& options, core::Diagnostics& diags);

}  // namespace berth::sim
