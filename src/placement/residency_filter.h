// ResidencyFilter: berth's third filter after Predicate and TaintToleration: a cluster may
// be selected only where every artifact of the Placement may be stored and processed
// (ResidencyRule: allowed regions, compliance; placement_artifacts.h). A hard predicate,
// never a score (data_locality.md §3.3-4). Built once per Placement by SchedulePlacement;
// Check memoizes per region and per compliance claim value, so it is not thread-safe (one
// filter per thread).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/decision.h"
#include "model/ocm.h"
#include "placement/placement_artifacts.h"

namespace berth::placement {

inline constexpr const char* kDataResidencyPlugin = "DataResidency";
// Its reasons.
inline constexpr const char* kRegionNotAllowed = "RegionNotAllowed";
inline constexpr const char* kRegionUnknown = "RegionUnknown";
inline constexpr const char* kComplianceNotClaimed = "ComplianceNotClaimed";
inline constexpr const char* kResidencyInvalid = "ResidencyInvalid";

class ResidencyFilter {
 public:
  // `rules` is borrowed and must outlive the filter.
  explicit ResidencyFilter(const std::vector<ResidencyRule>& rules);

  bool empty() const { return rules_.empty(); }
  // nullptr when the cluster satisfies every rule; else the first failing rule's rejection
  // (plugin DataResidency), naming the artifact, the rule and the cluster's region or
  // claim, e.g. "dataset team-a/patients may stay in eu-west-1 only; the cluster is in
  // us-east-1". A cluster of unknown region fails any region rule (RegionUnknown). The
  // message does not name the cluster (explain prints it beside), so clusters of one
  // region share it. Valid while the filter lives. Allocates only for a region or claim
  // value not seen before.
  const model::Rejection* Check(const model::ManagedCluster& cluster);

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  using Memo = std::unordered_map<std::string, model::Rejection, Hash, std::equal_to<>>;

  const model::Rejection* CheckRegion(const std::string* region);
  const model::Rejection* CheckCompliance(const model::ManagedCluster& cluster);

  const std::vector<ResidencyRule>& rules_;
  bool has_regions_ = false;
  bool has_compliance_ = false;
  // By region ("" key unused: unknown region has its own slot); a Rejection with an empty
  // plugin means "allowed".
  Memo by_region_;
  std::optional<model::Rejection> unknown_region_;
  bool unknown_region_done_ = false;
  Memo by_claim_;  // by compliance claim value; "\n" = no claim
  std::optional<model::Rejection> invalid_;
};

}  // namespace berth::placement
