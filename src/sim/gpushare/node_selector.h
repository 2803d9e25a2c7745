// NodeSelector: kube-scheduler's filter, score and selectHost steps for one pod over a
// GpuCluster: the feasible node with the highest score, ties broken by the run's rule
// (TieBreak below: upstream's seeded node order, or a uniform draw; Random always draws
// uniformly). Used by the replay once per arriving pod. Not thread-safe (keeps scratch
// space); O(nodes x score).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/gpu_cluster.h"
#include "gpu/policy.h"
#include "sim/core/rng.h"

namespace berth::sim::gpushare {

// How the replay picks among feasible nodes with the same top score.
enum class TieBreak : uint8_t {
  // The node first in a seeded random order of the nodes. Upstream's kube-scheduler fork
  // (mental2008/kubernetes v1.20.5-minor, selectHost) takes the smallest node name, and the
  // simulator prefixes every name with its place in a seeded permutation ("%04d-"), so a
  // run keeps filling the same preferred nodes among equals; this is what the paper measured.
  kSeededNodeOrder,
  // A uniformly random top node, drawn per pod (stock kube-scheduler).
  kUniform,
};

class NodeSelector {
 public:
  // `ranks[i]` orders node i among equals (lower first); NodeRanks in replay.h draws them.
  NodeSelector(std::vector<int32_t> ranks, TieBreak tie_break);

  // The node the pod goes to, or -1 when it passes the filters nowhere.
  // Precondition: ranks has one entry per node of `cluster`.
  int Select(const gpu::NodeScorer& scorer, const gpu::PodSpec& pod, const gpu::GpuCluster& cluster,
             Rng& rng);

 private:
  std::vector<int32_t> ranks_;
  TieBreak tie_break_;
  std::vector<int> ties_;
};

}  // namespace berth::sim::gpushare
