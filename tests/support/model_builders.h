// Builders that make model objects (Node, Pod, Snapshot) in one line each, for tests of any
// module. Amounts are in model units: cpu in milli-cores, memory in bytes, everything else
// in whole units. Header-only; every builder is a plain value, Build() copies.
//
//   testing::SnapshotBuilder s;
//   s.Add(testing::NodeBuilder("n1").Cpu(4000).Memory(16 * testing::kGi).Gpu(8));
//   s.Add(testing::PodBuilder("p1").Container({{"cpu", 500}, {"nvidia.com/gpu", 1}}));
//   model::Snapshot snapshot = s.Build();
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/labels.h"
#include "core/selector.h"
#include "core/taint.h"
#include "model/node.h"
#include "model/pod.h"
#include "model/resources.h"
#include "model/snapshot.h"

namespace berth::testing {

inline constexpr int64_t kKi = 1024;
inline constexpr int64_t kMi = 1024 * kKi;
inline constexpr int64_t kGi = 1024 * kMi;

// (resource name, amount) pairs.
using Amounts = std::vector<std::pair<std::string, int64_t>>;

// prefix + index ("node-" , 3 -> "node-3"), appended rather than concatenated with operator+,
// which GCC 12 mis-warns about (-Wrestrict) at -O2.
inline std::string Indexed(std::string prefix, int64_t index) {
  prefix += std::to_string(index);
  return prefix;
}

inline model::ResourceVector MakeResources(model::ResourceCatalog& catalog,
                                           const Amounts& amounts) {
  model::ResourceVector v;
  for (const auto& [name, amount] : amounts) v.Set(catalog.Intern(name), amount);
  return v;
}

inline core::SelectorRequirement Req(std::string key, core::SelectorOp op,
                                     std::vector<std::string> values = {}) {
  return core::SelectorRequirement{std::move(key), op, std::move(values)};
}

// A node selector term of matchExpressions.
inline core::NodeSelectorTerm ExprTerm(std::vector<core::SelectorRequirement> exprs) {
  core::NodeSelectorTerm t;
  t.match_expressions = std::move(exprs);
  return t;
}

// A node selector term with one matchFields metadata.name In requirement.
inline core::NodeSelectorTerm NameTerm(std::vector<std::string> names) {
  core::NodeSelectorTerm t;
  t.match_fields.push_back(Req("metadata.name", core::SelectorOp::kIn, std::move(names)));
  return t;
}

inline core::LabelSelector MatchLabels(core::Labels labels) {
  core::LabelSelector s;
  s.match_labels = std::move(labels);
  return s;
}

// A pod (anti-)affinity term selecting pods by labels in the owner's namespace.
inline model::PodAffinityTerm AffinityTerm(core::Labels match_labels, std::string topology_key) {
  model::PodAffinityTerm t;
  t.label_selector = MatchLabels(std::move(match_labels));
  t.topology_key = std::move(topology_key);
  return t;
}

inline model::TopologySpreadConstraint Spread(
    std::string topology_key, int32_t max_skew, core::Labels match_labels,
    model::UnsatisfiableAction action = model::UnsatisfiableAction::kDoNotSchedule) {
  model::TopologySpreadConstraint c;
  c.topology_key = std::move(topology_key);
  c.max_skew = max_skew;
  c.label_selector = MatchLabels(std::move(match_labels));
  c.when_unsatisfiable = action;
  return c;
}

class NodeBuilder {
 public:
  // Sets kubernetes.io/hostname to the name (as the kubelet does) and "pods: 110".
  explicit NodeBuilder(std::string name) {
    node_.meta.labels["kubernetes.io/hostname"] = name;
    node_.meta.name = std::move(name);
    allocatable_.emplace_back("pods", 110);
  }

  NodeBuilder& Label(std::string key, std::string value) {
    node_.meta.labels[std::move(key)] = std::move(value);
    return *this;
  }
  NodeBuilder& NoLabel(const std::string& key) {
    node_.meta.labels.erase(key);
    return *this;
  }
  NodeBuilder& Taint(std::string key, std::string value,
                     core::TaintEffect effect = core::TaintEffect::kNoSchedule) {
    node_.taints.push_back(core::Taint{std::move(key), std::move(value), effect});
    return *this;
  }
  NodeBuilder& Unschedulable(bool value = true) {
    node_.unschedulable = value;
    return *this;
  }
  NodeBuilder& Cluster(std::string cluster) {
    node_.cluster = std::move(cluster);
    return *this;
  }
  // Sets (or overrides) one allocatable amount; capacity mirrors allocatable.
  NodeBuilder& Allocatable(const std::string& resource, int64_t amount) {
    for (auto& [name, a] : allocatable_) {
      if (name == resource) {
        a = amount;
        return *this;
      }
    }
    allocatable_.emplace_back(resource, amount);
    return *this;
  }
  NodeBuilder& Cpu(int64_t milli) { return Allocatable("cpu", milli); }
  NodeBuilder& Memory(int64_t bytes) { return Allocatable("memory", bytes); }
  NodeBuilder& Pods(int64_t count) { return Allocatable("pods", count); }
  NodeBuilder& Gpu(int64_t count) { return Allocatable("nvidia.com/gpu", count); }

  model::Node Build(model::ResourceCatalog& catalog) const {
    model::Node n = node_;
    n.allocatable = MakeResources(catalog, allocatable_);
    n.capacity = n.allocatable;
    return n;
  }

 private:
  model::Node node_;
  Amounts allocatable_;
};

class PodBuilder {
 public:
  explicit PodBuilder(std::string name, std::string namespace_name = "default") {
    pod_.meta.name = std::move(name);
    pod_.meta.namespace_ = std::move(namespace_name);
  }

  PodBuilder& Label(std::string key, std::string value) {
    pod_.meta.labels[std::move(key)] = std::move(value);
    return *this;
  }
  // One app container with these requests.
  PodBuilder& Container(Amounts requests) {
    containers_.push_back({std::move(requests), false, false});
    return *this;
  }
  PodBuilder& InitContainer(Amounts requests) {
    containers_.push_back({std::move(requests), true, false});
    return *this;
  }
  // An init container with restartPolicy: Always.
  PodBuilder& Sidecar(Amounts requests) {
    containers_.push_back({std::move(requests), true, true});
    return *this;
  }
  PodBuilder& Overhead(Amounts amounts) {
    overhead_ = std::move(amounts);
    return *this;
  }
  PodBuilder& Priority(int32_t priority) {
    pod_.priority = priority;
    return *this;
  }
  PodBuilder& Created(int64_t unix_s) {
    pod_.meta.creation_timestamp = core::Timestamp{unix_s};
    return *this;
  }
  PodBuilder& NodeName(std::string node) {
    pod_.node_name = std::move(node);
    return *this;
  }
  PodBuilder& Cluster(std::string cluster) {
    pod_.cluster = std::move(cluster);
    return *this;
  }
  PodBuilder& SchedulerName(std::string name) {
    pod_.scheduler_name = std::move(name);
    return *this;
  }
  PodBuilder& Phase(model::PodPhase phase) {
    pod_.phase = phase;
    return *this;
  }
  PodBuilder& Toleration(std::string key, core::TolerationOp op, std::string value = "",
                         std::optional<core::TaintEffect> effect = std::nullopt) {
    pod_.tolerations.push_back(
        core::Toleration{std::move(key), op, std::move(value), effect, std::nullopt});
    return *this;
  }
  PodBuilder& NodeSelector(std::string key, std::string value) {
    pod_.node_selector[std::move(key)] = std::move(value);
    return *this;
  }
  // Adds a term to the required node affinity (terms are ORed).
  PodBuilder& RequiredNodeAffinity(core::NodeSelectorTerm term) {
    if (!pod_.node_affinity.required.has_value())
      pod_.node_affinity.required = core::NodeSelector{};
    pod_.node_affinity.required->terms.push_back(std::move(term));
    return *this;
  }
  PodBuilder& PreferredNodeAffinity(int32_t weight, core::NodeSelectorTerm term) {
    pod_.node_affinity.preferred.push_back(model::PreferredSchedulingTerm{weight, std::move(term)});
    return *this;
  }
  PodBuilder& SpreadConstraint(model::TopologySpreadConstraint c) {
    pod_.topology_spread_constraints.push_back(std::move(c));
    return *this;
  }
  PodBuilder& PodAffinity(model::PodAffinityTerm term) {
    pod_.pod_affinity.required.push_back(std::move(term));
    return *this;
  }
  PodBuilder& PodAntiAffinity(model::PodAffinityTerm term) {
    pod_.pod_anti_affinity.required.push_back(std::move(term));
    return *this;
  }
  PodBuilder& PreferredPodAffinity(int32_t weight, model::PodAffinityTerm term) {
    pod_.pod_affinity.preferred.push_back(model::WeightedPodAffinityTerm{weight, std::move(term)});
    return *this;
  }
  PodBuilder& PreferredPodAntiAffinity(int32_t weight, model::PodAffinityTerm term) {
    pod_.pod_anti_affinity.preferred.push_back(
        model::WeightedPodAffinityTerm{weight, std::move(term)});
    return *this;
  }

  model::Pod Build(model::ResourceCatalog& catalog) const {
    model::Pod p = pod_;
    int index = 0;
    for (const auto& c : containers_) {
      model::Container container;
      container.name = Indexed("c", index++);
      container.requests = MakeResources(catalog, c.requests);
      container.restartable = c.restartable;
      for (const auto& [name, amount] : c.requests) {
        if (name == "cpu") container.cpu_request_named = true;
        if (name == "memory") container.memory_request_named = true;
      }
      (c.init ? p.init_containers : p.containers).push_back(std::move(container));
    }
    p.overhead = MakeResources(catalog, overhead_);
    return p;
  }

 private:
  struct ContainerSpec {
    Amounts requests;
    bool init = false;
    bool restartable = false;
  };
  model::Pod pod_;
  std::vector<ContainerSpec> containers_;
  Amounts overhead_;
};

class SnapshotBuilder {
 public:
  SnapshotBuilder& Add(const NodeBuilder& node) {
    snapshot_.nodes.push_back(node.Build(snapshot_.resources));
    return *this;
  }
  SnapshotBuilder& Add(const PodBuilder& pod) {
    snapshot_.pods.push_back(pod.Build(snapshot_.resources));
    return *this;
  }
  SnapshotBuilder& Namespace(std::string name, core::Labels labels = {}) {
    model::Namespace ns;
    ns.meta.name = std::move(name);
    ns.meta.labels = std::move(labels);
    snapshot_.namespaces.push_back(std::move(ns));
    return *this;
  }
  // Index the next added pod will get.
  model::PodIndex NextPod() const {
    return model::PodIndex{static_cast<int32_t>(snapshot_.pods.size())};
  }
  model::Snapshot Build() const { return snapshot_; }

 private:
  model::Snapshot snapshot_;
};

}  // namespace berth::testing
