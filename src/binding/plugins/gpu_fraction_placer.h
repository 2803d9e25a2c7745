// GpuFractionPlacer: who decides, when a fractional pod (KAI gpu-fraction) is bound, which of
// the node's GPUs its portions take. Without one, ClusterState::AddPod keeps the node's
// FractionLedger rule (bin-packing, as KAI does); a GPU-sharing policy that chooses GPUs
// itself (berth's, gpu::NodeScorer::ChooseGpus) installs one so that the bind takes the GPU
// the policy scored. Implemented by GpuShareNodeModel; called by ClusterState::AddPod before
// the pod's requests are counted on the node.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/node.h"
#include "model/pod.h"

namespace berth::binding {

struct PodInfo;

class GpuFractionPlacer {
 public:
  virtual ~GpuFractionPlacer() = default;
  // The ledger slots the pod's portions take on `node` (FractionLedger::Choose's form: an
  // index into the ledger's shared GPUs, or -1 for a newly reserved free GPU), or nullopt to
  // leave the choice to the ledger. A returned choice must be one the ledger could make:
  // each slot has room, at most `free_whole` new GPUs.
  virtual std::optional<std::vector<int32_t>> Choose(model::PodIndex pod, model::NodeIndex node,
                                                     const PodInfo& info,
                                                     int64_t free_whole) const = 0;
};

}  // namespace berth::binding
