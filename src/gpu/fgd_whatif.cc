#include "gpu/fgd_whatif.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "gpu/policy_scores.h"

namespace berth::gpu {

int64_t FgdWhatIf::Score(double before_milli, double after_milli) {
  return FgdScore(before_milli, after_milli);
}

FgdOption FgdWhatIf::Evaluate(const PodSpec& pod, const NodeState& node, double before_milli,
                              GpuTieRule rule) {
  NodeState after = node;
  after.cpu_free_milli -= pod.cpu_milli;
  if (!pod.IsGpuShare()) {
    // Whole GPUs (or none): which free GPUs go does not change F.
    int needed = pod.num_gpu;
    for (int i = 0; i < after.num_gpu && needed > 0; ++i) {
      if (after.gpu_free_milli[i] == kMilliPerGpu) {
        after.gpu_free_milli[i] = 0;
        --needed;
      }
    }
    const double fragment = memo_.NodeFragmentMilli(after);
    return {Score(before_milli, fragment), -1, fragment};
  }
  // A sharing pod tries each GPU with room. GPUs with the same free share leave the node in
  // the same state up to GPU order, which F does not see, so each free value is evaluated
  // once, at its lowest-numbered GPU.
  FgdOption best;
  int32_t best_free = 0;
  std::array<int32_t, kMaxGpusPerNode> seen{};
  int seen_count = 0;
  for (int i = 0; i < node.num_gpu; ++i) {
    const int32_t free = node.gpu_free_milli[i];
    if (free < pod.gpu_milli) continue;
    if (std::find(seen.begin(), seen.begin() + seen_count, free) != seen.begin() + seen_count) {
      continue;
    }
    seen[seen_count++] = free;
    after.gpu_free_milli[i] = free - pod.gpu_milli;
    const double fragment = memo_.NodeFragmentMilli(after);
    after.gpu_free_milli[i] = free;
    const int64_t score = Score(before_milli, fragment);
    bool better = best.gpu < 0 || score > best.score;
    if (!better && score == best.score && rule == GpuTieRule::kTightest) {
      better = fragment < best.fragment_after_milli ||
               (fragment == best.fragment_after_milli && free < best_free);
    }
    if (better) {
      best = {score, i, fragment};
      best_free = free;
    }
  }
  return best;
}

}  // namespace berth::gpu
