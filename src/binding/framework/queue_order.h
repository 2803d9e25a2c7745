// QueueOrder: the pods a Scheduler places and the order it places them in. Pending pods
// (not bound, not terminal, schedulerName served by a profile) by priority (high first),
// then creation time (old first), as upstream's PrioritySort; berth breaks the remaining
// ties by namespace, then name, so the order is total and the output reproducible.
#pragma once

#include <vector>

#include "model/pod.h"
#include "model/scheduler_config.h"
#include "model/snapshot.h"

namespace berth::binding {

bool IsPending(const model::Pod& pod, const model::SchedulerConfig& config);

std::vector<model::PodIndex> PendingPodsInQueueOrder(const model::Snapshot& snapshot,
                                                     const model::SchedulerConfig& config);

}  // namespace berth::binding
