// Table output of a plan (`berth plan -o table`): one row per decided pod, in decision
// order, with columns NAMESPACE, NAME, NODE, STATUS (Bound/Pending) and REASON (the
// scheduler's message for pending pods), aligned with spaces as kubectl aligns its tables;
// then the devices allocated to ResourceClaims, when the plan allocated any, and the Kueue
// Workloads the plan decided.
// Called by WritePlanList for OutputFormat::kTable. Deterministic; stateless.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

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
// blank line and the WORKLOADS table: NAMESPACE, NAME, QUEUE, CLUSTERQUEUE, STATUS,
// FLAVORS (per pod set, `main: cpu,memory=default nvidia.com/gpu=h100`; pod sets joined
// by "; "), MESSAGE (the message of the condition the status comes from). Pods in
// `deleted` follow the decided ones in the pods table with STATUS Deleted and their reason.
void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions,
                    const std::vector<int32_t>& claims, const std::vector<int32_t>& workloads,
                    std::ostream& out, const std::vector<model::PodDeletion>& deleted = {});

// A Workload's STATUS column, from its planned conditions, first match wins: Finished
// (Finished=True), Admitted (Admitted=True), Preempted (Evicted=True or Preempted=True),
// QuotaReserved (QuotaReserved=True), Inadmissible (spec.active false, or
// QuotaReserved=False with reason Inadmissible), else Pending.
const char* WorkloadStatusName(const model::Workload& wl);

}  // namespace berth::io
