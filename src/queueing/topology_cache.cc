#include "queueing/topology_cache.h"

#include <utility>

#include "core/check.h"

namespace berth::queueing {

TopologyCache::TopologyCache(const model::Snapshot& snapshot)
    : snapshot_(snapshot), trees_(snapshot.resource_flavors.size()) {}

bool TopologyCache::IsTasFlavor(int32_t flavor) const {
  return flavor >= 0 &&
         !snapshot_.resource_flavors[static_cast<size_t>(flavor)].topology_name.empty();
}

const model::Topology* TopologyCache::TopologyOf(int32_t flavor) const {
  if (!IsTasFlavor(flavor)) return nullptr;
  const model::ResourceFlavor& f = snapshot_.resource_flavors[static_cast<size_t>(flavor)];
  for (const model::Topology& t : snapshot_.topologies) {
    if (t.meta.name == f.topology_name && t.cluster == f.cluster) return &t;
  }
  return nullptr;
}

TopologySnapshot* TopologyCache::Get(int32_t flavor) {
  if (!IsTasFlavor(flavor)) return nullptr;
  auto& slot = trees_[static_cast<size_t>(flavor)];
  if (slot == nullptr) {
    const model::Topology* topology = TopologyOf(flavor);
    if (topology == nullptr) return nullptr;
    const model::ResourceFlavor& f = snapshot_.resource_flavors[static_cast<size_t>(flavor)];
    slot = std::make_unique<TopologySnapshot>(
        TopologySnapshot::Build(snapshot_, *topology, f, f.cluster));
    // Built late: the holders recorded so far are charged now (bound ones already are),
    // those of sibling TAS flavors too (see Apply).
    for (const auto& [wl, usage] : usage_) {
      for (const TopologyUsage& u : usage) {
        if (!u.counted_by_build && SameCluster(u.flavor, flavor)) {
          slot->AddUsage(u.assignment, u.per_pod);
        }
      }
    }
  }
  return slot.get();
}

bool TopologyCache::SameCluster(int32_t a, int32_t b) const {
  return snapshot_.resource_flavors[static_cast<size_t>(a)].cluster ==
         snapshot_.resource_flavors[static_cast<size_t>(b)].cluster;
}

void TopologyCache::ApplyToAll(int32_t flavor, const model::TopologyAssignment& assignment,
                               const model::ResourceVector& per_pod, int64_t sign, int32_t except) {
  // Kueue's TAS cache counts a node's usage whatever flavor placed it: TAS flavors sharing
  // nodes see each other's pods (scheduler_tas_test.go, "two ResourceFlavors share nodes").
  // An assignment names its nodes by hostname (or by every level), and a tree ignores the
  // domains that are not its own.
  for (size_t t = 0; t < trees_.size(); ++t) {
    TopologySnapshot* tree = trees_[t].get();
    const auto f = static_cast<int32_t>(t);
    if (tree == nullptr || f == except || !SameCluster(f, flavor)) continue;  // charged when built
    if (sign > 0) {
      tree->AddUsage(assignment, per_pod);
    } else {
      tree->RemoveUsage(assignment, per_pod);
    }
  }
}

void TopologyCache::Apply(const TopologyUsage& u, int64_t sign) {
  ApplyToAll(u.flavor, u.assignment, u.per_pod, sign, -1);
}

void TopologyCache::Hold(int32_t wl, std::vector<TopologyUsage> usage) {
  if (usage.empty()) return;
  // AdmissionState::Hold checks that a workload holds at most one reservation.
  BERTH_CHECK(usage_.count(wl) == 0, "workload already holds topology usage");
  for (const TopologyUsage& u : usage) {
    if (!u.counted_by_build) Apply(u, 1);
  }
  usage_.emplace(wl, std::move(usage));
}

void TopologyCache::Release(int32_t wl) {
  auto it = usage_.find(wl);
  if (it == usage_.end()) return;
  // Bound pods were charged by Build: removing them frees their nodes too.
  for (const TopologyUsage& u : it->second) Apply(u, -1);
  usage_.erase(it);
}

void TopologyCache::Suspend(int32_t wl) {
  auto it = usage_.find(wl);
  if (it == usage_.end()) return;
  for (const TopologyUsage& u : it->second) Apply(u, -1);
}

void TopologyCache::Resume(int32_t wl) {
  auto it = usage_.find(wl);
  if (it == usage_.end()) return;
  for (const TopologyUsage& u : it->second) Apply(u, 1);
}

bool TopologyCache::UsesFlavor(int32_t wl, int32_t flavor) const {
  auto it = usage_.find(wl);
  if (it == usage_.end()) return false;
  for (const TopologyUsage& u : it->second) {
    if (u.flavor == flavor) return true;
  }
  return false;
}

model::TopologyAssignment TopologyCache::BoundAssignment(int32_t flavor,
                                                         const std::vector<int32_t>& pods) {
  model::TopologyAssignment out;
  const model::Topology* topology = TopologyOf(flavor);
  if (topology == nullptr) return out;
  const std::string& cluster = snapshot_.resource_flavors[static_cast<size_t>(flavor)].cluster;
  if (!nodes_indexed_) {
    for (size_t i = 0; i < snapshot_.nodes.size(); ++i) {
      const model::Node& n = snapshot_.nodes[i];
      if (n.cluster == cluster) node_by_name_.emplace(n.meta.name, static_cast<int32_t>(i));
    }
    nodes_indexed_ = true;
  }
  out.levels = topology->levels;
  std::map<std::vector<std::string>, int32_t> counts;
  for (int32_t p : pods) {
    const model::Pod& pod = snapshot_.pods[static_cast<size_t>(p)];
    if (!pod.IsBound() || pod.IsTerminal()) continue;
    auto n = node_by_name_.find(pod.node_name);
    if (n == node_by_name_.end()) continue;
    const core::Labels& labels = snapshot_.nodes[static_cast<size_t>(n->second)].meta.labels;
    std::vector<std::string> values;
    for (const std::string& level : topology->levels) {
      auto l = labels.find(level);
      values.push_back(l == labels.end() ? "" : l->second);
    }
    ++counts[values];
  }
  for (auto& [values, count] : counts) out.domains.push_back({values, count});
  return out;
}

}  // namespace berth::queueing
