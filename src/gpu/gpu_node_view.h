// GpuNodeView and GpuRequest: a node's GPUs and a pod's GPU request in the terms of the FGD
// paper's node model (shared/reference/traces.md §2), read from binding's own state: free
// CPU, whole GPUs still free (allocatable nvidia.com/gpu minus requested, which counts KAI
// reservations), and one entry per GPU reserved for fractions with its free milli-GPU and
// memory (the node's gpu::FractionLedger). Whole free GPUs are interchangeable, so a
// view stores their count, not one entry each. Used by the GPU-sharing score plugins and
// the fragmentation measure (fragmentation.h, GpuFragmentModel). Plain values; every function here is
// O(GPUs reserved for fractions on the node).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gpu/fraction_request.h"

namespace berth::gpu {

// One GPU reserved for fractional pods.
struct SharedGpuFree {
  int64_t milli_free = 0;
  int64_t memory_free_mib = 0;  // meaningful only when the node's GPU memory is known
};

// What a pod asks of a node in the paper's terms: CPU and either `whole` GPUs (an
// nvidia.com/gpu request) or a KAI fraction (gpu-fraction / gpu-memory annotations), or
// no GPU at all. A pod never has both (KAI's webhook refuses it; PodInfo parses it so).
struct GpuRequest {
  int64_t cpu_milli = 0;
  int64_t whole = 0;
  std::optional<FractionRequest> fraction;

  bool any() const { return whole > 0 || fraction.has_value(); }
  bool operator==(const GpuRequest&) const = default;
};

struct GpuNodeView {
  int64_t cpu_free_milli = 0;         // allocatable - requested, not below 0
  int64_t gpus = 0;                   // allocatable nvidia.com/gpu
  int64_t free_whole = 0;             // GPUs no pod and no reservation holds
  int64_t gpu_memory_mib = 0;         // per GPU; 0 when unknown
  bool shareable = false;             // whether fractions may use this node's GPUs
  int32_t product = -1;               // interned nvidia.com/gpu.product; -1 without the label
  std::vector<SharedGpuFree> shared;  // in the ledger's order

  // Idle GPU share in milli-GPU: the free whole GPUs and what the shared ones have left.
  int64_t IdleMilli() const;
  // Whether a portion fits on a shared GPU by the ledger's rule (milli-GPU and, when the
  // GPU memory is known, memory).
  bool Fits(const SharedGpuFree& gpu, const GpuPortion& portion) const;
  // The pod's total GPU share on this node in milli-GPU (a memory request's share depends
  // on the node's GPU memory); 0 when a fraction cannot be expressed here.
  int64_t RequestMilli(const GpuRequest& request) const;
};

// The view after the pod is placed: its CPU taken, `whole` free GPUs taken, or each
// portion of a fraction placed where `choice` says (FractionLedger::Choose: an index into
// `shared`, or -1 for a newly reserved free GPU, appended). Precondition: the pod fits as
// placed (the filters passed; `choice` came from the node's ledger).
GpuNodeView Placed(const GpuNodeView& view, const GpuRequest& request,
                   std::span<const int32_t> choice);

}  // namespace berth::gpu
