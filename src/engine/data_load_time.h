// DataLoadTimeModel: placement's LoadTimeModel answered by the data module's transfer model
// (data::EstimateLoad over data::DefaultBandwidthTable(), docs/data.md), so DataLocality
// ranks clusters by the same formulas and bandwidths as `explain isvc`. The engine passes
// one to SchedulePlacement; immutable, thread-safe.
#pragma once

#include <optional>

#include "data/bandwidth_table.h"
#include "placement/load_time_model.h"

namespace berth::engine {

class DataLoadTimeModel final : public placement::LoadTimeModel {
 public:
  explicit DataLoadTimeModel(data::BandwidthTable table = data::DefaultBandwidthTable())
      : table_(table) {}

  // One node of a cluster in query.cluster_region whose cache holds the given fraction,
  // default bandwidths, no copy on the node itself; nullopt when data rejects the input
  // (a size that is not positive). O(1), a few small allocations.
  std::optional<placement::LoadTimeEstimate> Estimate(
      const placement::LoadQuery& query) const override;

 private:
  data::BandwidthTable table_;
};

}  // namespace berth::engine
