// PodInfo: everything the filters and scores read from one pod, prepared once (upstream
// framework.PodInfo plus the plugins' PreFilter parsing): resource requests, the interned
// (namespace, labels) signature, inter-pod affinity terms and topology spread constraints
// with their selectors built, and its host ports. Immutable value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "binding/framework/label_sig_table.h"
#include "binding/framework/pod_resources.h"
#include "binding/framework/resource_table.h"
#include "binding/plugins/affinity_term.h"
#include "core/selector.h"
#include "gpu/fraction_request.h"
#include "model/pod.h"

namespace berth::binding {

// A topology spread constraint as PodTopologySpread uses it: matchLabelKeys merged into the
// selector, minDomains defaulted to 1.
struct SpreadConstraint {
  int32_t max_skew = 1;
  std::string topology_key;
  std::optional<core::LabelSelector> selector;  // nullopt selects no pod
  int32_t min_domains = 1;
  model::NodeInclusionPolicy node_affinity_policy = model::NodeInclusionPolicy::kHonor;
  model::NodeInclusionPolicy node_taints_policy = model::NodeInclusionPolicy::kIgnore;

  bool SelectorMatches(const core::Labels& labels) const {
    return selector.has_value() && selector->Matches(labels);
  }
};

struct PodInfo {
  PodResources resources;
  LabelSigId label_sig;
  std::vector<AffinityTerm> required_affinity;
  std::vector<AffinityTerm> required_anti_affinity;
  std::vector<AffinityTerm> preferred_affinity;       // weight() set
  std::vector<AffinityTerm> preferred_anti_affinity;  // weight() set
  std::vector<SpreadConstraint> hard_spread;          // DoNotSchedule
  std::vector<SpreadConstraint> soft_spread;          // ScheduleAnyway
  // KAI-style fractional GPU request (gpu-fraction / gpu-memory annotations; GpuSharing),
  // or why the annotations are malformed.
  std::optional<gpu::FractionRequest> gpu_fraction;
  std::string gpu_fraction_error;
  // The host ports of the pod's containers (upstream getContainerPorts: app containers,
  // hostPort > 0), what NodePorts checks and ClusterState records per node.
  std::vector<model::HostPort> host_ports;

  bool RequestsGpuFraction() const {
    return gpu_fraction.has_value() || !gpu_fraction_error.empty();
  }

  bool HasAffinityTerms() const {
    return !required_affinity.empty() || !required_anti_affinity.empty() ||
           !preferred_affinity.empty() || !preferred_anti_affinity.empty();
  }
};

PodInfo MakePodInfo(const model::Pod& pod, const ResourceTable& resources, LabelSigTable* sigs);

}  // namespace berth::binding
