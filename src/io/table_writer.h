// Table output of a plan (`berth plan -o table`): one row per decided pod, in decision
// order, with columns NAMESPACE, NAME, NODE, STATUS (Bound/Pending) and REASON (the
// scheduler's message for pending pods), aligned with spaces as kubectl aligns its tables.
// Called by WritePlanList for OutputFormat::kTable. Deterministic; stateless.
#pragma once

#include <ostream>
#include <vector>

#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::io {

void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions, std::ostream& out);

}  // namespace berth::io
