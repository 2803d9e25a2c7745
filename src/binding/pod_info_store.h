// PodInfoStore: PodInfo for every pod of a Snapshot, built on first use and kept, so that
// the terms of pods already on nodes are parsed once. Borrows the Snapshot and the tables;
// not thread-safe (Get fills the cache, hence the const-callable mutable state).
#pragma once

#include <memory>
#include <vector>

#include "binding/label_sig_table.h"
#include "binding/pod_info.h"
#include "binding/resource_table.h"
#include "model/snapshot.h"

namespace berth::binding {

class PodInfoStore {
 public:
  PodInfoStore(const model::Snapshot& snapshot, const ResourceTable& resources,
               LabelSigTable* sigs);
  // The reference stays valid for the store's lifetime.
  const PodInfo& Get(model::PodIndex pod) const;

 private:
  const model::Snapshot& snapshot_;
  const ResourceTable& resources_;
  LabelSigTable* sigs_;
  mutable std::vector<std::unique_ptr<PodInfo>> infos_;
};

}  // namespace berth::binding
