#include "gpu/typical_pods.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace berth::gpu {
namespace {

using GroupKey = std::tuple<int64_t, int32_t, int32_t, std::string>;  // cpu, milli, num, spec

}  // namespace

std::vector<TypicalPod> BuildTypicalPods(std::span<const PodSpec> pods,
                                         const TypicalPodOptions& options) {
  std::map<GroupKey, std::pair<int64_t, ModelSet>> groups;
  int64_t total = 0;
  for (const PodSpec& pod : pods) {
    if (!options.include_cpu_pods && pod.num_gpu == 0) continue;
    auto& [count, models] =
        groups[GroupKey{pod.cpu_milli, pod.gpu_milli, pod.num_gpu, pod.gpu_spec}];
    ++count;
    models = pod.allowed_models;
    ++total;
  }
  std::vector<TypicalPod> list;
  list.reserve(groups.size());
  for (const auto& [key, value] : groups) {
    TypicalPod typical;
    std::tie(typical.cpu_milli, typical.gpu_milli, typical.num_gpu, typical.gpu_spec) = key;
    typical.count = value.first;
    typical.allowed_models = value.second;
    list.push_back(std::move(typical));
  }
  // Upstream sorts by (count, key) descending; keys are distinct, so the order is total.
  std::sort(list.begin(), list.end(), [](const TypicalPod& a, const TypicalPod& b) {
    return std::tie(a.count, a.cpu_milli, a.gpu_milli, a.num_gpu, a.gpu_spec) >
           std::tie(b.count, b.cpu_milli, b.gpu_milli, b.num_gpu, b.gpu_spec);
  });
  if (total == 0) return list;

  KeepPopularGroups(list, total, options.popularity_threshold_pct);
  return list;
}

}  // namespace berth::gpu
