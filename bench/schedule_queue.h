// The binding benchmarks' run: one Scheduler over a snapshot, the first `limit` pods of its
// queue (all when limit < 0) scheduled one by one. Header-only, shared by binding_bench and
// volume_binding_bench.
#pragma once

#include <cstdint>
#include <vector>

#include "binding/scheduler.h"
#include "model/decision.h"
#include "model/scheduler_config.h"
#include "model/snapshot.h"

namespace berth::bench {

inline std::vector<model::PodDecision> Bind(const model::Snapshot& snap, bool use_index,
                                            int64_t limit,
                                            binding::SchedulerStats* stats = nullptr) {
  binding::Scheduler scheduler(snap, model::SchedulerConfig{},
                               binding::SchedulerOptions{use_index});
  std::vector<model::PodIndex> queue = scheduler.QueueOrder();
  if (limit >= 0 && static_cast<size_t>(limit) < queue.size()) {
    queue.resize(static_cast<size_t>(limit));
  }
  std::vector<model::PodDecision> out;
  out.reserve(queue.size());
  for (model::PodIndex pod : queue) out.push_back(scheduler.ScheduleOne(pod));
  if (stats != nullptr) *stats = scheduler.stats();
  return out;
}

inline int64_t CountBound(const std::vector<model::PodDecision>& decisions) {
  int64_t n = 0;
  for (const auto& d : decisions) n += d.node.has_value() ? 1 : 0;
  return n;
}

}  // namespace berth::bench
