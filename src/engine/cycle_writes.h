// CycleWrites: how one cluster's cycle (RunClusterCycle) lands in a Plan: pod decisions
// written where kube-scheduler writes them, claim allocations and reservations, pods of
// preempted workloads deleted (their claims released), Kueue decisions applied. Shared by
// the single-cluster and fleet paths of RunPlan; internal to engine.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "binding/scheduler.h"
#include "core/diagnostics.h"
#include "core/time.h"
#include "engine/cluster_cycle.h"
#include "engine/cluster_part.h"
#include "engine/plan.h"

namespace berth::engine {

// Writes `cycle` into `plan` (moves its admission result into plan.admissions, through
// ApplyAdmission, unless `write_admission` is false: then cycle.admission is left for the
// caller to apply later) and merges `diags` into plan.diagnostics. `changed`: claim indices
// (whole) whose status changed.
void ApplyCycle(const model::Snapshot& snapshot, const ClusterPart& part,
                binding::Scheduler& scheduler, ClusterCycleResult& cycle, core::Timestamp now,
                core::Diagnostics& diags, Plan& plan, std::set<int32_t>& changed,
                bool write_admission = true);

// Writes one cluster's Kueue decisions into plan.planned's Workloads and moves `result` into
// plan.admissions under `cluster`.
void ApplyAdmission(const std::string& cluster, queueing::AdmissionResult&& result,
                    core::Timestamp now, Plan& plan);

// Appends `from`'s entries to `to`, each distinct (message, location, severity) once: every
// cluster's allocator sees the same DeviceClasses, so their problems would repeat.
void MergeDiagnostics(const core::Diagnostics& from, core::Diagnostics& to);

// The binding options of a part's Scheduler.
binding::SchedulerOptions PartOptions(const ClusterPart& part, core::Diagnostics* diags);

}  // namespace berth::engine
