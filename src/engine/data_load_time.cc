// Why a one-node view per question instead of the fleet's topology: placement ranks member
// clusters it knows only as ManagedClusters (a region, cache claims), so "one node of the
// cluster" is all it can ask about; the view makes data apply its own rules (region links,
// partly filled caches, the host-to-GPU copy) instead of placement copying them.
#include "engine/data_load_time.h"

#include <string>
#include <utility>

#include "data/data_view.h"
#include "data/transfer_model.h"

namespace berth::engine {

std::optional<placement::LoadTimeEstimate> DataLoadTimeModel::Estimate(
    const placement::LoadQuery& query) const {
  data::Artifact artifact;
  artifact.id = "artifact";
  artifact.kind = query.is_model ? data::ArtifactKind::kModel : data::ArtifactKind::kDataset;
  artifact.size_bytes = query.size_bytes;
  artifact.origin.region = std::string(query.origin_region);
  data::Topology topology;
  topology.clusters.push_back({"cluster", std::string(query.cluster_region), 0, 0});
  topology.nodes.push_back({"node", "cluster", 0, 0, 0});
  data::Copies copies;
  if (query.cluster_cached_fraction > 0) {
    copies.clusters.push_back({artifact.id, "cluster", query.cluster_cached_fraction});
  }
  auto view = data::DataView::Build(std::move(topology), std::move(copies), table_);
  if (!view.has_value()) return std::nullopt;
  auto estimate = data::EstimateLoad(artifact, "node", *view);
  if (!estimate.has_value() || estimate->forbidden()) return std::nullopt;
  placement::LoadTimeEstimate out;
  out.seconds = estimate->path->total_s;
  switch (estimate->path->source) {
    case data::LoadSource::kNodeCache:
    case data::LoadSource::kClusterCache:
    case data::LoadSource::kPeer:
      out.path = placement::LoadPath::kClusterCache;
      break;
    case data::LoadSource::kOriginSameRegion:
      out.path = placement::LoadPath::kOriginSameRegion;
      break;
    case data::LoadSource::kOriginCrossRegion:
      out.path = placement::LoadPath::kOriginCrossRegion;
      break;
  }
  return out;
}

}  // namespace berth::engine
