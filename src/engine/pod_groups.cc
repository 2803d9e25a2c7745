#include "engine/pod_groups.h"

namespace berth::engine {

std::optional<PodGroupRef> PodGroupOf(const model::Snapshot& snapshot, const model::Pod& pod) {
  std::string name;
  if (auto it = pod.meta.labels.find("scheduling.x-k8s.io/pod-group");
      it != pod.meta.labels.end()) {
    name = it->second;
  } else if (auto a = pod.meta.annotations.find("scheduling.k8s.io/group-name");
             a != pod.meta.annotations.end()) {
    name = a->second;
  }
  if (name.empty()) return std::nullopt;
  const std::string ns = pod.meta.namespace_.empty() ? "default" : pod.meta.namespace_;
  PodGroupRef ref;
  ref.key = ns + "/" + name;
  for (const model::PodGroup& g : snapshot.pod_groups) {
    const std::string gns = g.meta.namespace_.empty() ? "default" : g.meta.namespace_;
    if (g.meta.name == name && gns == ns && g.cluster == pod.cluster) {
      ref.min_member = g.min_member;
      ref.found = true;
      break;
    }
  }
  return ref;
}

}  // namespace berth::engine
