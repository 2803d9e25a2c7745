#include "sim/trace/philly_reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "sim/trace/internal/fields.h"
#include "sim/trace/internal/text.h"

namespace berth::sim {

namespace ti = trace_internal;

namespace {

// Column positions in kPhillyColumns.
constexpr size_t kTimestamp = 0, kDuration = 1, kNumGpus = 2, kGpuTime = 3, kCluster = 4,
                 kPhillyColumnCount = 5;
constexpr std::array<ti::ColumnSpec, kPhillyColumnCount> kPhillyColumns = {{{"timestamp", true},
                                                                            {"duration", true},
                                                                            {"num_gpus", true},
                                                                            {"gpu_time", false},
                                                                            {"cluster", true}}};
using PhillyCells = std::array<std::string_view, kPhillyColumnCount>;

// gpu_time is redundant (duration x num_gpus in every row of the published file); a row
// where it disagrees has its columns shifted or mixed up, which would otherwise pass
// unnoticed. Both are decimals, so compare with a relative tolerance.
enum class GpuTimeCheck { kMatches, kNotANumber, kDiffers };
GpuTimeCheck CheckGpuTime(std::string_view gpu_time, std::string_view duration, int32_t gpus) {
  double g = 0;
  auto [gp, ge] = std::from_chars(gpu_time.data(), gpu_time.data() + gpu_time.size(), g);
  if (ge != std::errc() || gp != gpu_time.data() + gpu_time.size()) {
    return GpuTimeCheck::kNotANumber;
  }
  double d = 0;
  auto [dp, de] = std::from_chars(duration.data(), duration.data() + duration.size(), d);
  // duration was accepted by ParseSeconds; a spelling from_chars reads differently ("5.")
  // is not worth a false alarm.
  if (de != std::errc() || dp != duration.data() + duration.size()) return GpuTimeCheck::kMatches;
  const double want = d * gpus;
  return std::fabs(g - want) <= 1e-6 * std::max(1.0, std::fabs(want)) ? GpuTimeCheck::kMatches
                                                                        : GpuTimeCheck::kDiffers;
}

}  // namespace

core::Result<Trace> ParsePhillyTrace(std::string_view text, std::string_view file,
                                     const TraceReadOptions& options, core::Diagnostics& diags) {
  BERTH_ASSIGN_OR_RETURN(Trace trace, ti::NewTrace(file, options));
  ti::LineCursor lines(text);
  ti::CsvSplitter splitter;
  BERTH_ASSIGN_OR_RETURN(std::vector<size_t> column_of,
                         ti::ReadHeader(lines, splitter, kPhillyColumns, file));
  // About 42 bytes a row; reserving avoids regrowing a vector of 80k jobs.
  trace.jobs.reserve(text.size() / 40 + 1);

  ti::BadRows bad(options.skip_bad_rows, diags);
  // Wall-clock submit times; rebased to the earliest once all rows are read.
  int64_t earliest = std::numeric_limits<int64_t>::max();
  auto row = [&](const PhillyCells& cell, int64_t number) -> std::optional<core::Error> {
    auto reject = [&](size_t c, std::string why) {
      return bad.Reject(ti::RowError(file, number, kPhillyColumns[c].name, std::move(why)));
    };
    ti::CellProblem problem;
    TraceJob job;
    job.line = number;
    ti::RequireCells(problem, cell, {kTimestamp, kDuration, kNumGpus, kCluster});
    ti::ParseCell(problem, kTimestamp, cell[kTimestamp], ti::ParseWallClock, &job.submit_s);
    ti::ParseCell(problem, kDuration, cell[kDuration], ti::ParseSeconds, &job.duration_s);
    ti::ParseCell(problem, kNumGpus, cell[kNumGpus], ParseCount, &job.gpus);
    if (!problem && !cell[kGpuTime].empty()) {
      switch (CheckGpuTime(cell[kGpuTime], cell[kDuration], job.gpus)) {
        case GpuTimeCheck::kMatches:
          break;
        case GpuTimeCheck::kNotANumber:
          problem.emplace(kGpuTime, ti::Quote(cell[kGpuTime]) + " is not a number");
          break;
        case GpuTimeCheck::kDiffers:
          problem.emplace(kGpuTime, ti::Quote(cell[kGpuTime]) + " is not duration x num_gpus (" +
                                        std::string(cell[kDuration]) + " x " +
                                        std::string(cell[kNumGpus]) + ")");
          break;
      }
    }
    if (problem) return reject(problem->first, std::move(problem->second));
    if (!ti::SetDefaultShares(options, &job)) {
      return reject(kNumGpus, "CPU or memory of " + std::string(cell[kNumGpus]) +
                                  " GPUs' default shares is too large");
    }
    job.id = "philly-" + std::to_string(number);
    job.tenant = std::string(cell[kCluster]);
    earliest = std::min(earliest, job.submit_s);
    trace.jobs.push_back(std::move(job));
    return std::nullopt;
  };
  if (auto stop = ti::ReadCsvRows<PhillyCells>(lines, splitter, column_of, file, bad, row)) {
    return std::move(*stop);
  }
  for (TraceJob& job : trace.jobs) job.submit_s -= earliest;
  ti::SortBySubmit(trace.jobs);
  trace.skipped_rows = bad.skipped();
  return trace;
}

}  // namespace berth::sim
