#include "binding/framework/resolved_profile.h"

#include <string>

#include "binding/framework/gpu_share_names.h"

namespace berth::binding {

namespace {

std::vector<ScoredResource> Resolve(const std::vector<model::ResourceWeight>& in,
                                    const ResourceTable& resources) {
  std::vector<ScoredResource> out;
  out.reserve(in.size());
  for (const auto& rw : in) {
    ScoredResource r;
    r.present = resources.Find(rw.name, &r.id);
    r.weight = rw.weight == 0 ? 1 : rw.weight;
    out.push_back(r);
  }
  return out;
}

}  // namespace

ResolvedProfile::ResolvedProfile(const model::SchedulerProfile& profile, int32_t index,
                                 const ResourceTable& resources)
    : source_(&profile), index_(index), strategy_(profile.fit_strategy.type) {
  fit_resources_ = Resolve(profile.fit_strategy.resources, resources);
  balanced_resources_ = Resolve(profile.balanced_resources, resources);
  if (profile.fit_strategy.shape.empty()) {
    shape_ = {{0, 100}, {100, 0}};
  } else {
    for (const auto& p : profile.fit_strategy.shape) {
      // MaxNodeScore / MaxCustomPriorityScore = 100 / 10.
      shape_.push_back(ShapePoint{p.utilization, static_cast<int64_t>(p.score) * 10});
    }
  }
  for (const GpuSharePluginName& plugin : kGpuSharePlugins) {
    if (Weight(plugin.name) > 0) gpu_share_scoring_ = true;
  }
  for (const GpuShareNodeModelPlugin& plugin : kGpuShareNodeModelPlugins) {
    if (Weight(plugin.name) > 0) gpu_share_scoring_ = true;
  }
}

bool ResolvedProfile::FilterEnabled(std::string_view plugin) const {
  return source_->disabled_filters.count(std::string(plugin)) == 0;
}

int32_t ResolvedProfile::Weight(std::string_view plugin) const {
  auto it = source_->score_weights.find(std::string(plugin));
  if (it == source_->score_weights.end()) return 0;
  // Upstream: "a weight of zero is not permitted", the framework makes it 1.
  return it->second == 0 ? 1 : it->second;
}

}  // namespace berth::binding
