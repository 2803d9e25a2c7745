// The chain of reasons of `berth why`, built from the baseline plan's decisions in
// WhyContext: Kueue's (queue set-up, flavor by flavor quota, preemption candidates), the
// fleet's (each candidate cluster's answer, the Placement's excluded clusters) and
// kube-scheduler's (nodes grouped by first failing filter, with node classes and the
// numbers: requested against the most free). Called by AnswerWhy. Pure; thread-compatible.
#pragma once

#include <vector>

#include "diag/why.h"
#include "diag/why_context.h"

namespace berth::diag {

// Blocking reasons first, in layer order, then context reasons in layer order; within a
// layer, larger groups first. For a target that runs (`runs`), only context.
std::vector<WhyReason> BuildChain(const WhyContext& context, bool runs);

}  // namespace berth::diag
