// SchedulerConfig: what a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) says
// about filtering and scoring, with kube-scheduler's defaults when no object is given.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace berth::model {

enum class ScoringStrategyType { kLeastAllocated, kMostAllocated, kRequestedToCapacityRatio };

struct ResourceWeight {
  std::string name;
  int64_t weight = 1;
};

struct UtilizationShapePoint {
  int32_t utilization = 0;  // 0..100
  int32_t score = 0;        // 0..10, scaled to 0..100 as upstream does
};

struct ScoringStrategy {
  ScoringStrategyType type = ScoringStrategyType::kLeastAllocated;
  std::vector<ResourceWeight> resources = {{"cpu", 1}, {"memory", 1}};
  std::vector<UtilizationShapePoint> shape;  // RequestedToCapacityRatio only
};

struct SchedulerProfile {
  std::string scheduler_name = "default-scheduler";
  ScoringStrategy fit_strategy;
  // Score plugin weights; kube-scheduler's defaults. A plugin absent here does not score.
  std::map<std::string, int32_t> score_weights = {
      {"NodeResourcesFit", 1},      {"NodeResourcesBalancedAllocation", 1},
      {"TaintToleration", 3},       {"NodeAffinity", 2},
      {"PodTopologySpread", 2},     {"InterPodAffinity", 2},
  };
  std::set<std::string> disabled_filters;
  // NodeResourcesBalancedAllocation's resources (default cpu and memory).
  std::vector<ResourceWeight> balanced_resources = {{"cpu", 1}, {"memory", 1}};
};

struct SchedulerConfig {
  std::vector<SchedulerProfile> profiles = {SchedulerProfile{}};
  // Pods whose schedulerName matches no profile are left alone (not berth's to place).
  const SchedulerProfile* FindProfile(const std::string& scheduler_name) const;
};

}  // namespace berth::model
