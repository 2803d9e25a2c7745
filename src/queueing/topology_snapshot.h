// TopologySnapshot: the free capacity of every node a topology-aware (TAS) ResourceFlavor
// covers, as a tree of domains over its Topology's levels (Kueue's TASFlavorSnapshot).
// Built once per cycle from the Snapshot by the admission cycle; FindTopologyAssignment
// (topology_assigner.h) reads it, and AddUsage / RemoveUsage update it in place as workloads
// are admitted or evicted, so it is never rebuilt per decision.
// Thread-compatible: const methods may run concurrently, mutation needs exclusive access.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/labels.h"
#include "core/taint.h"
#include "model/kueue.h"
#include "model/node.h"
#include "model/resources.h"
#include "model/snapshot.h"

namespace berth::queueing {

// The node label Kueue treats specially when it is the lowest level: leaves are then single
// nodes, filtered per pod set by taints, nodeSelector and required node affinity.
inline constexpr char kHostnameLabel[] = "kubernetes.io/hostname";

struct TopologyDomainId {
  int32_t v = -1;
  auto operator<=>(const TopologyDomainId&) const = default;
};

// One domain of one level: a block, a rack, a host. Static for the snapshot's lifetime.
struct TopologyDomain {
  int32_t level = 0;                       // index into TopologySnapshot::levels()
  TopologyDomainId parent;                 // invalid (-1) at the top level
  std::vector<TopologyDomainId> children;  // ascending by values
  std::vector<std::string> values;         // the label values of levels 0..level
  int32_t leaf = -1;                       // index of the leaf when at the lowest level
  // Position in domains_at(level): comparing ranks is comparing values, without strings.
  int32_t rank = 0;
};

// A lowest-level domain: the node it is (hostname topologies) or the nodes it folds together.
struct TopologyLeaf {
  TopologyDomainId domain;
  std::vector<model::NodeIndex> nodes;  // ascending
  // What the per-node filters read, copied from the leaf's node (hostname topologies, where
  // a leaf is one node; with several nodes of one hostname, the first).
  std::string node_name;
  core::Labels labels;
  std::vector<core::Taint> taints;
};

class TopologySnapshot {
 public:
  // Nodes of `cluster` whose labels hold every flavor.node_labels pair and every level label,
  // and that are schedulable. A leaf's free capacity is the sum of its nodes' allocatable
  // minus the requests (plus one `pods` each) of the bound, non-terminal pods on them. The
  // flavor's tolerations count as the pod's when filtering nodes. O(nodes + pods).
  static TopologySnapshot Build(const model::Snapshot& snapshot, const model::Topology& topology,
                                const model::ResourceFlavor& flavor, const std::string& cluster);

  // Adds (removes) the usage of `assignment`: count × (per_pod + one pod) on each domain it
  // names. The assignment is in FindTopologyAssignment's form (levels = [hostname], or every
  // level). Domains the snapshot does not hold (a node gone or cordoned since) are skipped,
  // as Kueue does. O(domains in the assignment × resources).
  void AddUsage(const model::TopologyAssignment& assignment, const model::ResourceVector& per_pod);
  void RemoveUsage(const model::TopologyAssignment& assignment,
                   const model::ResourceVector& per_pod);

  const std::string& topology_name() const { return topology_name_; }
  const std::vector<std::string>& levels() const { return levels_; }
  bool lowest_level_is_hostname() const { return lowest_is_hostname_; }
  const std::vector<core::Toleration>& flavor_tolerations() const { return flavor_tolerations_; }
  const std::vector<std::string>& resource_names() const { return resource_names_; }

  const TopologyDomain& domain(TopologyDomainId id) const {
    return domains_[static_cast<size_t>(id.v)];
  }
  size_t num_domains() const { return domains_.size(); }
  // The domains of one level, ascending by values.
  const std::vector<TopologyDomainId>& domains_at(int32_t level) const {
    return per_level_[static_cast<size_t>(level)];
  }
  const std::vector<TopologyLeaf>& leaves() const { return leaves_; }

  // Free capacity of leaf `leaf` for resource `r` now: allocatable − non-TAS pods − TAS usage.
  int64_t Remaining(int32_t leaf, model::ResourceId r) const {
    if (r.v >= num_resources_) return 0;
    size_t i = static_cast<size_t>(leaf) * num_resources_ + r.v;
    return model::SaturatingAdd(free_[i], -tas_usage_[i]);  // usage is in [0, INT64_MAX]
  }
  size_t num_resources() const { return num_resources_; }
  // The leaf for the lowest-level values (all levels), if any.
  std::optional<int32_t> FindLeaf(const std::vector<std::string>& values) const;
  // Index of a level label; nullopt when the topology has no such level.
  std::optional<int32_t> LevelIndex(const std::string& label) const;

 private:
  void ApplyUsage(const model::TopologyAssignment& assignment, const model::ResourceVector& per_pod,
                  int64_t sign);
  std::optional<int32_t> LeafFor(const model::TopologyAssignment& assignment,
                                 const model::TopologyDomainAssignment& domain) const;

  std::string topology_name_;
  std::vector<std::string> levels_;
  bool lowest_is_hostname_ = false;
  std::vector<core::Toleration> flavor_tolerations_;
  std::vector<std::string> resource_names_;  // by ResourceId, for messages
  size_t num_resources_ = 0;

  std::vector<TopologyDomain> domains_;
  std::vector<std::vector<TopologyDomainId>> per_level_;
  std::vector<TopologyLeaf> leaves_;
  std::map<std::vector<std::string>, int32_t> leaf_by_values_;
  std::unordered_map<std::string, int32_t> leaf_by_hostname_;  // hostname topologies only
  // Per leaf × resource, row-major: allocatable − non-TAS usage, and TAS usage.
  std::vector<int64_t> free_;
  std::vector<int64_t> tas_usage_;
};

}  // namespace berth::queueing
