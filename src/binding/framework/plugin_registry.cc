#include "binding/framework/plugin_registry.h"

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/plugin_names.h"
#include "binding/plugins/balanced_allocation.h"
#include "binding/plugins/dynamic_resources.h"
#include "binding/plugins/gpu_share_score.h"
#include "binding/plugins/gpu_sharing.h"
#include "binding/plugins/inter_pod_affinity.h"
#include "binding/plugins/model_locality.h"
#include "binding/plugins/node_affinity.h"
#include "binding/plugins/node_name.h"
#include "binding/plugins/node_ports.h"
#include "binding/plugins/node_resources_fit.h"
#include "binding/plugins/node_unschedulable.h"
#include "binding/plugins/node_volume_limits.h"
#include "binding/plugins/pod_topology_spread.h"
#include "binding/plugins/taint_toleration.h"
#include "binding/plugins/volume_binding.h"
#include "binding/plugins/volume_restrictions.h"
#include "binding/plugins/volume_zone.h"

namespace berth::binding {

std::vector<std::unique_ptr<FilterPlugin>> MakeFilterPlugins(const ResolvedProfile& profile,
                                                             OptionalFilters optional) {
  std::vector<std::unique_ptr<FilterPlugin>> all;
  all.push_back(std::make_unique<NodeUnschedulableFilter>());
  all.push_back(std::make_unique<NodeNameFilter>());
  all.push_back(std::make_unique<TaintTolerationFilter>());
  all.push_back(std::make_unique<NodeAffinityFilter>());
  if (optional.node_ports) all.push_back(std::make_unique<NodePortsFilter>());
  all.push_back(std::make_unique<NodeResourcesFitFilter>());
  if (optional.gpu_sharing) all.push_back(std::make_unique<GpuSharingFilter>());
  if (optional.volumes) {
    all.push_back(std::make_unique<VolumeRestrictionsFilter>());
    all.push_back(std::make_unique<NodeVolumeLimitsFilter>());
    all.push_back(std::make_unique<VolumeBindingFilter>());
    all.push_back(std::make_unique<VolumeZoneFilter>());
  }
  all.push_back(std::make_unique<PodTopologySpreadFilter>());
  all.push_back(std::make_unique<InterPodAffinityFilter>());
  if (optional.dynamic_resources) all.push_back(std::make_unique<DynamicResourcesFilter>());
  std::vector<std::unique_ptr<FilterPlugin>> enabled;
  for (auto& p : all) {
    if (profile.FilterEnabled(p->Name())) enabled.push_back(std::move(p));
  }
  return enabled;
}

std::vector<WeightedScorePlugin> MakeScorePlugins(const ResolvedProfile& profile,
                                                  const ResourceTable& resources) {
  std::vector<std::unique_ptr<ScorePlugin>> all;
  all.push_back(std::make_unique<TaintTolerationScore>());
  all.push_back(std::make_unique<NodeAffinityScore>());
  all.push_back(std::make_unique<NodeResourcesFitScore>(profile, resources));
  all.push_back(std::make_unique<PodTopologySpreadScore>());
  all.push_back(std::make_unique<InterPodAffinityScore>());
  all.push_back(std::make_unique<BalancedAllocationScore>(profile, resources));
  // berth's GPU-sharing policies, one plugin class running the gpu::NodeScorer each name
  // selects, in the FGD paper's order and then berth's; only a profile that names one gives
  // it a weight.
  if (profile.gpu_share_scoring()) {
    for (const GpuSharePluginName& plugin : kGpuSharePlugins) {
      all.push_back(std::make_unique<GpuShareScore>(plugin.name, plugin.policy));
    }
    for (const GpuShareNodeModelPlugin& plugin : kGpuShareNodeModelPlugins) {
      all.push_back(std::make_unique<GpuShareScore>(plugin.name, plugin.policy));
    }
  }
  // berth's artifact locality: weighed only when the profile lists it.
  all.push_back(std::make_unique<ModelLocalityScore>());
  std::vector<WeightedScorePlugin> enabled;
  for (auto& p : all) {
    int32_t w = profile.Weight(p->Name());
    if (w > 0) enabled.push_back(WeightedScorePlugin{std::move(p), w});
  }
  return enabled;
}

}  // namespace berth::binding
