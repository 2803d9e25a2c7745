#include "engine/inventory.h"

#include <algorithm>
#include <map>
#include <span>
#include <unordered_map>

namespace berth::engine {

Inventory BuildInventory(const Plan& plan) {
  const model::Snapshot& snapshot = plan.planned;
  // The pods the plan bound: planned carries their spec.nodeName, which the input lacked.
  std::vector<bool> bound_by_plan(snapshot.pods.size(), false);
  for (const model::PodDecision& d : plan.pod_decisions) {
    if (!d.skipped && d.node.has_value()) bound_by_plan[static_cast<size_t>(d.pod.v)] = true;
  }
  // Pods the plan deleted (their workload was preempted) keep spec.nodeName in planned but
  // hold nothing: their GPUs went to the pods bound in their place.
  std::vector<bool> deleted(snapshot.pods.size(), false);
  for (const model::PodDeletion& d : plan.deleted_pods) deleted[static_cast<size_t>(d.pod.v)] = true;
  // Nodes are per cluster by name; a pod's node is the node of that name in its cluster.
  std::map<std::pair<std::string, std::string>, size_t> node_by_key;
  for (size_t i = 0; i < snapshot.nodes.size(); ++i) {
    const model::Node& n = snapshot.nodes[i];
    node_by_key.emplace(std::make_pair(n.cluster, n.meta.name), i);
  }
  std::vector<std::vector<gpu::PodGpuDemand>> per_node(snapshot.nodes.size());
  auto add = [&](model::PodIndex p, const std::string& node_name) {
    const model::Pod& pod = snapshot.pod(p);
    auto it = node_by_key.find(std::make_pair(pod.cluster, node_name));
    if (it == node_by_key.end()) return;
    gpu::PodGpuDemand demand = gpu::GpuDemandOf(pod, p, snapshot.resources);
    if (!demand.empty()) per_node[it->second].push_back(std::move(demand));
  };
  // The order binding's ClusterState::AddPod sees them, which FractionLedger replays.
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const model::Pod& pod = snapshot.pods[i];
    if (pod.IsBound() && !pod.IsTerminal() && !bound_by_plan[i] && !deleted[i]) {
      add(model::PodIndex{static_cast<int32_t>(i)}, pod.node_name);
    }
  }
  Inventory out;
  for (const model::PodDecision& d : plan.pod_decisions) {
    if (d.skipped || !d.node.has_value()) continue;
    add(d.pod, snapshot.node(*d.node).meta.name);
    out.sources[d.pod.v] = PodSource::kPlanned;
  }
  // A hub workload dispatched to a member cluster runs there: its pods are the hub's (by
  // name in the workload's namespace), on the member nodes the dispatch bound them to.
  std::map<std::pair<std::string, std::string>, int32_t> pod_by_name;
  if (!plan.dispatches.empty()) {
    for (size_t i = 0; i < snapshot.pods.size(); ++i) {
      const model::Pod& pod = snapshot.pods[i];
      pod_by_name.emplace(std::make_pair(pod.meta.namespace_, pod.meta.name),
                          static_cast<int32_t>(i));
    }
  }
  for (const auto& [workload, dispatch] : plan.dispatches) {
    if (!dispatch.cluster) continue;
    const model::Workload& wl = snapshot.kueue_workloads[static_cast<size_t>(workload)];
    for (const ClusterAttempt& attempt : dispatch.attempts) {
      if (!attempt.fits || attempt.cluster != *dispatch.cluster) continue;
      for (const auto& [pod_name, node_name] : attempt.pods) {
        auto pod = pod_by_name.find({wl.meta.namespace_, pod_name});
        auto node = node_by_key.find({attempt.cluster, node_name});
        if (pod == pod_by_name.end() || node == node_by_key.end()) continue;
        const model::PodIndex p{pod->second};
        gpu::PodGpuDemand demand = gpu::GpuDemandOf(snapshot.pod(p), p, snapshot.resources);
        if (!demand.empty()) per_node[node->second].push_back(std::move(demand));
        out.sources[p.v] = PodSource::kDispatched;
      }
      break;
    }
  }

  std::map<std::string, std::vector<NodeInventory>> clusters;
  for (size_t i = 0; i < snapshot.nodes.size(); ++i) {
    const model::Node& node = snapshot.nodes[i];
    NodeInventory inv;
    inv.node = model::NodeIndex{static_cast<int32_t>(i)};
    inv.gpus = gpu::ReadNodeGpus(node, snapshot.resources);
    if (inv.gpus.empty()) continue;
    inv.occupancy = gpu::AssignGpus(inv.gpus, per_node[i]);
    clusters[node.cluster].push_back(std::move(inv));
  }
  for (auto& [name, nodes] : clusters) {
    std::stable_sort(nodes.begin(), nodes.end(),
                     [&](const NodeInventory& a, const NodeInventory& b) {
                       return snapshot.node(a.node).meta.name < snapshot.node(b.node).meta.name;
                     });
    out.clusters.push_back(ClusterInventory{name, std::move(nodes)});
  }
  return out;
}

}  // namespace berth::engine
