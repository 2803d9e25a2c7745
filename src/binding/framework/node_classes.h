// NodeClasses: partitions the nodes into equivalence classes that every filter and score
// the index handles sees as one: same labels (except per-node keys), same taints in the same
// order, same unschedulable flag, same allocatable amounts. Per-node keys are
// kubernetes.io/hostname and any label key with more than kMaxClassKeyValues distinct values
// (a rack or serial number): folding them in would make classes as many as nodes. Pods whose
// node selection reads a per-node key are not indexed. Immutable after construction.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "binding/framework/cluster_state.h"
#include "binding/framework/resource_table.h"

namespace berth::binding {

class NodeClasses {
 public:
  static constexpr size_t kMaxClassKeyValues = 64;

  NodeClasses(const ClusterState& state, const ResourceTable& resources);

  int32_t num_classes() const { return static_cast<int32_t>(members_.size()); }
  int32_t class_of(model::NodeIndex n) const { return class_of_[static_cast<size_t>(n.v)]; }
  // The class's first node in snapshot order; every member answers the class's questions
  // the same way.
  model::NodeIndex representative(int32_t c) const {
    return members_[static_cast<size_t>(c)].front();
  }
  const std::vector<model::NodeIndex>& members(int32_t c) const {
    return members_[static_cast<size_t>(c)];
  }
  int32_t size(int32_t c) const { return static_cast<int32_t>(members(c).size()); }
  // True for a label key left out of the class identity.
  bool IsPerNodeKey(std::string_view key) const;

 private:
  std::set<std::string, std::less<>> per_node_keys_;
  std::vector<int32_t> class_of_;
  std::vector<std::vector<model::NodeIndex>> members_;
};

}  // namespace berth::binding
