// Why memoize by region and claim value: a fleet has thousands of clusters but a handful of
// regions and compliance claims, and the verdict depends on nothing else, so each distinct
// value is judged (and its message built) once per Placement.
#include "placement/residency_filter.h"

#include <algorithm>

#include "model/data_residency.h"
#include "placement/berth_scorers.h"

namespace berth::placement {
namespace {

model::Rejection ResidencyReject(const char* reason, std::string message) {
  return {"placement", kDataResidencyPlugin, reason, std::move(message), 1};
}

std::string RegionsText(const std::vector<std::string>& regions) {
  std::string out;
  for (size_t i = 0; i < regions.size(); ++i) {
    out += i == 0 ? "" : (i + 1 == regions.size() ? " or " : ", ");
    out += regions[i];
  }
  return out;
}

}  // namespace

ResidencyFilter::ResidencyFilter(const std::vector<ResidencyRule>& rules) : rules_(rules) {
  for (const ResidencyRule& r : rules_) {
    if (!r.invalid.empty() && !invalid_) {
      invalid_ =
          ResidencyReject(kResidencyInvalid, r.subject + ": " + r.invalid +
                                                 "; no cluster may hold it until that is fixed");
    }
    has_regions_ = has_regions_ || !r.allowed_regions.empty();
    has_compliance_ = has_compliance_ || !r.compliance.empty();
  }
}

const model::Rejection* ResidencyFilter::Check(const model::ManagedCluster& cluster) {
  if (invalid_) return &*invalid_;
  if (has_regions_) {
    if (const model::Rejection* r = CheckRegion(ClusterRegion(cluster))) return r;
  }
  if (has_compliance_) return CheckCompliance(cluster);
  return nullptr;
}

const model::Rejection* ResidencyFilter::CheckRegion(const std::string* region) {
  if (region == nullptr || region->empty()) {
    if (!unknown_region_done_) {
      unknown_region_done_ = true;
      for (const ResidencyRule& r : rules_) {
        if (r.allowed_regions.empty()) continue;
        unknown_region_ = ResidencyReject(
            kRegionUnknown, r.subject + " may stay in " + RegionsText(r.allowed_regions) +
                                " only (" + r.source +
                                "); the cluster's region is unknown "
                                "(no claim or label " +
                                kRegionKey + ", no label " + kTopologyRegionLabel + ")");
        break;
      }
    }
    return unknown_region_ ? &*unknown_region_ : nullptr;
  }
  auto it = by_region_.find(std::string_view(*region));
  if (it == by_region_.end()) {
    model::Rejection verdict;  // empty plugin: allowed
    for (const ResidencyRule& r : rules_) {
      const auto& allowed = r.allowed_regions;
      if (allowed.empty() || std::find(allowed.begin(), allowed.end(), *region) != allowed.end()) {
        continue;
      }
      verdict = ResidencyReject(kRegionNotAllowed, r.subject + " may stay in " +
                                                       RegionsText(allowed) + " only (" + r.source +
                                                       "); the cluster is in " + *region);
      break;
    }
    it = by_region_.emplace(*region, std::move(verdict)).first;
  }
  return it->second.plugin.empty() ? nullptr : &it->second;
}

const model::Rejection* ResidencyFilter::CheckCompliance(const model::ManagedCluster& cluster) {
  const std::string* claim = cluster.FindClaim(model::kComplianceClaim);
  const std::string_view key = claim == nullptr ? std::string_view("\n") : *claim;
  auto it = by_claim_.find(key);
  if (it == by_claim_.end()) {
    model::Rejection verdict;
    for (const ResidencyRule& r : rules_) {
      std::string problem =
          model::ComplianceProblem(r.subject, r.compliance, cluster, /*name_cluster=*/false);
      if (problem.empty()) continue;
      verdict = ResidencyReject(kComplianceNotClaimed, problem + " (" + r.source + ")");
      break;
    }
    it = by_claim_.emplace(std::string(key), std::move(verdict)).first;
  }
  return it->second.plugin.empty() ? nullptr : &it->second;
}

}  // namespace berth::placement
