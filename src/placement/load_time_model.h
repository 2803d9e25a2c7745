// LoadTimeModel: how long one node of a member cluster takes to get an artifact into GPU
// memory, the question DataLocality asks per Placement. Placement may not depend on the
// data module (DESIGN.md: stages meet only in engine), so it asks through this small
// interface, which the engine implements with data's transfer model and bandwidth table
// (engine/data_load_time.h). Implementations are immutable; Estimate is const and
// thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace berth::placement {

// Where the bytes come from, nearest first.
enum class LoadPath {
  kClusterCache,       // the cluster's cache (any remainder from the origin)
  kOriginSameRegion,   // the origin, inside the cluster's region
  kOriginCrossRegion,  // the origin, across regions (or of unknown region)
};

struct LoadQuery {
  bool is_model = true;
  int64_t size_bytes = 1;              // > 0
  std::string_view origin_region;      // "" = unknown (counted as across regions)
  std::string_view cluster_region;     // "" = unknown
  double cluster_cached_fraction = 0;  // of the artifact in the cluster's cache, [0, 1]
};

struct LoadTimeEstimate {
  double seconds = 0;  // one node, cold disk: fetch + host-to-GPU copy
  LoadPath path = LoadPath::kOriginCrossRegion;
};

class LoadTimeModel {
 public:
  virtual ~LoadTimeModel() = default;
  // The fastest way for one node of a cluster to load the artifact; nullopt when the
  // model cannot say (the cluster then gets no DataLocality entry). DataLocality asks once
  // per distinct (artifact, cluster region, cached fraction) of a Placement, never per
  // cluster, so an implementation may take microseconds.
  virtual std::optional<LoadTimeEstimate> Estimate(const LoadQuery& query) const = 0;
};

}  // namespace berth::placement
