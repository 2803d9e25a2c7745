// ScorePlugin: one kube-scheduler score plugin (PreScore + Score + NormalizeScore). A plugin
// object lives for one pod's evaluation. Made by MakeScorePlugins (plugin_registry.h).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "binding/framework/cycle_context.h"
#include "model/node.h"

namespace berth::binding {

class ScorePlugin {
 public:
  virtual ~ScorePlugin() = default;
  virtual std::string_view Name() const = 0;
  // Returns false when the plugin has nothing to score for this pod (upstream PreScore
  // Skip): it then adds nothing to any node.
  virtual bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) {
    return true;
  }
  virtual int64_t Score(const CycleContext& ctx, model::NodeIndex node) const = 0;
  // Rewrites scores[i] (of feasible[i]) into 0..100. The default leaves them.
  virtual void NormalizeScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible,
                              std::span<int64_t> scores) const {}
};

}  // namespace berth::binding
