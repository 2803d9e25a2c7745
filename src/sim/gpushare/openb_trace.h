// OpenbTrace: one Alibaba OpenB trace as the reader returns it (shared/reference/traces.md
// §1): the GPU models both lists name, the nodes and the pods in file order, in the gpu
// module's shapes (gpu/gpu_spec.h). Written by the OpenB reader, read by the replay. Plain
// values.
#pragma once

#include <vector>

#include "gpu/gpu_model_table.h"
#include "gpu/gpu_spec.h"

namespace berth::sim::gpushare {

// One trace: the models both lists name, the nodes, and the pods in file order.
struct OpenbTrace {
  gpu::GpuModelTable models;
  std::vector<gpu::NodeSpec> nodes;
  std::vector<gpu::PodSpec> pods;
};

}  // namespace berth::sim::gpushare
