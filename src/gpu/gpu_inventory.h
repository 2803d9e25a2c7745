// GPU inventory of one node as the NVIDIA device plugin and GPU Feature Discovery expose it:
// the physical GPUs (product, memory, family, compute capability, NVLink clique), their MIG
// layout (strategies none / single / mixed, placements derived with mig_geometry when the
// labels only count instances), the sharing mode (time-slicing or MPS with replicas,
// renameByDefault, failRequestsGreaterThanOne) and the devices each GPU advertises as
// extended resources. Read from a model::Node's labels, annotations and allocatable by
// binding (which GPUs can take fractions), gpu_occupancy and `berth inventory`. Pure
// functions and values; thread-safe. Label reference and assumptions: docs/gpus.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/mig_geometry.h"
#include "model/berth_names.h"
#include "model/node.h"
#include "model/resources.h"

namespace berth::gpu {

// GPU Feature Discovery / device plugin / MIG manager labels.
inline constexpr std::string_view kLabelGpuProduct = "nvidia.com/gpu.product";
inline constexpr std::string_view kLabelGpuCount = "nvidia.com/gpu.count";
inline constexpr std::string_view kLabelGpuMemory = "nvidia.com/gpu.memory";  // MiB
inline constexpr std::string_view kLabelGpuFamily = "nvidia.com/gpu.family";
inline constexpr std::string_view kLabelComputeMajor = "nvidia.com/gpu.compute.major";
inline constexpr std::string_view kLabelComputeMinor = "nvidia.com/gpu.compute.minor";
inline constexpr std::string_view kLabelGpuClique = "nvidia.com/gpu.clique";
inline constexpr std::string_view kLabelGpuReplicas = "nvidia.com/gpu.replicas";
inline constexpr std::string_view kLabelSharingStrategy = "nvidia.com/gpu.sharing-strategy";
inline constexpr std::string_view kLabelMigStrategy = "nvidia.com/mig.strategy";
inline constexpr std::string_view kLabelMigConfig = "nvidia.com/mig.config";
inline constexpr std::string_view kLabelMigConfigState = "nvidia.com/mig.config.state";
// GFD's presence label, NFD's NVIDIA PCI vendor label (0x10de) and the device plugin's
// per-node configuration selector (its config-manager picks that key of the plugin ConfigMap).
inline constexpr std::string_view kLabelGpuPresent = "nvidia.com/gpu.present";
inline constexpr std::string_view kLabelPciNvidiaPresent = "feature.node.kubernetes.io/pci-10de.present";
inline constexpr std::string_view kLabelDevicePluginConfig = "nvidia.com/device-plugin.config";
// GFD's driver and CUDA labels (internal/lm/nvml.go): the driver version split in three, and
// the highest CUDA version the driver supports ("runtime" is GFD's name for it). The older
// cuda.driver.* / cuda.runtime.* names are deprecated but still written.
inline constexpr std::string_view kLabelCudaDriverMajor = "nvidia.com/cuda.driver-version.major";
inline constexpr std::string_view kLabelCudaDriverMinor = "nvidia.com/cuda.driver-version.minor";
inline constexpr std::string_view kLabelCudaDriverRevision = "nvidia.com/cuda.driver-version.revision";
inline constexpr std::string_view kLabelCudaRuntimeMajor = "nvidia.com/cuda.runtime-version.major";
inline constexpr std::string_view kLabelCudaRuntimeMinor = "nvidia.com/cuda.runtime-version.minor";
inline constexpr std::string_view kLabelCudaDriverMajorDeprecated = "nvidia.com/cuda.driver.major";
inline constexpr std::string_view kLabelCudaDriverMinorDeprecated = "nvidia.com/cuda.driver.minor";
inline constexpr std::string_view kLabelCudaDriverRevDeprecated = "nvidia.com/cuda.driver.rev";
inline constexpr std::string_view kLabelCudaRuntimeMajorDeprecated = "nvidia.com/cuda.runtime.major";
inline constexpr std::string_view kLabelCudaRuntimeMinorDeprecated = "nvidia.com/cuda.runtime.minor";
// The device plugin's failRequestsGreaterThanOne lives in its config file, which no Node
// object shows; berth reads it from this label or annotation ("true"/"false") on the node.
inline constexpr std::string_view kFailRequestsGreaterThanOneKey =
    model::kBerthFailRequestsGreaterThanOneKey;

inline constexpr std::string_view kResourceGpu = "nvidia.com/gpu";
// NVIDIA's DRA driver: the driver name of its ResourceSlices' GPU devices.
inline constexpr std::string_view kDraGpuDriver = "gpu.nvidia.com";
inline constexpr std::string_view kResourceMigPrefix = "nvidia.com/mig-";
inline constexpr std::string_view kSharedSuffix = ".shared";

enum class MigStrategy { kNone, kSingle, kMixed };
enum class SharingMode { kNone, kTimeSlicing, kMps };

std::string_view MigStrategyName(MigStrategy s);  // "none", "single", "mixed"
std::string_view SharingModeName(SharingMode m);  // "none", "time-slicing", "mps"

// True for the extended resources the NVIDIA device plugin advertises: nvidia.com/gpu,
// nvidia.com/gpu.shared, nvidia.com/mig-<profile>[.shared].
bool IsNvidiaGpuResource(std::string_view name);

struct GpuSharing {
  SharingMode mode = SharingMode::kNone;
  int32_t replicas = 1;  // per device
  bool renamed = false;  // renameByDefault: resources advertised as <name>.shared
  bool fail_requests_greater_than_one = false;
};

// One MIG instance of a physical GPU.
struct GpuMigInstance {
  std::string profile;  // "3g.40gb"
  int32_t start = -1;   // first memory slice; -1 when no geometry places it
  int32_t size = 0;     // memory slices
  int32_t compute_slices = 0;
  int32_t memory_gb = 0;  // from the profile name
};

struct PhysicalGpu {
  int32_t index = 0;
  std::string product;             // GFD product without the -MIG-<profile> / -SHARED suffixes
  int64_t memory_mib = 0;          // the whole GPU; 0 when unknown
  std::string family;              // "ampere", "hopper", ...
  std::string compute_capability;  // "9.0"; empty when unknown
  std::string clique;              // NVLink clique, nvidia.com/gpu.clique
  bool mig_enabled = false;
  std::vector<GpuMigInstance> mig;  // by start (placement order)
};

// One device the plugin advertises (before time-slicing replicates it): a whole GPU or a
// MIG instance. Pods receive replicas of devices.
struct GpuDevice {
  int32_t gpu = 0;            // PhysicalGpu::index
  int32_t mig_instance = -1;  // index into PhysicalGpu::mig; -1 for the whole GPU
  std::string resource;       // the extended resource it is advertised under
  int32_t replicas = 1;
};

struct NodeGpuInventory {
  std::string node;
  std::string cluster;
  std::string product;  // as the node is labelled, suffixes removed
  MigStrategy mig_strategy = MigStrategy::kNone;
  std::string mig_config;                 // nvidia.com/mig.config ("all-1g.10gb"), empty when unset
  std::string mig_config_state;           // nvidia.com/mig.config.state
  const MigGeometry* geometry = nullptr;  // nullptr when the product has no known MIG table
  GpuSharing sharing;
  std::vector<PhysicalGpu> gpus;
  std::vector<GpuDevice> devices;  // by GPU index, the whole GPU or its instances by start
  // Where labels and allocatable disagree, or a layout had to be guessed; for display.
  std::vector<std::string> notes;

  bool empty() const { return gpus.empty(); }
  // GPUs that can take fractional pods: whole GPUs advertised as nvidia.com/gpu without
  // replicas (not MIG single strategy, not time-slicing or MPS).
  bool FractionShareable() const;
  // Memory of one GPU in MiB (the nodes GFD labels have one product); 0 when unknown.
  int64_t GpuMemoryMib() const { return gpus.empty() ? 0 : gpus.front().memory_mib; }
};

// Reads a node's GPUs. Counts come from allocatable when the node advertises the resource
// (it is what pods consume; the device plugin drops unhealthy devices from it), else from
// the GFD labels; disagreements become notes. A node with neither has no GPUs (empty()).
// Cost: linear in labels and allocatable slots plus a MIG layout search per MIG GPU.
NodeGpuInventory ReadNodeGpus(const model::Node& node, const model::ResourceCatalog& catalog);

}  // namespace berth::gpu
