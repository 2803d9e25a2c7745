// The explicit registration table of binding's plugins (STYLE.md: no static-init tricks):
// filters and scores in kube-scheduler's default-profile order, minus the ones a profile
// disables (filters) or does not weigh (scores). Fresh plugin objects per pod evaluation.
#pragma once

#include <memory>
#include <vector>

#include "binding/filter_plugin.h"
#include "binding/resolved_profile.h"
#include "binding/resource_table.h"
#include "binding/score_plugin.h"

namespace berth::binding {

std::vector<std::unique_ptr<FilterPlugin>> MakeFilterPlugins(const ResolvedProfile& profile);

struct WeightedScorePlugin {
  std::unique_ptr<ScorePlugin> plugin;
  int32_t weight = 1;
};

std::vector<WeightedScorePlugin> MakeScorePlugins(const ResolvedProfile& profile,
                                                  const ResourceTable& resources);

}  // namespace berth::binding
