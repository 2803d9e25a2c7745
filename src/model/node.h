// Node: one Kubernetes v1 Node as binding sees it. Plain data, owned by Snapshot.
#pragma once

#include <string>
#include <vector>

#include "core/taint.h"
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
  ResourceVector capacity;
  ResourceVector allocatable;  // status.allocatable, or capacity when absent
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
