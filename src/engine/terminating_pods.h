// TerminatingPods: what a plan of N cycles writes into the running pods of a workload Kueue
// evicted in the last cycle. Their deletion has begun but not finished: they stay bound,
// with metadata.deletionTimestamp at the plan time; a pod Kueue manages itself (pod
// integration: labelled kueue.x-k8s.io/managed=true) also carries the TerminationTarget
// condition Kueue writes before deleting it. Called by ApplyCycle; internal to engine; stateless.
#pragma once

#include <string>

#include "core/time.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::engine {

// Marks `pod` (an index into `planned` and `input`, which it was planned from) terminating at `now` as above; `eviction_message` is
// the Workload's Evicted message (Kueue's event message for the stop). Returns the decision
// the plan prints it with: bound to its node, `reason` as the message tables show.
model::PodDecision MarkTerminating(const model::Snapshot& input, model::Snapshot& planned,
                                   model::PodIndex pod,
                                   core::Timestamp now, const std::string& eviction_message,
                                   std::string reason);

}  // namespace berth::engine
