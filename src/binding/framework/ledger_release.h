// LedgerWithout: a node's FractionLedger with one pod taken out, for ClusterState::RemovePod
// (a gang rolled back, a preemption victim). The pod's portions leave the GPUs they were
// on; a GPU no fractional pod holds any more stops being reserved (KAI deletes its
// reservation pod), so its whole nvidia.com/gpu is free again. Every other GPU keeps its
// place in the ledger, its physical index and its holders in placement order, so Choose()
// then decides as if the pod had never been applied, provided no pod came after it. Pure
// function; thread-safe.
#pragma once

#include <cstdint>

#include "gpu/fraction_ledger.h"
#include "model/pod.h"

namespace berth::binding {

// `*released`: how many GPUs stopped being reserved. O(holders on the node).
gpu::FractionLedger LedgerWithout(const gpu::FractionLedger& ledger, model::PodIndex pod,
                                      int32_t* released);

}  // namespace berth::binding
