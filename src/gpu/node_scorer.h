// NodeScorer: one GPU-sharing placement policy (the FGD paper's six and berth's, policy.h)
// as a node score plus an in-node GPU choice, on the gpu module's node model
// (node_state.h). Callers score every feasible node, give the pod to a top-scored one (the
// tie rule is theirs: sim's replay uses a seeded node order, binding the node name), then ask
// the scorer which GPUs it takes there. Scores are upstream's integers (truncated as
// upstream truncates them), so ties happen where upstream's happen. Made by MakeScorer
// (policy.h); not thread-safe (FGD's and berth's keep a memo): one per run or Scheduler.
#pragma once

#include <cstdint>

#include "gpu/gpu_spec.h"
#include "gpu/node_state.h"
#include "gpu/random_source.h"

namespace berth::gpu {

enum class Policy : uint8_t;

class NodeScorer {
 public:
  virtual ~NodeScorer() = default;
  virtual Policy policy() const = 0;
  // Random overrides this: it picks a uniformly random feasible node whatever the run's rule.
  virtual bool always_uniform() const { return false; }
  // The score of a node for the pod, higher is better. `node_fragment_milli` is F(node) as
  // the cluster caches it (only FGD and berth read it). Precondition: Fits(pod, node).
  virtual int64_t Score(const PodSpec& pod, const NodeState& node,
                        double node_fragment_milli) const = 0;
  // The GPUs the pod takes on the chosen node (empty for a CPU-only pod).
  // Precondition: Fits(pod, node).
  virtual GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double node_fragment_milli,
                            RandomSource& rng) const = 0;
};

}  // namespace berth::gpu
