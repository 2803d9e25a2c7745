// The objects that say where datasets and models are and how big they are: Fluid's Dataset,
// its cache runtimes (AlluxioRuntime, JuiceFSRuntime, JindoRuntime) and DataLoad
// (data.fluid.io/v1alpha1), KServe's InferenceService and ClusterServingRuntime
// (serving.kserve.io), and the storage location a model or dataset is read from. Plain
// data, read by io; the data module's transfer model and placement's DataLocality plan
// with them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/selector.h"
#include "model/object_meta.h"

namespace berth::model {

// The label KServe puts on an InferenceService's Deployments and predictor pods.
inline constexpr const char* kInferenceServiceLabel = "serving.kserve.io/inferenceservice";

// Node labels saying an artifact is cached on the node ("true"): berth's own for models
// (models.cache.berth.dev/<name>), and Fluid's for a dataset's cache
// (fluid.io/s-<namespace>-<dataset>, pkg/utils GetNamespacedNameValueWithPrefix).
inline constexpr const char* kModelCacheLabelPrefix = "models.cache.berth.dev/";
inline constexpr const char* kFluidDatasetLabelPrefix = "fluid.io/s-";

// Node labels overriding the default table's bandwidths for one node, bytes per second as a
// quantity ("1250M" = 1.25 GB/s, a 10 Gbit/s NIC): bandwidth.berth.dev/nic, .../disk-read,
// .../host-to-gpu (engine/model_load.h BuildDataInputs).
inline constexpr const char* kNodeBandwidthLabelPrefix = "bandwidth.berth.dev/";

// Where an artifact's bytes live, parsed from a URI: KServe's storageUri (s3://, gs://,
// hf://, pvc://, oci://, https://, http://) or a Fluid mount point (also oss://, hdfs://,
// local://). `location` is the bucket, host, claim, repository or registry; `path` the rest.
struct StorageLocation {
  std::string uri;     // as written
  std::string scheme;  // "s3", "gs", "hf", "pvc", "oci", "https", "http", "oss", "hdfs", "local"
  std::string location;
  std::string path;
};

// Fluid's cacheStates, parsed from its human strings ("2.5GiB", "35.0%"); unset when the
// status did not say.
struct CacheStates {
  std::optional<int64_t> cached_bytes;      // "cached"
  std::optional<int64_t> capacity_bytes;    // "cacheCapacity"
  std::optional<double> cached_percentage;  // "cachedPercentage", 0..100
};

// data.fluid.io/v1alpha1 Dataset.
struct Dataset {
  ObjectMeta meta;
  std::vector<StorageLocation> mounts;  // spec.mounts[].mountPoint, in order
  // spec.nodeAffinity.required: where its cache may live.
  std::optional<core::NodeSelector> node_affinity;
  std::string phase;                     // status.phase: Pending, Bound, NotBound, Failed, ...
  std::optional<int64_t> ufs_total_bytes;  // status.ufsTotal: the size at the source
  CacheStates cache;                     // status.cacheStates
  std::string cluster = "default";
  SourceRef source;
};

// A Fluid cache runtime (AlluxioRuntime, JuiceFSRuntime, JindoRuntime): bound to the
// Dataset of the same namespace and name.
struct DataRuntime {
  std::string kind;  // "AlluxioRuntime", "JuiceFSRuntime", "JindoRuntime"
  ObjectMeta meta;
  int32_t replicas = 1;  // spec.replicas: cache workers
  struct Level {
    std::string medium;        // MEM, SSD, HDD
    int64_t quota_bytes = 0;   // quota, or the sum of quotaList
    double high = 0;           // high watermark ratio (0: unset)
    double low = 0;
  };
  std::vector<Level> levels;  // spec.tieredstore.levels
  int32_t workers_ready = 0;  // status.workerNumberReady
  CacheStates cache;          // status.cacheStates
  std::string cluster = "default";
  SourceRef source;
};

// data.fluid.io/v1alpha1 DataLoad: a prefetch of a dataset into its cache.
struct DataLoad {
  ObjectMeta meta;
  std::string dataset_namespace;  // spec.dataset.namespace (the DataLoad's when empty)
  std::string dataset_name;
  std::vector<std::string> paths;  // spec.target[].path ("/" when none)
  std::string policy = "Once";     // Once, Cron, OnEvent
  std::string phase;               // status.phase
  std::string cluster = "default";
  SourceRef source;
};

// serving.kserve.io ClusterServingRuntime (and the namespaced ServingRuntime): which model
// formats it serves.
struct ServingRuntime {
  bool cluster_scoped = true;
  ObjectMeta meta;
  struct Format {
    std::string name;
    std::string version;
    bool auto_select = false;
    int32_t priority = 0;
  };
  std::vector<Format> formats;  // spec.supportedModelFormats
  bool disabled = false;        // spec.disabled
  std::string cluster = "default";
  SourceRef source;
};

// The model an InferenceService serves (spec.predictor.model, or the predictor's first
// container's STORAGE_URI for custom predictors). Its pods are the WorkloadObject io makes
// of the InferenceService (pod set "predictor").
struct InferenceServiceModel {
  ObjectMeta meta;  // the InferenceService's
  std::string format;          // spec.predictor.model.modelFormat.name
  std::string format_version;
  std::string runtime;         // spec.predictor.model.runtime ("" = auto-selected)
  StorageLocation storage;     // spec.predictor.model.storageUri
  int32_t min_replicas = 1;
  int32_t max_replicas = 0;    // 0: as min
  // The model's size: annotation berth.dev/model-size (a quantity) when nothing upstream
  // carries it; unset when not given.
  std::optional<int64_t> size_bytes;
  // Annotation berth.dev/model-region: the origin's region (object stores name none).
  std::string origin_region;
  // Annotations for its fetch schedule (engine/model_load.h): berth.dev/max-origin-pulls
  // (concurrent origin pulls; unset: the default) and berth.dev/model-p2p ("true": nodes
  // of a cluster copy the model from one another).
  std::optional<int32_t> max_origin_pulls;
  bool p2p = false;
  // Annotations berth.dev/origin-stream-bandwidth and origin-egress-bandwidth: the origin's
  // bytes per second for one pull and for all together; unset: the default table.
  std::optional<int64_t> origin_stream_bytes_per_s;
  std::optional<int64_t> origin_egress_bytes_per_s;
  std::string cluster = "default";
  SourceRef source;
};

// The name a node label models.cache.berth.dev/<name> (and a cache claim, a Placement's
// berth.dev/models) gives the model: the InferenceService's berth.dev/models annotation
// (its first entry, without a "=size"), else the storage URI's last path segment
// lowercased (hf://meta-llama/Llama-3.1-8B -> "llama-3.1-8b").
std::string ModelCacheName(const InferenceServiceModel& model);

// Fluid's node label for `dataset`'s cache: fluid.io/s-<namespace>-<name>.
std::string FluidDatasetLabel(const ObjectMeta& dataset);

}  // namespace berth::model
