#include "sim/trace/queued_trace.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "sim/trace/internal/text.h"

namespace berth::sim {

namespace ti = trace_internal;

core::Result<QueuedTrace> AssignQueues(Trace trace, const TenantMapping& mapping,
                                       bool skip_bad_rows, core::Diagnostics& diags) {
  QueuedTrace out;
  out.name = std::move(trace.name);
  out.file = std::move(trace.file);
  out.jobs.reserve(trace.jobs.size());
  ti::BadRows bad(skip_bad_rows, diags);

  // Traces have few tenants (Philly: 15) and many jobs, so the mapping is asked once per
  // tenant; -1 marks a tenant without a queue.
  std::unordered_map<std::string, int32_t> queue_of_tenant;
  std::vector<const QueueRef*> used;  // queue index -> the mapping's entry (first-use order)
  for (TraceJob& job : trace.jobs) {
    auto [it, inserted] = queue_of_tenant.try_emplace(job.tenant, -1);
    if (inserted) {
      if (const QueueRef* q = mapping.Find(job.tenant)) {
        auto same = std::find_if(used.begin(), used.end(),
                                 [q](const QueueRef* u) { return *u == *q; });
        if (same == used.end()) {
          used.push_back(q);
          same = used.end() - 1;
        }
        it->second = static_cast<int32_t>(same - used.begin());
      }
    }
    if (it->second < 0) {
      std::string why = job.tenant.empty() ? std::string("the job has no tenant")
                                           : "tenant \"" + job.tenant + "\" is not mapped";
      why += " and there is no default queue";
      if (auto stop = bad.Reject(ti::RowError(out.file, job.line, "tenant", std::move(why)))) {
        return std::move(*stop);
      }
      continue;
    }
    out.jobs.push_back(QueuedJob{std::move(job), it->second});
  }

  // Queue indices in first-use order depend on the trace; sorted ones do not, so reports
  // list queues the same way for every trace of a fleet.
  std::vector<int32_t> order(used.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
  std::sort(order.begin(), order.end(),
            [&used](int32_t a, int32_t b) { return *used[a] < *used[b]; });
  std::vector<int32_t> new_index(used.size());
  out.queues.reserve(used.size());
  for (size_t rank = 0; rank < order.size(); ++rank) {
    new_index[order[rank]] = static_cast<int32_t>(rank);
    out.queues.push_back(*used[order[rank]]);
  }
  for (QueuedJob& job : out.jobs) job.queue = new_index[job.queue];
  out.skipped_rows = trace.skipped_rows + bad.skipped();
  return out;
}

}  // namespace berth::sim
