// The GPU-sharing policies: the FGD paper's six (shared/reference/traces.md §2.3, upstream
// pkg/simulator/plugin/*.go) and berth's own (berth_scorer.h), each a node score plus an
// in-node GPU choice. The policy set is an enum with a stable name table ("random",
// "dotprod", "clustering", "packing", "bestfit", "fgd", "berth") for --policy lists, and
// NodeScorer is the interface the replay drives:
// score every feasible node, give the pod to a top-scored one (ties broken as TieBreak
// says), then ask the scorer which GPUs it takes there. Scores are upstream's integers
// (truncated as upstream truncates them), so ties happen where upstream's happen.
// Scorers are not thread-safe (FGD's keeps a memo of node fragments): one per run. Score is
// O(GPUs) except FGD's, which evaluates F on a copy of the one node per distinct GPU share
// (O(typical pods + shares x GPUs) per evaluation, most answered from the memo).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "sim/core/rng.h"
#include "sim/gpushare/fragmentation.h"
#include "sim/gpushare/gpu_cluster.h"
#include "sim/gpushare/node_state.h"

namespace berth::sim::gpushare {

enum class Policy : uint8_t {
  kRandom,      // a uniformly random feasible node; a random fitting GPU
  kDotProd,     // Tetris: the smallest dot product of free and requested (CPU, GPU)
  kClustering,  // nodes already holding pods of the same kind (sharing, k whole GPUs)
  kPacking,     // partly used GPUs first, then used nodes, then idle nodes
  kBestFit,     // the least CPU and GPU left over
  kFgd,         // fragmentation gradient descent: the least growth of the node's fragment
  kBerth,       // berth's: model pressure, then FGD, then CPU/GPU alignment (berth_scorer.h)
};
// The paper's six, in its order: what "all" means (the published tables have these).
inline constexpr std::array<Policy, 6> kAllPolicies = {Policy::kRandom,     Policy::kDotProd,
                                                       Policy::kClustering, Policy::kPacking,
                                                       Policy::kBestFit,    Policy::kFgd};
// berth's default GPU-sharing policy.
inline constexpr Policy kDefaultPolicy = Policy::kBerth;

// "random", "dotprod", "clustering", "packing", "bestfit", "fgd", "berth".
std::string_view PolicyName(Policy policy);
// The authors' result-file names: "01-Random", "02-DotProd", ..., "06-FGD"; berth's is
// "07-Berth" (not in the authors' files).
std::string_view PolicyPaperName(Policy policy);
// A name of the table above (case-insensitive); InvalidArgument lists the valid ones.
core::Result<Policy> ParsePolicy(std::string_view name);
// "all" (the paper's six), "all+berth" (the six, then berth), or names separated by commas,
// in the order given; duplicates are dropped.
core::Result<std::vector<Policy>> ParsePolicyList(std::string_view list);

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
                            Rng& rng) const = 0;
};

// The scorer of `policy`. FGD and berth borrow `fragmentation`, berth also `cluster` (the
// one it will score: it reads the free GPUs per model); those must be non-null for them and
// outlive the scorer. The other policies ignore both.
std::unique_ptr<NodeScorer> MakeScorer(Policy policy, const FragmentationModel* fragmentation,
                                       const GpuCluster* cluster = nullptr);

}  // namespace berth::sim::gpushare
