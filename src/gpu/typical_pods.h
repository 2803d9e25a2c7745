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
std::vector<TypicalPod> BuildTypicalPods(std::span<const PodSpec> pods,
                                         const TypicalPodOptions& options = {});

}  // namespace berth::gpu
