// ReflectRemoteStatus: MultiKueue's workload controller on the hub, before any scheduling
// cycle, for every hub Workload a fleet check dispatched to a member cluster
// (status.clusterName set) and still holding its reservation:
//  - its job finished on the worker: the ManifestWork that delivers it reports the job's
//    terminal state through its status feedback (the agent's report), and the Workload gets
//    Finished=True with the worker's reason (Succeeded or Failed), which releases its quota;
//  - its pods are ready: PodsReady copied from the worker's own Workload for the job (a
//    worker running Kueue), else set from the job's ready and succeeded counts in the
//    feedback (a Job), with Kueue's reasons (PodsReady, WaitForStart, WaitForRecovery);
//  - the worker's Kueue evicted its copy (Evicted=True on the worker's Workload, one made
//    after the hub's current reservation): requeued as below, the reason named;
//  - its worker is lost: the cluster's ManagedCluster has not been Available=True for
//    Kueue's multiKueue.workerLostTimeout (default 15m; measured from the condition's
//    lastTransitionTime, the moment the hub stopped hearing from it): the fleet check goes
//    Retry ("Reserving remote lost"), the Workload is evicted (AdmissionCheck) and requeued
//    with its cluster and checks reset, so this plan dispatches it again elsewhere; the
//    lost cluster's ManifestWork is then stale and deleted, so a cluster that returns is
//    told to remove the original and only the replacement runs.
// Called by RunPlan first; pure on the snapshot. Semantics: docs/fleet.md "Status feedback".
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/time.h"
#include "model/snapshot.h"

namespace berth::engine {

struct RemoteStatusCounts {
  size_t finished = 0;  // Workloads marked Finished from their worker's feedback
  size_t requeued = 0;  // Workloads requeued because their worker was lost
  size_t evicted_remotely = 0;  // Workloads requeued because the worker's Kueue evicted them
};

// Applies the rules above at `now`. O(workloads + manifest works + clusters).
RemoteStatusCounts ReflectRemoteStatus(model::Snapshot& snapshot, core::Timestamp now);

// What the feedback of one delivered job says: running (nullopt) or finished, with the
// reason Kueue writes ("Succeeded", "Failed") and a message. Pure; exposed for tests.
struct RemoteFinish {
  std::string reason;
  std::string message;
};
std::optional<RemoteFinish> FinishedFromFeedback(const std::string& kind,
                                                 const model::ManifestStatus& status,
                                                 const std::string& cluster);

}  // namespace berth::engine
