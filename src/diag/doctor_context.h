// DoctorContext: the snapshot berth doctor checks plus the indexes its rules share, built once
// so that no rule scans every node per pod: nodes by label (key=value → nodes), the distinct
// taint sets of each cluster's nodes, each cluster's largest allocatable per resource, the GPU
// resources of the catalog, each GPU node's inventory, pods by namespace, and the objects the
// reader could not read (by kind, so rules that need them say they were skipped).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "core/selector.h"
#include "core/taint.h"
#include "diag/doctor_finding.h"
#include "gpu/gpu_inventory.h"
#include "model/snapshot.h"

namespace berth::diag {

// The nodes of one cluster that share a set of taints (and whether they are GPU nodes).
struct TaintClass {
  std::vector<core::Taint> taints;
  std::vector<model::NodeIndex> nodes;
  int32_t gpu_nodes = 0;
};

class DoctorContext {
 public:
  // `diagnostics` are the reader's: objects it refused are named by kind for skipped rules.
  // `now` is the time rules compare ages with (--now, or the wall clock).
  DoctorContext(const model::Snapshot& snapshot, const core::Diagnostics& diagnostics,
                core::Timestamp now);

  const model::Snapshot& snapshot() const { return snapshot_; }
  core::Timestamp now() const { return now_; }

  // Every cluster named by a Node, Pod or ManagedCluster, sorted.
  const std::vector<std::string>& clusters() const { return clusters_; }
  const std::vector<model::NodeIndex>& NodesOf(std::string_view cluster) const;
  // Nodes of `cluster` labelled key=value.
  const std::vector<model::NodeIndex>& NodesWithLabel(std::string_view cluster, std::string_view key,
                                                      std::string_view value) const;
  // Nodes of `cluster` carrying label `key` with any value.
  const std::vector<model::NodeIndex>& NodesWithKey(std::string_view cluster, std::string_view key) const;
  // Whether some node of `cluster` matches the node selector map and the required node
  // affinity (either may be empty). Uses the label index: cost is the smallest posting list.
  bool AnyNodeMatches(std::string_view cluster, const core::Labels& node_selector,
                      const std::optional<core::NodeSelector>& required) const;
  const std::vector<TaintClass>& TaintClassesOf(std::string_view cluster) const;
  // Element-wise max of allocatable over the cluster's nodes.
  const model::ResourceVector& MaxAllocatable(std::string_view cluster) const;

  // GPU resources: the NVIDIA device plugin's names and any other vendor's "<vendor>/gpu".
  bool IsGpuResource(model::ResourceId id) const {
    return id.v < gpu_resource_.size() && gpu_resource_[id.v];
  }
  const std::vector<model::ResourceId>& GpuResources() const { return gpu_resources_; }
  // Sum of the GPU resources a pod's containers ask for (PodRequests), and limits.
  int64_t PodGpuRequest(const model::Pod& pod) const;
  // Whether the node advertises or is labelled as having GPUs.
  bool IsGpuNode(model::NodeIndex node) const { return !NodeGpus(node).empty(); }
  const gpu::NodeGpuInventory& NodeGpus(model::NodeIndex node) const {
    return node_gpus_[static_cast<size_t>(node.v)];
  }

  // Pods of a namespace in a cluster (given and expanded).
  const std::vector<model::PodIndex>& PodsIn(std::string_view cluster, std::string_view ns) const;
  // Namespaces of a cluster: Namespace objects and every namespace an object names.
  std::vector<std::string> NamespacesOf(std::string_view cluster) const;

  // A pod spec to check: a given Pod, or one pod set template of a workload (a Job, a
  // JobSet's replicated job, a PyTorchJob's Worker ...). Rules check specs, not the pods
  // expanded from templates, so a 1,000-pod Job is one finding on the Job.
  struct PodSpecRef {
    const model::Pod* spec;
    ObjectRef object;
    std::string field_prefix;  // "spec." for a Pod, "spec.template.spec." for a Job ...
    int32_t count = 1;         // pods made from this spec
    const model::WorkloadObject* workload = nullptr;  // nullptr for a given Pod
    std::string_view pod_set;  // the template's role ("main", "Worker"); empty for a Pod
    std::string Field(std::string_view field) const { return field_prefix + std::string(field); }
  };
  // Given Pods whose controller is not itself in the input, then every workload's pod sets.
  const std::vector<PodSpecRef>& PodSpecs() const { return pod_specs_; }
  ObjectRef PodRef(const model::Pod& pod) const;

  // "Kind/namespace/name" of the objects the reader refused, by kind.
  const std::vector<std::string>& UnreadObjects(std::string_view kind) const;

 private:
  const model::Snapshot& snapshot_;
  core::Timestamp now_;
  std::vector<std::string> clusters_;
  struct ClusterIndex {
    std::vector<model::NodeIndex> nodes;
    std::unordered_map<std::string, std::vector<model::NodeIndex>> by_label;  // "key=value"
    std::unordered_map<std::string, std::vector<model::NodeIndex>> by_key;
    std::vector<TaintClass> taint_classes;
    model::ResourceVector max_allocatable;
    std::map<std::string, std::vector<model::PodIndex>, std::less<>> pods_by_namespace;
  };
  std::map<std::string, ClusterIndex, std::less<>> index_;
  std::vector<bool> gpu_resource_;
  std::vector<model::ResourceId> gpu_resources_;
  std::vector<PodSpecRef> pod_specs_;
  std::vector<gpu::NodeGpuInventory> node_gpus_;
  std::map<std::string, std::vector<std::string>, std::less<>> unread_;
};

// ObjectRef of any model object with `meta`, `cluster` and `source`.
template <typename T>
ObjectRef RefOf(const T& object, std::string_view api_version, std::string_view kind) {
  return ObjectRef{std::string(api_version), std::string(kind), object.meta.namespace_,
                   object.meta.name, object.cluster, object.source, object.meta.labels};
}

}  // namespace berth::diag
