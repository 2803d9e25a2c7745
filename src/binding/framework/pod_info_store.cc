#include "binding/framework/pod_info_store.h"

namespace berth::binding {

PodInfoStore::PodInfoStore(const model::Snapshot& snapshot, const ResourceTable& resources,
                           LabelSigTable* sigs)
    : snapshot_(snapshot),
      resources_(resources),
      sigs_(sigs),
      infos_(snapshot.pods.size()),
      overrides_(snapshot.pods.size()) {}

const PodInfo& PodInfoStore::Get(model::PodIndex pod) const {
  auto& slot = infos_[static_cast<size_t>(pod.v)];
  if (!slot) slot = std::make_unique<PodInfo>(MakePodInfo(this->pod(pod), resources_, sigs_));
  return *slot;
}

const model::Pod& PodInfoStore::pod(model::PodIndex pod) const {
  const auto& replaced = overrides_[static_cast<size_t>(pod.v)];
  return replaced != nullptr ? *replaced : snapshot_.pod(pod);
}

void PodInfoStore::Override(model::PodIndex pod, const model::Pod& replacement) {
  const auto i = static_cast<size_t>(pod.v);
  // Copy before dropping the old one: `replacement` may be the current override itself.
  auto copy = std::make_unique<model::Pod>(replacement);
  overrides_[i] = std::move(copy);
  infos_[i].reset();
}

model::PodIndex PodInfoStore::Add(const model::Pod& pod) {
  infos_.emplace_back();
  overrides_.push_back(std::make_unique<model::Pod>(pod));
  return model::PodIndex{static_cast<int32_t>(overrides_.size() - 1)};
}

}  // namespace berth::binding
