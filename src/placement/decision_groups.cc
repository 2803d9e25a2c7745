// A cluster joins the first named group whose label/claim selector it matches (upstream
// never evaluates CEL in group selectors); each group is then name-sorted and chunked, so
// PlacementDecision contents are in name order, never score order.
#include "placement/decision_groups.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "placement/cluster_filter.h"

namespace berth::placement {

core::Result<int32_t> GroupLength(const model::IntOrPercent& clusters_per_group, int32_t selected) {
  double length = clusters_per_group.int_value;
  if (clusters_per_group.is_string) {
    const std::string& text = clusters_per_group.text;
    double percent = 0;
    const char* end = text.data() + text.size();
    // Go's strconv.ParseFloat on the text before '%': the whole prefix must parse.
    bool ok = text.size() > 1 && text.back() == '%' &&
              std::from_chars(text.data(), end - 1, percent).ptr == end - 1 &&
              std::isfinite(percent);
    if (!ok) return core::InvalidArgument(text + " invalid type: string is not a percentage");
    length = std::ceil(percent / 100.0 * static_cast<double>(selected));
  }
  if (length <= 0 || length > selected) return selected;
  return static_cast<int32_t>(length);
}

namespace {

void Chunk(std::string name, std::vector<std::string> clusters, int32_t length,
           std::vector<ClusterGroup>* out) {
  std::sort(clusters.begin(), clusters.end());
  size_t step = length > 0 ? static_cast<size_t>(length) : clusters.size();
  for (size_t i = 0; i < clusters.size(); i += step) {
    size_t end = std::min(clusters.size(), i + step);
    out->push_back(
        {name, std::vector<std::string>(clusters.begin() + static_cast<ptrdiff_t>(i),
                                        clusters.begin() + static_cast<ptrdiff_t>(end))});
  }
}

}  // namespace

std::vector<ClusterGroup> GroupClusters(const model::Placement& placement,
                                        const std::vector<const model::ManagedCluster*>& selected,
                                        int32_t group_length) {
  std::vector<ClusterGroup> groups;
  std::vector<bool> taken(selected.size(), false);
  for (const model::DecisionGroupSpec& spec : placement.group_strategy.decision_groups) {
    std::vector<std::string> members;
    for (size_t i = 0; i < selected.size(); ++i) {
      if (taken[i]) continue;
      core::Labels claims = ClaimMap(*selected[i]);
      if (MatchesLabelsAndClaims(spec.group_cluster_selector, *selected[i], claims)) {
        taken[i] = true;
        members.push_back(selected[i]->meta.name);
      }
    }
    if (!members.empty()) Chunk(spec.group_name, std::move(members), group_length, &groups);
  }
  std::vector<std::string> rest;
  for (size_t i = 0; i < selected.size(); ++i) {
    if (!taken[i]) rest.push_back(selected[i]->meta.name);
  }
  if (!rest.empty()) Chunk("", std::move(rest), group_length, &groups);
  if (groups.empty()) groups.push_back({});
  return groups;
}

}  // namespace berth::placement
