// metrics.csv: the interval rows of every run, one header, run id columns first. Queue,
// flavor and GPU model columns are the union of all runs' names, each sorted by name, so runs
// with different queues share one header (a queue a run does not have is 0 there; a flavor or
// model it does not have, or had no capacity for in the interval, is empty).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/core/virtual_clock.h"
#include "sim/report/internal/text.h"
#include "sim/report/run_report.h"

namespace berth::sim::report {
namespace {

// The union of the runs' names, sorted, and for each run its name index -> shared column.
struct Columns {
  std::vector<std::string> names;
  std::vector<std::vector<size_t>> of_run;
};

template <typename NamesFn>
Columns SharedColumns(const std::vector<RunReport>& runs, NamesFn names_of) {
  std::set<std::string> all;
  for (const RunReport& run : runs) {
    const std::vector<std::string>& names = names_of(run.metrics);
    all.insert(names.begin(), names.end());
  }
  Columns c;
  c.names.assign(all.begin(), all.end());
  std::map<std::string, size_t> column;
  for (const std::string& n : c.names) column.emplace(n, column.size());
  for (const RunReport& run : runs) {
    std::vector<size_t>& to = c.of_run.emplace_back();
    for (const std::string& n : names_of(run.metrics)) to.push_back(column[n]);
  }
  return c;
}

void AppendHeader(std::string* out, const char* prefix, const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    // Appends rather than "," + temporary: GCC 12 misreports operator+(const char*, string&&)
    // at -O3 (-Wstringop-overflow, GCC bug 105329) and the lead's build uses -Werror.
    *out += ',';
    *out += internal::CsvField(prefix + n);
  }
}

// The row's percentages in the shared columns; empty where unknown (NaN or missing).
void AppendPcts(std::string* out, const std::vector<double>& values,
                const std::vector<size_t>& to_column, size_t columns) {
  std::vector<double> cells(columns, std::nan(""));
  for (size_t k = 0; k < values.size() && k < to_column.size(); ++k) {
    cells[to_column[k]] = values[k];
  }
  for (double v : cells) {
    *out += ',';
    if (std::isfinite(v)) *out += internal::FormatFixed(v, 4);
  }
}

}  // namespace

std::string RenderMetricsCsv(const std::vector<RunReport>& runs) {
  using internal::CsvField;
  using internal::FormatFixed;
  const Columns queues = SharedColumns(
      runs, [](const RunMetrics& m) -> const auto& { return m.queue_names; });
  const Columns flavors = SharedColumns(
      runs, [](const RunMetrics& m) -> const auto& { return m.flavor_names; });
  const Columns models = SharedColumns(
      runs, [](const RunMetrics& m) -> const auto& { return m.gpu_model_names; });
  std::string out =
      "run,trace,policy,seed,start_s,end_s,allocated_pct,frag_pct,running,pending,submitted,"
      "started,finished,preemptions,failures,preemption_gpu_hours_lost,failure_gpu_hours_lost";
  AppendHeader(&out, "pending:", queues.names);
  AppendHeader(&out, "allocated_pct:flavor:", flavors.names);
  AppendHeader(&out, "allocated_pct:gpu_model:", models.names);
  out += "\n";
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunReport& run = runs[i];
    const RunMetrics& m = run.metrics;
    const std::vector<size_t>& to_column = queues.of_run[i];
    const std::string prefix = std::to_string(i) + "," + CsvField(run.trace) + "," +
                               CsvField(run.policy) + "," + std::to_string(run.seed) + ",";
    std::vector<int64_t> pending(queues.names.size());
    for (const IntervalRow& row : m.rows) {
      out += prefix;
      out += FormatFixed(static_cast<double>(row.start_ms) / kMsPerSecond, 3) + ",";
      out += FormatFixed(static_cast<double>(row.end_ms) / kMsPerSecond, 3) + ",";
      out += FormatFixed(row.allocated_pct, 4) + ",";
      out += (row.frag_pct ? FormatFixed(*row.frag_pct, 4) : std::string()) + ",";
      out += std::to_string(row.running) + "," + std::to_string(row.pending) + ",";
      out += std::to_string(row.submitted) + "," + std::to_string(row.started) + ",";
      out += std::to_string(row.finished) + "," + std::to_string(row.preemptions) + ",";
      out += std::to_string(row.failures) + ",";
      out += FormatFixed(row.preemption_gpu_hours_lost, 6) + ",";
      out += FormatFixed(row.failure_gpu_hours_lost, 6);
      std::fill(pending.begin(), pending.end(), 0);
      for (size_t q = 0; q < row.pending_by_queue.size() && q < to_column.size(); ++q) {
        pending[to_column[q]] = row.pending_by_queue[q];
      }
      for (int64_t p : pending) {
        out += ',';
        out += std::to_string(p);
      }
      AppendPcts(&out, row.allocated_pct_by_flavor, flavors.of_run[i], flavors.names.size());
      AppendPcts(&out, row.allocated_pct_by_gpu_model, models.of_run[i], models.names.size());
      out += "\n";
    }
  }
  return out;
}

}  // namespace berth::sim::report
