// berth's prioritizers beyond upstream's four, as ClusterScorers registered in
// ScorerRegistry::Berth() under their BuiltIn names. Each scores in [-100, 100] and gives
// no entry to a cluster it has no data for (the cluster then gains nothing from it, as
// with upstream's ResourceAllocatable). Inputs and formulas: docs/placement.md, "berth
// extensions". Called by SchedulePlacement through the registry; immutable, thread-compatible.
#pragma once

#include <memory>

#include "model/berth_names.h"
#include "placement/cluster_scorer.h"

namespace berth::placement {

// BuiltIn names.
inline constexpr const char* kResourceAllocatableGpuScorer = "ResourceAllocatableGPU";
inline constexpr const char* kCostScorer = "Cost";
inline constexpr const char* kLatencyScorer = "Latency";
inline constexpr const char* kDataLocalityScorer = "DataLocality";

// Placement annotations the scorers read.
inline constexpr const char* kGpuProductAnnotation = model::kBerthGpuProductKey;
inline constexpr const char* kUserLocationsAnnotation = model::kBerthUserLocationsKey;
inline constexpr const char* kModelsAnnotation = model::kBerthModelsKey;
inline constexpr const char* kDatasetsAnnotation = model::kBerthDatasetsKey;

// ManagedCluster claims (status.clusterClaims) and labels the scorers read. Where both
// may carry a key, the claim wins.
inline constexpr const char* kGpuHourPriceKey = model::kBerthGpuHourPriceKey;  // claim or label
inline constexpr const char* kCostClassKey = model::kBerthCostClassKey;        // claim or label
inline constexpr const char* kLatencyClaim = "latency.berth.dev";
inline constexpr const char* kRegionKey = "region.open-cluster-management.io";  // claim or label
inline constexpr const char* kTopologyRegionLabel = "topology.kubernetes.io/region";
inline constexpr const char* kModelsCacheClaim = "models.cache.berth.dev";
inline constexpr const char* kDatasetsCacheClaim = "datasets.cache.berth.dev";

// Free GPUs: FleetCapacity's free GPUs of the product in annotation berth.dev/gpu-product
// (exact match; all products without it), else status.allocatable["nvidia.com/gpu"] when
// no product is asked for; min-max normalised: trunc(((v − min)/(max − min) − 0.5) × 200),
// 100 each when max == min.
std::unique_ptr<ClusterScorer> MakeResourceAllocatableGpuScorer();

// Price per GPU-hour (berth.dev/gpu-hour-price, a decimal), else the relative price of
// berth.dev/cost-class (spot 0.3, reserved 0.6, on-demand 1.0, premium 1.5); cheapest
// +100, dearest −100 (min-max). A price that does not parse or an unknown class: no entry
// and one warning naming the cluster.
std::unique_ptr<ClusterScorer> MakeCostScorer();

// Mean latency (ms) from the cluster to the locations in berth.dev/user-locations, read
// from claim latency.berth.dev ("eu-west=12,us-east=85"); a location equal to the
// cluster's region is 0 ms when the table lacks it. Lowest +100, highest −100 (min-max).
// No entry when some location is unknown for the cluster; no entries without the
// annotation. A malformed table: no entry and a warning.
std::unique_ptr<ClusterScorer> MakeLatencyScorer();

// Share of the bytes of the models and datasets the placement names (berth.dev/models,
// berth.dev/datasets: "name[=size],...", size 1 when omitted) that the cluster caches:
// trunc(200 × cached/total − 100). No entry for a cluster with neither cache claims nor a
// FleetCapacity entry; no entries without the annotations.
std::unique_ptr<ClusterScorer> MakeDataLocalityScorer();

}  // namespace berth::placement
