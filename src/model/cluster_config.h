// Cluster configuration objects berth doctor reads: PodDisruptionBudget (policy/v1),
// RuntimeClass (node.k8s.io/v1) and ConfigMap (v1; e.g. the NVIDIA device plugin's
// configuration). Plain data; the plan does not use them.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/selector.h"
#include "model/object_meta.h"
#include "model/ocm.h"  // IntOrPercent

namespace berth::model {

struct PodDisruptionBudget {
  ObjectMeta meta;
  std::optional<core::LabelSelector> selector;  // nullopt selects nothing; {} every pod
  std::optional<IntOrPercent> min_available;  // model/ocm.h's int-or-percent
  std::optional<IntOrPercent> max_unavailable;
  std::string unhealthy_pod_eviction_policy;  // IfHealthyBudget (default) or AlwaysAllow
  std::string cluster = "default";
  SourceRef source;
};

struct RuntimeClass {
  ObjectMeta meta;
  std::string handler;
  core::Labels node_selector;  // scheduling.nodeSelector
  std::string cluster = "default";
  SourceRef source;
};

struct ConfigMap {
  ObjectMeta meta;
  // data, in document order; binaryData is not kept. Values longer than the reader's string
  // bound are refused by the reader like any other string.
  std::vector<std::pair<std::string, std::string>> data;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
