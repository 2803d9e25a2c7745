#include "gpu/fragmentation.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

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
  return ClassifyBy(
      node.cpu_free_milli >= pod.cpu_milli, pod.gpu_milli != 0,
      [&] { return pod.allowed_models.Allows(node.model); },
      [&] { return node.GpusWithFree(pod.gpu_milli) >= pod.num_gpu; });
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
    const FragClass c = ClassifyBy(
        node.cpu_free_milli >= p.cpu_milli, p.gpu_milli != 0,
        [&] { return p.allowed_models == 0 || (p.allowed_models & model_bit) != 0; },
        [&] { return fitting[p.level] >= p.num_gpu; });
    // short_milli is read only in Q3, where the pod has a share level.
    out.AddTypicalPod(c, p.frequency, idle,
                      c == FragClass::kQ3Satisfied ? short_milli[p.level] : 0);
  }
  return out;
}

// --- The KAI view ---------------------------------------------------------------------

namespace {

// cpu, whole GPUs, fraction (present, milli, MiB, devices), products.
using GroupKey =
    std::tuple<int64_t, int64_t, bool, int64_t, int64_t, int32_t, std::vector<int32_t>>;

GroupKey KeyOf(const TypicalGpuPod& p) {
  const auto& f = p.request.fraction;
  return GroupKey{p.request.cpu_milli,
                  p.request.whole,
                  f.has_value(),
                  f.has_value() ? f->milli : 0,
                  f.has_value() ? f->memory_mib : 0,
                  f.has_value() ? f->num_devices : 0,
                  p.products};
}

// How many GPUs of `view` could take one portion of typical pod `p`, and the idle share
// on the GPUs that could not.
struct GpuFit {
  int64_t fitting = 0;
  int64_t needed = 0;
  int64_t short_milli = 0;
};

GpuFit FitOf(const GpuNodeView& view, const TypicalGpuPod& p) {
  GpuFit out;
  if (!p.request.fraction.has_value()) {
    // A whole GPU needs a free one; the shared GPUs' leftovers are out of its reach.
    out.needed = p.request.whole;
    out.fitting = view.free_whole;
    for (const SharedGpuFree& g : view.shared) out.short_milli += g.milli_free;
    return out;
  }
  const FractionRequest& f = *p.request.fraction;
  out.needed = f.num_devices;
  std::optional<GpuPortion> portion = f.On(view.gpu_memory_mib);
  if (!view.shareable || !portion.has_value() || portion->milli > kMilliGpu) {
    out.fitting = 0;
    out.short_milli = view.IdleMilli();
    return out;
  }
  out.fitting = view.free_whole;
  for (const SharedGpuFree& g : view.shared) {
    if (view.Fits(g, *portion)) {
      ++out.fitting;
    } else {
      out.short_milli += g.milli_free;
    }
  }
  return out;
}

bool Allows(const TypicalGpuPod& p, int32_t product) {
  if (p.products.empty()) return true;
  return std::binary_search(p.products.begin(), p.products.end(), product);
}

// The class, and in `fit` what the GPU check found (left empty for CPU-only pods and
// nodes p has no access to).
FragClass ClassifyWithFit(const GpuNodeView& view, const TypicalGpuPod& p, GpuFit* fit) {
  return ClassifyBy(
      view.cpu_free_milli >= p.request.cpu_milli, p.request.any(),
      [&] { return Allows(p, view.product); },
      [&] {
        *fit = FitOf(view, p);
        return fit->fitting >= fit->needed;
      });
}

}  // namespace

std::vector<TypicalGpuPod> BuildTypicalGpuPods(const std::vector<TypicalGpuPod>& pods,
                                               int threshold_pct) {
  std::map<GroupKey, size_t> index;
  std::vector<TypicalGpuPod> groups;
  int64_t total = 0;
  for (const TypicalGpuPod& p : pods) {
    auto [it, inserted] = index.emplace(KeyOf(p), groups.size());
    if (inserted) {
      groups.push_back(p);
      groups.back().count = 0;
    }
    groups[it->second].count += p.count;
    total += p.count;
  }
  // Upstream sorts by (count, key) descending; keys are distinct, so the order is total.
  std::sort(groups.begin(), groups.end(), [](const TypicalGpuPod& a, const TypicalGpuPod& b) {
    if (a.count != b.count) return a.count > b.count;
    return KeyOf(a) > KeyOf(b);
  });
  if (total == 0) return groups;
  KeepPopularGroups(groups, total, threshold_pct);
  return groups;
}

GpuFragmentModel::GpuFragmentModel(std::vector<TypicalGpuPod> typical_pods)
    : typical_(std::move(typical_pods)) {}

FragClass GpuFragmentModel::Classify(const GpuNodeView& view, const TypicalGpuPod& p) {
  GpuFit fit;
  return ClassifyWithFit(view, p, &fit);
}

FragBreakdown GpuFragmentModel::Breakdown(const GpuNodeView& view) const {
  FragBreakdown out;
  const int64_t idle = view.IdleMilli();
  for (const TypicalGpuPod& p : typical_) {
    GpuFit fit;
    const FragClass c = ClassifyWithFit(view, p, &fit);
    out.AddTypicalPod(c, p.frequency, idle, fit.short_milli);
  }
  return out;
}

}  // namespace berth::gpu
