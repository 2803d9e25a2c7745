#include "binding/plugins/resource_scorer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "model/resources.h"

namespace berth::binding {

namespace {

// Products of an amount and 100 can exceed int64 for absurd capacities; upstream guards
// the same way (math/bits) where it matters, and the result is identical otherwise.
__extension__ using Int128 = __int128;

constexpr int kMaxScoredResources = 16;

// (allocatable, requested-after-placing) of one scored resource, upstream
// calculateResourceAllocatableRequest. `use_requested` picks the node's actual requests
// over NonZeroRequested for cpu and memory (BalancedAllocation does).
bool AllocatableRequest(const ScoredResource& r, const ResourceTable& resources,
                        const NodeLoad& load, const PodResources& pod, bool use_requested,
                        int64_t* alloc, int64_t* req) {
  if (!r.present) return false;
  ResourceKind kind = resources.kind(r.id);
  int64_t pod_request = pod.request(r.id);
  if (!use_requested) {
    if (kind == ResourceKind::kCpu) pod_request = pod.nonzero_cpu;
    if (kind == ResourceKind::kMemory) pod_request = pod.nonzero_memory;
  }
  // A scalar resource the pod does not request is left out of the score.
  if (pod_request == 0 && kind == ResourceKind::kScalar) return false;
  switch (kind) {
    case ResourceKind::kCpu:
      *req = model::SaturatingAdd(use_requested ? load.requested[r.id.v] : load.nonzero_cpu,
                                  pod_request);
      break;
    case ResourceKind::kMemory:
      *req = model::SaturatingAdd(use_requested ? load.requested[r.id.v] : load.nonzero_memory,
                                  pod_request);
      break;
    case ResourceKind::kEphemeralStorage:
    case ResourceKind::kScalar:
      *req = model::SaturatingAdd(load.requested[r.id.v], pod_request);
      break;
    case ResourceKind::kPods:
    case ResourceKind::kIgnored:
      return false;
  }
  *alloc = load.allocatable[r.id.v];
  // Only resources the node actually has take part.
  return *alloc != 0;
}

int64_t ScaledUtilization(int64_t requested, int64_t capacity) {
  // requested * 100 / capacity with requested clamped to [0, capacity]; 128-bit so a huge
  // capacity cannot overflow, as upstream's scaledUtilization.
  if (capacity <= 0 || requested <= 0) return 0;
  if (requested >= capacity) return 100;
  return static_cast<int64_t>(static_cast<Int128>(requested) * 100 / capacity);
}

}  // namespace

int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return static_cast<int64_t>(static_cast<Int128>(capacity - requested) * kMaxNodeScore / capacity);
}

int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  // requested can exceed capacity because pods without requests count the defaults.
  requested = std::min(requested, capacity);
  return static_cast<int64_t>(static_cast<Int128>(requested) * kMaxNodeScore / capacity);
}

int64_t BrokenLinear(const std::vector<ShapePoint>& shape, int64_t p) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (p <= shape[i].utilization) {
      if (i == 0) return shape[0].score;
      return shape[i - 1].score + (shape[i].score - shape[i - 1].score) *
                                      (p - shape[i - 1].utilization) /
                                      (shape[i].utilization - shape[i - 1].utilization);
    }
  }
  return shape.empty() ? 0 : shape.back().score;
}

int64_t ResourceScorer::FitScore(const NodeLoad& load, const PodResources& pod) const {
  const auto& res = profile_.fit_resources();
  int64_t node_score = 0;
  int64_t weight_sum = 0;
  for (const ScoredResource& r : res) {
    int64_t alloc = 0;
    int64_t req = 0;
    if (!AllocatableRequest(r, resources_, load, pod, /*use_requested=*/false, &alloc, &req)) {
      continue;
    }
    switch (profile_.strategy()) {
      case model::ScoringStrategyType::kLeastAllocated:
        node_score += LeastRequestedScore(req, alloc) * r.weight;
        weight_sum += r.weight;
        break;
      case model::ScoringStrategyType::kMostAllocated:
        node_score += MostRequestedScore(req, alloc) * r.weight;
        weight_sum += r.weight;
        break;
      case model::ScoringStrategyType::kRequestedToCapacityRatio: {
        int64_t s = req > alloc ? BrokenLinear(profile_.shape(), 100)
                                : BrokenLinear(profile_.shape(), ScaledUtilization(req, alloc));
        // Upstream counts only resources that score above zero.
        if (s > 0) {
          node_score += s * r.weight;
          weight_sum += r.weight;
        }
        break;
      }
    }
  }
  if (weight_sum == 0) return 0;
  if (profile_.strategy() == model::ScoringStrategyType::kRequestedToCapacityRatio) {
    return static_cast<int64_t>(
        std::round(static_cast<double>(node_score) / static_cast<double>(weight_sum)));
  }
  return node_score / weight_sum;
}

bool ResourceScorer::BalancedSkipped(const PodResources& pod) const {
  for (const ScoredResource& r : profile_.balanced_resources()) {
    if (r.present && pod.request(r.id) != 0) return false;
  }
  return true;
}

int64_t ResourceScorer::BalancedScore(const NodeLoad& load, const PodResources& pod) const {
  std::array<double, kMaxScoredResources> fractions{};
  int n = 0;
  double total = 0;
  for (const ScoredResource& r : profile_.balanced_resources()) {
    int64_t alloc = 0;
    int64_t req = 0;
    if (!AllocatableRequest(r, resources_, load, pod, /*use_requested=*/true, &alloc, &req)) {
      continue;
    }
    if (n == kMaxScoredResources) break;
    double f = static_cast<double>(req) / static_cast<double>(alloc);
    if (f > 1) f = 1;
    total += f;
    fractions[static_cast<size_t>(n++)] = f;
  }
  double std_dev = 0;
  if (n == 2) {
    std_dev = std::fabs((fractions[0] - fractions[1]) / 2);
  } else if (n > 2) {
    double mean = total / n;
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      double d = fractions[static_cast<size_t>(i)] - mean;
      sum += d * d;
    }
    std_dev = std::sqrt(sum / n);
  }
  return static_cast<int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

}  // namespace berth::binding
