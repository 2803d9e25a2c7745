// The entry point of trace reading: a file (or text) and a format in, a Trace out. The CLI
// (`berth simulate --trace FILE --format F`) and the simulator call it; the per-format
// readers are philly_reader.h, pollux_reader.h and berth_format.h. The OpenB pod list is
// read by sim/gpushare, not here. Thread-compatible; each call is independent.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/diagnostics.h"
#include "core/result.h"
#include "sim/trace/trace.h"

namespace berth::sim {

// Parses `text` in `format`; `file` names it in messages. Bad rows stop the read with
// "FILE:LINE: column NAME: why", or, with options.skip_bad_rows, are warned to `diags` and
// counted in Trace::skipped_rows. Jobs come sorted by (submit_s, line). Same input, same
// Trace.
core::Result<Trace> ParseTrace(std::string_view text, std::string_view file, TraceFormat format,
                               const TraceReadOptions& options, core::Diagnostics& diags);

// Reads the file at `path` whole and parses it as above. NotFound when it cannot be read.
core::Result<Trace> ReadTraceFile(const std::string& path, TraceFormat format,
                                  const TraceReadOptions& options, core::Diagnostics& diags);

// Guesses the format from the text's first non-blank line: Philly's and Pollux's headers,
// a JSON object (jsonl), or a header naming berth's id column (csv). nullopt otherwise
// (OpenB's pod list included: that is sim/gpushare's format).
std::optional<TraceFormat> DetectTraceFormat(std::string_view text);

// Reads a whole file into memory. NotFound (location: the path) when it cannot be opened.
core::Result<std::string> ReadWholeFile(const std::string& path);

}  // namespace berth::sim
