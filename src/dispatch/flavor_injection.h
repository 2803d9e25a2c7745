// What Kueue writes into the pods of an admitted workload so they land where the admission
// counted them: the assigned ResourceFlavors' nodeLabels (as nodeSelector) and tolerations
// (kueue pkg/podset FromAssignment + Merge), and, under a topology assignment, a nodeSelector
// on every topology level pinning each pod to its domain (Kueue's TAS ungater). dispatch
// writes it into the pod templates of a job sent to a cluster that runs no Kueue; the
// engine's admitted pods get the same. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/taint.h"
#include "model/kueue.h"
#include "model/snapshot.h"

namespace berth::dispatch {

struct FlavorInjection {
  std::map<std::string, std::string> node_selector;
  std::vector<core::Toleration> tolerations;

  bool empty() const { return node_selector.empty() && tolerations.empty(); }
};

// The injection for pod set `assignment.name` under its assignment: each flavor the
// assignment names, once, in flavor name order (upstream walks a Go map, in no fixed order);
// nodeLabels merged keep-first, so for a key two flavors set differently the flavor first by
// name wins (upstream MergeKeepFirst); tolerations appended in the flavors' order, each once
// (upstream Merge skips duplicates). Flavors are looked up among snapshot.resource_flavors
// of `cluster` (the hub that admitted the workload); a flavor missing there adds nothing
// (Kueue would not start the job; the admission check is the engine's). Linear in the
// flavors of the snapshot times those of the assignment.
FlavorInjection InjectionFor(const model::Snapshot& snapshot, const std::string& cluster,
                             const model::PodSetAssignment& assignment);

// Kueue's TAS ungater for pod `pod_index` (0-based, in the order the pod set's pods are
// created): the domains' counts laid out flat in order give the pod's domain, and the
// result maps each level to that domain's value (levels without a value are left out).
// nullopt when `pod_index` is negative or beyond the sum of the counts. Linear in the
// domains.
std::optional<std::map<std::string, std::string>> PodTopologySelector(
    const model::TopologyAssignment& topology, int32_t pod_index);

// The nodeSelector every pod of the pod set can carry, for a pod template shared by all of
// them: the levels on which all domains holding pods have the same value. One domain pins
// every level; pods spread over racks of one block pin the block. Every node the
// assignment counted matches it, so it never excludes a pod from its domain. Empty when
// no domain holds pods. Linear in domains times levels.
std::map<std::string, std::string> SharedTopologySelector(
    const model::TopologyAssignment& topology);

}  // namespace berth::dispatch
