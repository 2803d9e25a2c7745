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
  // status.conditions' Ready condition: false when its status is "False" or "Unknown" (the
  // kubelet stopped posting). A Node without the condition (hand-written) counts as ready.
  // Read by inventory and diagnostics; binding does not filter on it (the node lifecycle
  // controller's not-ready taints do).
  bool ready = true;
  std::string ready_reason;                         // the condition's reason, when given
  std::optional<core::Timestamp> ready_transition;  // its lastTransitionTime, when given
  // timeAdded of the node.kubernetes.io/unschedulable taint the node controller adds on a
  // cordon: how long the node has been cordoned (berth doctor); nullopt when not given.
  std::optional<core::Timestamp> unschedulable_since;
  ResourceVector capacity;
  ResourceVector allocatable;  // status.allocatable, or capacity when absent
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
