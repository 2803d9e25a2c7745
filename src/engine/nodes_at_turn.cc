// Why not binding's equivalence classes (binding/framework/node_classes.h): they keep every label but
// per-node ones, so racks and zones split nodes the pod does not care about; a reader wants
// "the 8-GPU H100 nodes", so a class here is allocatable, taints, cordon and the labels this
// pod's scheduling reads (selector, affinity, spread and pod-affinity topology keys) plus
// the GPU product.
// Why not ask binding for the pods on a node: binding keeps per-node sums, not pod lists
// (its hot path needs no more). The pods bound at the explained pod's turn are exactly those
// bound in the input (not terminal) plus the cycle's binds before it, which the replay
// returns, so listing them here costs one pass over the part's pods.
#include "engine/nodes_at_turn.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "gpu/gpu_inventory.h"
#include "model/pod_requests.h"

namespace berth::engine {

namespace {

// The NVIDIA GPU resources of the catalog, by id.
std::vector<bool> GpuResourceMask(const model::ResourceCatalog& catalog) {
  std::vector<bool> mask(catalog.size(), false);
  for (size_t i = 0; i < catalog.size(); ++i) {
    mask[i] = gpu::IsNvidiaGpuResource(catalog.Name(model::ResourceId{static_cast<uint16_t>(i)}));
  }
  return mask;
}

int64_t GpusOf(const model::ResourceVector& requests, const std::vector<bool>& gpu_mask) {
  int64_t gpus = 0;
  for (size_t i = 0; i < gpu_mask.size(); ++i) {
    if (gpu_mask[i]) gpus += requests.Get(model::ResourceId{static_cast<uint16_t>(i)});
  }
  return gpus;
}

// The label keys the pod's scheduling reads, and the GPU product label.
std::set<std::string> LabelsThatMatter(const model::Pod& pod) {
  std::set<std::string> keys{std::string(gpu::kLabelGpuProduct)};
  for (const auto& [key, value] : pod.node_selector) keys.insert(key);
  auto add_term = [&keys](const core::NodeSelectorTerm& term) {
    for (const auto& r : term.match_expressions) keys.insert(r.key);
  };
  if (pod.node_affinity.required) {
    for (const auto& term : pod.node_affinity.required->terms) add_term(term);
  }
  for (const auto& preferred : pod.node_affinity.preferred) add_term(preferred.preference);
  for (const auto& c : pod.topology_spread_constraints) keys.insert(c.topology_key);
  for (const auto& term : pod.pod_affinity.required) keys.insert(term.topology_key);
  for (const auto& term : pod.pod_affinity.preferred) keys.insert(term.term.topology_key);
  for (const auto& term : pod.pod_anti_affinity.required) keys.insert(term.topology_key);
  for (const auto& term : pod.pod_anti_affinity.preferred) keys.insert(term.term.topology_key);
  return keys;
}

// A node's class identity for `keys`: allocatable, cordon, taints and those labels' values.
std::string ClassKey(const model::Node& node, const std::set<std::string>& keys) {
  std::string out;
  for (size_t i = 0; i < node.allocatable.size(); ++i) {
    out += std::to_string(node.allocatable.Get(model::ResourceId{static_cast<uint16_t>(i)}));
    out += ',';
  }
  out += node.unschedulable ? "|u|" : "|s|";
  for (const core::Taint& t : node.taints) {
    out += t.key + '\x1f' + t.value + '\x1f' + core::TaintEffectName(t.effect) + '\x1e';
  }
  out += '|';
  for (const std::string& key : keys) {
    auto it = node.meta.labels.find(key);
    out += it == node.meta.labels.end() ? std::string("\x1d") : it->second;
    out += '\x1e';
  }
  return out;
}

}  // namespace

std::vector<NodeAtTurn> NodesAtTurn(const ClusterPart& part, const binding::Scheduler& scheduler,
                                    model::PodIndex target, const ClusterCycleResult& so_far,
                                    const std::vector<binding::NodeVerdict>& verdicts) {
  const model::Snapshot& snapshot = part.snapshot();
  const std::vector<bool> gpu_mask = GpuResourceMask(snapshot.resources);
  const std::set<std::string> keys = LabelsThatMatter(snapshot.pod(target));
  std::map<std::string, int32_t> class_ids;

  // Local node index by name: pods name their node.
  std::unordered_map<std::string, int32_t> node_by_name;
  for (int32_t n = 0; n < part.num_nodes(); ++n) {
    node_by_name.emplace(part.node(model::NodeIndex{n}).meta.name, n);
  }
  std::vector<std::vector<NodeAtTurn::GpuHolder>> holders(static_cast<size_t>(part.num_nodes()));
  auto hold = [&](model::PodIndex local, int32_t node, bool nominated) {
    const int64_t gpus = GpusOf(model::PodRequests(snapshot.pod(local)), gpu_mask);
    if (gpus > 0) {
      holders[static_cast<size_t>(node)].push_back({part.ToWhole(local), gpus, nominated});
    }
  };
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const model::Pod& pod = snapshot.pods[i];
    if (!pod.IsBound() || pod.IsTerminal()) continue;
    auto it = node_by_name.find(pod.node_name);
    if (it != node_by_name.end()) {
      hold(model::PodIndex{static_cast<int32_t>(i)}, it->second, /*nominated=*/false);
    }
  }
  // The replay's decisions carry whole indices; the part's pods are looked up locally.
  for (const model::PodDecision& d : so_far.pod_decisions) {
    if (d.skipped || !d.node.has_value()) continue;
    const std::optional<model::PodIndex> local = part.ToLocal(d.pod);
    if (!local) continue;  // a pod the cycle created (replacement): not in the part
    auto it = node_by_name.find(part.whole->node(*d.node).meta.name);
    if (it != node_by_name.end()) hold(*local, it->second, /*nominated=*/false);
  }
  // Nominated pods hold their node's room (cluster_cycle.cc: Scheduler::Nominate for this
  // cycle's preemptors, InputNominations for the input's of at least the target's priority).
  std::set<int32_t> decided;  // whole indices
  for (const model::PodDecision& d : so_far.pod_decisions) {
    decided.insert(d.pod.v);
    if (d.skipped || d.node.has_value() || !d.nominated_node.has_value()) continue;
    const std::optional<model::PodIndex> local = part.ToLocal(d.pod);
    if (!local) continue;
    auto it = node_by_name.find(part.whole->node(*d.nominated_node).meta.name);
    if (it != node_by_name.end()) hold(*local, it->second, /*nominated=*/true);
  }
  const std::vector<bool> kueue = KueuePodMask(*part.whole, part);
  const int32_t priority = snapshot.pod(target).priority;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const model::Pod& pod = snapshot.pods[i];
    const model::PodIndex local{static_cast<int32_t>(i)};
    if (local == target || pod.priority < priority || !IsInputNominee(part, local, kueue) ||
        decided.count(part.ToWhole(local).v) != 0) {
      continue;
    }
    auto it = node_by_name.find(pod.nominated_node_name);
    if (it != node_by_name.end()) hold(local, it->second, /*nominated=*/true);
  }

  const model::ResourceVector requests = model::PodRequests(snapshot.pod(target));
  std::vector<NodeAtTurn> out;
  out.reserve(verdicts.size());
  for (const binding::NodeVerdict& verdict : verdicts) {
    NodeAtTurn at;
    const size_t n = static_cast<size_t>(verdict.node.v);
    const model::Node& node = part.node(verdict.node);
    at.node_class = class_ids.emplace(ClassKey(node, keys), static_cast<int32_t>(class_ids.size()))
                        .first->second;
    at.free = scheduler.NodeFree(verdict.node);
    for (size_t r = 0; r < gpu_mask.size(); ++r) {
      const model::ResourceId id{static_cast<uint16_t>(r)};
      if (gpu_mask[r] && requests.Get(id) > 0 && node.allocatable.Get(id) > 0 &&
          at.free.Get(id) < requests.Get(id)) {
        at.gpus_taken = true;
      }
    }
    at.gpu_holders = std::move(holders[n]);
    out.push_back(std::move(at));
  }
  return out;
}

}  // namespace berth::engine
