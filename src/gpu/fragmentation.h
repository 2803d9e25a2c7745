// The FGD paper's GPU fragmentation measure (shared/reference/traces.md §2.2, upstream
// pkg/utils/frag.go). For each typical pod p a node falls in one class: p needs no GPU (XL if
// the CPU suffices, XR if not), the node's model is not allowed (no access), p's GPUs cannot
// fit (Q2, or Q1 when the CPU is short too), only the CPU is short (Q4), or both fit (Q3).
// In Q3 only the idle share of GPUs with less free than p's share is fragment; in every other
// class, XL and XR included as upstream counts them, all idle GPU share is. The node's
// fragment F(n) is the frequency-weighted sum. Used by GpuCluster (cached per node) and the
// FGD scorer (on a copy of one node). Immutable after construction; thread-safe to share.
// O(typical pods x GPUs on the node) per evaluation.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gpu/node_state.h"
#include "gpu/typical_pods.h"

namespace berth::gpu {

enum class FragClass : uint8_t {
  kQ1LackBoth,
  kQ2LackGpu,
  kQ3Satisfied,
  kQ4LackCpu,
  kXlSatisfied,
  kXrLackCpu,
  kNoAccess,
};
inline constexpr int kFragClasses = 7;

// Upstream's names: "q1_lack_both", ..., "no_access".
std::string_view FragClassName(FragClass fragment_class);

// The class of `node` for typical pod `pod` (upstream GetNodePodFrag).
FragClass ClassifyNode(const NodeState& node, const TypicalPod& pod);

// Idle GPU thousandths of a node (or a sum of nodes) split by class, each typical pod's part
// weighted by its frequency; the Q3 part of a pod's fragment is booked under Q2, as upstream.
struct FragBreakdown {
  std::array<double, kFragClasses> milli{};

  double& operator[](FragClass c) { return milli[static_cast<int>(c)]; }
  double operator[](FragClass c) const { return milli[static_cast<int>(c)]; }
  // The fragment: every class but Q3, summed in class order (FragAmountSumExceptQ3).
  double FragmentMilli() const;
  // All classes: the idle GPU share when the frequencies sum to 1.
  double IdleMilli() const;
  void Add(const FragBreakdown& other);
};

class FragmentationModel {
 public:
  explicit FragmentationModel(std::vector<TypicalPod> typical_pods);

  const std::vector<TypicalPod>& typical_pods() const { return typical_; }

  FragBreakdown Breakdown(const NodeState& node) const;
  // F(node) in GPU thousandths; bit-identical to Breakdown(node).FragmentMilli().
  double NodeFragmentMilli(const NodeState& node) const { return Breakdown(node).FragmentMilli(); }

 private:
  // The typical pods as the hot loop reads them, in the list's order.
  struct Entry {
    int64_t cpu_milli;
    int32_t gpu_milli;
    int32_t num_gpu;
    int32_t level;            // index of gpu_milli in levels_ (GPU pods only)
    uint64_t allowed_models;  // ModelSet bits; 0 = any
    double frequency;
  };
  std::vector<TypicalPod> typical_;
  std::vector<Entry> entries_;
  // The distinct GPU shares the typical GPU pods ask for: a node's GPUs are counted once per
  // share, not once per typical pod (a trace has a dozen shares among 35-130 typical pods).
  std::vector<int32_t> levels_;
};

}  // namespace berth::gpu
