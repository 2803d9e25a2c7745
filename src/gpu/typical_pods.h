// Typical pods: the FGD paper's "target workload" the fragmentation measure is taken against
// (shared/reference/traces.md §2.2). The pods are grouped by (CPU, GPU share, GPU count,
// allowed models), memory ignored, CPU-only pods included; the most frequent groups are kept
// until they cover 95% of the pods and their frequencies renormalised to sum to 1, with
// upstream's order (count, then the group key, both descending). Built once per trace by the
// replay. Pure function, O(pods).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpu/gpu_spec.h"

namespace berth::gpu {

struct TypicalPod {
  int64_t cpu_milli = 0;
  int32_t gpu_milli = 0;
  int32_t num_gpu = 0;
  std::string gpu_spec;
  ModelSet allowed_models;
  int64_t count = 0;       // pods of the trace in this group
  double frequency = 0.0;  // share among the kept groups; the kept ones sum to 1
};

struct TypicalPodOptions {
  int popularity_threshold_pct = 95;  // keep groups until they cover this share of the pods
  bool include_cpu_pods = true;       // upstream's isInvolvedCpuPods
};

// The typical pods of `pods` (the original trace, before inflation), most frequent first.
// The popularity cut both typical-pod lists use (this one and fragmentation.h's
// BuildTypicalGpuPods): keeps `groups`, sorted most frequent first, while the covered count
// is below threshold_pct of `total` (the group that crosses it is kept), and sets each kept
// group's frequency renormalised over the kept ones with upstream's double arithmetic.
// Group has `count` and `frequency`. Precondition: total > 0. O(groups).
template <class Group>
void KeepPopularGroups(std::vector<Group>& groups, int64_t total, int threshold_pct) {
  const double expected = static_cast<double>(threshold_pct) * static_cast<double>(total) / 100.0;
  const auto total_d = static_cast<double>(total);
  double covered = 0;
  size_t kept = 0;
  while (covered < expected && kept < groups.size()) {
    covered += static_cast<double>(groups[kept].count);
    ++kept;
  }
  groups.resize(kept);
  for (Group& g : groups) {
    g.frequency = (static_cast<double>(g.count) / total_d) / (covered / total_d);
  }
}

std::vector<TypicalPod> BuildTypicalPods(std::span<const PodSpec> pods,
                                         const TypicalPodOptions& options = {});

}  // namespace berth::gpu
