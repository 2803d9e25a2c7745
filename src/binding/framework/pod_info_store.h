// PodInfoStore: PodInfo for every pod of a Snapshot, built on first use and kept, so that
// the terms of pods already on nodes are parsed once; and the pod each index stands for,
// which is the snapshot's unless Override() replaced it (Kueue's injected node selector and
// tolerations, a topology-aware assignment, a preemption victim's cleared spec.nodeName).
// Borrows the Snapshot and the tables; not thread-safe (Get fills the cache, hence the
// const-callable mutable state).
#pragma once

#include <memory>
#include <vector>

#include "binding/framework/label_sig_table.h"
#include "binding/framework/pod_info.h"
#include "binding/framework/resource_table.h"
#include "model/snapshot.h"

namespace berth::binding {

class PodInfoStore {
 public:
  PodInfoStore(const model::Snapshot& snapshot, const ResourceTable& resources,
               LabelSigTable* sigs);
  // The reference stays valid for the store's lifetime, or until Override(pod).
  const PodInfo& Get(model::PodIndex pod) const;
  // The pod as it is scheduled: the replacement Override() installed, else the snapshot's.
  // The reference stays valid until the next Override(pod).
  const model::Pod& pod(model::PodIndex pod) const;
  bool overridden(model::PodIndex pod) const {
    return overrides_[static_cast<size_t>(pod.v)] != nullptr;
  }

  // From now on `pod` stands for a copy of `replacement`; its PodInfo is rebuilt on the
  // next Get. Precondition: no PodInfo reference of `pod` is held (the caller's state holds
  // none for an unbound pod).
  void Override(model::PodIndex pod, const model::Pod& replacement);

  // A pod the snapshot lacks (a guest: another cluster's workload tried here); its index
  // follows the snapshot's pods and the pods added before it.
  model::PodIndex Add(const model::Pod& pod);
  size_t size() const { return infos_.size(); }

 private:
  const model::Snapshot& snapshot_;
  const ResourceTable& resources_;
  LabelSigTable* sigs_;
  mutable std::vector<std::unique_ptr<PodInfo>> infos_;
  std::vector<std::unique_ptr<model::Pod>> overrides_;  // null: the snapshot's pod
};

}  // namespace berth::binding
