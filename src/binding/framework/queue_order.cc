#include "binding/framework/queue_order.h"

#include <algorithm>
#include <tuple>

namespace berth::binding {

bool IsPending(const model::Pod& pod, const model::SchedulerConfig& config) {
  return !pod.IsBound() && !pod.IsTerminal() && config.FindProfile(pod.scheduler_name) != nullptr;
}

std::vector<model::PodIndex> PendingPodsInQueueOrder(const model::Snapshot& snapshot,
                                                     const model::SchedulerConfig& config) {
  std::vector<model::PodIndex> pending;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    if (IsPending(snapshot.pods[i], config))
      pending.push_back(model::PodIndex{static_cast<int32_t>(i)});
  }
  std::stable_sort(pending.begin(), pending.end(), [&](model::PodIndex a, model::PodIndex b) {
    const model::Pod& pa = snapshot.pod(a);
    const model::Pod& pb = snapshot.pod(b);
    return std::make_tuple(-static_cast<int64_t>(pa.priority), pa.meta.creation_timestamp,
                           std::cref(pa.meta.namespace_), std::cref(pa.meta.name)) <
           std::make_tuple(-static_cast<int64_t>(pb.priority), pb.meta.creation_timestamp,
                           std::cref(pb.meta.namespace_), std::cref(pb.meta.name));
  });
  return pending;
}

}  // namespace berth::binding
