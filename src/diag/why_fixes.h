// The fixes of `berth why`: candidate changes computed from the baseline plan's numbers (a
// toleration for the taint that rejected the nodes, a nodeSelector term no node has, the
// most accelerators a node had free, pods to preempt on the node that needs the fewest,
// a ClusterQueue's nominal quota raised by exactly the shortfall, fewer pods, another
// LocalQueue, lower-priority workloads to preempt), each applied to a copy of the input and
// kept only when the plan of the copy binds or admits the target; its side effects are
// what else that plan leaves pending or preempts. Called by AnswerWhy. Not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "diag/why.h"
#include "diag/why_context.h"

namespace berth::diag {

// At most context.options->max_fix_runs plans; `runs` and `candidates` report how many
// plans ran and how many candidates there were, `rejected` the changes planned that did not
// make the target run.
std::vector<WhyFix> ComputeFixes(const WhyContext& context, int32_t* runs, int32_t* candidates,
                                 std::vector<std::string>* rejected);

}  // namespace berth::diag
