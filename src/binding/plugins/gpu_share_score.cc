#include "binding/plugins/gpu_share_score.h"

#include <optional>
#include <utility>

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/resolved_profile.h"
#include "gpu/gpu_inventory.h"
#include "gpu/node_state.h"
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

uint64_t PodSeededRandom::UniformIntByRemainder(uint64_t n) {
  return GpuShareRandomPick(seed_, pod_, static_cast<size_t>(n));
}

bool GpuShareScore::PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) {
  // The Scheduler builds the cycle whenever a profile weighs one of these plugins.
  if (ctx.gpu_share == nullptr) return false;
  cycle_ = ctx.gpu_share;
  if (!gpu::ReadsKaiView(policy_)) return PreScoreNodeModel(ctx);
  scorer_ = &cycle_->Scorer(policy_);
  model_ = nullptr;
  request_ = cycle_->Request(ctx.info);
  if (!request_.any()) return false;
  uniform_ = scorer_->always_uniform();
  if (uniform_) {
    if (feasible.empty()) return false;
    PodSeededRandom rng(kGpuShareRandomSeed, ctx.pod);
    chosen_ = feasible[rng.UniformIntByRemainder(feasible.size())];
  }
  return true;
}

bool GpuShareScore::PreScoreNodeModel(const CycleContext& ctx) {
  GpuShareNodeModel& model = cycle_->node_model();
  std::optional<gpu::PodSpec> shape = model.Shape(ctx.pod, ctx.info);
  if (!shape.has_value()) return false;
  model.Sync();
  model.SetScoredPod(&ctx.info, policy_);
  shape_ = std::move(*shape);
  scorer_ = &model.Scorer(policy_);
  model_ = &model;
  uniform_ = false;
  return true;
}

int64_t GpuShareScore::Score(const CycleContext&, model::NodeIndex node) const {
  if (uniform_) return node == chosen_ ? gpu::kMaxNodeScore : 0;
  if (model_ == nullptr) {
    return scorer_->Score(request_, GpuShareCycle::Node(*cycle_, node), cycle_->kai_cluster());
  }
  const gpu::GpuCluster& cluster = model_->cluster();
  const gpu::NodeState& state = cluster.node(node.v);
  // binding's filters passed; a node the model sees otherwise (a GPU-memory limit it does
  // not know, more GPUs than it holds) is scored as the worst.
  if (!gpu::Fits(shape_, state)) return 0;
  return scorer_->Score(shape_, state, cluster.node_fragment_milli(node.v));
}

void GpuShareScore::NormalizeScore(const CycleContext&, std::span<const model::NodeIndex>,
                                   std::span<int64_t> scores) const {
  if (scorer_ != nullptr && scorer_->min_max_normalised()) gpu::MinMaxNormalize(scores);
}

bool WeighsGpuShareNodeModel(const ResolvedProfile& profile) {
  for (const GpuShareNodeModelPlugin& p : kGpuShareNodeModelPlugins) {
    if (profile.Weight(p.name) > 0) return true;
  }
  return false;
}

bool GpuShareScoresPod(const CycleContext& ctx) {
  if (!ctx.profile.gpu_share_scoring()) return false;
  // A policy on the gpu node model scores every pod, CPU-only ones included.
  if (WeighsGpuShareNodeModel(ctx.profile)) return true;
  if (ctx.info.RequestsGpuFraction()) return true;
  model::ResourceId gpu;
  return ctx.resources.Find(gpu::kResourceGpu, &gpu) && ctx.info.resources.request(gpu) > 0;
}

}  // namespace berth::binding
