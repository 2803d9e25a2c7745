// CompleteEvictions: what Kueue's job reconciler does, before any scheduling cycle, for a
// Workload read evicted (Evicted=True) while it still holds its quota reservation: once the
// job it belongs to has no bound pod left that has not finished (its pods deleted, as after
// the job controller stopped them and their kubelets let them go), the eviction is finished
// (queueing::FinishEviction: Requeued, the reservation and its quota released), so the
// preemptor it was evicted for can be admitted. A pod still terminating (deletionTimestamp
// set) holds its node and keeps the reservation, as the job is still active. Called by
// RunPlan first; the hub's cycles, one Kueue cycle each, rely on it to finish the
// evictions the previous cycle began. Stateless.
#pragma once

#include <cstddef>

#include "core/time.h"
#include "model/snapshot.h"

namespace berth::engine {

// Finishes, at `now`, the evictions of `snapshot`'s Workloads whose jobs have no pods left,
// as above. Only Workloads owned by a job (metadata.ownerReferences, or made for a job of
// the input) and not dispatched to another cluster (status.clusterName empty) are looked
// at: a Workload of Kueue's pod integration or a MultiKueue copy has no job here to watch.
// Returns how many it finished. O(pods + workloads).
size_t CompleteEvictions(model::Snapshot& snapshot, core::Timestamp now);

// Whether any Workload of `snapshot` is evicted and still holds quota (one CompleteEvictions
// may finish): lets a caller holding a const snapshot copy it only then. O(workloads).
bool HasEvictionsToComplete(const model::Snapshot& snapshot);

}  // namespace berth::engine
