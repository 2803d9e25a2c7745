// The explicit registration table of binding's plugins (STYLE.md: no static-init tricks):
// filters and scores in kube-scheduler's default-profile order, minus the ones a profile
// disables (filters) or does not weigh (scores), then berth's GPU-sharing score plugins
// (gpu_share_names.h) for profiles that weigh them. Fresh plugin objects per pod evaluation.
#pragma once

#include <memory>
#include <vector>

#include "binding/framework/filter_plugin.h"
#include "binding/framework/resolved_profile.h"
#include "binding/framework/resource_table.h"
#include "binding/framework/score_plugin.h"

namespace berth::binding {

// `gpu_sharing` adds GpuSharing after NodeResourcesFit: for pods with a fractional GPU
// request only, so that it shows in no other pod's verdicts. `dynamic_resources` adds
// DynamicResources last (after InterPodAffinity, upstream's default order): for pods with
// ResourceClaims only, for the same reason. `volumes` adds VolumeRestrictions,
// NodeVolumeLimits, VolumeBinding and VolumeZone after NodeResourcesFit (GpuSharing), in
// upstream's order: for pods with persistentVolumeClaim volumes only. `node_ports` adds
// NodePorts after NodeAffinity (upstream's order): for pods with host ports only, which it
// alone can reject (it skips every other pod at PreFilter), so the other pods' verdicts list
// no NodePorts.
std::vector<std::unique_ptr<FilterPlugin>> MakeFilterPlugins(const ResolvedProfile& profile,
                                                             bool gpu_sharing = false,
                                                             bool dynamic_resources = false,
                                                             bool volumes = false,
                                                             bool node_ports = false);

struct WeightedScorePlugin {
  std::unique_ptr<ScorePlugin> plugin;
  int32_t weight = 1;
};

std::vector<WeightedScorePlugin> MakeScorePlugins(const ResolvedProfile& profile,
                                                  const ResourceTable& resources);

}  // namespace berth::binding
