// The NVIDIA device plugin's configuration file (api/config/v1 of NVIDIA/k8s-device-plugin) as
// berth doctor reads it from the values of a ConfigMap: version, flags.migStrategy and the
// sharing section (timeSlicing or mps: renameByDefault, failRequestsGreaterThanOne, the
// replicated resources). diag owns no YAML library (io does), so this reads the subset such
// files are written in: block mappings and sequences, flow {...} / [...] (JSON), plain and
// quoted scalars, comments. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/cluster_config.h"

namespace berth::diag::rules {

struct PluginReplicatedResource {
  std::string name;  // nvidia.com/gpu, nvidia.com/mig-1g.10gb
  int64_t replicas = 0;
};

struct PluginSharing {
  std::string mode;  // "time-slicing", "mps" or "none" (upstream Sharing.SharingStrategy)
  bool rename_by_default = false;
  // Upstream defaults it to true for MPS (config.go) and false for time-slicing.
  bool fail_requests_greater_than_one = false;
  std::vector<PluginReplicatedResource> resources;
  int64_t MaxReplicas() const;
};

struct PluginConfig {
  std::string version;       // "v1" (upstream fills an absent version with v1)
  std::string mig_strategy;  // flags.migStrategy; empty when not set
  PluginSharing sharing;
};

// Parses one config file. nullopt when the text is not a mapping holding a device plugin
// config: its version must be absent or "v1" and it must have `sharing` or `flags` (which
// tells it apart from mig-parted's `version: v1` + `mig-configs`).
std::optional<PluginConfig> ParsePluginConfig(std::string_view text);

// A ConfigMap of the device plugin: every data value parses as a plugin config (and there is
// at least one). The plugin's config-manager offers its data keys as config names.
bool IsPluginConfigMap(const model::ConfigMap& config_map);

}  // namespace berth::diag::rules
