// Node: one Kubernetes v1 Node as binding sees it. Plain data, owned by Snapshot.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/taint.h"
#include "core/time.h"
#include "model/object_meta.h"
#include "model/resources.h"

namespace berth::model {

struct NodeIndex {
  int32_t v = -1;
  auto operator<=>(const NodeIndex&) const = default;
};

struct Node {
  ObjectMeta meta;
  std::vector<core::Taint> taints;
  bool unschedulable = false;
  // timeAdded of the node.kubernetes.io/unschedulable taint the node controller adds on a
  // cordon: how long the node has been cordoned (berth doctor); nullopt when not given.
  std::optional<core::Timestamp> unschedulable_since;
  ResourceVector capacity;
  ResourceVector allocatable;  // status.allocatable, or capacity when absent
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
