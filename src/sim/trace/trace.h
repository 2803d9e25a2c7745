// Trace and TraceJob: the one job model every trace reader in sim/trace produces and the
// event core replays (arrival at submit_s, completion duration_s after the job starts).
// Written by reader.h's ReadTraceFile/ParseTrace and the per-format readers; read by the
// simulator and its reports. Plain value types; thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace berth::sim {

// One job of a trace. Units are in the names (STYLE.md): seconds, milli-cores, bytes.
struct TraceJob {
  std::string id;          // unique within its trace
  int64_t submit_s = 0;    // arrival, in seconds after the trace's start
  int64_t duration_s = 0;  // run time once started, whole seconds (rounded up)
  int32_t gpus = 0;        // whole GPUs, all needed at once (a gang)
  int64_t cpu_milli = 0;
  int64_t memory_bytes = 0;
  std::string tenant;     // empty: none (the tenant mapping's default queue)
  std::string gpu_model;  // empty: any model
  int32_t priority = 0;   // Kueue workload priority; higher is more important
  int64_t line = 0;       // 1-based line of the row in its file, for messages

  bool operator==(const TraceJob&) const = default;
};

// A whole trace. `jobs` are sorted by (submit_s, line): arrival order, ties in file order.
struct Trace {
  std::string name;        // the file's stem unless TraceReadOptions::name says otherwise
  std::vector<TraceJob> jobs;
  int64_t skipped_rows = 0;  // bad rows dropped under TraceReadOptions::skip_bad_rows
  std::string file;          // the path or label the trace was read from, for messages

  bool operator==(const Trace&) const = default;
};

enum class TraceFormat {
  kPhilly,      // Pollux's philly.csv: timestamp,duration,num_gpus,gpu_time,cluster
  kPollux,      // Pollux workloads: name,time,application,num_replicas,batch_size
  kBerthCsv,    // berth's own CSV (docs/simulate.md, "Trace formats")
  kBerthJsonl,  // berth's own JSON Lines, the same fields
};

// "philly", "pollux", "csv" (or "berth-csv"), "jsonl" (or "berth-jsonl"). InvalidArgument
// naming the known names otherwise.
core::Result<TraceFormat> ParseTraceFormat(std::string_view name);
const char* TraceFormatName(TraceFormat format);

// GPU-seconds of work per Pollux application (see pollux_reader.h), from the Philly job
// classes Pollux's workload generator draws each application from.
std::map<std::string, int64_t, std::less<>> DefaultPolluxGpuSeconds();

struct TraceReadOptions {
  // false: the first malformed row stops the read with its error. true: every malformed row
  // is reported as a warning to the Diagnostics sink, dropped, and counted in skipped_rows.
  // Errors that are not about one row (missing file, bad header) always stop the read.
  bool skip_bad_rows = false;
  // Requests of jobs whose trace gives no CPU or memory (Philly, Pollux, and berth rows that
  // leave those cells out), per GPU; a job without GPUs gets one GPU's share. 3 CPUs per GPU
  // is Synergy's Philly-derived server (24 CPUs per 8 GPUs); 24 GiB per GPU keeps an 8-GPU
  // job (192 GiB) within common 8-GPU nodes so that GPUs, not memory, bind.
  int64_t cpu_milli_per_gpu = 3000;
  int64_t memory_bytes_per_gpu = int64_t{24} << 30;
  // Pollux workloads carry no run time: duration_s = ceil(gpu_seconds[application] /
  // num_replicas). Applications missing here are bad rows.
  std::map<std::string, int64_t, std::less<>> pollux_gpu_seconds = DefaultPolluxGpuSeconds();
  // Trace::name; empty: the file's stem ("philly" for ".../philly.csv").
  std::string name;
};

// InvalidArgument when a per-GPU default or a Pollux GPU-seconds entry is negative. Every
// reader checks its options first.
core::Status ValidateTraceReadOptions(const TraceReadOptions& options);

}  // namespace berth::sim
