// The ManifestWorkReplicaSet stage of a fleet plan (docs/fleet.md "Rollout across clusters"
// and "Controlled rollback"): after the Placements are decided, each MWRS is stepped once at
// the plan's time as OCM's controller would (dispatch/replica_set_step.h: works to create,
// update and delete per placementRef's rollout strategy, status), with berth's controlled
// rollback around it (revision history in ControllerRevisions, health rules, pause,
// dispatch/rollback_policy.h). Called by RunFleet (fleet_cycle.cc) at the end of the cycle;
// the hub runs the same plan every cycle, so a rollout goes on there one step per cycle.
// Pure: a function of plan.planned and `now`; deterministic.
#pragma once

#include <vector>

#include "core/time.h"
#include "dispatch/rollout_status.h"
#include "engine/plan.h"
#include "model/work.h"

namespace berth::engine {

// Steps every ManifestWorkReplicaSet of plan.planned, in snapshot order, reading the
// Placements and PlacementDecisions as this plan decided them (the decisions it deletes
// left out), the MWRS's works (ManifestWorks of its cluster carrying its owner label) and its
// ControllerRevisions. Writes into `plan`:
//  - the works it creates or updates (planned.manifest_works, spec from the template, listed
//    in manifest_work_items) and deletes (deleted_objects, with the step's reason);
//  - the MWRS's status, its rolled-back annotation and MwrsRolloutSummary (`stepped`);
//  - its ControllerRevisions: created, changed (numbers, cluster records, rolled-back
//    reason) or deleted beyond the history limit;
//  - errors naming the MWRS and the field: a minSuccessTime that is no Go duration (the
//    MWRS is then left as read, as upstream's controller cannot decode it), a health
//    annotation that does not parse (planned without health rules), a rollout threshold or
//    deadline ComputeRollout refuses (that placementRef skipped, as upstream does).
// An MWRS being deleted has its works deleted and is not stepped (its finalizer's work).
void RunReplicaSets(core::Timestamp now, Plan& plan);

// The conditions the rollout reads from a work: the agent's, and, when the work reports no
// Progressing condition (no condition rule asks for one, as with berth's agent), berth's
// reading of Available at the work's generation: Available=True as Progressing=False
// (done), False as Progressing=True and Degraded=True (failed), Unknown as Progressing=True,
// each with Available's observedGeneration and lastTransitionTime. OCM would leave such a
// work ToApply forever.
std::vector<dispatch::WorkCondition> RolloutConditionsOfWork(const model::ManifestWork& work);

}  // namespace berth::engine
