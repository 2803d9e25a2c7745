// The FGD paper's OpenB replay protocol (shared/reference/traces.md §2.1, upstream
// pkg/simulator/{core,simulator}.go): the pods sorted by name and shuffled with the run's
// seed, inflated with uniform draws (same RNG) until the GPU request reaches 1.3 x the
// cluster's GPUs (the stop test, as upstream, compares the sampled pod's per-GPU share, not
// its total) or thinned by random removals when above it; the nodes, in name order, get a
// seeded random rank that breaks score ties (policy.h TieBreak); then one placement attempt
// per pod in that order, no departures, a pod that fits nowhere counted as failed. After every
// event the allocated share, the fragment and the idle share are recorded and bucketed by arrived
// workload % (arrival_buckets.h). Called by the CLI's `simulate --format openb` and the FGD
// reproduction bench. Deterministic in (nodes, pods, options) except `seconds`; safe to run
// concurrently on shared inputs. Cost: O(pods x nodes x policy score).
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <vector>

#include "core/result.h"
#include "gpu/policy.h"
#include "gpu/typical_pods.h"
#include "sim/core/rng.h"
#include "sim/gpushare/node_selector.h"
#include "sim/gpushare/openb_trace.h"

namespace berth::sim::gpushare {

struct ReplayOptions {
  gpu::Policy policy = gpu::Policy::kFgd;
  uint64_t seed = 42;
  // Target total GPU request as a multiple of the cluster's GPUs (upstream's "tune");
  // <= 0 replays the pods as they are.
  double inflation_ratio = 1.3;
  bool shuffle = true;  // false: arrive in name order
  TieBreak tie_break = TieBreak::kSeededNodeOrder;
  gpu::TypicalPodOptions typical;
  bool keep_samples = false;  // fill ReplayResult::samples, one per event
  // Choose nodes with SelectByScan (node_selector.h), one pass over every node per pod, instead
  // of NodeSelector's node classes: the same run, slower; for tests and benches to compare.
  bool select_by_scan = false;
};

// The cluster after one event.
struct ReplaySample {
  int64_t arrived_gpu_milli = 0;  // GPU request of the pods arrived so far, failed included
  int64_t allocated_gpu_milli = 0;
  int64_t idle_gpu_milli = 0;
  double fragment_milli = 0;
  bool placed = false;
};

struct ReplayResult {
  gpu::Policy policy = gpu::Policy::kFgd;
  uint64_t seed = 0;
  int64_t gpu_capacity_milli = 0;
  int64_t pods = 0;  // arrivals after inflation
  int64_t placed = 0;
  int64_t failed = 0;
  int64_t events = 0;
  // Per whole arrived % (0..130): GPU allocation ratio, fragment as % of all GPUs, fragment
  // as % of idle GPU share; the columns of the authors' analysis_*_discrete.csv files.
  std::map<int, double> allocation_pct_by_arrived_pct;
  std::map<int, double> frag_amount_pct_by_arrived_pct;
  std::map<int, double> frag_rate_pct_by_arrived_pct;
  // 100 - allocation at arrived 100%, the paper's bar charts; NaN when that bucket is empty.
  double unallocated_pct_at_100 = std::numeric_limits<double>::quiet_NaN();
  double final_allocation_pct = 0;
  double seconds = 0;  // wall time of the run: the one field that differs between equal runs
  std::vector<ReplaySample> samples;
};

// The arrival sequence as indices into `pods`: name order, shuffled (options.shuffle), then
// inflated or thinned to options.inflation_ratio x gpu_capacity_milli. Inflated copies repeat
// indices. FailedPrecondition when inflation is asked of pods that request no GPU.
core::Result<std::vector<int32_t>> ArrivalOrder(std::span<const gpu::PodSpec> pods,
                                                int64_t gpu_capacity_milli,
                                                const ReplayOptions& options, Rng& rng);

// A seeded random rank per node (0..n-1, a uniform permutation over the nodes in name
// order): upstream's "%04d-" name prefixes.
std::vector<int32_t> NodeRanks(std::span<const gpu::NodeSpec> nodes, Rng& rng);

// One run. FailedPrecondition when the cluster has no GPU or there are no pods. The typical
// pods are taken from `pods` as given (before inflation).
core::Result<ReplayResult> RunReplay(std::span<const gpu::NodeSpec> nodes,
                                     std::span<const gpu::PodSpec> pods,
                                     const ReplayOptions& options);

}  // namespace berth::sim::gpushare
