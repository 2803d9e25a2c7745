// Reader of the Philly job list as preprocessed by the Pollux authors (adaptdl
// osdi21-artifact simulator/traces/philly.csv; /work/shared/data/philly-jobs-pollux/):
// header "timestamp,duration,num_gpus,gpu_time,cluster". Called through reader.h (--format
// philly). Thread-compatible.
#pragma once

#include <string_view>

#include "core/diagnostics.h"
#include "core/result.h"
#include "sim/trace/trace.h"

namespace berth::sim {

// Parses the Philly CSV; `file` names it in messages. Mapping to TraceJob:
//   timestamp "YYYY-MM-DD HH:MM:SS" -> submit_s, seconds after the earliest timestamp;
//   duration (decimal seconds)      -> duration_s, rounded up;
//   num_gpus                        -> gpus;
//   gpu_time                        -> checked to be duration x num_gpus, else a bad row;
//   cluster (the virtual cluster)   -> tenant;
//   id = "philly-<line>"; cpu and memory from the options' per-GPU defaults; no GPU model;
//   priority 0.
// Columns may come in any order; gpu_time may be left out; others are errors naming them.
// Bad rows: "FILE:LINE: column NAME: why", per options.skip_bad_rows. Jobs are sorted by
// (submit_s, line). Cost: one pass, no allocation per row beyond the job's two strings;
// the 82,247-row file reads in about 40 ms (docs/simulate.md).
core::Result<Trace> ParsePhillyTrace(std::string_view text, std::string_view file,
                                     const TraceReadOptions& options, core::Diagnostics& diags);

}  // namespace berth::sim
