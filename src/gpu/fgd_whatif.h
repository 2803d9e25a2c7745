// FgdWhatIf: FGD's look-ahead for one pod on one node (upstream fgd_score.go): F of the node
// after the pod lands, against F before, scored int(100 x sigmoid((F_before - F_after) /
// 1000)), and for a sharing pod the GPU that scores best. Shared by the FGD and berth
// scorers (policy_scorers.cc, berth_scorer.cc); they differ only in how they break ties
// between GPUs of equal score (GpuTieRule). Owns a FragmentMemo, so it is one per scorer,
// hence one per run: not thread-safe. O(distinct GPU shares on the node) F lookups per call,
// most answered by the memo.
#pragma once

#include <cstdint>

#include "gpu/fragment_memo.h"
#include "gpu/fragmentation.h"
#include "gpu/node_state.h"

namespace berth::gpu {

// Among a sharing pod's GPUs with the same FGD score:
enum class GpuTieRule : uint8_t {
  kFirst,     // the lowest-numbered GPU (upstream FGD)
  kTightest,  // the smallest F after placement, then the least free share, then lowest index
};

struct FgdOption {
  int64_t score = 0;
  int gpu = -1;  // sharing pods only; -1 for whole-GPU and CPU-only pods
  double fragment_after_milli = 0;
};

class FgdWhatIf {
 public:
  explicit FgdWhatIf(const FragmentationModel& fragmentation) : memo_(fragmentation) {}

  // FGD's score of F going from `before` to `after` (thousandths of a GPU).
  static int64_t Score(double before_milli, double after_milli);

  // The pod on `node` (whose F is `before_milli`): whole-GPU pods on the lowest-numbered
  // fully free GPUs (which ones does not change F), a sharing pod on its best GPU under
  // `rule`. Precondition: Fits(pod, node).
  FgdOption Evaluate(const PodSpec& pod, const NodeState& node, double before_milli,
                     GpuTieRule rule);

 private:
  FragmentMemo memo_;
};

}  // namespace berth::gpu
