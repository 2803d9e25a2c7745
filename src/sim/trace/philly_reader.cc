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

// Column positions in kColumns; kColumnCount also stands for "no column" in messages.
constexpr size_t kTimestamp = 0, kDuration = 1, kNumGpus = 2, kGpuTime = 3, kCluster = 4,
                 kColumnCount = 5;
constexpr std::array<ti::ColumnSpec, kColumnCount> kColumns = {{{"timestamp", true},
                                                                {"duration", true},
                                                                {"num_gpus", true},
                                                                {"gpu_time", false},
                                                                {"cluster", true}}};

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
  BERTH_RETURN_IF_ERROR(ValidateTraceReadOptions(options));
  Trace trace;
  trace.file = std::string(file);
  trace.name = options.name.empty() ? ti::FileStem(file) : options.name;
  ti::LineCursor lines(text);
  ti::CsvSplitter splitter;
  BERTH_ASSIGN_OR_RETURN(std::vector<size_t> column_of,
                         ti::ReadHeader(lines, splitter, kColumns, file));
  // About 42 bytes a row; reserving avoids regrowing a vector of 80k jobs.
  trace.jobs.reserve(text.size() / 40 + 1);

  ti::BadRows bad(options.skip_bad_rows, diags);
  std::vector<std::string_view> fields;
  std::array<std::string_view, kColumnCount> cell;
  std::string_view line;
  int64_t number = 0;
  // Wall-clock submit times; rebased to the earliest once all rows are read.
  int64_t earliest = std::numeric_limits<int64_t>::max();
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

    // The first bad cell, in column order, decides the row's message.
    std::optional<std::pair<size_t, std::string>> problem;
    TraceJob job;
    job.line = number;
    for (size_t c : {kTimestamp, kDuration, kNumGpus, kCluster}) {
      if (cell[c].empty()) {
        problem.emplace(c, "required value is missing");
        break;
      }
    }
    if (!problem) {
      core::Result<int64_t> t = ti::ParseWallClock(cell[kTimestamp]);
      if (t.has_value()) {
        job.submit_s = *t;
      } else {
        problem.emplace(kTimestamp, t.error().message());
      }
    }
    if (!problem) {
      core::Result<int64_t> d = ti::ParseSeconds(cell[kDuration]);
      if (d.has_value()) {
        job.duration_s = *d;
      } else {
        problem.emplace(kDuration, d.error().message());
      }
    }
    if (!problem) {
      core::Result<int32_t> g = ti::ParseCount(cell[kNumGpus]);
      if (g.has_value()) {
        job.gpus = *g;
      } else {
        problem.emplace(kNumGpus, g.error().message());
      }
    }
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
    if (problem) {
      if (auto stop = reject(problem->first, std::move(problem->second))) {
        return std::move(*stop);
      }
      continue;
    }
    const int64_t shares = std::max<int64_t>(job.gpus, 1);
    // shares < 2^31 and the per-GPU defaults were validated, so these products fit unless
    // the defaults are absurd; MulDivCeil says so instead of wrapping.
    core::Result<int64_t> cpu = ti::MulDivCeil(shares, options.cpu_milli_per_gpu, 1);
    core::Result<int64_t> mem = ti::MulDivCeil(shares, options.memory_bytes_per_gpu, 1);
    if (!cpu.has_value() || !mem.has_value()) {
      if (auto stop = reject(kNumGpus, "CPU or memory of " + std::string(cell[kNumGpus]) +
                                           " GPUs' default shares is too large")) {
        return std::move(*stop);
      }
      continue;
    }
    job.cpu_milli = *cpu;
    job.memory_bytes = *mem;
    job.id = "philly-" + std::to_string(number);
    job.tenant = std::string(cell[kCluster]);
    earliest = std::min(earliest, job.submit_s);
    trace.jobs.push_back(std::move(job));
  }
  for (TraceJob& job : trace.jobs) job.submit_s -= earliest;
  ti::SortBySubmit(trace.jobs);
  trace.skipped_rows = bad.skipped();
  return trace;
}

}  // namespace berth::sim
