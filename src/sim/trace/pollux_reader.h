// Reader of the Pollux (OSDI'21) simulator workloads (adaptdl osdi21-artifact
// simulator/workloads*/workload-N.csv; /work/shared/data/pollux-osdi21/): header
// "name,time,application,num_replicas,batch_size". Called through reader.h (--format
// pollux). Thread-compatible.
#pragma once

#include <string_view>

#include "core/diagnostics.h"
#include "core/result.h"
#include "sim/trace/trace.h"

namespace berth::sim {

// Parses a Pollux workload; `file` names it in messages. Mapping to TraceJob:
//   name         -> id (unique);
//   time         -> submit_s (seconds after the workload's start, as given);
//   application  -> tenant (Pollux has no tenants; the application is the workload class,
//                   so a tenant mapping can give each class its queue), and the run time:
//   num_replicas -> gpus, and duration_s = ceil(options.pollux_gpu_seconds[application] /
//                   max(num_replicas, 1));
//   batch_size   -> checked to be a positive whole number, otherwise unused.
// Pollux derives run time from measured throughput and statistical efficiency profiles (not
// in the data set), so durations are an estimate: see DefaultPolluxGpuSeconds (trace.h) and
// docs/simulate.md. cpu/memory come from the per-GPU defaults; no GPU model; priority 0.
// Bad rows ("FILE:LINE: column NAME: why") per options.skip_bad_rows; jobs sorted by
// (submit_s, line).
core::Result<Trace> ParsePolluxTrace(std::string_view text, std::string_view file,
                                     const TraceReadOptions& options, core::Diagnostics& diags);

}  // namespace berth::sim
