// Prefetches: the Fluid DataLoads a ManifestWork carries ahead of a workload whose pods mount
// a Fluid Dataset that the target cluster serves but has not fully cached, so the cache
// warms while the job is created and scheduled instead of every pod reading through to the
// origin (issue 19, docs/data.md "Prefetch in ManifestWorks"). Called by BuildManifestWork.
// Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "model/data_objects.h"
#include "model/kueue.h"
#include "model/snapshot.h"

namespace berth::dispatch {

// One DataLoad per distinct Dataset of the workload's namespace that a pod template of `wl`
// (or a pod of its pod group) mounts by persistentVolumeClaim (Fluid names the PVC after
// the dataset), when, in `cluster`'s objects:
// - the Dataset exists and a cache runtime (AlluxioRuntime, JuiceFSRuntime, JindoRuntime) of
//   the same name serves it: Fluid runs there and can load it;
// - its status.cacheStates.cachedPercentage is below 100% or unknown;
// - no DataLoad of that dataset is already Pending or Executing there;
// or whenever this prefetch's own DataLoad is already there (the work keeps what it
// created: dropping it would delete a load in flight).
// Each: name "<job>-prefetch-<dataset>" (the Workload's job, else the Workload) bounded to
// 63 characters, the workload's
// namespace, label berth.dev/workload, spec.dataset {name, namespace}, policy Once, whole
// dataset (no target paths). In the order the pod sets first mount them.
std::vector<model::DataLoad> Prefetches(const model::Snapshot& snapshot, const model::Workload& wl,
                                        const std::string& cluster);

}  // namespace berth::dispatch
