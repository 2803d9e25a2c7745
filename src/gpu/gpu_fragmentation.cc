#include "gpu/gpu_fragmentation.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace berth::gpu {

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
GpuFragClass ClassifyWithFit(const GpuNodeView& view, const TypicalGpuPod& p, GpuFit* fit) {
  const bool cpu_ok = view.cpu_free_milli >= p.request.cpu_milli;
  if (!p.request.any()) return cpu_ok ? GpuFragClass::kXlSatisfied : GpuFragClass::kXrLackCpu;
  if (!Allows(p, view.product)) return GpuFragClass::kNoAccess;
  *fit = FitOf(view, p);
  if (fit->fitting >= fit->needed) {
    return cpu_ok ? GpuFragClass::kQ3Satisfied : GpuFragClass::kQ4LackCpu;
  }
  return cpu_ok ? GpuFragClass::kQ2LackGpu : GpuFragClass::kQ1LackBoth;
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
  const double expected = static_cast<double>(threshold_pct) * static_cast<double>(total) / 100.0;
  const auto total_d = static_cast<double>(total);
  double covered = 0;
  size_t kept = 0;
  while (covered < expected && kept < groups.size()) {
    covered += static_cast<double>(groups[kept].count);
    ++kept;
  }
  groups.resize(kept);
  for (TypicalGpuPod& g : groups) {
    g.frequency = (static_cast<double>(g.count) / total_d) / (covered / total_d);
  }
  return groups;
}

double GpuFragBreakdown::FragmentMilli() const {
  double out = 0;
  for (int i = 0; i < kGpuFragClasses; ++i) {
    if (i != static_cast<int>(GpuFragClass::kQ3Satisfied)) out += milli[static_cast<size_t>(i)];
  }
  return out;
}

GpuFragmentModel::GpuFragmentModel(std::vector<TypicalGpuPod> typical_pods)
    : typical_(std::move(typical_pods)) {}

GpuFragClass GpuFragmentModel::Classify(const GpuNodeView& view, const TypicalGpuPod& p) {
  GpuFit fit;
  return ClassifyWithFit(view, p, &fit);
}

GpuFragBreakdown GpuFragmentModel::Breakdown(const GpuNodeView& view) const {
  // Each pod's part is added to its class in list order, with the same double arithmetic
  // for the same view: FGD truncates sigmoid(-dF/1000) x 100, and a dF of exactly 0 must
  // stay 0.
  GpuFragBreakdown out;
  const auto idle = static_cast<double>(view.IdleMilli());
  for (const TypicalGpuPod& p : typical_) {
    GpuFit fit;
    const GpuFragClass c = ClassifyWithFit(view, p, &fit);
    if (c == GpuFragClass::kQ3Satisfied) {
      // Only the idle share on GPUs p cannot use is fragment for p.
      const auto short_milli = static_cast<double>(fit.short_milli);
      out[GpuFragClass::kQ2LackGpu] += p.frequency * short_milli;
      out[GpuFragClass::kQ3Satisfied] += p.frequency * (idle - short_milli);
    } else {
      out[c] += p.frequency * idle;
    }
  }
  return out;
}

}  // namespace berth::gpu
