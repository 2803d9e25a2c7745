#include "binding/plugins/gpu_share_plugin.h"

#include <algorithm>

#include "binding/framework/plugin_names.h"
#include "binding/plugins/gpu_share_score.h"
#include "gpu/gpu_inventory.h"

namespace berth::binding {

bool GpuSharePlugin::PreScore(const CycleContext& ctx, std::span<const model::NodeIndex>) {
  // The Scheduler builds the cycle whenever a profile weighs one of these plugins.
  if (ctx.gpu_share == nullptr) return false;
  cycle_ = ctx.gpu_share;
  request_ = cycle_->Request(ctx.info);
  return request_.any();
}

bool GpuShareScoresPod(const CycleContext& ctx) {
  if (!ctx.profile.gpu_share_scoring()) return false;
  // A policy on the gpu node model scores every pod, CPU-only ones included.
  if (WeighsGpuShareNodeModel(ctx.profile)) return true;
  if (ctx.info.RequestsGpuFraction()) return true;
  model::ResourceId gpu;
  return ctx.resources.Find(gpu::kResourceGpu, &gpu) && ctx.info.resources.request(gpu) > 0;
}

int64_t ScoreOf(double v) {
  const auto score = static_cast<int64_t>(v * static_cast<double>(kMaxNodeScore));
  return std::clamp<int64_t>(score, 0, kMaxNodeScore);
}

}  // namespace berth::binding
