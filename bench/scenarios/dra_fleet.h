// A deterministic DRA fleet for binding benchmarks: `nodes` nodes, each
// publishing one ResourceSlice (its own pool) of 8 GPUs with productName, uuid, a memory
// capacity, a pcieRoot attribute (4 roots, 2 GPUs each) and an NVLink clique; gpu-0 of every
// node is held by an allocated claim of a running pod. `pods` pending pods each bring one
// unallocated ResourceClaim (as a template would make it, `<pod>-gpu`) of the chosen shape.
// Used by bench/dra_binding_bench.cc; the tests' scenario builders stay in tests/support.
#pragma once

#include <cstdint>

#include "model/snapshot.h"

namespace berth::bench {

enum class DraClaimShape {
  kOneGpuCel,            // 1 GPU, CEL selector on productName and memory capacity
  kTwoGpusSamePcieRoot,  // 2 GPUs, matchAttribute on pcieRoot
  kEightOfSeven,         // 8 GPUs: never fits (each node has 7 free)
};

struct DraFleetSpec {
  int32_t nodes = 1000;
  int32_t pods = 1000;
  DraClaimShape shape = DraClaimShape::kOneGpuCel;
};

model::Snapshot MakeDraFleet(const DraFleetSpec& spec);

// How many of the spec's pods can bind: 7 one-GPU pods per node (gpu-0 is held), 3
// same-root pairs per node (root 0 keeps only gpu-1), no 8-GPU pod.
int64_t ExpectedBound(const DraFleetSpec& spec);

}  // namespace berth::bench
