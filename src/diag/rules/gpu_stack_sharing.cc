// GPU sharing rules: time-slicing and MPS replicas against what pods request, the names the
// device plugin advertises shared GPUs under, and the plugin's per-node configuration. Each
// check builds its per-cluster tables in one pass over the nodes, then reads each pod spec once.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "diag/rules/gpu_stack_checks.h"
#include "gpu/gpu_inventory.h"
#include "model/pod_requests.h"

namespace berth::diag::rules {

namespace {

// One extended resource as a cluster's nodes advertise it.
struct GpuSharingResourceUse {
  int32_t nodes = 0;         // nodes advertising it
  int32_t shared_nodes = 0;  // of which replicate each device (time-slicing or MPS)
  int32_t failing_nodes = 0; // of which refuse requests for more than one replica
  int32_t replicas = 1;      // the largest replica count seen
  std::string mode;          // "time-slicing" or "mps"
};

}  // namespace

// More than one replica of a shared GPU buys no more compute or memory (the replicas may be
// slices of the same GPU); with failRequestsGreaterThanOne the kubelet rejects the pod.
void CheckSharedGpuCountAboveOne(const DoctorContext& ctx, FindingSink& sink) {
  const model::ResourceCatalog& catalog = ctx.snapshot().resources;
  const auto configs = GpuStackReadPluginConfigs(ctx);
  // (cluster, resource) → use.
  std::map<std::pair<std::string, uint16_t>, GpuSharingResourceUse> uses;
  for (size_t i = 0; i < ctx.snapshot().nodes.size(); ++i) {
    const model::Node& node = ctx.snapshot().nodes[i];
    const gpu::NodeGpuInventory& inv = ctx.NodeGpus(model::NodeIndex{static_cast<int32_t>(i)});
    if (inv.empty()) continue;
    const GpuStackPluginConfigs::Entry* config = nullptr;
    if (auto c = configs.find(node.cluster); c != configs.end()) config = c->second.ForNode(node);
    const bool fails = inv.sharing.fail_requests_greater_than_one ||
                       (config != nullptr && config->config.sharing.fail_requests_greater_than_one);
    std::map<std::string, int32_t> replicas_by_resource;
    for (const gpu::GpuDevice& d : inv.devices) {
      int32_t& r = replicas_by_resource[d.resource];
      r = std::max(r, d.replicas);
    }
    for (const auto& [name, replicas] : replicas_by_resource) {
      model::ResourceId id;
      if (!catalog.Find(name, &id) || node.allocatable.Get(id) <= 0) continue;
      GpuSharingResourceUse& use = uses[{node.cluster, id.v}];
      ++use.nodes;
      const bool shared = replicas > 1 || name.ends_with(gpu::kSharedSuffix);
      if (!shared) continue;
      ++use.shared_nodes;
      if (fails) ++use.failing_nodes;
      use.replicas = std::max(use.replicas, replicas);
      use.mode = std::string(gpu::SharingModeName(inv.sharing.mode));
    }
  }
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    const model::ResourceVector requests = model::PodRequests(*spec.spec);
    for (model::ResourceId id : ctx.GpuResources()) {
      const int64_t want = requests.Get(id);
      if (want <= 1) continue;
      auto it = uses.find({spec.spec->cluster, id.v});
      if (it == uses.end() || it->second.shared_nodes == 0 || it->second.shared_nodes < it->second.nodes) continue;
      const GpuSharingResourceUse& use = it->second;
      const std::string& name = catalog.Name(id);
      const bool rejected = use.failing_nodes > 0;
      std::string message = "requests " + std::to_string(want) + " " + name + ", which every node of cluster " +
                            spec.spec->cluster + " advertising it shares (" + use.mode + ", " +
                            std::to_string(use.replicas) + " replicas per device): " + std::to_string(want) +
                            " replicas give no more compute or memory than one, and may be slices of the same GPU";
      if (rejected) {
        message += "; " + std::to_string(use.failing_nodes) +
                   " of those node(s) fail requests for more than one replica (failRequestsGreaterThanOne), so "
                   "the kubelet rejects the pod there (UnexpectedAdmissionError)";
      }
      sink.AddAt(rejected ? Severity::kError : Severity::kWarning, spec.object, spec.Field("containers"), message,
                 "request 1 " + name + " (sharing hands out a slice, not a GPU count); for several GPUs use nodes "
                 "without sharing or a larger MIG profile");
    }
  }
}

// The device plugin advertises replicated devices as <name>.shared only with renameByDefault:
// a pod asking for the other spelling waits forever.
void CheckSharingResourceNameMismatch(const DoctorContext& ctx, FindingSink& sink) {
  const model::ResourceCatalog& catalog = ctx.snapshot().resources;
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    const std::string& cluster = spec.spec->cluster;
    if (ctx.NodesOf(cluster).empty()) continue;
    const model::ResourceVector requests = model::PodRequests(*spec.spec);
    const model::ResourceVector& largest = ctx.MaxAllocatable(cluster);
    for (model::ResourceId id : ctx.GpuResources()) {
      if (requests.Get(id) <= 0 || largest.Get(id) > 0) continue;
      const std::string& name = catalog.Name(id);
      if (!gpu::IsNvidiaGpuResource(name)) continue;
      const bool wants_shared = name.ends_with(gpu::kSharedSuffix);
      const std::string other = wants_shared ? name.substr(0, name.size() - gpu::kSharedSuffix.size())
                                             : name + std::string(gpu::kSharedSuffix);
      model::ResourceId other_id;
      if (!catalog.Find(other, &other_id) || largest.Get(other_id) <= 0) continue;
      if (wants_shared) {
        sink.Add(spec.object, spec.Field("containers"),
                 "requests " + name + " but no node of cluster " + cluster +
                     " renames its shared GPUs (renameByDefault is false): they are advertised as " + other +
                     ", so the pod can never be scheduled",
                 "request " + other + ", or set sharing.timeSlicing.renameByDefault: true in the device "
                 "plugin's config so shared GPUs are advertised as " + name);
      } else {
        sink.Add(spec.object, spec.Field("containers"),
                 "requests " + name + " but the nodes of cluster " + cluster + " advertise their shared GPUs as " +
                     other + " (renameByDefault: true) and none offers " + name +
                     ", so the pod can never be scheduled",
                 "request " + other + " to run on a shared GPU, or give some nodes a device plugin config "
                 "without sharing for exclusive GPUs");
      }
    }
  }
}

// The config-manager exits with "specified config X does not exist" when the node label names
// no file of the ConfigMap: the device plugin pod on the node does not start (init container)
// or keeps its previous config (sidecar).
void CheckDevicePluginConfigUnknown(const DoctorContext& ctx, FindingSink& sink) {
  const auto configs = GpuStackReadPluginConfigs(ctx);
  for (const model::Node& node : ctx.snapshot().nodes) {
    const std::string_view wanted = GpuStackLabel(node, gpu::kLabelDevicePluginConfig);
    if (wanted.empty()) continue;
    auto it = configs.find(node.cluster);
    if (it == configs.end() || it->second.Find(wanted) != nullptr) continue;
    std::string maps;
    for (const model::ConfigMap* cm : it->second.config_maps) {
      maps += (maps.empty() ? "" : ", ") + cm->meta.namespace_ + "/" + cm->meta.name;
    }
    sink.Add(RefOf(node, "v1", "Node"), GpuStackLabelField(gpu::kLabelDevicePluginConfig),
             "selects device plugin config \"" + std::string(wanted) + "\" but the plugin ConfigMap (" + maps +
                 ") has only " + it->second.KeyList() +
                 ": the config-manager stops with \"specified config " + std::string(wanted) +
                 " does not exist\", so the device plugin on this node does not start or keeps its old config",
             "relabel the node with an existing key (kubectl label node " + node.meta.name + " " +
                 std::string(gpu::kLabelDevicePluginConfig) + "=" + it->second.entries.front().key +
                 " --overwrite), or add a key \"" + std::string(wanted) + "\" to the ConfigMap");
  }
}

// Time-slicing shares a GPU with no memory or fault isolation; with renameByDefault false a
// slice is still called nvidia.com/gpu, so quotas and Kueue count it as a whole GPU. Harmless
// for one team, a tenant-interference problem on nodes several namespaces use.
void CheckTimeSlicingWithoutIsolation(const DoctorContext& ctx, FindingSink& sink) {
  const auto configs = GpuStackReadPluginConfigs(ctx);
  if (configs.empty()) return;
  // Namespaces of the GPU pods bound to each node, and of every GPU pod spec per cluster.
  std::map<std::pair<std::string, std::string>, std::set<std::string>> bound;
  for (const model::Pod& pod : ctx.snapshot().pods) {
    if (pod.node_name.empty() || pod.IsTerminal() || ctx.PodGpuRequest(pod) == 0) continue;
    bound[{pod.cluster, pod.node_name}].insert(pod.meta.namespace_);
  }
  std::map<std::string, std::set<std::string>, std::less<>> requested;
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    if (ctx.PodGpuRequest(*spec.spec) > 0) requested[spec.spec->cluster].insert(spec.spec->meta.namespace_);
  }
  for (const auto& [cluster, cluster_configs] : configs) {
    // Nodes per config key: the labelled ones, and the unlabelled GPU nodes for the fallback.
    std::map<const GpuStackPluginConfigs::Entry*, std::vector<model::NodeIndex>> nodes_of;
    for (model::NodeIndex n : ctx.NodesOf(cluster)) {
      if (!ctx.IsGpuNode(n)) continue;
      const GpuStackPluginConfigs::Entry* e = cluster_configs.ForNode(ctx.snapshot().node(n));
      if (e != nullptr) nodes_of[e].push_back(n);
    }
    for (const GpuStackPluginConfigs::Entry& entry : cluster_configs.entries) {
      const PluginSharing& s = entry.config.sharing;
      if (s.mode != "time-slicing" || s.rename_by_default || s.MaxReplicas() <= 1) continue;
      auto used = nodes_of.find(&entry);
      if (used == nodes_of.end()) continue;
      std::set<std::string> namespaces;
      for (model::NodeIndex n : used->second) {
        auto b = bound.find({cluster, ctx.snapshot().node(n).meta.name});
        if (b != bound.end()) namespaces.insert(b->second.begin(), b->second.end());
      }
      if (namespaces.empty()) {
        if (auto r = requested.find(cluster); r != requested.end()) namespaces = r->second;
      }
      if (namespaces.size() < 2) continue;
      std::string listed;
      for (const std::string& ns : namespaces) listed += (listed.empty() ? "" : ", ") + ns;
      const model::ConfigMap& cm = *entry.config_map;
      sink.Add(RefOf(cm, "v1", "ConfigMap"), "data." + entry.key,
               "config \"" + entry.key + "\" time-slices GPUs " + std::to_string(s.MaxReplicas()) +
                   " ways with renameByDefault false on " + std::to_string(used->second.size()) +
                   " node(s) used by namespaces " + listed +
                   ": tenants share GPUs with no memory or fault isolation, and a slice is still called "
                   "nvidia.com/gpu, so quotas and Kueue count it as a whole GPU",
               "set sharing.timeSlicing.renameByDefault: true (slices become nvidia.com/gpu.shared and can be "
               "quota'd apart), or use MPS (per-client memory limits) or MIG, or dedicate the shared nodes to "
               "one namespace");
    }
  }
}

}  // namespace berth::diag::rules
