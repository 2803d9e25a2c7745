// The transfer model: how long one node takes to get an artifact into GPU memory, from which
// source, and how many bytes that costs the origin (docs/data.md, "Transfer model";
// data_locality.md §3.2). Pure functions of their arguments; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "data/artifact.h"
#include "data/data_view.h"

namespace berth::data {

// Where the bytes a node lacks come from. Ordered from nearest to farthest: at equal time the
// nearer source wins.
enum class LoadSource {
  kNodeCache,          // all bytes already on the node's disk
  kClusterCache,       // the cluster's cache (any remainder from the origin)
  kPeer,               // another node of the same cluster
  kOriginSameRegion,   // the origin, inside the node's region
  kOriginCrossRegion,  // the origin, over a link between regions
};

const char* LoadSourceName(LoadSource source);

struct LoadPath {
  LoadSource source = LoadSource::kNodeCache;
  std::string peer_node;            // kPeer: the node copied from
  int64_t local_bytes = 0;          // read from the node's own disk
  int64_t cluster_cache_bytes = 0;  // from the cluster cache
  int64_t peer_bytes = 0;           // from peer_node
  int64_t origin_bytes = 0;         // from the origin: what this load costs the origin
  double transfer_s = 0;            // local read + remote fetch
  double gpu_copy_s = 0;            // size / host-to-GPU bandwidth
  double total_s = 0;               // transfer_s + gpu_copy_s
};

// Either a path with its numbers, or "forbidden" with a reason and no numbers at all.
struct LoadEstimate {
  std::optional<LoadPath> path;
  std::string forbidden_reason;

  bool forbidden() const { return !path.has_value(); }
};

// The fastest way to load `artifact` on `node`. Errors: InvalidArgument (object
// "Artifact/<id>", field size_bytes or id) for a bad artifact; NotFound (object
// "Node/<name>") for an unknown node. A node outside the artifact's allowed regions is a
// forbidden estimate, not an error. O(peer seeds of the node's cluster).
core::Result<LoadEstimate> EstimateLoad(const Artifact& artifact, std::string_view node,
                                        const DataView& view);

// Shared with the fetch schedule.

// Ok, or InvalidArgument naming the artifact and the field.
core::Status ValidateArtifact(const Artifact& artifact);

// Why `artifact` may not be loaded in `region`, or nullopt when it may.
std::optional<std::string> ResidencyViolation(const Artifact& artifact, std::string_view region,
                                              std::string_view where);

// One origin pull to `node` alone: min(origin stream, region link, node NIC). The origin's
// egress limit is applied by the caller (EstimateLoad: one pull; the schedule: shared).
double OriginPullCapBytesPerS(const Artifact& artifact, int32_t node, const DataView& view);

// One node-to-node copy inside `node`'s cluster: min(peer bandwidth, both NICs).
double PeerCopyBytesPerS(int32_t from_node, int32_t to_node, const DataView& view);

}  // namespace berth::data
