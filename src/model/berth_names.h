// The berth.dev/ label and annotation keys berth reads or writes, in one list: io warns
// about a berth.dev/ key on an input object that is none of them (a misspelling would
// otherwise be ignored without a word). The modules that read a key name it by their own
// constant beside the code (model/object_meta.h, model/work.h, placement/berth_scorers.h,
// gpu/gpu_inventory.h), defined as the one here.
// Constant data; thread-safe.
//
// Not listed: berth's score plugin names (berth.dev/GpuShare..., binding's
// framework/gpu_share_names.h), which are plugin names in a KubeSchedulerConfiguration, not
// keys, and the other berth domains (models.cache.berth.dev/, sim.berth.dev/).
#pragma once

#include <string_view>

namespace berth::model {

inline constexpr std::string_view kBerthNamePrefix = "berth.dev/";

// Any object: the member cluster it lives in (DESIGN.md, fleet wiring).
inline constexpr const char* kBerthClusterKey = "berth.dev/cluster";
// ManifestWorks berth plans: the workload ("<ns>.<name>") and the admission check that
// placed it, so a later plan finds them.
inline constexpr const char* kBerthWorkloadKey = "berth.dev/workload";
inline constexpr const char* kBerthPlacedByKey = "berth.dev/placed-by";
// Placements (annotations), read by placement's berth scorers: the GPU product whose free
// capacity counts, user locations for latency, models and datasets for data locality.
inline constexpr const char* kBerthGpuProductKey = "berth.dev/gpu-product";
inline constexpr const char* kBerthUserLocationsKey = "berth.dev/user-locations";
inline constexpr const char* kBerthModelsKey = "berth.dev/models";
inline constexpr const char* kBerthDatasetsKey = "berth.dev/datasets";
// ManagedClusters (label, or a ClusterClaim of that name): price per GPU-hour, cost class.
inline constexpr const char* kBerthGpuHourPriceKey = "berth.dev/gpu-hour-price";
inline constexpr const char* kBerthCostClassKey = "berth.dev/cost-class";
// Nodes (label or annotation): the device plugin's failRequestsGreaterThanOne setting.
inline constexpr const char* kBerthFailRequestsGreaterThanOneKey =
    "berth.dev/gpu-sharing.fail-requests-greater-than-one";

// FederatedLearnings and Fluid Datasets (annotations): the data's compliance requirements
// (model/data_residency.h); FederatedLearnings: a round's timeout,
// the rounds of growing loss that abort, the server's cluster (model/federated_learning.h).
inline constexpr const char* kBerthDataComplianceKey = "berth.dev/data-compliance";
inline constexpr const char* kBerthRoundTimeoutKey = "berth.dev/round-timeout";
inline constexpr const char* kBerthDivergenceRoundsKey = "berth.dev/divergence-rounds";
inline constexpr const char* kBerthServerClusterKey = "berth.dev/server-cluster";
// ManifestWorks planned for a FederatedLearning (labels), and the progress its server
// reports on its own Job (annotations read back as status feedback).
inline constexpr const char* kBerthFederatedLearningKey = "berth.dev/federated-learning";
inline constexpr const char* kBerthFederatedLearningRoleKey = "berth.dev/federated-learning-role";
inline constexpr const char* kBerthFlCurrentRoundKey = "berth.dev/fl-current-round";
inline constexpr const char* kBerthFlLossKey = "berth.dev/fl-loss";

// InferenceServices (annotations): the model's size (a quantity of bytes) and its origin's
// region, when nothing upstream carries them (model/data_objects.h).
inline constexpr const char* kBerthModelSizeKey = "berth.dev/model-size";
inline constexpr const char* kBerthModelRegionKey = "berth.dev/model-region";
// InferenceServices (annotations): the fetch schedule's limit of concurrent origin pulls,
// and whether nodes of a cluster copy the model from one another (engine/model_load.h).
inline constexpr const char* kBerthMaxOriginPullsKey = "berth.dev/max-origin-pulls";
inline constexpr const char* kBerthModelP2pKey = "berth.dev/model-p2p";
// InferenceServices (annotations): the origin's bandwidth, bytes per second as a quantity
// ("300M"): one pull, and all pulls together (the egress they share); unset: the default
// table (docs/data.md).
inline constexpr const char* kBerthOriginStreamKey = "berth.dev/origin-stream-bandwidth";
inline constexpr const char* kBerthOriginEgressKey = "berth.dev/origin-egress-bandwidth";
// Fluid Datasets, InferenceServices and Placements (annotations): the regions the data may
// be stored and processed in, comma separated (a hard placement predicate,
// model/data_residency.h); Fluid Datasets and Placements: the region of the artifact's
// origin (an InferenceService says it with berth.dev/model-region).
inline constexpr const char* kBerthDataRegionsKey = "berth.dev/data-regions";
inline constexpr const char* kBerthOriginRegionKey = "berth.dev/origin-region";

// Every key above, for the misspelling check.
inline constexpr std::string_view kBerthNames[] = {
    kBerthClusterKey,       kBerthWorkloadKey,
    kBerthPlacedByKey,      kBerthGpuProductKey,
    kBerthUserLocationsKey, kBerthModelsKey,
    kBerthDatasetsKey,      kBerthGpuHourPriceKey,
    kBerthCostClassKey,     kBerthFailRequestsGreaterThanOneKey,
    kBerthDataComplianceKey, kBerthRoundTimeoutKey,
    kBerthDivergenceRoundsKey, kBerthServerClusterKey,
    kBerthFederatedLearningKey, kBerthFederatedLearningRoleKey,
    kBerthModelSizeKey, kBerthModelRegionKey,
    kBerthMaxOriginPullsKey, kBerthModelP2pKey,
    kBerthFlCurrentRoundKey, kBerthFlLossKey,
    kBerthDataRegionsKey,   kBerthOriginRegionKey,
    kBerthOriginStreamKey,  kBerthOriginEgressKey,
};

}  // namespace berth::model
