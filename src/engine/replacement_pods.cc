#include "engine/replacement_pods.h"

#include <cctype>
#include <cstdint>
#include <string>

namespace berth::engine {
namespace {

// The number n of a trailing "-r<n>" (digits, no leading zero), or 0 when there is none.
int64_t TrailingGeneration(const std::string& name, size_t* base_length) {
  size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1])) != 0) --digits;
  const size_t count = name.size() - digits;
  // Eighteen digits keep n + 1 inside int64_t; a longer run is part of the name.
  if (count == 0 || count > 18 || name[digits] == '0' || digits < 3 || name[digits - 1] != 'r' ||
      name[digits - 2] != '-') {
    return 0;
  }
  *base_length = digits - 2;
  return std::stoll(name.substr(digits));
}

}  // namespace

std::string ReplacementPodName(const std::string& pod_namespace, const std::string& deleted,
                               const std::set<std::string>& taken) {
  size_t base_length = deleted.size();
  const int64_t generation = TrailingGeneration(deleted, &base_length);
  const std::string base = deleted.substr(0, base_length);
  const std::string prefix = (pod_namespace.empty() ? "default" : pod_namespace) + "/";
  // `taken` is finite, so some k is free within |taken| + 1 tries.
  for (int64_t k = generation + 1;; ++k) {
    std::string name = base + "-r" + std::to_string(k);
    if (taken.count(prefix + name) == 0) return name;
  }
}

model::Pod ReplacementPod(const model::Pod& deleted, const model::KueuePodSet& set,
                          const std::string& name, core::Timestamp now) {
  model::Pod pod = deleted;
  pod.meta.name = name;
  pod.meta.uid.clear();
  pod.meta.creation_timestamp = now;
  pod.node_name.clear();
  pod.phase = model::PodPhase::kPending;
  pod.conditions.clear();
  pod.deletion_timestamp.reset();
  // The deleted pod carries the old flavor's injection; the job's template, which Kueue
  // restored on eviction, does not.
  pod.node_selector = set.pod_template.node_selector;
  pod.tolerations = set.pod_template.tolerations;
  pod.replaces = deleted.meta.name;
  return pod;
}

}  // namespace berth::engine
