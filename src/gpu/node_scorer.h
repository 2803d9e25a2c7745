// NodeScorer: one GPU-sharing placement policy (the FGD paper's six and berth's, policy.h)
// as a node score plus an in-node GPU choice. Callers score every feasible node, give the pod
// to a top-scored one (the tie rule is theirs: sim's replay uses a seeded node order, binding
// the node name), then ask the scorer which GPUs it takes there. Scores are upstream's
// integers (truncated as upstream truncates them), so ties happen where upstream's happen.
// Two named node inputs, both read by the one class of each policy (policy_scorers.cc):
// - NodeState (node_state.h), the gpu module's node model: the simulator's replay, and
//   binding's berth.dev/GpuShareBerth through its node model;
// - KaiNode (kai_node.h), binding's KAI view of its own nodes: binding's six paper plugins.
//   It carries what NodeState cannot say without changing plan's output (fractions by GPU
//   memory and over several GPUs, the ledger's GPU choice, the snapshot's max spec).
// berth's policy reads NodeState only (ReadsKaiView in policy.h). Made by MakeScorer
// (policy.h); not thread-safe (FGD's and berth's keep a memo): one per run or Scheduler.
#pragma once

#include <cstdint>

#include "gpu/gpu_node_view.h"
#include "gpu/gpu_spec.h"
#include "gpu/kai_node.h"
#include "gpu/node_state.h"
#include "gpu/random_source.h"

namespace berth::gpu {

enum class Policy : uint8_t;

class NodeScorer {
 public:
  virtual ~NodeScorer() = default;
  virtual Policy policy() const = 0;
  // Random overrides this: it picks a uniformly random feasible node whatever the run's rule
  // (the caller draws it from its RandomSource; every Score is equal).
  virtual bool always_uniform() const { return false; }
  // BestFit overrides this: upstream min-max normalises its scores (MinMaxNormalize in
  // policy_scores.h), which keeps the same top nodes, so only a caller that adds the scores
  // of several policies (binding's profile) needs to.
  virtual bool min_max_normalised() const { return false; }

  // The score of a node for the pod, higher is better. `node_fragment_milli` is F(node) as
  // the cluster caches it (only FGD and berth read it). Precondition: Fits(pod, node).
  virtual int64_t Score(const PodSpec& pod, const NodeState& node,
                        double node_fragment_milli) const = 0;
  // The same policy on binding's KAI view, 0..100. Precondition: ReadsKaiView(policy()); binding's
  // filters passed the pod on the node. Cost: O(GPUs reserved for fractions on the node);
  // FGD O(typical pods x those GPUs) or O(1) from its per-node memo; Packing and FGD also
  // the ledger's choice, O(portions x those GPUs).
  virtual int64_t Score(const GpuRequest& pod, const KaiNode& node,
                        const KaiCluster& cluster) const = 0;

  // The GPUs the pod takes on the chosen node (empty for a CPU-only pod).
  // Precondition: Fits(pod, node).
  virtual GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double node_fragment_milli,
                            RandomSource& rng) const = 0;
};

}  // namespace berth::gpu
