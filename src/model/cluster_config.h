// Cluster configuration objects berth doctor reads: PodDisruptionBudget (policy/v1),
// RuntimeClass (node.k8s.io/v1) and ConfigMap (v1; e.g. the NVIDIA device plugin's
// configuration). Plain data; of these the plan uses the RuntimeClass (io's RuntimeClass
// admission gives pods its overhead, node selector and tolerations) and reads PDBs for
// preemption (binding).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/selector.h"
#include "core/taint.h"
#include "model/object_meta.h"
#include "model/resources.h"

namespace berth::model {

// An int or a percentage, as PDBs write minAvailable and maxUnavailable (parsed: "25%" is
// {25, true}). Not OCM's model::IntOrPercent (ocm.h), which keeps the text for the scheduler.
struct CountOrPercent {
  int32_t value = 0;
  bool percent = false;
};

struct PodDisruptionBudget {
  ObjectMeta meta;
  std::optional<core::LabelSelector> selector;  // nullopt selects nothing; {} every pod
  std::optional<CountOrPercent> min_available;
  std::optional<CountOrPercent> max_unavailable;
  std::string unhealthy_pod_eviction_policy;  // IfHealthyBudget (default) or AlwaysAllow
  // status.disruptionsAllowed when given (DefaultPreemption computes it from the selected
  // pods otherwise) and the names in status.disruptedPods.
  std::optional<int32_t> disruptions_allowed;
  std::vector<std::string> disrupted_pods;
  std::string cluster = "default";
  SourceRef source;
};

struct RuntimeClass {
  ObjectMeta meta;
  std::string handler;
  core::Labels node_selector;  // scheduling.nodeSelector
  std::vector<core::Toleration> tolerations;  // scheduling.tolerations
  // overhead.podFixed; nullopt when the class has no overhead (upstream: nil).
  std::optional<ResourceVector> overhead;
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
