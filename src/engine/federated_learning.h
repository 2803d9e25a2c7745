// The federated-learning stage of the fleet cycle: decides every FederatedLearning of the hub
// (model/federated_learning.h) in one step at `now`, from the objects read, with the
// semantics of OCM's federated-learning addon (addon-contrib federated-learning-controller)
// plus berth's data-compliance rule and abort conditions (docs/fleet.md "Federated
// learning"). Called by RunFleet once Placements are decided. Pure on its inputs; writes only
// into `plan`. O(FederatedLearnings x SchedulePlacement + ManifestWorks).
#pragma once

#include "core/time.h"
#include "engine/plan.h"
#include "model/snapshot.h"
#include "placement/fleet_capacity.h"

namespace berth::engine {

// For each FederatedLearning of the hub (cluster "default"), in snapshot order:
// - Clients: the clusters that hold the data are those that pass the client placement
//   (spec.client.placement, decided as the Placement upstream's controller creates, named
//   after the FederatedLearning; its spec.clusterSets count as bound in its namespace, as the
//   controller binds them); the data claim is the key of the last `Exists` claim requirement
//   of its predicates, and its value on a cluster is that client's data config. A data
//   cluster whose ManagedCluster's compliance.berth.dev claim does not list every
//   requirement of the berth.dev/data-compliance annotation is Excluded
//   (ComplianceNotClaimed); one the placement's taint filter rejects is Excluded
//   (ClusterUnavailable); those beyond numberOfClusters (in the placement's score order) are
//   Excluded (NotSelected). At most one client per cluster.
// - Waiting: fewer eligible clusters than minAvailableClients (or the server's cluster is
//   not available): phase Waiting, condition ClientsPlaced=False naming each excluded
//   cluster and why; no ManifestWork. Otherwise Running: the server's cluster is
//   berth.dev/server-cluster, else the first client by name; roundStartTime = now.
// - Running: one ManifestWork for the server (a Job `<name>-server` mounting the model
//   store) in its cluster's namespace, named "<ns>.<name>.fl-server", and one per client
//   (a Job `<name>-client` given the cluster's data config and the server's address), named
//   "<ns>.<name>.fl-client"; labels berth.dev/federated-learning = "<ns>.<name>" (bounded)
//   and berth.dev/federated-learning-role. The clients are fixed when training starts.
//   Progress is read from the server work's status feedback (CurrentRound, Loss, and the
//   Job's JobComplete / JobSucceeded / JobFailed). Checked in this order: the server Job
//   finished (Completed) or failed (ServerFailed); the server's cluster not Available=True
//   (ServerLost); each client lost (ClusterLost: ManagedCluster gone or not Available=True;
//   ComplianceNotClaimed; DataNotHeld; ClientFailed: its work reports the Job failed,
//   Applied=False or Degraded=True) and fewer clients left than the minimum
//   (ClientsBelowMinimum); the loss NaN or infinite, or growing for berth.dev/divergence-rounds
//   consecutive rounds (MetricDiverged); the round running since roundStartTime for at least
//   berth.dev/round-timeout (RoundTimeout). Any of these but completion aborts: phase Failed,
//   condition TrainingAborted=True with the reason, every work of the training deleted. On
//   completion the client works are deleted and the server's kept.
// - Completed and Failed are final: the status is kept, and works still there are deleted
//   (the server's kept after completion).
// Given ManifestWorks labelled for a FederatedLearning the input does not hold are deleted.
// Writes: status into plan.planned.federated_learnings (listed in
// plan.federated_learning_items), works into plan.planned.manifest_works (a given one of the
// same namespace and name replaced in place; listed in plan.manifest_work_items), deletions
// into plan.deleted_objects, one FederatedLearningRun each into plan.federated_learnings,
// and a misconfigured client placement into plan.diagnostics.
void PlanFederatedLearning(const model::Snapshot& snapshot, core::Timestamp now,
                           const placement::FleetCapacity& capacity, Plan& plan);

}  // namespace berth::engine
