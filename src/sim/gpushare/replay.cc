#include "sim/gpushare/replay.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "gpu/gpu_cluster.h"
#include "sim/gpushare/arrival_buckets.h"
#include "sim/gpushare/node_selector.h"
#include "sim/gpushare/rng_source.h"

namespace berth::sim::gpushare {

core::Result<std::vector<int32_t>> ArrivalOrder(std::span<const gpu::PodSpec> pods,
                                                int64_t gpu_capacity_milli,
                                                const ReplayOptions& options, Rng& rng) {
  std::vector<int32_t> by_name(pods.size());
  std::iota(by_name.begin(), by_name.end(), 0);
  std::stable_sort(by_name.begin(), by_name.end(),
                   [&pods](int32_t a, int32_t b) { return pods[a].name < pods[b].name; });
  std::vector<int32_t> order = by_name;
  if (options.shuffle) rng.ShuffleByRemainder(std::span<int32_t>(order));
  if (options.inflation_ratio <= 0) return order;

  int64_t requested = 0;
  for (const gpu::PodSpec& pod : pods) requested += pod.TotalGpuMilli();
  if (requested <= 0) {
    return core::FailedPrecondition("the pods request no GPU, so they cannot be inflated to " +
                                    std::to_string(options.inflation_ratio) +
                                    "x the cluster's GPUs");
  }
  const double target = options.inflation_ratio * static_cast<double>(gpu_capacity_milli);
  if (static_cast<double>(requested) > target) {
    // Thin: remove uniformly drawn pods, keeping the order of the rest, until at or below.
    while (static_cast<double>(requested) > target) {
      const auto index = static_cast<size_t>(rng.UniformIntByRemainder(order.size()));
      requested -= pods[order[index]].TotalGpuMilli();
      order.erase(order.begin() + static_cast<std::ptrdiff_t>(index));
    }
    return order;
  }
  // Inflate: append copies drawn uniformly from the name-ordered pods. The stop test adds the
  // drawn pod's per-GPU share, not its total (upstream's quirk), so a multi-GPU copy may
  // overshoot the target by up to (num_gpu - 1) GPUs.
  while (true) {
    const int32_t drawn = by_name[static_cast<size_t>(rng.UniformIntByRemainder(by_name.size()))];
    if (static_cast<double>(requested + pods[drawn].gpu_milli) > target) break;
    requested += pods[drawn].TotalGpuMilli();
    order.push_back(drawn);
  }
  return order;
}

std::vector<int32_t> NodeRanks(std::span<const gpu::NodeSpec> nodes, Rng& rng) {
  std::vector<int32_t> by_name(nodes.size());
  std::iota(by_name.begin(), by_name.end(), 0);
  std::stable_sort(by_name.begin(), by_name.end(),
                   [&nodes](int32_t a, int32_t b) { return nodes[a].name < nodes[b].name; });
  std::vector<int32_t> permutation(nodes.size());
  std::iota(permutation.begin(), permutation.end(), 0);
  rng.ShuffleByRemainder(std::span<int32_t>(permutation));
  std::vector<int32_t> ranks(nodes.size());
  for (size_t k = 0; k < by_name.size(); ++k) ranks[by_name[k]] = permutation[k];
  return ranks;
}

core::Result<ReplayResult> RunReplay(std::span<const gpu::NodeSpec> nodes,
                                     std::span<const gpu::PodSpec> pods,
                                     const ReplayOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const gpu::FragmentationModel fragmentation(gpu::BuildTypicalPods(pods, options.typical));
  gpu::GpuCluster cluster(nodes, &fragmentation);
  if (cluster.gpu_capacity_milli() <= 0) {
    return core::FailedPrecondition("the cluster has no GPU to replay GPU-sharing pods on");
  }
  if (pods.empty()) return core::FailedPrecondition("there are no pods to replay");

  Rng rng(options.seed);
  BERTH_ASSIGN_OR_RETURN(const std::vector<int32_t> order,
                         ArrivalOrder(pods, cluster.gpu_capacity_milli(), options, rng));
  const std::vector<int32_t> ranks = NodeRanks(nodes, rng);
  NodeSelector selector(ranks, options.tie_break);
  RngSource draws(rng);
  const std::unique_ptr<gpu::NodeScorer> scorer =
      gpu::MakeScorer(options.policy, &fragmentation, &cluster);

  ReplayResult result;
  result.policy = options.policy;
  result.seed = options.seed;
  result.gpu_capacity_milli = cluster.gpu_capacity_milli();
  result.pods = static_cast<int64_t>(order.size());
  if (options.keep_samples) result.samples.reserve(order.size());

  // The authors' scripts divide by the GPU count and then by 10; the same operations keep
  // the rounding to buckets identical.
  const double total_gpus = static_cast<double>(cluster.gpu_capacity_milli()) / gpu::kMilliPerGpu;
  std::vector<double> arrived_pct, allocated_pct, frag_amount_pct, frag_rate_pct;
  arrived_pct.reserve(order.size());
  allocated_pct.reserve(order.size());
  frag_amount_pct.reserve(order.size());
  frag_rate_pct.reserve(order.size());

  int64_t arrived = 0;
  for (const int32_t index : order) {
    const gpu::PodSpec& pod = pods[index];
    arrived += pod.TotalGpuMilli();
    const int node = options.select_by_scan
                         ? SelectByScan(*scorer, pod, cluster, ranks, options.tie_break, rng)
                         : selector.Select(*scorer, pod, cluster, rng);
    if (node >= 0) {
      const gpu::GpuSet gpus =
          scorer->ChooseGpus(pod, cluster.node(node), cluster.node_fragment_milli(node), draws);
      cluster.Place(node, pod, gpus);
      selector.Update(node, cluster);
      ++result.placed;
    } else {
      ++result.failed;
    }
    ++result.events;
    const int64_t idle = cluster.gpu_idle_milli();
    const double fragment = cluster.fragment_milli();
    arrived_pct.push_back(static_cast<double>(arrived) / total_gpus / 10);
    allocated_pct.push_back(static_cast<double>(cluster.gpu_allocated_milli()) / total_gpus / 10);
    frag_amount_pct.push_back(100 * fragment / 1000 / total_gpus);
    frag_rate_pct.push_back(idle > 0 ? 100 * fragment / static_cast<double>(idle)
                                     : std::numeric_limits<double>::quiet_NaN());
    if (options.keep_samples) {
      result.samples.push_back({arrived, cluster.gpu_allocated_milli(), idle, fragment, node >= 0});
    }
  }

  result.allocation_pct_by_arrived_pct = BucketByArrivedPct(arrived_pct, allocated_pct);
  result.frag_amount_pct_by_arrived_pct = BucketByArrivedPct(arrived_pct, frag_amount_pct);
  result.frag_rate_pct_by_arrived_pct = BucketByArrivedPct(arrived_pct, frag_rate_pct);
  if (auto it = result.allocation_pct_by_arrived_pct.find(100);
      it != result.allocation_pct_by_arrived_pct.end()) {
    result.unallocated_pct_at_100 = 100 - it->second;
  }
  result.final_allocation_pct = allocated_pct.empty() ? 0 : allocated_pct.back();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace berth::sim::gpushare
