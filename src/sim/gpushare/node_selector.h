// NodeSelector: kube-scheduler's filter, score and selectHost steps for one pod over a
// GpuCluster: the feasible node with the highest score, ties broken by the run's rule
// (policy.h TieBreak: upstream's seeded node order, or a uniform draw; Random always draws
// uniformly). Used by the replay once per arriving pod. Not thread-safe (keeps scratch
// space); O(nodes x score).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/rng.h"
#include "sim/gpushare/gpu_cluster.h"
#include "sim/gpushare/policy.h"

namespace berth::sim::gpushare {

class NodeSelector {
 public:
  // `ranks[i]` orders node i among equals (lower first); NodeRanks in replay.h draws them.
  NodeSelector(std::vector<int32_t> ranks, TieBreak tie_break);

  // The node the pod goes to, or -1 when it passes the filters nowhere.
  // Precondition: ranks has one entry per node of `cluster`.
  int Select(const NodeScorer& scorer, const PodSpec& pod, const GpuCluster& cluster, Rng& rng);

 private:
  std::vector<int32_t> ranks_;
  TieBreak tie_break_;
  std::vector<int> ties_;
};

}  // namespace berth::sim::gpushare
