#include "queueing/topology_snapshot.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "model/pod_requests.h"
#include "model/resources.h"

namespace berth::queueing {

namespace {

// utiltas.NodeMatchesFlavor: every flavor label pair, and a value for every level.
bool NodeMatchesFlavor(const model::Node& node, const model::ResourceFlavor& flavor,
                       const std::vector<std::string>& levels) {
  for (const auto& [key, value] : flavor.node_labels) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) return false;
  }
  for (const std::string& level : levels) {
    if (node.meta.labels.find(level) == node.meta.labels.end()) return false;
  }
  return true;
}

}  // namespace

TopologySnapshot TopologySnapshot::Build(const model::Snapshot& snapshot,
                                         const model::Topology& topology,
                                         const model::ResourceFlavor& flavor,
                                         const std::string& cluster) {
  TopologySnapshot s;
  s.topology_name_ = topology.meta.name;
  s.levels_ = topology.levels;
  s.lowest_is_hostname_ = !s.levels_.empty() && s.levels_.back() == kHostnameLabel;
  s.flavor_tolerations_ = flavor.tolerations;
  s.num_resources_ = snapshot.resources.size();
  s.resource_names_.reserve(s.num_resources_);
  for (size_t i = 0; i < s.num_resources_; ++i) {
    s.resource_names_.push_back(
        snapshot.resources.Name(model::ResourceId{static_cast<uint16_t>(i)}));
  }
  const size_t num_levels = s.levels_.size();
  s.per_level_.resize(num_levels);
  if (num_levels == 0) return s;

  // Leaves first: one per distinct lowest-level value tuple. std::map keeps them ordered by
  // values, so indices (and every tie-break built on them) do not depend on input order.
  std::map<std::vector<std::string>, std::vector<model::NodeIndex>> nodes_by_leaf;
  for (size_t n = 0; n < snapshot.nodes.size(); ++n) {
    const model::Node& node = snapshot.nodes[n];
    if (node.cluster != cluster || node.unschedulable) continue;
    if (!NodeMatchesFlavor(node, flavor, s.levels_)) continue;
    std::vector<std::string> values;
    values.reserve(num_levels);
    for (const std::string& level : s.levels_)
      values.push_back(node.meta.labels.find(level)->second);
    nodes_by_leaf[std::move(values)].push_back(model::NodeIndex{static_cast<int32_t>(n)});
  }

  // Domains of every level, ordered by values within a level (a prefix of the leaf order).
  std::vector<std::map<std::vector<std::string>, TopologyDomainId>> ids(num_levels);
  auto domain_for = [&](const std::vector<std::string>& leaf_values, size_t level) {
    std::vector<std::string> prefix(leaf_values.begin(),
                                    leaf_values.begin() + static_cast<ptrdiff_t>(level) + 1);
    auto [it, inserted] = ids[level].try_emplace(prefix, TopologyDomainId{});
    if (inserted) {
      it->second = TopologyDomainId{static_cast<int32_t>(s.domains_.size())};
      TopologyDomain d;
      d.level = static_cast<int32_t>(level);
      d.values = std::move(prefix);
      s.domains_.push_back(std::move(d));
      s.per_level_[level].push_back(it->second);
    }
    return std::make_pair(it->second, inserted);
  };
  for (auto& [values, nodes] : nodes_by_leaf) {
    TopologyDomainId child;
    for (size_t level = num_levels; level-- > 0;) {
      auto [id, inserted] = domain_for(values, level);
      if (child.v >= 0) {
        s.domains_[static_cast<size_t>(child.v)].parent = id;
        s.domains_[static_cast<size_t>(id.v)].children.push_back(child);
      }
      if (level + 1 == num_levels) {
        s.domains_[static_cast<size_t>(id.v)].leaf = static_cast<int32_t>(s.leaves_.size());
        s.leaf_by_values_.emplace(values, static_cast<int32_t>(s.leaves_.size()));
        if (s.lowest_is_hostname_) {
          s.leaf_by_hostname_.emplace(values.back(), static_cast<int32_t>(s.leaves_.size()));
        }
        TopologyLeaf leaf;
        leaf.domain = id;
        if (s.lowest_is_hostname_) {
          const model::Node& first = snapshot.node(nodes.front());
          leaf.node_name = first.meta.name;
          leaf.labels = first.meta.labels;
          leaf.taints = first.taints;
        }
        leaf.nodes = std::move(nodes);
        s.leaves_.push_back(std::move(leaf));
      }
      if (!inserted) break;  // its ancestors are linked already
      child = id;
    }
  }
  // Leaves arrive in value order, so per_level_ and children are already ascending.
  for (const auto& level : s.per_level_) {
    for (size_t i = 0; i < level.size(); ++i) {
      s.domains_[static_cast<size_t>(level[i].v)].rank = static_cast<int32_t>(i);
    }
  }

  s.free_.assign(s.leaves_.size() * s.num_resources_, 0);
  s.tas_usage_.assign(s.leaves_.size() * s.num_resources_, 0);
  std::unordered_map<std::string, int32_t> leaf_by_node;
  for (size_t l = 0; l < s.leaves_.size(); ++l) {
    for (model::NodeIndex n : s.leaves_[l].nodes) {
      const model::Node& node = snapshot.node(n);
      leaf_by_node.emplace(node.meta.name, static_cast<int32_t>(l));
      for (size_t r = 0; r < s.num_resources_; ++r) {
        int64_t& free = s.free_[l * s.num_resources_ + r];
        free = model::SaturatingAdd(free,
                                    node.allocatable.Get(model::ResourceId{static_cast<uint16_t>(r)}));
      }
    }
  }
  // Every bound pod that still runs holds capacity: Kueue's non-TAS usage cache, plus the
  // pods of admitted TAS workloads, which berth sees bound rather than as assumed usage.
  for (const model::Pod& pod : snapshot.pods) {
    if (pod.cluster != cluster || !pod.IsBound() || pod.IsTerminal()) continue;
    auto it = leaf_by_node.find(pod.node_name);
    if (it == leaf_by_node.end()) continue;
    // What a bound pod holds on its node: kube's rule, requests only (model/pod_requests.h).
    std::vector<int64_t> requests(s.num_resources_, 0);
    model::PodRequestsInto(pod, {}, requests);
    requests[model::kPods.v] += 1;
    int64_t* row = &s.free_[static_cast<size_t>(it->second) * s.num_resources_];
    // Requests are never negative (the readers refuse that), so negating one cannot overflow.
    for (size_t r = 0; r < s.num_resources_; ++r) row[r] = model::SaturatingAdd(row[r], -requests[r]);
  }
  return s;
}

std::optional<int32_t> TopologySnapshot::FindLeaf(const std::vector<std::string>& values) const {
  auto it = leaf_by_values_.find(values);
  if (it == leaf_by_values_.end()) return std::nullopt;
  return it->second;
}

std::optional<int32_t> TopologySnapshot::LevelIndex(const std::string& label) const {
  for (size_t i = 0; i < levels_.size(); ++i) {
    if (levels_[i] == label) return static_cast<int32_t>(i);
  }
  return std::nullopt;
}

std::optional<int32_t> TopologySnapshot::LeafFor(
    const model::TopologyAssignment& assignment,
    const model::TopologyDomainAssignment& domain) const {
  if (assignment.levels.size() == 1 && lowest_is_hostname_ &&
      assignment.levels[0] == kHostnameLabel && domain.values.size() == 1) {
    auto it = leaf_by_hostname_.find(domain.values[0]);
    if (it == leaf_by_hostname_.end()) return std::nullopt;
    return it->second;
  }
  if (assignment.levels != levels_) return std::nullopt;
  return FindLeaf(domain.values);
}

void TopologySnapshot::ApplyUsage(const model::TopologyAssignment& assignment,
                                  const model::ResourceVector& per_pod, int64_t sign) {
  for (const model::TopologyDomainAssignment& d : assignment.domains) {
    std::optional<int32_t> leaf = LeafFor(assignment, d);
    if (!leaf.has_value()) continue;
    int64_t* row = &tas_usage_[static_cast<size_t>(*leaf) * num_resources_];
    for (size_t r = 0; r < num_resources_; ++r) {
      int64_t amount = per_pod.Get(model::ResourceId{static_cast<uint16_t>(r)});
      if (r == model::kPods.v) amount = model::SaturatingAdd(amount, 1);
      // amount x count saturates like every other sum; a saturated row stays saturated.
      int64_t total = 0;
      if (__builtin_mul_overflow(amount, static_cast<int64_t>(d.count), &total)) {
        total = std::numeric_limits<int64_t>::max();
      }
      row[r] = sign > 0 ? model::SaturatingAdd(row[r], total) : model::SaturatingRemove(row[r], total);
    }
  }
}

void TopologySnapshot::AddUsage(const model::TopologyAssignment& assignment,
                                const model::ResourceVector& per_pod) {
  ApplyUsage(assignment, per_pod, 1);
}

void TopologySnapshot::RemoveUsage(const model::TopologyAssignment& assignment,
                                   const model::ResourceVector& per_pod) {
  ApplyUsage(assignment, per_pod, -1);
}

}  // namespace berth::queueing
