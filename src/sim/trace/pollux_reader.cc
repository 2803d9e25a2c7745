#include "sim/trace/pollux_reader.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/trace/internal/fields.h"
#include "sim/trace/internal/text.h"

namespace berth::sim {

namespace ti = trace_internal;

namespace {

// Column positions in kColumns; kColumnCount also stands for "no column" in messages.
constexpr size_t kName = 0, kTime = 1, kApplication = 2, kNumReplicas = 3, kBatchSize = 4,
                 kColumnCount = 5;
constexpr std::array<ti::ColumnSpec, kColumnCount> kColumns = {{{"name", true},
                                                                {"time", true},
                                                                {"application", true},
                                                                {"num_replicas", true},
                                                                {"batch_size", true}}};

std::string Known(const std::map<std::string, int64_t, std::less<>>& table) {
  std::string out;
  for (const auto& [name, seconds] : table) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace

core::Result<Trace> ParsePolluxTrace(std::string_view text, std::string_view file,
                                     const TraceReadOptions& options, core::Diagnostics& diags) {
  BERTH_RETURN_IF_ERROR(ValidateTraceReadOptions(options));
  Trace trace;
  trace.file = std::string(file);
  trace.name = options.name.empty() ? ti::FileStem(file) : options.name;
  ti::LineCursor lines(text);
  ti::CsvSplitter splitter;
  BERTH_ASSIGN_OR_RETURN(std::vector<size_t> column_of,
                         ti::ReadHeader(lines, splitter, kColumns, file));

  ti::BadRows bad(options.skip_bad_rows, diags);
  std::unordered_map<std::string, int64_t> id_lines;
  std::vector<std::string_view> fields;
  std::array<std::string_view, kColumnCount> cell;
  std::string_view line;
  int64_t number = 0;
  while (lines.Next(&line, &number)) {
    if (ti::IsBlank(line)) continue;
    auto reject = [&](size_t c, std::string why) {
      return bad.Reject(
          ti::RowError(file, number, c == kColumnCount ? "" : kColumns[c].name, std::move(why)));
    };
    if (core::Status s = splitter.Split(line, fields); !s.ok()) {
      if (auto stop = reject(kColumnCount, s.error().message())) return std::move(*stop);
      continue;
    }
    if (fields.size() != column_of.size()) {
      if (auto stop = reject(kColumnCount, std::to_string(fields.size()) +
                                               " fields, but the header has " +
                                               std::to_string(column_of.size()))) {
        return std::move(*stop);
      }
      continue;
    }
    cell.fill({});
    for (size_t i = 0; i < fields.size(); ++i) cell[column_of[i]] = fields[i];

    std::optional<std::pair<size_t, std::string>> problem;
    for (size_t c = 0; c < kColumnCount; ++c) {
      if (cell[c].empty()) {
        problem.emplace(c, "required value is missing");
        break;
      }
    }
    TraceJob job;
    job.line = number;
    if (!problem) {
      core::Result<int64_t> t = ti::ParseSeconds(cell[kTime]);
      if (t.has_value()) {
        job.submit_s = *t;
      } else {
        problem.emplace(kTime, t.error().message());
      }
    }
    int64_t gpu_seconds = 0;
    if (!problem) {
      auto it = options.pollux_gpu_seconds.find(cell[kApplication]);
      if (it != options.pollux_gpu_seconds.end()) {
        gpu_seconds = it->second;
      } else {
        problem.emplace(kApplication, "unknown application \"" + std::string(cell[kApplication]) +
                                          "\" (known: " + Known(options.pollux_gpu_seconds) +
                                          ")");
      }
    }
    if (!problem) {
      core::Result<int32_t> n = ti::ParseCount(cell[kNumReplicas]);
      if (n.has_value()) {
        job.gpus = *n;
      } else {
        problem.emplace(kNumReplicas, n.error().message());
      }
    }
    if (!problem) {
      core::Result<int32_t> b = ti::ParseCount(cell[kBatchSize]);
      if (!b.has_value()) {
        problem.emplace(kBatchSize, b.error().message());
      } else if (*b == 0) {
        problem.emplace(kBatchSize, "must be positive");
      }
    }
    if (!problem) {
      auto first = id_lines.find(std::string(cell[kName]));
      if (first != id_lines.end()) {
        problem.emplace(kName, "duplicate name \"" + first->first + "\" (first at line " +
                                   std::to_string(first->second) + ")");
      }
    }
    if (problem) {
      if (auto stop = reject(problem->first, std::move(problem->second))) {
        return std::move(*stop);
      }
      continue;
    }
    const int64_t shares = std::max<int64_t>(job.gpus, 1);
    // Options were validated non-negative; gpu_seconds / shares <= gpu_seconds, and the
    // per-GPU products are checked.
    job.duration_s = ti::MulDivCeil(gpu_seconds, 1, shares).value();
    core::Result<int64_t> cpu = ti::MulDivCeil(shares, options.cpu_milli_per_gpu, 1);
    core::Result<int64_t> mem = ti::MulDivCeil(shares, options.memory_bytes_per_gpu, 1);
    if (!cpu.has_value() || !mem.has_value()) {
      if (auto stop = reject(kNumReplicas, "CPU or memory of " + std::string(cell[kNumReplicas]) +
                                               " GPUs' default shares is too large")) {
        return std::move(*stop);
      }
      continue;
    }
    job.cpu_milli = *cpu;
    job.memory_bytes = *mem;
    job.id = std::string(cell[kName]);
    job.tenant = std::string(cell[kApplication]);
    id_lines.emplace(job.id, number);
    trace.jobs.push_back(std::move(job));
  }
  ti::SortBySubmit(trace.jobs);
  trace.skipped_rows = bad.skipped();
  return trace;
}

}  // namespace berth::sim
