#include "sim/trace/trace.h"

#include <string>

namespace berth::sim {

core::Result<TraceFormat> ParseTraceFormat(std::string_view name) {
  if (name == "philly") return TraceFormat::kPhilly;
  if (name == "pollux") return TraceFormat::kPollux;
  if (name == "csv" || name == "berth-csv") return TraceFormat::kBerthCsv;
  if (name == "jsonl" || name == "berth-jsonl") return TraceFormat::kBerthJsonl;
  return core::InvalidArgument("unknown trace format \"" + std::string(name) +
                               "\" (known: philly, pollux, csv, jsonl)");
}

const char* TraceFormatName(TraceFormat format) {
  switch (format) {
    case TraceFormat::kPhilly:
      return "philly";
    case TraceFormat::kPollux:
      return "pollux";
    case TraceFormat::kBerthCsv:
      return "csv";
    case TraceFormat::kBerthJsonl:
      return "jsonl";
  }
  return "unknown";
}

std::map<std::string, int64_t, std::less<>> DefaultPolluxGpuSeconds() {
  // Pollux's workload generator (adaptdl osdi21-artifact simulator/workload.py) samples Philly
  // jobs with duration >= 60 s and GPU time < 1000 GPU-hours, and picks the application by
  // the job's GPU time: < 1 GPU-hour cifar10 or ncf, < 10 deepspeech2 (half of them turned
  // into bert), < 100 yolov3, else imagenet. Each application gets the median GPU time of
  // its class in that filtered philly.csv (derived here: 782 s from 55,508 jobs, 6,118 s
  // from 13,807, 88,776 s from 3,575, 852,992 s from 1,538).
  return {
      {"bert", 6118},     {"cifar10", 782},     {"deepspeech2", 6118},
      {"imagenet", 852992}, {"ncf", 782},        {"yolov3", 88776},
  };
}

core::Status ValidateTraceReadOptions(const TraceReadOptions& options) {
  if (options.cpu_milli_per_gpu < 0) {
    return core::InvalidArgument("the default CPU per GPU must not be negative",
                                 {"", "", "cpu_milli_per_gpu"});
  }
  if (options.memory_bytes_per_gpu < 0) {
    return core::InvalidArgument("the default memory per GPU must not be negative",
                                 {"", "", "memory_bytes_per_gpu"});
  }
  for (const auto& [application, seconds] : options.pollux_gpu_seconds) {
    if (seconds < 0) {
      return core::InvalidArgument("GPU-seconds of application \"" + application +
                                       "\" must not be negative",
                                   {"", "", "pollux_gpu_seconds"});
    }
  }
  return core::OkStatus();
}

}  // namespace berth::sim
