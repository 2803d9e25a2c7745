#include "gpu/fragmentation.h"

#include <algorithm>
#include <array>

namespace berth::gpu {

std::string_view FragClassName(FragClass fragment_class) {
  switch (fragment_class) {
    case FragClass::kQ1LackBoth:
      return "q1_lack_both";
    case FragClass::kQ2LackGpu:
      return "q2_lack_gpu";
    case FragClass::kQ3Satisfied:
      return "q3_satisfied";
    case FragClass::kQ4LackCpu:
      return "q4_lack_cpu";
    case FragClass::kXlSatisfied:
      return "xl_satisfied";
    case FragClass::kXrLackCpu:
      return "xr_lack_cpu";
    case FragClass::kNoAccess:
      return "no_access";
  }
  return "unknown";
}

FragClass ClassifyNode(const NodeState& node, const TypicalPod& pod) {
  const bool cpu_ok = node.cpu_free_milli >= pod.cpu_milli;
  if (pod.gpu_milli == 0) return cpu_ok ? FragClass::kXlSatisfied : FragClass::kXrLackCpu;
  if (!pod.allowed_models.Allows(node.model)) return FragClass::kNoAccess;
  const bool gpu_ok = node.GpusWithFree(pod.gpu_milli) >= pod.num_gpu;
  if (gpu_ok) return cpu_ok ? FragClass::kQ3Satisfied : FragClass::kQ4LackCpu;
  return cpu_ok ? FragClass::kQ2LackGpu : FragClass::kQ1LackBoth;
}

double FragBreakdown::FragmentMilli() const {
  double out = 0;
  for (int i = 0; i < kFragClasses; ++i) {
    if (i != static_cast<int>(FragClass::kQ3Satisfied)) out += milli[i];
  }
  return out;
}

double FragBreakdown::IdleMilli() const {
  double out = 0;
  for (double v : milli) out += v;
  return out;
}

void FragBreakdown::Add(const FragBreakdown& other) {
  for (int i = 0; i < kFragClasses; ++i) milli[i] += other.milli[i];
}

FragmentationModel::FragmentationModel(std::vector<TypicalPod> typical_pods)
    : typical_(std::move(typical_pods)) {
  entries_.reserve(typical_.size());
  for (const TypicalPod& p : typical_) {
    int32_t level = -1;
    if (p.gpu_milli > 0) {
      auto it = std::find(levels_.begin(), levels_.end(), p.gpu_milli);
      level = static_cast<int32_t>(it - levels_.begin());
      if (it == levels_.end()) levels_.push_back(p.gpu_milli);
    }
    entries_.push_back(
        {p.cpu_milli, p.gpu_milli, p.num_gpu, level, p.allowed_models.bits(), p.frequency});
  }
}

FragBreakdown FragmentationModel::Breakdown(const NodeState& node) const {
  // Same classes as ClassifyNode, inlined for the hot path, and the same double arithmetic as
  // upstream (each pod's part added to its class in list order), so that a node state always
  // gives the same bits: FGD truncates sigmoid(-dF/1000) * 100 to an integer, and a dF of
  // exactly 0 must stay 0.
  FragBreakdown out;
  const int64_t idle = node.GpuFreeMilli();
  const auto idle_d = static_cast<double>(idle);
  const bool has_model = node.model != kNoGpuModel;
  const auto model_bit = has_model ? uint64_t{1} << static_cast<uint8_t>(node.model) : 0;
  // Per distinct share: how many GPUs have room for it, and the idle share on those that do
  // not. Integers, so the order of the sums does not matter.
  constexpr size_t kStackLevels = 64;
  std::array<int32_t, kStackLevels> fitting_stack;
  std::array<int64_t, kStackLevels> short_stack;
  std::vector<int32_t> fitting_heap;
  std::vector<int64_t> short_heap;
  int32_t* fitting = fitting_stack.data();
  int64_t* short_milli = short_stack.data();
  if (levels_.size() > kStackLevels) {
    fitting_heap.resize(levels_.size());
    short_heap.resize(levels_.size());
    fitting = fitting_heap.data();
    short_milli = short_heap.data();
  }
  for (size_t l = 0; l < levels_.size(); ++l) {
    int32_t fit = 0;
    int64_t short_sum = 0;
    for (int i = 0; i < node.num_gpu; ++i) {
      const int32_t free = node.gpu_free_milli[i];
      if (free >= levels_[l]) {
        ++fit;
      } else {
        short_sum += free;
      }
    }
    fitting[l] = fit;
    short_milli[l] = short_sum;
  }
  for (const Entry& p : entries_) {
    const bool cpu_ok = node.cpu_free_milli >= p.cpu_milli;
    if (p.gpu_milli == 0) {
      out[cpu_ok ? FragClass::kXlSatisfied : FragClass::kXrLackCpu] += p.frequency * idle_d;
      continue;
    }
    if (p.allowed_models != 0 && (p.allowed_models & model_bit) == 0) {
      out[FragClass::kNoAccess] += p.frequency * idle_d;
      continue;
    }
    if (fitting[p.level] >= p.num_gpu) {
      if (cpu_ok) {
        // Only the idle share on GPUs with less free than p's share is fragment.
        const int64_t short_of_p = short_milli[p.level];
        out[FragClass::kQ2LackGpu] += p.frequency * static_cast<double>(short_of_p);
        out[FragClass::kQ3Satisfied] += p.frequency * static_cast<double>(idle - short_of_p);
      } else {
        out[FragClass::kQ4LackCpu] += p.frequency * idle_d;
      }
    } else {
      out[cpu_ok ? FragClass::kQ2LackGpu : FragClass::kQ1LackBoth] += p.frequency * idle_d;
    }
  }
  return out;
}

}  // namespace berth::gpu
