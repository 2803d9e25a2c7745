// GPU-stack rules: what the NVIDIA driver, container toolkit, device plugin, GPU Feature
// Discovery and MIG manager tell through a Node's labels and allocatable, and GPU requests the
// API server or the nodes refuse. This file holds the registry, the shared helpers, and the
// node and request checks; sharing and versions live in gpu_stack_sharing.cc and
// gpu_stack_versions.cc. Every check reads each node or pod spec once, plus index lookups.
#include <algorithm>
#include <set>
#include <string>
#include <unordered_set>

#include "diag/rules/gpu_stack_checks.h"
#include "diag/rules/rules.h"
#include "gpu/gpu_inventory.h"
#include "model/pod_requests.h"

namespace berth::diag::rules {

// ---- shared helpers ----

std::string_view GpuStackLabel(const model::Node& node, std::string_view key) {
  auto it = node.meta.labels.find(key);
  return it == node.meta.labels.end() ? std::string_view() : std::string_view(it->second);
}

std::optional<int64_t> GpuStackIntLabel(const model::Node& node, std::string_view key) {
  const std::string_view v = GpuStackLabel(node, key);
  if (v.empty() || v.size() > 12) return std::nullopt;
  int64_t out = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return std::nullopt;
    out = out * 10 + (c - '0');
  }
  return out;
}

std::vector<model::ResourceId> GpuStackNvidiaResources(const DoctorContext& ctx) {
  std::vector<model::ResourceId> out;
  for (model::ResourceId id : ctx.GpuResources()) {
    if (gpu::IsNvidiaGpuResource(ctx.snapshot().resources.Name(id))) out.push_back(id);
  }
  return out;
}

std::optional<DriverVersion> GpuStackNodeDriver(const model::Node& node) {
  std::string_view major = GpuStackLabel(node, gpu::kLabelCudaDriverMajor);
  std::string_view minor = GpuStackLabel(node, gpu::kLabelCudaDriverMinor);
  std::string_view rev = GpuStackLabel(node, gpu::kLabelCudaDriverRevision);
  if (major.empty()) {
    major = GpuStackLabel(node, gpu::kLabelCudaDriverMajorDeprecated);
    minor = GpuStackLabel(node, gpu::kLabelCudaDriverMinorDeprecated);
    rev = GpuStackLabel(node, gpu::kLabelCudaDriverRevDeprecated);
  }
  if (major.empty()) return std::nullopt;
  std::string text(major);
  if (!minor.empty()) text += "." + std::string(minor);
  if (!minor.empty() && !rev.empty()) text += "." + std::string(rev);
  return ParseDriverVersion(text);
}

std::optional<CudaVersion> GpuStackNodeDriverCuda(const model::Node& node) {
  std::optional<int64_t> major = GpuStackIntLabel(node, gpu::kLabelCudaRuntimeMajor);
  std::optional<int64_t> minor = GpuStackIntLabel(node, gpu::kLabelCudaRuntimeMinor);
  if (!major.has_value()) {
    major = GpuStackIntLabel(node, gpu::kLabelCudaRuntimeMajorDeprecated);
    minor = GpuStackIntLabel(node, gpu::kLabelCudaRuntimeMinorDeprecated);
  }
  if (!major.has_value()) return std::nullopt;
  return CudaVersion{static_cast<int>(*major), static_cast<int>(minor.value_or(0))};
}

std::string GpuStackLabelField(std::string_view key) { return "metadata.labels." + std::string(key); }

const GpuStackPluginConfigs::Entry* GpuStackPluginConfigs::Find(std::string_view key) const {
  for (const Entry& e : entries) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

const GpuStackPluginConfigs::Entry* GpuStackPluginConfigs::ForNode(const model::Node& node) const {
  const std::string_view label = GpuStackLabel(node, gpu::kLabelDevicePluginConfig);
  if (!label.empty()) return Find(label);
  // config-manager's fallback strategies: the config named "default", then the single one.
  if (const Entry* named = Find("default"); named != nullptr) return named;
  return entries.size() == 1 ? &entries.front() : nullptr;
}

std::string GpuStackPluginConfigs::KeyList() const {
  std::string out;
  for (const Entry& e : entries) out += (out.empty() ? "" : ", ") + e.key;
  return out;
}

std::map<std::string, GpuStackPluginConfigs, std::less<>> GpuStackReadPluginConfigs(const DoctorContext& ctx) {
  std::map<std::string, GpuStackPluginConfigs, std::less<>> out;
  for (const model::ConfigMap& cm : ctx.snapshot().config_maps) {
    if (!IsPluginConfigMap(cm)) continue;
    GpuStackPluginConfigs& configs = out[cm.cluster];
    configs.config_maps.push_back(&cm);
    for (const auto& [key, text] : cm.data) {
      configs.entries.push_back({&cm, key, *ParsePluginConfig(text)});
    }
  }
  return out;
}

namespace {

ObjectRef GpuStackNodeRef(const model::Node& node) { return RefOf(node, "v1", "Node"); }

// Nodes whose GPUs NVIDIA's DRA driver publishes: they advertise no extended resource.
std::set<std::pair<std::string, std::string>> GpuStackDraGpuNodes(const DoctorContext& ctx) {
  std::set<std::pair<std::string, std::string>> out;
  for (const model::ResourceSlice& slice : ctx.snapshot().resource_slices) {
    if (slice.driver == gpu::kDraGpuDriver && !slice.node_name.empty()) {
      out.emplace(slice.cluster, slice.node_name);
    }
  }
  return out;
}

int64_t GpuStackSum(const model::ResourceVector& v, const std::vector<model::ResourceId>& ids) {
  int64_t total = 0;
  for (model::ResourceId id : ids) total = model::SaturatingAdd(total, v.Get(id));
  return total;
}

bool GpuStackIsTrue(std::string_view v) { return v == "true" || v == "True" || v == "TRUE"; }

}  // namespace

// ---- nodes ----

// GFD/NFD say the node has NVIDIA GPUs, yet it advertises none: pods see "Insufficient
// nvidia.com/gpu". A node in the middle of a MIG reconfiguration is left to mig-config-failed.
void CheckGpuNodeWithoutAllocatable(const DoctorContext& ctx, FindingSink& sink) {
  const std::vector<model::ResourceId> nvidia = GpuStackNvidiaResources(ctx);
  const auto dra_nodes = GpuStackDraGpuNodes(ctx);
  for (const model::Node& node : ctx.snapshot().nodes) {
    std::string evidence;
    if (std::optional<int64_t> count = GpuStackIntLabel(node, gpu::kLabelGpuCount); count.value_or(0) > 0) {
      evidence = std::string(gpu::kLabelGpuCount) + "=" + std::to_string(*count);
    } else if (GpuStackIsTrue(GpuStackLabel(node, gpu::kLabelGpuPresent))) {
      evidence = std::string(gpu::kLabelGpuPresent) + "=true";
    } else if (GpuStackIsTrue(GpuStackLabel(node, gpu::kLabelPciNvidiaPresent))) {
      evidence = std::string(gpu::kLabelPciNvidiaPresent) + "=true";
    } else {
      continue;
    }
    if (GpuStackSum(node.allocatable, nvidia) > 0) continue;
    const std::string_view state = GpuStackLabel(node, gpu::kLabelMigConfigState);
    if (state == "pending" || state == "rebooting" || state == "failed") continue;
    if (dra_nodes.contains({node.cluster, node.meta.name})) continue;
    sink.Add(GpuStackNodeRef(node), "status.allocatable",
             "node is labelled as a GPU node (" + evidence +
                 ") but advertises no NVIDIA GPU resource in status.allocatable: the driver, the "
                 "container toolkit or the device plugin is not running there, so no GPU pod can "
                 "use it",
             "check the GPU operator's pods on the node (kubectl get pods -A -o wide "
             "--field-selector spec.nodeName=" +
                 node.meta.name +
                 "): nvidia-driver-daemonset, nvidia-container-toolkit-daemonset and "
                 "nvidia-device-plugin-daemonset must be Running; nvidia-operator-validator's logs "
                 "name the step that failed");
  }
}

// The device plugin reports unhealthy devices; the kubelet keeps them in capacity but not in
// allocatable, so the GPUs are silently lost to scheduling.
void CheckGpuAllocatableBelowCapacity(const DoctorContext& ctx, FindingSink& sink) {
  const std::vector<model::ResourceId> nvidia = GpuStackNvidiaResources(ctx);
  const model::ResourceCatalog& catalog = ctx.snapshot().resources;
  for (const model::Node& node : ctx.snapshot().nodes) {
    for (model::ResourceId id : nvidia) {
      const int64_t capacity = node.capacity.Get(id);
      const int64_t allocatable = node.allocatable.Get(id);
      if (capacity <= 0 || allocatable >= capacity) continue;
      const std::string& name = catalog.Name(id);
      sink.Add(GpuStackNodeRef(node), "status.allocatable." + name,
               "allocatable " + name + " is " + std::to_string(allocatable) + " but capacity is " +
                   std::to_string(capacity) + ": the device plugin marked " +
                   std::to_string(capacity - allocatable) +
                   " device(s) unhealthy and kube-scheduler no longer counts them",
               "find the unhealthy GPU in the device plugin's log (XID errors) and with nvidia-smi -q "
               "on the node; drain the node and reset or replace the GPU: the plugin advertises it "
               "again once it is healthy");
    }
  }
}

// GFD counts the GPUs NVML sees; the device plugin advertises devices. They must agree: under
// none and single strategies gpu.count is the number of devices (MIG devices under single,
// as GFD overrides it), under mixed it is the number of physical GPUs, at least the whole
// GPUs advertised plus one when any MIG device is.
void CheckGfdCountDisagrees(const DoctorContext& ctx, FindingSink& sink) {
  const model::ResourceCatalog& catalog = ctx.snapshot().resources;
  model::ResourceId gpu_id, shared_id;
  const bool has_gpu = catalog.Find(gpu::kResourceGpu, &gpu_id);
  const bool has_shared = catalog.Find(std::string(gpu::kResourceGpu) + std::string(gpu::kSharedSuffix), &shared_id);
  const std::vector<model::ResourceId> nvidia = GpuStackNvidiaResources(ctx);
  for (size_t i = 0; i < ctx.snapshot().nodes.size(); ++i) {
    const model::Node& node = ctx.snapshot().nodes[i];
    std::optional<int64_t> count = GpuStackIntLabel(node, gpu::kLabelGpuCount);
    if (!count.has_value()) continue;
    const gpu::NodeGpuInventory& inv = ctx.NodeGpus(model::NodeIndex{static_cast<int32_t>(i)});
    std::optional<int64_t> replicas = GpuStackIntLabel(node, gpu::kLabelGpuReplicas);
    if (!replicas.has_value() && inv.sharing.mode != gpu::SharingMode::kNone) continue;  // cannot divide
    const int64_t per_device = std::max<int64_t>(1, replicas.value_or(1));
    // Capacity counts unhealthy devices too, as NVML does.
    auto amount = [&](model::ResourceId id) {
      return node.capacity.Get(id) > 0 ? node.capacity.Get(id) : node.allocatable.Get(id);
    };
    int64_t whole = (has_gpu ? amount(gpu_id) : 0) + (has_shared ? amount(shared_id) : 0);
    int64_t mig = 0;
    for (model::ResourceId id : nvidia) {
      if (catalog.Name(id).starts_with(gpu::kResourceMigPrefix)) mig += amount(id);
    }
    if (whole == 0 && mig == 0) continue;  // gpu-node-without-allocatable's case
    const int64_t devices = whole / per_device;
    std::string advertised;
    if (inv.mig_strategy == gpu::MigStrategy::kMixed) {
      const int64_t at_least = devices + (mig > 0 ? 1 : 0);
      if (*count >= at_least) continue;
      advertised = std::to_string(devices) + " whole GPU(s)" + (mig > 0 ? " plus MIG devices" : "") +
                   ", at least " + std::to_string(at_least) + " GPU(s)";
    } else {
      if (whole == 0 || devices == *count) continue;
      advertised = std::to_string(devices) + (inv.mig_strategy == gpu::MigStrategy::kSingle ? " MIG device(s)" : " GPU(s)");
      if (per_device > 1) advertised += " (" + std::to_string(whole) + " replicas / " + std::to_string(per_device) + ")";
    }
    sink.Add(GpuStackNodeRef(node), GpuStackLabelField(gpu::kLabelGpuCount),
             "GPU Feature Discovery labels " + std::string(gpu::kLabelGpuCount) + "=" + std::to_string(*count) +
                 " but the device plugin advertises " + advertised + " (MIG strategy " +
                 std::string(gpu::MigStrategyName(inv.mig_strategy)) +
                 "): the two disagree about this node's GPUs",
             "GFD or the plugin runs with a stale or different configuration: give both the same "
             "config (nvidia.com/device-plugin.config, flags.migStrategy, sharing replicas) and "
             "restart GFD to relabel; a GPU the plugin does not see has fallen off the bus "
             "(nvidia-smi, Xid 79 in dmesg)");
  }
}

// The MIG manager could not apply nvidia.com/mig.config (failed), or is applying it (pending,
// rebooting): the GPU operands are stopped meanwhile and the node advertises no GPUs.
void CheckMigConfigFailed(const DoctorContext& ctx, FindingSink& sink) {
  for (size_t i = 0; i < ctx.snapshot().nodes.size(); ++i) {
    const model::Node& node = ctx.snapshot().nodes[i];
    const gpu::NodeGpuInventory& inv = ctx.NodeGpus(model::NodeIndex{static_cast<int32_t>(i)});
    const std::string state(GpuStackLabel(node, gpu::kLabelMigConfigState));
    const std::string config = inv.mig_config.empty() ? std::string(GpuStackLabel(node, gpu::kLabelMigConfig)) : inv.mig_config;
    const std::string field = GpuStackLabelField(gpu::kLabelMigConfigState);
    if (state == "failed") {
      sink.Add(GpuStackNodeRef(node), field,
               "the MIG manager failed to apply " + std::string(gpu::kLabelMigConfig) + "=" + config +
                   ": the GPUs keep their previous layout and the device plugin advertises what is "
                   "there, not what was asked for",
               "read the nvidia-mig-manager pod's log on the node; stop the GPU pods there (busy GPUs "
               "cannot be repartitioned), check that " + config +
                   " is a key of the mig-parted ConfigMap, then relabel: kubectl label node " + node.meta.name +
                   " " + std::string(gpu::kLabelMigConfig) + "=" + config + " --overwrite");
    } else if (state == "pending" || state == "rebooting") {
      sink.AddAt(Severity::kWarning, GpuStackNodeRef(node), field,
                 "MIG reconfiguration to " + config + " is in progress (" + std::string(gpu::kLabelMigConfigState) +
                     "=" + state + "): the GPU operands are stopped and the node advertises no GPUs until it ends",
                 "wait for state success; if it stays " + state +
                     ", read the nvidia-mig-manager pod's log and evict the GPU pods that keep the GPUs busy");
    }
  }
}

// The single strategy needs one MIG profile on every GPU of a node; with several the device
// plugin and GFD stop ("more than one MIG device type present on node").
void CheckMigSingleStrategyMixedProfiles(const DoctorContext& ctx, FindingSink& sink) {
  for (const model::Node& node : ctx.snapshot().nodes) {
    if (GpuStackLabel(node, gpu::kLabelMigStrategy) != "single") continue;
    std::vector<std::string> profiles;
    for (const auto& [key, value] : node.meta.labels) {
      if (!key.starts_with(gpu::kResourceMigPrefix) || !key.ends_with(".count") || value == "0") continue;
      profiles.push_back(key.substr(gpu::kResourceMigPrefix.size(), key.size() - gpu::kResourceMigPrefix.size() - 6));
    }
    const std::string_view config = GpuStackLabel(node, gpu::kLabelMigConfig);
    std::string detail;
    if (profiles.size() >= 2) {
      for (const std::string& p : profiles) detail += (detail.empty() ? "" : ", ") + p;
      detail = "its MIG devices have " + std::to_string(profiles.size()) + " profiles (" + detail + ")";
    } else if (config == "all-balanced") {
      detail = std::string(gpu::kLabelMigConfig) + "=all-balanced gives each GPU several profiles";
    } else {
      continue;
    }
    sink.Add(GpuStackNodeRef(node), GpuStackLabelField(gpu::kLabelMigConfig),
             "the node uses the single MIG strategy but " + detail +
                 ": the device plugin and GFD stop with \"more than one MIG device type present\", so "
                 "the node advertises no GPUs",
             "give the node one profile (kubectl label node " + node.meta.name + " " +
                 std::string(gpu::kLabelMigConfig) +
                 "=all-1g.10gb --overwrite, or another all-<profile>), or switch it to the mixed "
                 "strategy with a device plugin config whose flags.migStrategy is mixed, selected by " +
                 std::string(gpu::kLabelDevicePluginConfig));
  }
}

// ---- requests ----

namespace {

// Which MIG resources and whole GPUs a cluster's nodes advertise, and on which nodes.
struct GpuStackClusterMig {
  std::set<std::string> mig_profiles;  // nvidia.com/mig-<p> advertised somewhere
  bool whole_gpus = false;             // some node advertises nvidia.com/gpu
  bool single_mig = false;             // some single-strategy node with MIG devices
};

bool GpuStackSelectorMatches(const model::Node& node, const core::Labels& selector) {
  for (const auto& [key, value] : selector) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) return false;
  }
  return true;
}

}  // namespace

// A request for a MIG profile no node advertises (the single strategy advertises MIG devices
// as nvidia.com/gpu), or for whole GPUs where every GPU node the pod may use is a
// mixed-strategy MIG node with none.
void CheckMigResourceNotAdvertised(const DoctorContext& ctx, FindingSink& sink) {
  const model::ResourceCatalog& catalog = ctx.snapshot().resources;
  const std::vector<model::ResourceId> nvidia = GpuStackNvidiaResources(ctx);
  model::ResourceId gpu_id;
  const bool has_gpu = catalog.Find(gpu::kResourceGpu, &gpu_id);
  std::map<std::string, GpuStackClusterMig, std::less<>> clusters;
  for (size_t i = 0; i < ctx.snapshot().nodes.size(); ++i) {
    const model::Node& node = ctx.snapshot().nodes[i];
    GpuStackClusterMig& c = clusters[node.cluster];
    for (model::ResourceId id : nvidia) {
      if (node.allocatable.Get(id) <= 0) continue;
      std::string name = catalog.Name(id);
      if (name.ends_with(gpu::kSharedSuffix)) name.resize(name.size() - gpu::kSharedSuffix.size());
      if (name == gpu::kResourceGpu) c.whole_gpus = true;
      if (name.starts_with(gpu::kResourceMigPrefix)) c.mig_profiles.insert(name.substr(gpu::kResourceMigPrefix.size()));
    }
    const gpu::NodeGpuInventory& inv = ctx.NodeGpus(model::NodeIndex{static_cast<int32_t>(i)});
    if (inv.mig_strategy == gpu::MigStrategy::kSingle && !inv.gpus.empty() && inv.gpus.front().mig_enabled) c.single_mig = true;
  }
  // Whole-GPU requests with a nodeSelector: whether the nodes it matches include one with
  // whole GPUs, and one with MIG devices (a selector matching nothing is
  // node-selector-matches-nothing's), memoized per (cluster, selector) so templates sharing a
  // selector cost one scan.
  struct SelectorReach {
    bool whole = false;
    bool mig = false;
  };
  std::map<std::string, SelectorReach> selector_reach;
  auto profiles_of = [](const GpuStackClusterMig& c) {
    std::string out;
    for (const std::string& p : c.mig_profiles) out += (out.empty() ? "" : ", ") + std::string(gpu::kResourceMigPrefix) + p;
    return out;
  };
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    const model::Pod& pod = *spec.spec;
    auto cluster = clusters.find(pod.cluster);
    if (cluster == clusters.end()) continue;
    const GpuStackClusterMig& c = cluster->second;
    const model::ResourceVector requests = model::PodRequests(pod);
    for (model::ResourceId id : nvidia) {
      if (requests.Get(id) <= 0) continue;
      std::string name = catalog.Name(id);
      if (name.ends_with(gpu::kSharedSuffix)) name.resize(name.size() - gpu::kSharedSuffix.size());
      if (name.starts_with(gpu::kResourceMigPrefix)) {
        const std::string profile = name.substr(gpu::kResourceMigPrefix.size());
        if (c.mig_profiles.contains(profile)) continue;
        if (c.mig_profiles.empty() && !c.whole_gpus && !c.single_mig) continue;  // no GPU nodes at all
        std::string why = "no node of cluster " + pod.cluster + " advertises " + name;
        std::string fix;
        if (c.single_mig) {
          why += "; nodes with the single MIG strategy advertise their MIG devices as nvidia.com/gpu";
          fix = "request nvidia.com/gpu with nodeSelector " + std::string(gpu::kLabelGpuProduct) +
                ": <product>-MIG-" + profile + ", or move nodes to the mixed strategy";
        }
        if (!c.mig_profiles.empty()) {
          why += " (advertised: " + profiles_of(c) + ")";
          if (fix.empty()) fix = "request one of the advertised profiles, or repartition nodes with " +
                                 std::string(gpu::kLabelMigConfig) + " to offer " + profile;
        }
        if (fix.empty()) fix = "partition GPUs into " + profile + " (label nodes " + std::string(gpu::kLabelMigConfig) +
                               "=all-" + profile + " with the mixed strategy), or request nvidia.com/gpu";
        sink.Add(spec.object, spec.Field("containers"), "requests " + catalog.Name(id) + " but " + why + ": it can never be scheduled", fix);
        continue;
      }
      if (name != gpu::kResourceGpu || c.mig_profiles.empty()) continue;
      bool whole = c.whole_gpus;
      if (whole && !pod.node_selector.empty() && has_gpu) {
        std::string key = pod.cluster;
        for (const auto& [k, v] : pod.node_selector) key += "\n" + k + "=" + v;
        auto memo = selector_reach.find(key);
        if (memo == selector_reach.end()) {
          const std::vector<model::NodeIndex>* candidates = &ctx.NodesOf(pod.cluster);
          for (const auto& [k, v] : pod.node_selector) {
            const auto& with = ctx.NodesWithLabel(pod.cluster, k, v);
            if (with.size() < candidates->size()) candidates = &with;
          }
          SelectorReach reach;
          for (model::NodeIndex n : *candidates) {
            const model::Node& node = ctx.snapshot().node(n);
            if (!GpuStackSelectorMatches(node, pod.node_selector)) continue;
            if (node.allocatable.Get(gpu_id) > 0) {
              reach.whole = true;
              break;
            }
            for (model::ResourceId r : nvidia) {
              if (node.allocatable.Get(r) > 0 && catalog.Name(r).starts_with(gpu::kResourceMigPrefix)) reach.mig = true;
            }
          }
          memo = selector_reach.emplace(key, reach).first;
        }
        whole = memo->second.whole || !memo->second.mig;
      }
      if (whole) continue;
      sink.Add(spec.object, spec.Field("containers"),
               "requests " + catalog.Name(id) + " but every GPU node it may use in cluster " + pod.cluster +
                   " uses the mixed MIG strategy and advertises only MIG devices (" + profiles_of(c) +
                   "): it can never be scheduled",
               "request a MIG profile the nodes advertise (e.g. " + std::string(gpu::kResourceMigPrefix) +
                   *c.mig_profiles.begin() + ": 1), or disable MIG on some nodes (" + std::string(gpu::kLabelMigConfig) +
                   "=all-disabled)");
    }
  }
}

// The API server rejects a container that requests an extended resource without a limit
// ("Limit must be set for non overcommitable resources"); io accepts it so doctor can say so.
void CheckGpuRequestWithoutLimit(const DoctorContext& ctx, FindingSink& sink) {
  const model::ResourceCatalog& catalog = ctx.snapshot().resources;
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    auto check = [&](const std::vector<model::Container>& containers, std::string_view list) {
      for (size_t i = 0; i < containers.size(); ++i) {
        const model::Container& c = containers[i];
        for (model::ResourceId id : ctx.GpuResources()) {
          const int64_t want = c.requests.Get(id);
          if (want <= 0 || c.limits.Get(id) > 0) continue;
          const std::string& name = catalog.Name(id);
          sink.Add(spec.object, spec.Field(std::string(list) + "[" + std::to_string(i) + "].resources.limits"),
                   "container " + c.name + " requests " + std::to_string(want) + " " + name +
                       " without a limit: the API server rejects the pod (Limit must be set for non "
                       "overcommitable resources)",
                   "set resources.limits." + name + ": " + std::to_string(want) +
                       " (the request defaults to the limit; when both are given they must be equal)");
        }
      }
    };
    check(spec.spec->containers, "containers");
    check(spec.spec->init_containers, "initContainers");
  }
}

// A GPU container without cpu or memory requests is placed as if it needed none: it lands on
// GPU nodes whose CPUs are already taken, is starved by neighbours and, with no memory
// request, is among the first evicted under memory pressure.
void CheckGpuPodWithoutCpuMemory(const DoctorContext& ctx, FindingSink& sink) {
  const model::ResourceCatalog& catalog = ctx.snapshot().resources;
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    const std::vector<model::Container>& containers = spec.spec->containers;
    for (size_t i = 0; i < containers.size(); ++i) {
      const model::Container& c = containers[i];
      int64_t gpus = 0;
      std::string gpu_name;
      for (model::ResourceId id : ctx.GpuResources()) {
        if (c.requests.Get(id) > 0 && gpu_name.empty()) gpu_name = catalog.Name(id);
        gpus = model::SaturatingAdd(gpus, c.requests.Get(id));
      }
      if (gpus == 0) continue;
      const bool cpu = c.cpu_request_named || c.requests.Get(model::kCpu) > 0;
      const bool memory = c.memory_request_named || c.requests.Get(model::kMemory) > 0;
      if (cpu && memory) continue;
      const std::string missing = !cpu && !memory ? "cpu or memory" : (!cpu ? "cpu" : "memory");
      sink.Add(spec.object, spec.Field("containers[" + std::to_string(i) + "].resources.requests"),
               "container " + c.name + " requests " + std::to_string(gpus) + " " + gpu_name + " but no " + missing +
                   ": kube-scheduler places it as if it needed none, so it can land on a GPU node whose "
                   "CPUs are taken, be starved by neighbours, and be evicted early under memory pressure",
               "request the per-GPU share of the node's cpu and memory (a node's allocatable divided by "
               "its GPUs, times " + std::to_string(gpus) + ")");
    }
  }
}

void AddGpuStackRules(std::vector<Rule>& out) {
  out.push_back({"gpu-node-without-allocatable", Severity::kError, "gpu",
                 "A node labelled as a GPU node advertises no GPU resource", {"Node", "ResourceSlice"},
                 CheckGpuNodeWithoutAllocatable});
  out.push_back({"gpu-allocatable-below-capacity", Severity::kWarning, "gpu",
                 "The device plugin dropped unhealthy GPUs from a node's allocatable", {"Node"},
                 CheckGpuAllocatableBelowCapacity});
  out.push_back({"gfd-count-disagrees", Severity::kWarning, "gpu",
                 "GPU Feature Discovery's nvidia.com/gpu.count disagrees with the devices advertised", {"Node"},
                 CheckGfdCountDisagrees});
  out.push_back({"mig-config-failed", Severity::kError, "gpu",
                 "A node's MIG reconfiguration failed or has not finished", {"Node"}, CheckMigConfigFailed});
  out.push_back({"mig-single-strategy-mixed-profiles", Severity::kError, "gpu",
                 "A single-strategy MIG node has more than one MIG profile", {"Node"},
                 CheckMigSingleStrategyMixedProfiles});
  out.push_back({"mig-resource-not-advertised", Severity::kError, "gpu",
                 "A pod requests a MIG profile, or whole GPUs, its nodes do not advertise", {"Node", "Pod"},
                 CheckMigResourceNotAdvertised});
  out.push_back({"gpu-request-without-limit", Severity::kError, "gpu",
                 "A container requests a GPU resource without a limit", {"Pod"}, CheckGpuRequestWithoutLimit});
  out.push_back({"gpu-pod-without-cpu-memory", Severity::kWarning, "gpu",
                 "A GPU container requests no cpu or memory", {"Pod"}, CheckGpuPodWithoutCpuMemory});
  out.push_back({"shared-gpu-count-above-one", Severity::kWarning, "gpu",
                 "A pod requests more than one replica of a time-sliced or MPS-shared GPU",
                 {"Node", "Pod", "ConfigMap"}, CheckSharedGpuCountAboveOne});
  out.push_back({"sharing-resource-name-mismatch", Severity::kError, "gpu",
                 "A pod requests a shared (or unshared) GPU name its nodes do not advertise", {"Node", "Pod"},
                 CheckSharingResourceNameMismatch});
  out.push_back({"device-plugin-config-unknown", Severity::kError, "gpu",
                 "A node selects a device plugin config its ConfigMap does not have", {"Node", "ConfigMap"},
                 CheckDevicePluginConfigUnknown});
  out.push_back({"time-slicing-without-isolation", Severity::kWarning, "gpu",
                 "Time-sliced GPUs keep the name nvidia.com/gpu on nodes several namespaces use",
                 {"Node", "Pod", "ConfigMap"}, CheckTimeSlicingWithoutIsolation});
  out.push_back({"gpu-driver-incompatible", Severity::kError, "gpu",
                 "A CUDA image needs a newer driver than its GPU nodes run", {"Node", "Pod"},
                 CheckGpuDriverIncompatible});
  out.push_back({"cuda-image-older-than-gpu", Severity::kWarning, "gpu",
                 "A CUDA image predates the architecture of every GPU it may run on", {"Node", "Pod"},
                 CheckCudaImageOlderThanGpu});
  out.push_back({"gpu-driver-below-architecture-minimum", Severity::kError, "gpu",
                 "A node's driver is older than the first driver for its GPU architecture", {"Node"},
                 CheckGpuDriverBelowArchitecture});
  out.push_back({"gpu-operator-kubernetes-unsupported", Severity::kWarning, "gpu",
                 "The GPU Operator release was not validated with the cluster's Kubernetes version",
                 {"ManagedCluster", "Pod"}, CheckGpuOperatorKubernetesUnsupported});
  out.push_back({"nvidia-runtimeclass-missing", Severity::kError, "gpu",
                 "A pod names a RuntimeClass that does not exist, or the nvidia RuntimeClass has another handler",
                 {"Pod", "RuntimeClass"}, CheckNvidiaRuntimeClassMissing});
}

}  // namespace berth::diag::rules
