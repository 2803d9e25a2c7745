// StaleManifestWorks: which ManifestWorks of the input a plan deletes, because the workload
// they run has moved, finished, lost its admission or no longer exists (ObjectDeletion,
// DESIGN.md "The plan contract"). Called by the engine after it has planned the cycle's
// works. Pure; thread-safe; linear in works plus workloads (map look-ups).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/decision.h"
#include "model/snapshot.h"
#include "model/work.h"

namespace berth::dispatch {

// Every given ManifestWork (created == false) carrying a non-empty berth.dev/workload label
// is matched to the hub Workload of the same cluster whose WorkloadLabelValue it holds, then
// judged in this order; the first rule that applies decides (deleted ones get the reason):
//  1. no such Workload                         -> "workload <ns>/<name> no longer exists"
//  2. `planned` holds a work for that workload in the same namespace (cluster):
//     same name: kept (the planned one replaces it in place); another name (an older naming
//     rule) -> "workload <ns>/<name> is now sent as ManifestWork <name>"
//  3. the Workload is Finished                  -> "workload <ns>/<name> finished"
//  4. `placed` gives it another cluster        -> "workload <ns>/<name> now runs on <cluster>"
//  5. `placed` gives it this cluster: kept (it stays where it runs)
//  6. Evicted=True                              -> "workload <ns>/<name> was evicted (<reason>)"
//     no admission, or Admitted present and not True
//                                               -> "workload <ns>/<name> is no longer admitted"
//     else                                      -> "workload <ns>/<name> no longer runs on
//     <cluster>"
// In rule 1 the name is the label value with its first '.' read as '/'. `placed`: workload
// index -> cluster for every hub workload that has a cluster after the cycle. Results follow
// the order of snapshot.manifest_works.
std::vector<model::ObjectDeletion> StaleManifestWorks(
    const model::Snapshot& snapshot, const std::vector<model::ManifestWork>& planned,
    const std::map<int32_t, std::string>& placed);

}  // namespace berth::dispatch
