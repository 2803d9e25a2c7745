// The FGD paper's GPU fragmentation measure over binding's KAI view (shared/reference/
// traces.md §2.2; the same classes as fragmentation.h, which works on the node model; this
// one also knows fractions by GPU memory and over several GPUs). The typical pods ("target workload") are the snapshot's pods grouped by request;
// for each typical pod p a node is in one class: p needs no GPU (XL if the CPU suffices, XR
// if not), the node's GPU product is not one p allows (no access), p's GPUs cannot fit (Q2,
// Q1 when the CPU is short too), only the CPU is short (Q4), or both fit (Q3). In Q3 only
// the idle share of GPUs p cannot use is fragment; in every other class all idle GPU share
// is, XL and XR included, as the authors' code counts them (pkg/utils/frag.go). The node's
// fragment F(n) is the frequency-weighted sum. Used by GpuShareCycle (once per cycle) and
// the FGD plugin. Immutable after construction; O(typical pods x shared GPUs on the node)
// per evaluation.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/gpu_node_view.h"

namespace berth::gpu {

// One group of the target workload. `products` lists the nvidia.com/gpu.product values
// the pods accept (interned ids, ascending; empty: any node).
struct TypicalGpuPod {
  GpuRequest request;
  std::vector<int32_t> products;
  int64_t count = 0;       // pods in the group
  double frequency = 0.0;  // share among the kept groups; the kept ones sum to 1
};

// The typical pods of `pods` (one entry per pod, `count` 1 each or pre-grouped): grouped by
// (CPU, GPU request, products), most frequent first, ties by the group key descending (the
// authors' order), kept until they cover `threshold_pct` of the pods (the group crossing it
// is kept), frequencies renormalised over the kept ones. O(pods log groups).
std::vector<TypicalGpuPod> BuildTypicalGpuPods(const std::vector<TypicalGpuPod>& pods,
                                               int threshold_pct = 95);

enum class GpuFragClass : uint8_t {
  kQ1LackBoth,
  kQ2LackGpu,
  kQ3Satisfied,
  kQ4LackCpu,
  kXlSatisfied,
  kXrLackCpu,
  kNoAccess,
};
inline constexpr int kGpuFragClasses = 7;

// Idle milli-GPU of a node by class, each typical pod's part weighted by its frequency; the
// Q3 part a pod cannot use is booked under Q2, as upstream does.
struct GpuFragBreakdown {
  std::array<double, kGpuFragClasses> milli{};
  double& operator[](GpuFragClass c) { return milli[static_cast<size_t>(c)]; }
  double operator[](GpuFragClass c) const { return milli[static_cast<size_t>(c)]; }
  // Every class but Q3, summed in class order (upstream FragAmountSumExceptQ3).
  double FragmentMilli() const;
};

class GpuFragmentModel {
 public:
  explicit GpuFragmentModel(std::vector<TypicalGpuPod> typical_pods);

  const std::vector<TypicalGpuPod>& typical_pods() const { return typical_; }

  // The class of `view` for typical pod `p` (upstream GetNodePodFrag).
  static GpuFragClass Classify(const GpuNodeView& view, const TypicalGpuPod& p);
  GpuFragBreakdown Breakdown(const GpuNodeView& view) const;
  // F(view) in milli-GPU; the same bits for the same view, so a placement that changes
  // nothing moves F by exactly 0.
  double FragmentMilli(const GpuNodeView& view) const { return Breakdown(view).FragmentMilli(); }

 private:
  std::vector<TypicalGpuPod> typical_;
};

}  // namespace berth::gpu
