#include "placement/cluster_scorer.h"

#include <utility>

#include "placement/berth_scorers.h"
#include "placement/builtin_scorers.h"

namespace berth::placement {

void ScorerRegistry::Register(std::string built_in_name, Factory factory) {
  factories_[std::move(built_in_name)] = std::move(factory);
}

std::unique_ptr<ClusterScorer> ScorerRegistry::Make(std::string_view built_in_name) const {
  auto it = factories_.find(built_in_name);
  if (it == factories_.end()) return nullptr;
  return it->second();
}

bool ScorerRegistry::Contains(std::string_view built_in_name) const {
  return factories_.find(built_in_name) != factories_.end();
}

ScorerRegistry ScorerRegistry::Upstream() {
  ScorerRegistry registry;
  registry.Register("Balance", [] { return MakeBalanceScorer(); });
  registry.Register("Steady", [] { return MakeSteadyScorer(); });
  registry.Register("ResourceAllocatableCPU",
                    [] { return MakeResourceAllocatableScorer("ResourceAllocatableCPU", "cpu"); });
  registry.Register("ResourceAllocatableMemory", [] {
    return MakeResourceAllocatableScorer("ResourceAllocatableMemory", "memory");
  });
  return registry;
}

ScorerRegistry ScorerRegistry::Berth() {
  ScorerRegistry registry = Upstream();
  registry.Register(kResourceAllocatableGpuScorer,
                    [] { return MakeResourceAllocatableGpuScorer(); });
  registry.Register(kCostScorer, [] { return MakeCostScorer(); });
  registry.Register(kLatencyScorer, [] { return MakeLatencyScorer(); });
  registry.Register(kDataLocalityScorer, [] { return MakeDataLocalityScorer(); });
  return registry;
}

}  // namespace berth::placement
