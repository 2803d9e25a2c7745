#include "engine/cluster_part.h"

#include <set>
#include <utility>

namespace berth::engine {

std::vector<ClusterPart> SplitByCluster(const model::Snapshot& whole) {
  std::set<std::string> clusters;
  for (const auto& node : whole.nodes) clusters.insert(node.cluster);
  for (const auto& pod : whole.pods) clusters.insert(pod.cluster);
  for (const auto& w : whole.kueue_workloads) clusters.insert(w.cluster);

  std::vector<ClusterPart> parts;
  if (clusters.size() <= 1) {
    ClusterPart part;
    part.whole = &whole;
    part.name = clusters.empty() ? "default" : *clusters.begin();
    parts.push_back(std::move(part));
    return parts;
  }
  for (const auto& cluster : clusters) {
    ClusterPart part;
    part.whole = &whole;
    part.owned.emplace();
    part.cluster = cluster;
    part.name = cluster;
    model::Snapshot& s = *part.owned;
    // The catalog is copied whole so that ResourceIds mean the same in every part.
    s.resources = whole.resources;
    s.priority_classes = whole.priority_classes;
    s.namespaces = whole.namespaces;
    s.scheduler_config = whole.scheduler_config;
    for (size_t i = 0; i < whole.nodes.size(); ++i) {
      if (whole.nodes[i].cluster != cluster) continue;
      s.nodes.push_back(whole.nodes[i]);
      part.nodes.push_back(model::NodeIndex{static_cast<int32_t>(i)});
    }
    for (size_t i = 0; i < whole.pods.size(); ++i) {
      if (whole.pods[i].cluster != cluster) continue;
      part.pod_to_local.emplace(static_cast<int32_t>(i), static_cast<int32_t>(s.pods.size()));
      s.pods.push_back(whole.pods[i]);
      part.pods.push_back(model::PodIndex{static_cast<int32_t>(i)});
    }
    for (const auto& workload : whole.workloads) {
      if (workload.cluster == cluster) s.workloads.push_back(workload);
    }
    // DeviceClasses carry no cluster (each member cluster has its own copy of the same
    // classes); claims, templates and slices belong to one.
    s.device_classes = whole.device_classes;
    for (size_t i = 0; i < whole.resource_claims.size(); ++i) {
      if (whole.resource_claims[i].cluster != cluster) continue;
      s.resource_claims.push_back(whole.resource_claims[i]);
      part.claims.push_back(static_cast<int32_t>(i));
    }
    for (const auto& t : whole.resource_claim_templates) {
      if (t.cluster == cluster) s.resource_claim_templates.push_back(t);
    }
    for (const auto& slice : whole.resource_slices) {
      if (slice.cluster == cluster) s.resource_slices.push_back(slice);
    }
    parts.push_back(std::move(part));
  }
  return parts;
}

model::PodDecision ToWhole(const ClusterPart& part, model::PodDecision decision) {
  decision.pod = part.ToWhole(decision.pod);
  if (decision.node) decision.node = part.ToWhole(*decision.node);
  return decision;
}

}  // namespace berth::engine
