#include "data/transfer_model.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace berth::data {
namespace {

// One way to fetch the bytes a node lacks, with its time; the cheapest wins.
struct Candidate {
  LoadSource source;
  double seconds;
  int64_t cache_bytes = 0;
  int64_t peer_bytes = 0;
  int64_t origin_bytes = 0;
  int32_t peer = -1;
};

// Faster first; at equal time fewer origin bytes (the origin is the shared resource), then
// the nearer source (enum order).
bool Better(const Candidate& a, const Candidate& b) {
  if (a.seconds != b.seconds) return a.seconds < b.seconds;
  if (a.origin_bytes != b.origin_bytes) return a.origin_bytes < b.origin_bytes;
  return a.source < b.source;
}

}  // namespace

const char* LoadSourceName(LoadSource source) {
  switch (source) {
    case LoadSource::kNodeCache:
      return "node-cache";
    case LoadSource::kClusterCache:
      return "cluster-cache";
    case LoadSource::kPeer:
      return "peer";
    case LoadSource::kOriginSameRegion:
      return "origin";
    case LoadSource::kOriginCrossRegion:
      return "origin-cross-region";
  }
  return "unknown";
}

core::Status ValidateArtifact(const Artifact& artifact) {
  core::Location at{"", "Artifact/" + artifact.id, ""};
  if (artifact.id.empty()) {
    at.field = "id";
    return core::InvalidArgument("artifact id must not be empty", at);
  }
  if (artifact.size_bytes <= 0) {
    at.field = "size_bytes";
    return core::InvalidArgument(
        "size_bytes must be positive, got " + std::to_string(artifact.size_bytes), at);
  }
  return core::OkStatus();
}

std::optional<std::string> ResidencyViolation(const Artifact& artifact, std::string_view region,
                                              std::string_view where) {
  if (artifact.allowed_regions.empty()) return std::nullopt;
  const auto& allowed = artifact.allowed_regions;
  if (std::find(allowed.begin(), allowed.end(), region) != allowed.end()) return std::nullopt;
  std::string list;
  for (const std::string& r : allowed) list += (list.empty() ? "" : ", ") + r;
  return "residency: artifact " + artifact.id + " may only be in regions [" + list + "]; " +
         std::string(where) + " is in region '" + std::string(region) + "'";
}

double OriginPullCapBytesPerS(const Artifact& artifact, int32_t node, const DataView& view) {
  double cap =
      std::min(view.OriginStreamBytesPerS(artifact.origin.location), view.NicBytesPerS(node));
  std::optional<double> link =
      view.RegionLinkBytesPerS(artifact.origin.region, view.ClusterRegion(view.NodeCluster(node)));
  if (link) cap = std::min(cap, *link);
  return cap;
}

double PeerCopyBytesPerS(int32_t from_node, int32_t to_node, const DataView& view) {
  return std::min({view.PeerBytesPerS(view.NodeCluster(to_node)), view.NicBytesPerS(from_node),
                   view.NicBytesPerS(to_node)});
}

core::Result<LoadEstimate> EstimateLoad(const Artifact& artifact, std::string_view node_name,
                                        const DataView& view) {
  BERTH_RETURN_IF_ERROR(ValidateArtifact(artifact));
  std::optional<int32_t> found = view.FindNode(node_name);
  if (!found) {
    return core::NotFound("unknown node", {"", "Node/" + std::string(node_name), "name"});
  }
  const int32_t node = *found;
  const int32_t cluster = view.NodeCluster(node);
  LoadEstimate out;
  if (auto why = ResidencyViolation(artifact, view.ClusterRegion(cluster),
                                    "node " + std::string(node_name))) {
    out.forbidden_reason = std::move(*why);
    return out;
  }

  const auto size = static_cast<double>(artifact.size_bytes);
  const int64_t local = view.NodeCachedBytes(artifact.id, node, artifact.size_bytes);
  const int64_t missing = artifact.size_bytes - local;
  LoadPath path;
  path.local_bytes = local;
  path.gpu_copy_s = size / view.HostToGpuBytesPerS(node);
  const double local_s = static_cast<double>(local) / view.DiskReadBytesPerS(node);

  if (missing == 0) {
    path.source = LoadSource::kNodeCache;
    path.transfer_s = local_s;
  } else {
    const auto m = static_cast<double>(missing);
    // A single pull has the origin's whole egress to itself.
    const double origin_bps = std::min(OriginPullCapBytesPerS(artifact, node, view),
                                       view.OriginEgressBytesPerS(artifact.origin.location));
    const bool same_region =
        !view.RegionLinkBytesPerS(artifact.origin.region, view.ClusterRegion(cluster));
    Candidate best{same_region ? LoadSource::kOriginSameRegion : LoadSource::kOriginCrossRegion,
                   m / origin_bps};
    best.origin_bytes = missing;

    // The cluster cache is assumed to hold the same fraction of the bytes the node lacks as
    // of the whole artifact (it knows nothing of which bytes the node has).
    const double fraction = view.ClusterCachedFraction(artifact.id, cluster);
    if (fraction > 0) {
      Candidate c{LoadSource::kClusterCache, 0};
      c.cache_bytes = std::llround(fraction * m);
      c.origin_bytes = missing - c.cache_bytes;
      const double cache_bps =
          std::min(view.ClusterCacheBytesPerS(cluster), view.NicBytesPerS(node));
      c.seconds = static_cast<double>(c.cache_bytes) / cache_bps +
                  static_cast<double>(c.origin_bytes) / origin_bps;
      if (Better(c, best)) best = c;
    }
    for (int32_t peer : view.PeerSeeds(artifact.id, cluster)) {
      Candidate c{LoadSource::kPeer, m / PeerCopyBytesPerS(peer, node, view)};
      c.peer_bytes = missing;
      c.peer = peer;
      if (Better(c, best)) best = c;  // seeds ascend by index: the first of equals wins
    }
    path.source = best.source;
    path.cluster_cache_bytes = best.cache_bytes;
    path.peer_bytes = best.peer_bytes;
    path.origin_bytes = best.origin_bytes;
    if (best.peer >= 0) path.peer_node = view.nodes()[static_cast<size_t>(best.peer)].name;
    path.transfer_s = local_s + best.seconds;
  }
  path.total_s = path.transfer_s + path.gpu_copy_s;
  out.path = std::move(path);
  return out;
}

}  // namespace berth::data
