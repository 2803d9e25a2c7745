// Topology: the clusters, nodes, origins and links a transfer crosses, with their bandwidths.
// Plain input structs filled by the engine (from ManagedClusters, Nodes, ClusterClaims) or by
// tests; every bandwidth left at 0 takes the BandwidthTable default. DataView validates and
// indexes them. Thread-compatible.
#pragma once

#include <string>
#include <vector>

namespace berth::data {

struct DataCluster {
  std::string name;
  std::string region;
  double cluster_cache_bytes_per_s = 0;  // one reader of this cluster's cache; 0 = default
  double peer_bytes_per_s = 0;           // one node-to-node copy; 0 = default
};

struct DataNode {
  std::string name;
  std::string cluster;  // must name a DataCluster
  double nic_bytes_per_s = 0;
  double disk_read_bytes_per_s = 0;
  double host_to_gpu_bytes_per_s = 0;
};

// Limits of one origin (matched to ArtifactOrigin::location).
struct OriginLink {
  std::string location;
  double stream_bytes_per_s = 0;  // one pull
  double egress_bytes_per_s = 0;  // all pulls together
};

// One direction of a link between two regions; looked up from origin region to node region.
struct RegionLink {
  std::string from_region;
  std::string to_region;
  double bytes_per_s = 0;  // one pull over the link
};

struct Topology {
  std::vector<DataCluster> clusters;
  std::vector<DataNode> nodes;
  std::vector<OriginLink> origins;
  std::vector<RegionLink> region_links;
};

}  // namespace berth::data
