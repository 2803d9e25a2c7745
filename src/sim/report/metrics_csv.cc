// metrics.csv: the interval rows of every run, one header, run id columns first. Queue
// columns are the union of all runs' queues, sorted by name, so runs with different queues
// share one header (a queue a run does not have is 0 there).
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/core/virtual_clock.h"
#include "sim/report/internal/text.h"
#include "sim/report/run_report.h"

namespace berth::sim::report {

std::string RenderMetricsCsv(const std::vector<RunReport>& runs) {
  using internal::CsvField;
  using internal::FormatFixed;
  std::set<std::string> queues;
  for (const RunReport& run : runs) {
    queues.insert(run.metrics.queue_names.begin(), run.metrics.queue_names.end());
  }
  std::string out =
      "run,trace,policy,seed,start_s,end_s,allocated_pct,frag_pct,running,pending,submitted,"
      "started,finished,preemptions,failures";
  for (const std::string& q : queues) {
    // Appends rather than "," + temporary: GCC 12 misreports operator+(const char*, string&&)
    // at -O3 (-Wstringop-overflow, GCC bug 105329) and the lead's build uses -Werror.
    out += ',';
    out += CsvField("pending:" + q);
  }
  out += "\n";
  std::map<std::string, size_t> column;  // queue -> its position among the queue columns
  for (const std::string& q : queues) {
    column.emplace(q, column.size());
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunReport& run = runs[i];
    const RunMetrics& m = run.metrics;
    std::vector<size_t> to_column;  // this run's queue index -> shared column
    for (const std::string& q : m.queue_names) {
      to_column.push_back(column[q]);
    }
    const std::string prefix = std::to_string(i) + "," + CsvField(run.trace) + "," +
                               CsvField(run.policy) + "," + std::to_string(run.seed) + ",";
    std::vector<int64_t> pending(queues.size());
    for (const IntervalRow& row : m.rows) {
      out += prefix;
      out += FormatFixed(static_cast<double>(row.start_ms) / kMsPerSecond, 3) + ",";
      out += FormatFixed(static_cast<double>(row.end_ms) / kMsPerSecond, 3) + ",";
      out += FormatFixed(row.allocated_pct, 4) + ",";
      out += (row.frag_pct ? FormatFixed(*row.frag_pct, 4) : std::string()) + ",";
      out += std::to_string(row.running) + "," + std::to_string(row.pending) + ",";
      out += std::to_string(row.submitted) + "," + std::to_string(row.started) + ",";
      out += std::to_string(row.finished) + "," + std::to_string(row.preemptions) + ",";
      out += std::to_string(row.failures);
      std::fill(pending.begin(), pending.end(), 0);
      for (size_t q = 0; q < row.pending_by_queue.size() && q < to_column.size(); ++q) {
        pending[to_column[q]] = row.pending_by_queue[q];
      }
      for (int64_t p : pending) {
        out += ',';
        out += std::to_string(p);
      }
      out += "\n";
    }
  }
  return out;
}

}  // namespace berth::sim::report
