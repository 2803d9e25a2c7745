#include "data/data_view.h"

#include <algorithm>
#include <utility>

namespace berth::data {
namespace {

core::Location At(const std::string& kind, const std::string& name, std::string field) {
  return core::Location{"", kind + "/" + name, std::move(field)};
}

// Bandwidths are "0 = default"; only a negative one is nonsense.
core::Status CheckBandwidth(double v, const std::string& kind, const std::string& name,
                            const char* field) {
  if (v < 0) {
    return core::InvalidArgument("bandwidth must not be negative", At(kind, name, field));
  }
  return core::OkStatus();
}

core::Status CheckFraction(double v, const std::string& kind, const std::string& name) {
  if (!(v >= 0 && v <= 1)) {  // also rejects NaN
    return core::InvalidArgument("cached_fraction must be in [0, 1]",
                                 At(kind, name, "cached_fraction"));
  }
  return core::OkStatus();
}

}  // namespace

std::string DataView::Key(std::string_view a, std::string_view b) {
  std::string k;
  k.reserve(a.size() + b.size() + 1);
  k.append(a).push_back('\0');  // '\0' cannot appear in a Kubernetes name
  k.append(b);
  return k;
}

core::Result<DataView> DataView::Build(Topology topology, Copies copies, BandwidthTable defaults) {
  DataView v;
  v.defaults_ = defaults;
  for (size_t i = 0; i < topology.clusters.size(); ++i) {
    const DataCluster& c = topology.clusters[i];
    if (!v.cluster_index_.emplace(c.name, static_cast<int32_t>(i)).second) {
      return core::Error(core::ErrorCode::kAlreadyExists, "duplicate cluster name",
                         At("Cluster", c.name, "name"));
    }
    BERTH_RETURN_IF_ERROR(CheckBandwidth(c.cluster_cache_bytes_per_s, "Cluster", c.name,
                                         "cluster_cache_bytes_per_s"));
    BERTH_RETURN_IF_ERROR(
        CheckBandwidth(c.peer_bytes_per_s, "Cluster", c.name, "peer_bytes_per_s"));
  }
  v.node_cluster_.reserve(topology.nodes.size());
  for (size_t i = 0; i < topology.nodes.size(); ++i) {
    const DataNode& n = topology.nodes[i];
    if (!v.node_index_.emplace(n.name, static_cast<int32_t>(i)).second) {
      return core::Error(core::ErrorCode::kAlreadyExists, "duplicate node name",
                         At("Node", n.name, "name"));
    }
    auto c = v.cluster_index_.find(n.cluster);
    if (c == v.cluster_index_.end()) {
      return core::NotFound("unknown cluster '" + n.cluster + "'", At("Node", n.name, "cluster"));
    }
    v.node_cluster_.push_back(c->second);
    BERTH_RETURN_IF_ERROR(CheckBandwidth(n.nic_bytes_per_s, "Node", n.name, "nic_bytes_per_s"));
    BERTH_RETURN_IF_ERROR(
        CheckBandwidth(n.disk_read_bytes_per_s, "Node", n.name, "disk_read_bytes_per_s"));
    BERTH_RETURN_IF_ERROR(
        CheckBandwidth(n.host_to_gpu_bytes_per_s, "Node", n.name, "host_to_gpu_bytes_per_s"));
  }
  for (size_t i = 0; i < topology.origins.size(); ++i) {
    const OriginLink& o = topology.origins[i];
    BERTH_RETURN_IF_ERROR(
        CheckBandwidth(o.stream_bytes_per_s, "Origin", o.location, "stream_bytes_per_s"));
    BERTH_RETURN_IF_ERROR(
        CheckBandwidth(o.egress_bytes_per_s, "Origin", o.location, "egress_bytes_per_s"));
    v.origin_index_.emplace(o.location, static_cast<int32_t>(i));
  }
  for (const RegionLink& l : topology.region_links) {
    BERTH_RETURN_IF_ERROR(CheckBandwidth(l.bytes_per_s, "RegionLink",
                                         l.from_region + "->" + l.to_region, "bytes_per_s"));
    if (l.bytes_per_s > 0) v.region_link_[Key(l.from_region, l.to_region)] = l.bytes_per_s;
  }
  for (const NodeCopy& c : copies.nodes) {
    const std::string name = c.artifact + "@" + c.node;
    auto n = v.node_index_.find(c.node);
    if (n == v.node_index_.end()) {
      return core::NotFound("unknown node '" + c.node + "'", At("NodeCopy", name, "node"));
    }
    if (c.cached_bytes < 0) {
      return core::InvalidArgument("cached_bytes must not be negative",
                                   At("NodeCopy", name, "cached_bytes"));
    }
    BERTH_RETURN_IF_ERROR(CheckFraction(c.cached_fraction, "NodeCopy", name));
    v.node_copy_[Key(c.artifact, c.node)] = c;
    if (c.complete && c.serves_peers) {
      v.peer_seeds_[Key(c.artifact, topology.nodes[static_cast<size_t>(n->second)].cluster)]
          .push_back(n->second);
    }
  }
  for (auto& [key, seeds] : v.peer_seeds_) std::sort(seeds.begin(), seeds.end());
  for (const ClusterCache& c : copies.clusters) {
    const std::string name = c.artifact + "@" + c.cluster;
    if (!v.cluster_index_.contains(c.cluster)) {
      return core::NotFound("unknown cluster '" + c.cluster + "'",
                            At("ClusterCache", name, "cluster"));
    }
    BERTH_RETURN_IF_ERROR(CheckFraction(c.cached_fraction, "ClusterCache", name));
    v.cluster_cache_[Key(c.artifact, c.cluster)] = c.cached_fraction;
  }
  v.topology_ = std::move(topology);
  return v;
}

std::optional<int32_t> DataView::FindNode(std::string_view name) const {
  auto it = node_index_.find(std::string(name));
  if (it == node_index_.end()) return std::nullopt;
  return it->second;
}

std::optional<int32_t> DataView::FindCluster(std::string_view name) const {
  auto it = cluster_index_.find(std::string(name));
  if (it == cluster_index_.end()) return std::nullopt;
  return it->second;
}

double DataView::NicBytesPerS(int32_t node) const {
  return OrDefault(topology_.nodes[static_cast<size_t>(node)].nic_bytes_per_s,
                   defaults_.nic_bytes_per_s);
}

double DataView::DiskReadBytesPerS(int32_t node) const {
  return OrDefault(topology_.nodes[static_cast<size_t>(node)].disk_read_bytes_per_s,
                   defaults_.disk_read_bytes_per_s);
}

double DataView::HostToGpuBytesPerS(int32_t node) const {
  return OrDefault(topology_.nodes[static_cast<size_t>(node)].host_to_gpu_bytes_per_s,
                   defaults_.host_to_gpu_bytes_per_s);
}

double DataView::ClusterCacheBytesPerS(int32_t cluster) const {
  return OrDefault(topology_.clusters[static_cast<size_t>(cluster)].cluster_cache_bytes_per_s,
                   defaults_.cluster_cache_bytes_per_s);
}

double DataView::PeerBytesPerS(int32_t cluster) const {
  return OrDefault(topology_.clusters[static_cast<size_t>(cluster)].peer_bytes_per_s,
                   defaults_.peer_bytes_per_s);
}

double DataView::OriginStreamBytesPerS(std::string_view location) const {
  auto it = origin_index_.find(std::string(location));
  double v = it == origin_index_.end()
                 ? 0
                 : topology_.origins[static_cast<size_t>(it->second)].stream_bytes_per_s;
  return OrDefault(v, defaults_.origin_stream_bytes_per_s);
}

double DataView::OriginEgressBytesPerS(std::string_view location) const {
  auto it = origin_index_.find(std::string(location));
  double v = it == origin_index_.end()
                 ? 0
                 : topology_.origins[static_cast<size_t>(it->second)].egress_bytes_per_s;
  return OrDefault(v, defaults_.origin_egress_bytes_per_s);
}

std::optional<double> DataView::RegionLinkBytesPerS(std::string_view from_region,
                                                    std::string_view to_region) const {
  // An origin of unknown region is never "local": it pays the cross-region default.
  if (!from_region.empty() && from_region == to_region) return std::nullopt;
  auto it = region_link_.find(Key(from_region, to_region));
  return it == region_link_.end() ? defaults_.cross_region_bytes_per_s : it->second;
}

int64_t DataView::NodeCachedBytes(std::string_view artifact, int32_t node,
                                  int64_t size_bytes) const {
  auto it = node_copy_.find(Key(artifact, topology_.nodes[static_cast<size_t>(node)].name));
  if (it == node_copy_.end()) return 0;
  const NodeCopy& c = it->second;
  if (c.complete) return size_bytes;
  auto from_fraction = static_cast<int64_t>(c.cached_fraction * static_cast<double>(size_bytes));
  return std::min(size_bytes, std::max(c.cached_bytes, from_fraction));
}

bool DataView::ServesPeers(std::string_view artifact, int32_t node) const {
  auto it = node_copy_.find(Key(artifact, topology_.nodes[static_cast<size_t>(node)].name));
  return it != node_copy_.end() && it->second.serves_peers;
}

double DataView::ClusterCachedFraction(std::string_view artifact, int32_t cluster) const {
  auto it =
      cluster_cache_.find(Key(artifact, topology_.clusters[static_cast<size_t>(cluster)].name));
  return it == cluster_cache_.end() ? 0 : it->second;
}

const std::vector<int32_t>& DataView::PeerSeeds(std::string_view artifact, int32_t cluster) const {
  auto it = peer_seeds_.find(Key(artifact, topology_.clusters[static_cast<size_t>(cluster)].name));
  return it == peer_seeds_.end() ? no_seeds_ : it->second;
}

}  // namespace berth::data
