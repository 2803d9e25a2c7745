// WorkloadPrinter: the text `berth explain workload/NAME` prints: the workload's queue,
// priority and pod sets, what Kueue admission decided and why, the last flavor assignment
// resource by resource (requested, nominal, used, available, borrowing limit), the
// preemption candidates considered, its ClusterQueue's usage, and where its pods went.
// Pure function of its inputs; thread-compatible.
#pragma once

#include <ostream>

#include "engine/explain_workload.h"

namespace berth::cli {

void PrintWorkloadExplanation(const engine::WorkloadExplanation& explanation, std::ostream& out);

}  // namespace berth::cli
