// Table output of a plan (`berth plan -o table`): one row per decided pod, in decision
// order, with columns NAMESPACE, NAME, NODE, STATUS (Bound/Pending) and REASON (the
// scheduler's message for pending pods), aligned with spaces as kubectl aligns its tables;
// then the devices allocated to ResourceClaims, when the plan allocated any.
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

}  // namespace berth::io
