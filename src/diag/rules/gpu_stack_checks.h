// The checks of the gpu-stack rules (rules/gpu_stack*.cc) and the few helpers they share:
// reading GFD labels off a node, the NVIDIA resources of the catalog, the device plugin's
// ConfigMaps of a cluster and which of their configs a node runs. Internal to rules/;
// AddGpuStackRules (rules.h) registers the checks. Pure functions of the DoctorContext.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/doctor_context.h"
#include "diag/doctor_rule.h"
#include "diag/rules/gpu_compat_table.h"
#include "diag/rules/gpu_plugin_config.h"

namespace berth::diag::rules {

// Nodes and their device stack.
void CheckGpuNodeWithoutAllocatable(const DoctorContext& ctx, FindingSink& sink);
void CheckGpuAllocatableBelowCapacity(const DoctorContext& ctx, FindingSink& sink);
void CheckGfdCountDisagrees(const DoctorContext& ctx, FindingSink& sink);
void CheckMigConfigFailed(const DoctorContext& ctx, FindingSink& sink);
void CheckMigSingleStrategyMixedProfiles(const DoctorContext& ctx, FindingSink& sink);
// Requests.
void CheckMigResourceNotAdvertised(const DoctorContext& ctx, FindingSink& sink);
void CheckGpuRequestWithoutLimit(const DoctorContext& ctx, FindingSink& sink);
void CheckGpuPodWithoutCpuMemory(const DoctorContext& ctx, FindingSink& sink);
// Sharing and the device plugin's configuration (gpu_stack_sharing.cc).
void CheckSharedGpuCountAboveOne(const DoctorContext& ctx, FindingSink& sink);
void CheckSharingResourceNameMismatch(const DoctorContext& ctx, FindingSink& sink);
void CheckDevicePluginConfigUnknown(const DoctorContext& ctx, FindingSink& sink);
void CheckTimeSlicingWithoutIsolation(const DoctorContext& ctx, FindingSink& sink);
// Versions and runtimes (gpu_stack_versions.cc).
void CheckGpuDriverIncompatible(const DoctorContext& ctx, FindingSink& sink);
void CheckCudaImageOlderThanGpu(const DoctorContext& ctx, FindingSink& sink);
void CheckGpuDriverBelowArchitecture(const DoctorContext& ctx, FindingSink& sink);
void CheckGpuOperatorKubernetesUnsupported(const DoctorContext& ctx, FindingSink& sink);
void CheckNvidiaRuntimeClassMissing(const DoctorContext& ctx, FindingSink& sink);

// A label's value; empty when absent.
std::string_view GpuStackLabel(const model::Node& node, std::string_view key);
// A label holding a non-negative integer; nullopt when absent or malformed.
std::optional<int64_t> GpuStackIntLabel(const model::Node& node, std::string_view key);
// The NVIDIA device plugin's resources present in the catalog (nvidia.com/gpu, .shared, mig-*).
std::vector<model::ResourceId> GpuStackNvidiaResources(const DoctorContext& ctx);
// The node's driver version and the highest CUDA it supports, from GFD's labels (the current
// names first, the deprecated ones else).
std::optional<DriverVersion> GpuStackNodeDriver(const model::Node& node);
std::optional<CudaVersion> GpuStackNodeDriverCuda(const model::Node& node);
// "metadata.labels.<key>" / "status.allocatable.<name>" as finding fields.
std::string GpuStackLabelField(std::string_view key);

// The device plugin's configs of one cluster: every data key of every plugin ConfigMap.
struct GpuStackPluginConfigs {
  struct Entry {
    const model::ConfigMap* config_map;
    std::string key;
    PluginConfig config;
  };
  std::vector<Entry> entries;
  std::vector<const model::ConfigMap*> config_maps;
  const Entry* Find(std::string_view key) const;
  // The config a node runs: the key its nvidia.com/device-plugin.config label names; without
  // the label, upstream's fallbacks ("default", then the only config). nullptr when unknown.
  const Entry* ForNode(const model::Node& node) const;
  std::string KeyList() const;  // "a, b, c"
};
// Cluster name → its plugin configs; clusters without a plugin ConfigMap are absent.
std::map<std::string, GpuStackPluginConfigs, std::less<>> GpuStackReadPluginConfigs(const DoctorContext& ctx);

}  // namespace berth::diag::rules
