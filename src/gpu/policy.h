// The GPU-sharing policies: the FGD paper's six (shared/reference/traces.md §2.3, upstream
// pkg/simulator/plugin/*.go) and berth's own (berth_scorer.h), each a node score plus an
// in-node GPU choice. The policy set is an enum with a stable name table ("random",
// "dotprod", "clustering", "packing", "bestfit", "fgd", "berth") for --policy lists, and
// MakeScorer, the factory of the NodeScorer interface (node_scorer.h) that the simulator's
// replay and binding's one GpuShare score plugin (binding/plugins/gpu_share_score.h) drive. Scores
// are upstream's integers (truncated as upstream truncates them), so ties happen where upstream's
// happen. Scorers are not thread-safe (FGD's keeps a memo of node fragments): one per run. Score is
// O(GPUs) except FGD's, which evaluates F on a copy of the one node per distinct GPU share
// (O(typical pods + shares x GPUs) per evaluation, most answered from the memo).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "gpu/fragmentation.h"
#include "gpu/gpu_cluster.h"
#include "gpu/node_scorer.h"
#include "gpu/node_state.h"

namespace berth::gpu {

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

// Whether the policy's scorer reads binding's KaiNode (node_scorer.h): all but berth's, whose
// model pressure needs the free GPUs per model that only the node model's GpuCluster keeps.
constexpr bool ReadsKaiView(Policy policy) { return policy != Policy::kBerth; }

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

// The scorer of `policy`. FGD and berth borrow `fragmentation`, berth also `cluster` (the
// one it will score: it reads the free GPUs per model); those must outlive the scorer. berth
// needs both non-null; FGD needs `fragmentation` to score NodeStates, not KaiNodes (which
// bring their own, KaiCluster). The other policies ignore both.
std::unique_ptr<NodeScorer> MakeScorer(Policy policy, const FragmentationModel* fragmentation,
                                       const GpuCluster* cluster = nullptr);

}  // namespace berth::gpu
