// Fixtures for the topology-aware scheduling tests: a Topology and TAS ResourceFlavor over
// nodes labelled block / rack / hostname as in Kueue's TAS tests, and a compact rendering of
// assignments ("x1:1,x3:2"). Header-only, test-only.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/kueue.h"
#include "model/snapshot.h"
#include "queueing/topology_assigner.h"
#include "queueing/topology_snapshot.h"
#include "support/model_builders.h"

namespace berth::queueing::tas_testing {

inline constexpr char kBlock[] = "cloud.com/topology-block";
inline constexpr char kRack[] = "cloud.com/topology-rack";
inline constexpr char kHost[] = "kubernetes.io/hostname";

inline std::vector<std::string> ThreeLevels() { return {kBlock, kRack, kHost}; }
inline std::vector<std::string> TwoLevels() { return {kBlock, kRack}; }

// A node named `name` in block/rack with hostname `host`, `cpu_milli` cpu and `pods` pods.
inline testing::NodeBuilder TasNode(const std::string& name, const std::string& block,
                                    const std::string& rack, const std::string& host,
                                    int64_t cpu_milli, int64_t pods = 10) {
  testing::NodeBuilder n(name);
  n.Label(kBlock, block).Label(kRack, rack).Label(kHost, host).Cpu(cpu_milli).Pods(pods);
  return n;
}

inline model::TopologyRequest Required(std::string level) {
  model::TopologyRequest r;
  r.required = std::move(level);
  return r;
}
inline model::TopologyRequest Preferred(std::string level) {
  model::TopologyRequest r;
  r.preferred = std::move(level);
  return r;
}
inline model::TopologyRequest Unconstrained() {
  model::TopologyRequest r;
  r.unconstrained = true;
  return r;
}
inline model::TopologyRequest WithSlices(model::TopologyRequest r, std::string level,
                                         std::optional<int32_t> size) {
  r.slice_required_topology = std::move(level);
  r.slice_size = size;
  return r;
}

class TasFixture {
 public:
  explicit TasFixture(std::vector<std::string> levels) {
    topology_.meta.name = "default";
    topology_.levels = std::move(levels);
    flavor_.meta.name = "tas-flavor";
    flavor_.topology_name = "default";
  }

  TasFixture& Add(const testing::NodeBuilder& node) {
    builder_.Add(node);
    return *this;
  }
  TasFixture& Add(const testing::PodBuilder& pod) {
    builder_.Add(pod);
    return *this;
  }
  model::ResourceFlavor& flavor() { return flavor_; }
  model::Topology& topology() { return topology_; }

  // The model snapshot (built on first use; add nodes and pods before).
  model::Snapshot& model() {
    if (!built_) {
      model_ = builder_.Build();
      for (const char* name : {"cpu", "memory", "pods", "nvidia.com/gpu"}) {
        model_.resources.Intern(name);
      }
      built_ = true;
    }
    return model_;
  }
  TopologySnapshot Snapshot() {
    return TopologySnapshot::Build(model(), topology_, flavor_, "default");
  }
  TopologyPodSetRequest Request(const testing::Amounts& per_pod, int32_t count,
                                model::TopologyRequest tr = {}) {
    TopologyPodSetRequest r;
    r.per_pod = testing::MakeResources(model().resources, per_pod);
    r.count = count;
    r.request = std::move(tr);
    return r;
  }

 private:
  testing::SnapshotBuilder builder_;
  model::Snapshot model_;
  bool built_ = false;
  model::Topology topology_;
  model::ResourceFlavor flavor_;
};

// "x1:1,x3:2" (values of each domain joined by '/').
inline std::string Render(const model::TopologyAssignment& a) {
  std::string out;
  for (const auto& d : a.domains) {
    if (!out.empty()) out += ',';
    for (size_t i = 0; i < d.values.size(); ++i) {
      if (i > 0) out += '/';
      out += d.values[i];
    }
    out += ':';
    out += std::to_string(d.count);
  }
  return out;
}

// The assignment rendered, or "error: <message>".
inline std::string Place(const TopologySnapshot& s, const TopologyPodSetRequest& r) {
  core::Result<model::TopologyAssignment> a = FindTopologyAssignment(s, r);
  if (!a.has_value()) return "error: " + a.error().message();
  return Render(a.value());
}

}  // namespace berth::queueing::tas_testing
