// Table output of a plan (`berth plan -o table`): one row per decided pod, in decision
// order, with columns NAMESPACE, NAME, NODE, STATUS (Bound/Pending) and REASON (the
// scheduler's message for pending pods), aligned with spaces as kubectl aligns its tables;
// then the devices allocated to ResourceClaims, when the plan allocated any, the Kueue
// Workloads the plan decided, the OCM Placements and ManifestWorks, and the objects the plan
// deletes. Called by WritePlan / WritePlanList for OutputFormat::kTable. Deterministic;
// stateless; linear in the rows printed.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "io/writer.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::io {

void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions, std::ostream& out);

// The pod table, then, when `claims` (indices into planned.resource_claims) is not empty, a
// blank line and the claims table: NAMESPACE, CLAIM, RESERVED FOR (the pods, comma
// separated), REQUEST and DEVICE (driver/pool/device), one row per allocated device, the
// claim's columns on its first row only.
void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions,
                    const std::vector<int32_t>& claims, std::ostream& out);

// The same, then, when `workloads` (indices into planned.kueue_workloads) is not empty, a
// blank line and the WORKLOADS table: NAMESPACE, NAME, QUEUE, CLUSTERQUEUE, CLUSTER (only
// when some of them has status.clusterName; "<none>" for the others), STATUS, FLAVORS (per
// pod set, `main: cpu,memory=default nvidia.com/gpu=h100`; pod sets joined by "; "),
// MESSAGE (the message of the condition the status comes from). Pods in `deleted` follow
// the decided ones in the pods table with STATUS Deleted and their reason, then the pods
// the API server refused to create (Pod::admission_refused) with STATUS NotCreated and the
// FailedCreate message.
void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions,
                    const std::vector<int32_t>& claims, const std::vector<int32_t>& workloads,
                    std::ostream& out, const std::vector<model::PodDeletion>& deleted = {});

// Every section of `items`: the pods (with items.deleted_pods), claims and workloads tables
// above, then, each after a blank line and only when it has rows:
// - PLACEMENTS (items.placements): NAMESPACE, NAME, SELECTED (numberOfSelectedClusters),
//   SATISFIED (the PlacementSatisfied status and reason, `False (NoManagedClusterMatched)`),
//   DECISIONS (the PlacementDecision names of every decision group, comma separated);
// - MANIFESTWORKS (items.manifest_works): CLUSTER (the work's namespace), NAME, WORKLOAD (the
//   berth.dev/workload label, else berth.dev/federated-learning, else the
//   ManifestWorkReplicaSet's owner label), MANIFESTS (`Job/team-a/train, ...`; `Kind/name`
//   for cluster-scoped objects);
// - MANIFESTWORKREPLICASETS (items.replica_sets): NAMESPACE, NAME, PLACEMENT (the
//   placementRefs), ROLLOUT (Progressing, Complete, Paused, RolledBack), APPLIED (clusters
//   holding the revision / selected), REVISION, MESSAGE (why it paused or rolled back);
// - FEDERATED LEARNING (items.federated_learnings): NAMESPACE, NAME, PHASE, ROUND (current,
//   `/rounds` when set), CLIENTS (training / minAvailableClients), SERVER (its cluster),
//   MESSAGE; then, after a blank line, one row per entry of each one's status.clients:
//   FEDERATED LEARNING (namespace/name), CLUSTER, STATE, DATA (the data claim's value),
//   REASON (`Reason: message`);
// - DELETED (items.deleted_objects): a `DELETED` line, then one line per object,
//   `Kind namespace/name: reason` (`Kind name: reason` when cluster-scoped).
// Missing values print as "<none>".
// `options` (writer.h): -o wide adds CLUSTER and PRIORITY to the pods table and PRIORITY
// and ADMISSION CHECKS (`name=State`) to the WORKLOADS table, each before the last column;
// --no-headers drops every header row and the DELETED title.
void WritePlanTable(const model::Snapshot& planned, const PlanItems& items, std::ostream& out,
                    const TableOptions& options = {});

// A Workload's STATUS column, from its planned conditions, first match wins: Finished
// (Finished=True), Admitted (Admitted=True), Preempted (Evicted=True or Preempted=True),
// QuotaReserved (QuotaReserved=True), Inadmissible (spec.active false, or
// QuotaReserved=False with reason Inadmissible), else Pending.
const char* WorkloadStatusName(const model::Workload& wl);

}  // namespace berth::io
