// Copies: where bytes of an artifact already are, per node (a local cache such as a KServe
// LocalModelNode or a pulled image) and per cluster (a Fluid runtime's cache). Plain input
// structs; DataView validates and indexes them. Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace berth::data {

// Bytes of `artifact` on `node`'s local disk. The cached amount is the largest of: the whole
// artifact when `complete`, `cached_bytes`, and `cached_fraction` of its size (clamped to
// the size).
struct NodeCopy {
  std::string artifact;
  std::string node;
  bool complete = false;
  int64_t cached_bytes = 0;    // >= 0
  double cached_fraction = 0;  // in [0, 1]
  // The node serves its complete copy to other nodes of its cluster (a Dragonfly peer).
  bool serves_peers = false;
};

// A cluster-wide cache (Fluid Dataset + runtime: status.cacheStates.cachedPercentage).
struct ClusterCache {
  std::string artifact;
  std::string cluster;
  double cached_fraction = 0;  // in [0, 1]
};

struct Copies {
  std::vector<NodeCopy> nodes;
  std::vector<ClusterCache> clusters;
};

}  // namespace berth::data
