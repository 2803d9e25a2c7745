// NodesAtTurn: the numbers behind each node's verdict when ExplainPod stops at a pod: the
// node's equivalence class, its free capacity and the pods holding its GPUs, read from the
// cluster's scheduler and the part of the cycle replayed so far. Internal to engine; called
// by ExplainPod only. Pure; thread-compatible.
#pragma once

#include <vector>

#include "binding/scheduler.h"
#include "engine/cluster_cycle.h"
#include "engine/cluster_part.h"
#include "engine/plan.h"

namespace berth::engine {

// One entry per `verdicts` entry (local node indices of `part`), in the same order. `target`
// is the explained pod (local index); `so_far` what RunClusterCycle decided before it.
// GPU holders are whole pod indices. O(pods + nodes x resources).
std::vector<NodeAtTurn> NodesAtTurn(const ClusterPart& part, const binding::Scheduler& scheduler,
                                    model::PodIndex target, const ClusterCycleResult& so_far,
                                    const std::vector<binding::NodeVerdict>& verdicts);

}  // namespace berth::engine
