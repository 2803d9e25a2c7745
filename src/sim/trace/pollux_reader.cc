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

// Column positions in kPolluxColumns.
constexpr size_t kName = 0, kTime = 1, kApplication = 2, kNumReplicas = 3, kBatchSize = 4,
                 kPolluxColumnCount = 5;
constexpr std::array<ti::ColumnSpec, kPolluxColumnCount> kPolluxColumns = {{{"name", true},
                                                                            {"time", true},
                                                                            {"application", true},
                                                                            {"num_replicas", true},
                                                                            {"batch_size", true}}};
using PolluxCells = std::array<std::string_view, kPolluxColumnCount>;

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
  BERTH_ASSIGN_OR_RETURN(Trace trace, ti::NewTrace(file, options));
  ti::LineCursor lines(text);
  ti::CsvSplitter splitter;
  BERTH_ASSIGN_OR_RETURN(std::vector<size_t> column_of,
                         ti::ReadHeader(lines, splitter, kPolluxColumns, file));

  ti::BadRows bad(options.skip_bad_rows, diags);
  std::unordered_map<std::string, int64_t> id_lines;
  auto row = [&](const PolluxCells& cell, int64_t number) -> std::optional<core::Error> {
    auto reject = [&](size_t c, std::string why) {
      return bad.Reject(ti::RowError(file, number, kPolluxColumns[c].name, std::move(why)));
    };
    ti::CellProblem problem;
    ti::RequireCells(problem, cell, {kName, kTime, kApplication, kNumReplicas, kBatchSize});
    TraceJob job;
    job.line = number;
    ti::ParseCell(problem, kTime, cell[kTime], ti::ParseSeconds, &job.submit_s);
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
    ti::ParseCell(problem, kNumReplicas, cell[kNumReplicas], ParseCount, &job.gpus);
    int32_t batch_size = 1;
    ti::ParseCell(problem, kBatchSize, cell[kBatchSize], ParseCount, &batch_size);
    if (!problem && batch_size == 0) problem.emplace(kBatchSize, "must be positive");
    if (!problem) {
      auto first = id_lines.find(std::string(cell[kName]));
      if (first != id_lines.end()) {
        problem.emplace(kName, "duplicate name \"" + first->first + "\" (first at line " +
                                   std::to_string(first->second) + ")");
      }
    }
    if (problem) return reject(problem->first, std::move(problem->second));
    // Options were validated non-negative; gpu_seconds / shares <= gpu_seconds.
    job.duration_s = ti::MulDivCeil(gpu_seconds, 1, std::max<int64_t>(job.gpus, 1)).value();
    if (!ti::SetDefaultShares(options, &job)) {
      return reject(kNumReplicas, "CPU or memory of " + std::string(cell[kNumReplicas]) +
                                      " GPUs' default shares is too large");
    }
    job.id = std::string(cell[kName]);
    job.tenant = std::string(cell[kApplication]);
    id_lines.emplace(job.id, number);
    trace.jobs.push_back(std::move(job));
    return std::nullopt;
  };
  if (auto stop = ti::ReadCsvRows<PolluxCells>(lines, splitter, column_of, file, bad, row)) {
    return std::move(*stop);
  }
  ti::SortBySubmit(trace.jobs);
  trace.skipped_rows = bad.skipped();
  return trace;
}

}  // namespace berth::sim
