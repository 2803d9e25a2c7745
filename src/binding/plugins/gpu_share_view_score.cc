#include "binding/plugins/gpu_share_view_score.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/plugin_names.h"
#include "core/check.h"
#include "gpu/gpu_node_view.h"
#include "gpu/policy_scores.h"

namespace berth::binding {

namespace {

// splitmix64's finalizer: FNV alone leaves the low bits, which the modulo keeps, poorly mixed.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t Fnv1a(uint64_t h, std::string_view text) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

size_t GpuShareRandomPick(uint64_t seed, const model::Pod& pod, size_t n) {
  if (n == 0) return 0;
  uint64_t h = Fnv1a(0xcbf29ce484222325ULL ^ Mix(seed), pod.meta.namespace_);
  h = Fnv1a(h, "/");
  h = Fnv1a(h, pod.meta.name);
  return static_cast<size_t>(Mix(h) % n);
}

void MinMaxNormalize(std::span<int64_t> scores) {
  if (scores.empty()) return;
  const auto [lo, hi] = std::minmax_element(scores.begin(), scores.end());
  const int64_t lowest = *lo;
  const int64_t range = *hi - lowest;
  for (int64_t& s : scores) s = range == 0 ? 0 : (s - lowest) * kMaxNodeScore / range;
}

GpuShareViewScore::GpuShareViewScore(std::string_view name, gpu::Policy policy)
    : name_(name), policy_(policy) {
  // berth's policy needs the node model's per-GPU state and model totals: GpuShareScore.
  BERTH_CHECK(policy != gpu::Policy::kBerth, "the view scores only the paper's six policies");
}

bool GpuShareViewScore::PreScore(const CycleContext& ctx,
                                 std::span<const model::NodeIndex> feasible) {
  if (!GpuSharePlugin::PreScore(ctx, feasible)) return false;
  if (policy_ != gpu::Policy::kRandom) return true;
  if (feasible.empty()) return false;
  chosen_ = feasible[GpuShareRandomPick(kGpuShareRandomSeed, ctx.pod, feasible.size())];
  return true;
}

int64_t GpuShareViewScore::Score(const CycleContext& ctx, model::NodeIndex node) const {
  switch (policy_) {
    case gpu::Policy::kRandom:
      return RandomScore(node);
    case gpu::Policy::kDotProd:
      return DotProdScore(node);
    case gpu::Policy::kClustering:
      return ClusteringScore(ctx, node);
    case gpu::Policy::kPacking:
      return PackingScore(node);
    case gpu::Policy::kBestFit:
      return BestFitScore(node);
    case gpu::Policy::kFgd:
      return FgdScore(node);
    case gpu::Policy::kBerth:
      break;
  }
  BERTH_CHECK(false, "the constructor admits only the paper's six policies");
  return 0;
}

void GpuShareViewScore::NormalizeScore(const CycleContext&, std::span<const model::NodeIndex>,
                                       std::span<int64_t> scores) const {
  // Upstream BestFit normalises; the other five score in 0..100 already.
  if (policy_ == gpu::Policy::kBestFit) MinMaxNormalize(scores);
}

int64_t GpuShareViewScore::RandomScore(model::NodeIndex node) const {
  return node == chosen_ ? kMaxNodeScore : 0;
}

int64_t GpuShareViewScore::DotProdScore(model::NodeIndex node) const {
  const gpu::GpuNodeView v = cycle_->View(node);
  const auto max_cpu = static_cast<double>(cycle_->max_cpu_milli());
  const auto max_gpu = static_cast<double>(cycle_->max_gpu_milli());
  // Each component is at most 1 (nothing exceeds the largest node), so 0 <= dot <= 2.
  const double node_cpu =
      static_cast<double>(std::min(v.cpu_free_milli, cycle_->max_cpu_milli())) / max_cpu;
  const double node_gpu = static_cast<double>(v.IdleMilli()) / max_gpu;
  const double pod_cpu =
      static_cast<double>(std::min(request_.cpu_milli, cycle_->max_cpu_milli())) / max_cpu;
  const double pod_gpu = static_cast<double>(v.RequestMilli(request_)) / max_gpu;
  return ScoreOf(gpu::DotProdUnitScore(node_cpu, node_gpu, pod_cpu, pod_gpu));
}

int64_t GpuShareViewScore::ClusteringScore(const CycleContext& ctx, model::NodeIndex node) const {
  const int64_t kind = request_.fraction.has_value() ? 0 : request_.whole;
  const gpu::GpuNodeView v = cycle_->View(node);
  const int64_t max_gpu = cycle_->max_gpu_milli();
  bool same = false;
  int64_t kinds_present = 0;
  for (const GpuKindCount& k : ctx.state.gpu_kinds(node)) {
    if (k.count <= 0) continue;
    ++kinds_present;
    if (k.kind == kind) same = true;
  }
  return gpu::ClusteringScore(std::max<int64_t>(0, max_gpu - v.IdleMilli()), max_gpu, same,
                              kinds_present);
}

int64_t GpuShareViewScore::PackingScore(model::NodeIndex node) const {
  const gpu::GpuNodeView v = cycle_->View(node);
  if (v.shared.empty() && v.free_whole == v.gpus) return gpu::PackingIdleNodeScore(v.free_whole);
  int64_t free_gpus_taken = 0;
  int64_t free_pct_on_taken = 0;
  if (request_.fraction.has_value()) {
    std::optional<std::vector<int32_t>> choice = cycle_->Choose(node, request_);
    // Only for a node GpuSharing let through with that filter disabled: nowhere to go.
    if (!choice.has_value()) return 0;
    for (int32_t slot : *choice) {
      if (slot < 0) {
        ++free_gpus_taken;
      } else {
        free_pct_on_taken += v.shared[static_cast<size_t>(slot)].milli_free * 100 / gpu::kMilliGpu;
      }
    }
  } else {
    // A whole-GPU pod takes free GPUs only: the view keeps no fully free shared GPU.
    free_gpus_taken = request_.whole;
  }
  return gpu::PackingUsedNodeScore(free_gpus_taken, free_pct_on_taken);
}

int64_t GpuShareViewScore::BestFitScore(model::NodeIndex node) const {
  const gpu::GpuNodeView v = cycle_->View(node);
  const std::array<int64_t, 2> free = {v.cpu_free_milli, v.IdleMilli()};
  const std::array<int64_t, 2> request = {request_.cpu_milli, v.RequestMilli(request_)};
  const std::array<double, 2> max_spec = {static_cast<double>(cycle_->max_cpu_milli()),
                                          static_cast<double>(cycle_->max_gpu_milli())};
  std::array<int64_t, 2> slack{};
  // A feasible node has room for the request; max(0, ...) only guards inconsistent input.
  for (size_t i = 0; i < 2; ++i) slack[i] = std::max<int64_t>(0, free[i] - request[i]);
  return ScoreOf(gpu::BestFitUnitScore(slack, max_spec));
}

int64_t GpuShareViewScore::FgdScore(model::NodeIndex node) const {
  if (std::optional<int64_t> memo = cycle_->FgdMemo(node, request_)) return *memo;
  std::optional<std::vector<int32_t>> choice = cycle_->Choose(node, request_);
  // Only for a node GpuSharing let through with that filter disabled: nowhere to go.
  if (!choice.has_value()) return 0;
  const double before = cycle_->NodeFragmentMilli(node);
  const gpu::GpuNodeView after = gpu::Placed(cycle_->View(node), request_, *choice);
  const int64_t score = gpu::FgdScore(before, cycle_->fragmentation().FragmentMilli(after));
  cycle_->StoreFgdMemo(node, request_, score);
  return score;
}

}  // namespace berth::binding
