// Small fleets for the data tests: clusters of nodes named <cluster>-n<i>, one origin, and
// an artifact; every bandwidth at the default unless a test overrides it.
#pragma once

#include <string>
#include <vector>

#include "data/artifact.h"
#include "data/copies.h"
#include "data/data_view.h"
#include "data/fetch_schedule.h"
#include "data/topology.h"

namespace berth::data::testing {

inline constexpr double kGB = 1e9;

inline Artifact Model(double size_gb, std::string origin_region = "eu") {
  Artifact a;
  a.id = "llama";
  a.kind = ArtifactKind::kModel;
  a.size_bytes = static_cast<int64_t>(size_gb * kGB);
  a.origin = {"s3", "models", std::move(origin_region)};
  return a;
}

// Adds cluster `name` in `region` with `nodes` nodes <name>-n0 ... .
inline void AddCluster(Topology& t, const std::string& name, const std::string& region, int nodes) {
  t.clusters.push_back({name, region, 0, 0});
  for (int i = 0; i < nodes; ++i) {
    t.nodes.push_back({name + "-n" + std::to_string(i), name, 0, 0, 0});
  }
}

inline DataView View(Topology t, Copies c = {}, BandwidthTable table = DefaultBandwidthTable()) {
  auto v = DataView::Build(std::move(t), std::move(c), table);
  return std::move(v).value();
}

// One replica per node of the topology, pod p<i> on node i (zero-padded so that name order
// is node order).
inline std::vector<Replica> OnePerNode(const Topology& t) {
  std::vector<Replica> out;
  for (size_t i = 0; i < t.nodes.size(); ++i) {
    std::string n = std::to_string(i);
    out.push_back({"p" + std::string(3 - n.size(), '0') + n, t.nodes[i].name, t.nodes[i].cluster});
  }
  return out;
}

}  // namespace berth::data::testing
