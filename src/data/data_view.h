// DataView: a validated, indexed Topology + Copies with every bandwidth resolved against a
// BandwidthTable. EstimateLoad and ScheduleFetches read it; build it once per plan. Immutable
// after Build, so concurrent readers are safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "data/bandwidth_table.h"
#include "data/copies.h"
#include "data/topology.h"

namespace berth::data {

class DataView {
 public:
  // Validates and indexes. Errors (object "Kind/name", field named):
  //   AlreadyExists: two clusters or two nodes with one name;
  //   NotFound: a node's cluster, a copy's node or a cache's cluster is unknown;
  //   InvalidArgument: a negative bandwidth or cached_bytes, a fraction outside [0, 1].
  // O((clusters + nodes + copies) expected).
  static core::Result<DataView> Build(Topology topology, Copies copies,
                                      BandwidthTable defaults = DefaultBandwidthTable());

  // Indexes into clusters()/nodes(), or nullopt when unknown. O(1) expected.
  std::optional<int32_t> FindNode(std::string_view name) const;
  std::optional<int32_t> FindCluster(std::string_view name) const;

  const std::vector<DataCluster>& clusters() const { return topology_.clusters; }
  const std::vector<DataNode>& nodes() const { return topology_.nodes; }
  int32_t NodeCluster(int32_t node) const { return node_cluster_[static_cast<size_t>(node)]; }
  const std::string& ClusterRegion(int32_t cluster) const {
    return topology_.clusters[static_cast<size_t>(cluster)].region;
  }
  const BandwidthTable& defaults() const { return defaults_; }

  // Resolved bandwidths (bytes/s, always > 0).
  double NicBytesPerS(int32_t node) const;
  double DiskReadBytesPerS(int32_t node) const;
  double HostToGpuBytesPerS(int32_t node) const;
  double ClusterCacheBytesPerS(int32_t cluster) const;
  double PeerBytesPerS(int32_t cluster) const;
  double OriginStreamBytesPerS(std::string_view location) const;
  double OriginEgressBytesPerS(std::string_view location) const;
  // One pull from `from_region` to `to_region`: unbounded (nullopt) inside a region with a
  // known name, the RegionLink or the cross-region default otherwise.
  std::optional<double> RegionLinkBytesPerS(std::string_view from_region,
                                            std::string_view to_region) const;

  // Bytes of the artifact of `size_bytes` on `node` (0..size_bytes).
  int64_t NodeCachedBytes(std::string_view artifact, int32_t node, int64_t size_bytes) const;
  bool ServesPeers(std::string_view artifact, int32_t node) const;
  // Fraction of the artifact in `cluster`'s cache, 0 when none.
  double ClusterCachedFraction(std::string_view artifact, int32_t cluster) const;
  // Nodes of `cluster` with a complete copy that they serve to peers, ascending index.
  const std::vector<int32_t>& PeerSeeds(std::string_view artifact, int32_t cluster) const;

 private:
  DataView() = default;

  static std::string Key(std::string_view a, std::string_view b);

  Topology topology_;
  BandwidthTable defaults_;
  std::vector<int32_t> node_cluster_;
  std::unordered_map<std::string, int32_t> node_index_;
  std::unordered_map<std::string, int32_t> cluster_index_;
  std::unordered_map<std::string, int32_t> origin_index_;
  std::unordered_map<std::string, double> region_link_;               // Key(from, to)
  std::unordered_map<std::string, NodeCopy> node_copy_;               // Key(artifact, node)
  std::unordered_map<std::string, double> cluster_cache_;             // Key(artifact, cluster)
  std::unordered_map<std::string, std::vector<int32_t>> peer_seeds_;  // Key(artifact, cluster)
  std::vector<int32_t> no_seeds_;  // always empty: what PeerSeeds returns for no entry
};

}  // namespace berth::data
