#include "binding/pod_info_store.h"

namespace berth::binding {

PodInfoStore::PodInfoStore(const model::Snapshot& snapshot, const ResourceTable& resources,
                           LabelSigTable* sigs)
    : snapshot_(snapshot), resources_(resources), sigs_(sigs), infos_(snapshot.pods.size()) {}

const PodInfo& PodInfoStore::Get(model::PodIndex pod) const {
  auto& slot = infos_[static_cast<size_t>(pod.v)];
  if (!slot) slot = std::make_unique<PodInfo>(MakePodInfo(snapshot_.pod(pod), resources_, sigs_));
  return *slot;
}

}  // namespace berth::binding
