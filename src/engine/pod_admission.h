// PodAdmission: the API server's admission of the pods berth creates from workloads, as one
// engine step before any cluster's cycle (RunPlan, ExplainPod): LimitRanger fills in and
// bounds their resources, ResourceQuota refuses the ones past a quota. Pods given in the
// input exist already and pass untouched. docs/admission.md. Internal to engine.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "model/snapshot.h"

namespace berth::engine {

// Whether the snapshot has a LimitRange or ResourceQuota and a pod berth created (expanded
// from a workload's template: Pod::created_from_template), so that AdmitCreatedPods has work.
bool NeedsPodAdmission(const model::Snapshot& snapshot);

// Admits every pending pod berth created, in snapshot order (the order the controllers
// create them), against its namespace's LimitRanges and ResourceQuotas (src/admission):
// requests and limits are defaulted in place; a pod either refuses is marked
// (Pod::admission_refused = `pods "NAME" is forbidden: ...`), is never created (the cycle
// neither binds nor prints it), and adds no quota usage; each refusal is reported once as a
// warning on its workload (`Error creating: pods "NAME" is forbidden: ...`, the Job
// controller's FailedCreate event). Pods of Kueue Workloads admitted in the input are
// admitted like the rest (their job runs); those of workloads still waiting get LimitRange
// defaults only: Kueue creates them at an admission inside the cycle, which this step
// precedes (docs/admission.md).
// Quota usage is kept per quota incrementally: O(created pods x their namespace's quotas).
void AdmitCreatedPods(model::Snapshot& snapshot, core::Diagnostics& diags);

}  // namespace berth::engine
