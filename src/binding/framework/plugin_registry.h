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

// The filters only the pods that can fail them run, so that they show in no other pod's
// verdicts; each goes where upstream's default order puts it.
struct OptionalFilters {
  bool gpu_sharing = false;        // GpuSharing after NodeResourcesFit: fractional GPU requests
  bool dynamic_resources = false;  // DynamicResources last (after InterPodAffinity): claims
  // VolumeRestrictions, NodeVolumeLimits, VolumeBinding and VolumeZone after NodeResourcesFit
  // (GpuSharing): pods with persistentVolumeClaim volumes.
  bool volumes = false;
  // NodePorts after NodeAffinity: pods with host ports (it skips every other pod at PreFilter).
  bool node_ports = false;
};

// The profile's filters in upstream's order, with the optional ones asked for.
std::vector<std::unique_ptr<FilterPlugin>> MakeFilterPlugins(const ResolvedProfile& profile,
                                                             OptionalFilters optional = {});

struct WeightedScorePlugin {
  std::unique_ptr<ScorePlugin> plugin;
  int32_t weight = 1;
};

std::vector<WeightedScorePlugin> MakeScorePlugins(const ResolvedProfile& profile,
                                                  const ResourceTable& resources);

}  // namespace berth::binding
