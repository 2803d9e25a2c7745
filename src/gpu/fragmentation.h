// The FGD paper's GPU fragmentation measure (shared/reference/traces.md §2.2, upstream
// pkg/utils/frag.go), the one copy of its rule (ClassifyBy, FragBreakdown::AddTypicalPod),
// evaluated on the gpu module's two node shapes: NodeState (FragmentationModel: the
// simulator, GpuShareBerth) and binding's KAI view GpuNodeView (GpuFragmentModel, below).
// For each typical pod p a node falls in one class: p needs no GPU (XL if the CPU suffices,
// XR if not), the node's model is not allowed (no access), p's GPUs cannot fit (Q2, or Q1
// when the CPU is short too), only the CPU is short (Q4), or both fit (Q3). In Q3 only the
// idle share of GPUs with less free than p's share is fragment; in every other class, XL and
// XR included as upstream counts them, all idle GPU share is. The node's fragment F(n) is
// the frequency-weighted sum. FragmentationModel is used by GpuCluster (cached per node) and
// the FGD scorer (on a copy of one node). Immutable after construction; thread-safe to share.
// O(typical pods x GPUs on the node) per evaluation.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gpu/gpu_node_view.h"
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

// The class rule (upstream GetNodePodFrag), written once for both node models: `needs_gpu`
// whether p asks for GPUs, `allowed()` whether the node's GPU model is one p accepts,
// `gpu_fits()` whether enough of the node's GPUs have room for p. The two are called only
// when the rule needs them (a CPU-only pod has no share to look up). O(1) plus the calls.
template <class Allowed, class GpuFits>
FragClass ClassifyBy(bool cpu_ok, bool needs_gpu, Allowed allowed, GpuFits gpu_fits) {
  if (!needs_gpu) return cpu_ok ? FragClass::kXlSatisfied : FragClass::kXrLackCpu;
  if (!allowed()) return FragClass::kNoAccess;
  if (gpu_fits()) return cpu_ok ? FragClass::kQ3Satisfied : FragClass::kQ4LackCpu;
  return cpu_ok ? FragClass::kQ2LackGpu : FragClass::kQ1LackBoth;
}

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
  // Books one typical pod's part (upstream NodeGpuShareFragAmount), the weighting rule of
  // both node models: in Q3 only `short_milli`, the idle share on GPUs with too little free
  // for the pod, is fragment (booked under Q2), the rest Q3; in every other class all of
  // `idle_milli`. Integers in, so the double arithmetic, and hence every bit, is the same
  // for the same node whichever model computed it.
  void AddTypicalPod(FragClass c, double frequency, int64_t idle_milli, int64_t short_milli) {
    if (c == FragClass::kQ3Satisfied) {
      (*this)[FragClass::kQ2LackGpu] += frequency * static_cast<double>(short_milli);
      (*this)[FragClass::kQ3Satisfied] += frequency * static_cast<double>(idle_milli - short_milli);
    } else {
      (*this)[c] += frequency * static_cast<double>(idle_milli);
    }
  }
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

// --- The same measure on binding's KAI view (gpu_node_view.h) -------------------------
// What differs from NodeState, and why it is a view and not a NodeState: a KAI pod may ask
// for a fraction by GPU memory (its share depends on the node's GPU memory) and for
// portions on several GPUs; a fraction fits a reserved GPU only with room in both milli-GPU
// and memory, fits nowhere on a node not shareable, and a whole-GPU pod can use only GPUs
// no fraction holds; products are binding's interned label values, not ModelSet bits.

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

// F on the KAI view. Used by binding's GpuShareCycle (once per cycle) and its FGD plugin.
// Immutable after construction; O(typical pods x shared GPUs on the node) per evaluation.
class GpuFragmentModel {
 public:
  explicit GpuFragmentModel(std::vector<TypicalGpuPod> typical_pods);

  const std::vector<TypicalGpuPod>& typical_pods() const { return typical_; }

  // The class of `view` for typical pod `p` (upstream GetNodePodFrag).
  static FragClass Classify(const GpuNodeView& view, const TypicalGpuPod& p);
  FragBreakdown Breakdown(const GpuNodeView& view) const;
  // F(view) in milli-GPU; the same bits for the same view, so a placement that changes
  // nothing moves F by exactly 0.
  double FragmentMilli(const GpuNodeView& view) const { return Breakdown(view).FragmentMilli(); }

 private:
  std::vector<TypicalGpuPod> typical_;
};

}  // namespace berth::gpu
