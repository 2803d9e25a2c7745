// NodeResourcesFit: the filter checks the pod count against allocatable "pods" and every
// requested cpu / memory / ephemeral-storage / scalar resource against allocatable minus
// what the node's pods request (one reason per shortfall, so a node can give several); the
// score applies the profile's strategy (resource_scorer.h).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "binding/framework/filter_plugin.h"
#include "binding/framework/score_plugin.h"
#include "binding/plugins/resource_scorer.h"

namespace berth::binding {

// The requests NodeResourcesFit checks for one pod: its non-zero amounts of fit-checked
// resources, in ResourceId order (cpu, memory, ephemeral-storage, then scalars), which is
// upstream's order of reasons.
struct FitRequest {
  std::vector<std::pair<model::ResourceId, int64_t>> items;
};

FitRequest MakeFitRequest(const PodResources& pod, const ResourceTable& resources);

// Bit 0: "Too many pods"; bit i+1: items[i] is insufficient. 0 means the pod fits.
// Precondition: items.size() < 64.
uint64_t FitFailures(const NodeLoad& load, const FitRequest& request);

class NodeResourcesFitFilter final : public FilterPlugin {
 public:
  std::string_view Name() const override;
  PreFilterResult PreFilter(const CycleContext& ctx) override;
  void Filter(const CycleContext& ctx, model::NodeIndex node,
              std::vector<ReasonId>* reasons) const override;

 private:
  FitRequest request_;
  std::vector<ReasonId> item_reasons_;
  ReasonId too_many_pods_;
};

class NodeResourcesFitScore final : public ScorePlugin {
 public:
  NodeResourcesFitScore(const ResolvedProfile& profile, const ResourceTable& resources)
      : scorer_(profile, resources) {}
  std::string_view Name() const override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;

 private:
  ResourceScorer scorer_;
};

// "Insufficient <resource>".
ReasonId InsufficientReason(ReasonTable& reasons, const std::string& resource);

}  // namespace berth::binding
