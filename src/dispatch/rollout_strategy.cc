// Ported from open-cluster-management-io/sdk-go pkg/apis/cluster/v1alpha1/rollout.go
// (getRolloutAllClusters, getProgressiveClusters, getProgressivePerGroupClusters,
// progressivePerCluster, progressivePerGroup, determineRolloutStatus, calculateRolloutSize)
// and pkg/apis/cluster/v1beta1/placement.go (the tracker's group look-ups). Go maps iterate
// in random order where upstream's result would depend on it (two groups sharing an index,
// a cluster in two groups); here the order is the GroupKey order (index, then name), so the
// same input always gives the same answer. Everything else follows upstream step by step,
// quirks included, because the hub and `berth plan` must make the decisions OCM's
// ManifestWorkReplicaSet controller makes.
#include "dispatch/rollout_strategy.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <system_error>
#include <utility>

#include "dispatch/rollout_text.h"

namespace berth::dispatch {
namespace {

struct RolloutGroupKeyLess {
  bool operator()(const GroupKey& a, const GroupKey& b) const {
    if (a.group_index != b.group_index) return a.group_index < b.group_index;
    return a.group_name < b.group_name;
  }
};

// ClusterGroupsMap: group -> its clusters, iterated in GetOrderedGroupKeys order.
using RolloutGroupMap = std::map<GroupKey, std::set<std::string>, RolloutGroupKeyLess>;

// PlacementDecisionClustersTracker after Refresh: the groups and the two name/index indexes
// generateGroupsNameIndex builds.
struct RolloutTracker {
  RolloutGroupMap groups;
  std::map<int32_t, std::string> index_to_name;
  std::map<std::string, std::vector<int32_t>> name_to_index;

  explicit RolloutTracker(const std::vector<DecisionCluster>& decisions) {
    for (const DecisionCluster& d : decisions) {
      groups[GroupKey{d.group_name, d.group_index}].insert(d.cluster);
    }
    for (const auto& [key, clusters] : groups) {
      index_to_name[key.group_index] = key.group_name;
      name_to_index[key.group_name].push_back(key.group_index);  // ascending: map order
    }
  }

  // fulfillGroupKeys: a name expands to every index it has, an index to its (name, index).
  std::vector<GroupKey> Fulfill(const std::vector<GroupKey>& keys) const {
    std::vector<GroupKey> out;
    for (const GroupKey& key : keys) {
      if (!key.group_name.empty()) {
        auto it = name_to_index.find(key.group_name);
        if (it == name_to_index.end()) continue;
        for (int32_t index : it->second) out.push_back(GroupKey{key.group_name, index});
      } else {
        auto it = index_to_name.find(key.group_index);
        if (it != index_to_name.end()) out.push_back(GroupKey{it->second, key.group_index});
      }
    }
    return out;
  }

  // ExistingClusterGroups(keys...): only the listed groups; none when `keys` is empty.
  RolloutGroupMap Existing(const std::vector<GroupKey>& keys) const {
    RolloutGroupMap out;
    for (const GroupKey& key : Fulfill(keys)) {
      auto it = groups.find(key);
      if (it != groups.end()) out.insert(*it);
    }
    return out;
  }

  // ExistingClusterGroupsBesides(keys...): getGroupKeysBesides walks the indexes 0..n-1, n
  // the number of distinct indexes, so a group whose index is >= n is never found (upstream
  // assumes the dense numbering the placement controller writes).
  RolloutGroupMap Besides(const std::vector<GroupKey>& keys) const {
    const std::vector<GroupKey> excluded = Fulfill(keys);
    RolloutGroupMap out;
    const auto n = static_cast<int32_t>(index_to_name.size());
    for (int32_t i = 0; i < n; ++i) {
      auto name_it = index_to_name.find(i);
      GroupKey key{name_it == index_to_name.end() ? std::string() : name_it->second, i};
      if (std::find(excluded.begin(), excluded.end(), key) != excluded.end()) continue;
      auto it = groups.find(key);
      if (it != groups.end()) out.insert(*it);
    }
    return out;
  }
};

std::set<std::string> RolloutClustersOf(const RolloutGroupMap& groups) {
  std::set<std::string> out;
  for (const auto& [key, clusters] : groups) out.insert(clusters.begin(), clusters.end());
  return out;
}

bool RolloutIsFailure(RolloutStatus status) {
  return status == RolloutStatus::kTimeOut || status == RolloutStatus::kFailed;
}

RolloutResult RolloutResultOf(std::vector<ClusterRolloutStatus> rollout,
                              std::vector<ClusterRolloutStatus> timeout, bool breach,
                              int64_t now_s) {
  RolloutResult result;
  result.recheck_after_s = MinRecheckAfter(rollout, now_s);
  result.clusters_to_rollout = std::move(rollout);
  result.clusters_timeout = std::move(timeout);
  result.max_failure_breach = breach;
  return result;
}

// getRemovedClusters: split `existing` by whether the placement still has the cluster.
void SplitRemoved(const RolloutGroupMap& all, std::vector<ClusterRolloutStatus> existing,
                  std::vector<ClusterRolloutStatus>* current,
                  std::vector<ClusterRolloutStatus>* removed) {
  const std::set<std::string> clusters = RolloutClustersOf(all);
  for (ClusterRolloutStatus& status : existing) {
    (clusters.count(status.cluster_name) > 0 ? current : removed)->push_back(std::move(status));
  }
}

// progressivePerCluster. The given statuses are judged first, in name order, then clusters
// without a status are added in name order, until `rollout_size` clusters count. A failed
// or timed-out status counts toward `max_failures`; after a breach only clusters already
// holding the workload are judged, and no new cluster is added.
RolloutResult ProgressivePerCluster(const RolloutGroupMap& groups, int32_t rollout_size,
                                    int32_t max_failures, int64_t min_success_time_s,
                                    std::optional<int64_t> timeout_s,
                                    std::vector<ClusterRolloutStatus> existing, int64_t now_s) {
  std::vector<ClusterRolloutStatus> rollout;
  std::vector<ClusterRolloutStatus> timeout;
  std::set<std::string> seen;
  int32_t failures = 0;
  bool breach = false;
  std::stable_sort(existing.begin(), existing.end(),
                   [](const ClusterRolloutStatus& a, const ClusterRolloutStatus& b) {
                     return a.cluster_name < b.cluster_name;
                   });
  const auto size = static_cast<size_t>(std::max(rollout_size, 0));
  for (const ClusterRolloutStatus& given : existing) {
    if (given.cluster_name.empty()) continue;
    seen.insert(given.cluster_name);
    // Upstream passes a pointer to its loop copy: the failure count below sees the status
    // determineRolloutStatus wrote (a progressing cluster past its deadline is TimeOut).
    RolloutStatus judged = given.status;
    if (!breach || given.status != RolloutStatus::kToApply) {
      const size_t timeouts_before = timeout.size();
      DetermineRolloutStatus(given, min_success_time_s, timeout_s, now_s, &rollout, &timeout);
      if (timeout.size() > timeouts_before) judged = RolloutStatus::kTimeOut;
    }
    if (RolloutIsFailure(judged)) {
      ++failures;
      breach = failures > max_failures;
    }
    if (rollout.size() >= size) {
      return RolloutResultOf(std::move(rollout), std::move(timeout), breach, now_s);
    }
  }
  if (breach) return RolloutResultOf(std::move(rollout), std::move(timeout), breach, now_s);

  std::map<std::string, GroupKey> group_of;  // ClusterToGroupKey; the first group wins
  for (const auto& [key, clusters] : groups) {
    for (const std::string& c : clusters) group_of.emplace(c, key);
  }
  for (const std::string& cluster : RolloutClustersOf(groups)) {  // name order
    if (seen.count(cluster) > 0) continue;
    ClusterRolloutStatus status;
    status.cluster_name = cluster;
    status.group_key = group_of[cluster];
    rollout.push_back(std::move(status));
    if (rollout.size() >= size) break;
  }
  return RolloutResultOf(std::move(rollout), std::move(timeout), false, now_s);
}

// progressivePerGroup. Every given status except ToApply is judged first (so clusters of
// every group that still count are in the result); then groups are walked by index, adding
// their clusters without a status. The walk stops at the first group after which the result
// holds more clusters than the failures counted so far, or whose failures breach maxFailures
// (per group: its size is the percentage's base). `max_failures` was checked by the caller.
RolloutResult ProgressivePerGroup(const RolloutGroupMap& groups,
                                  const model::IntOrPercent& max_failures,
                                  int64_t min_success_time_s, std::optional<int64_t> timeout_s,
                                  const std::vector<ClusterRolloutStatus>& existing,
                                  int64_t now_s) {
  std::vector<ClusterRolloutStatus> rollout;
  std::vector<ClusterRolloutStatus> timeout;
  std::map<std::string, RolloutStatus> judged;
  for (const ClusterRolloutStatus& given : existing) {
    if (given.cluster_name.empty() || given.status == RolloutStatus::kToApply) continue;
    const size_t timeouts_before = timeout.size();
    DetermineRolloutStatus(given, min_success_time_s, timeout_s, now_s, &rollout, &timeout);
    judged[given.cluster_name] =
        timeout.size() > timeouts_before ? RolloutStatus::kTimeOut : given.status;
  }

  size_t total_failures = 0;
  bool breach = false;
  for (const auto& [key, clusters] : groups) {
    size_t group_failures = 0;
    auto group_max = RolloutSize(max_failures, static_cast<int32_t>(clusters.size()), 0, "");
    const size_t allowed = group_max.has_value() ? static_cast<size_t>(*group_max) : 0;
    for (const std::string& cluster : clusters) {  // name order
      auto it = judged.find(cluster);
      if (it != judged.end()) {
        if (RolloutIsFailure(it->second)) {
          ++group_failures;
          breach = group_failures > allowed;
        }
        continue;
      }
      ClusterRolloutStatus status;
      status.cluster_name = cluster;
      status.group_key = key;
      rollout.push_back(std::move(status));
    }
    total_failures += group_failures;
    if (rollout.size() > total_failures || breach) break;
  }
  return RolloutResultOf(std::move(rollout), std::move(timeout), breach, now_s);
}

// The mandatory groups' pass of Progressive and ProgressivePerGroup: per group, no failure
// tolerated. Returns the result when it holds work to do (the rest then waits).
std::optional<RolloutResult> MandatoryPass(const RolloutTracker& tracker,
                                           const std::vector<GroupKey>& mandatory,
                                           int64_t min_success_time_s,
                                           std::optional<int64_t> timeout_s,
                                           const std::vector<ClusterRolloutStatus>& current,
                                           int64_t now_s) {
  const RolloutGroupMap groups = tracker.Existing(mandatory);
  if (groups.empty()) return std::nullopt;
  RolloutResult result = ProgressivePerGroup(groups, model::IntOrPercent{}, min_success_time_s,
                                             timeout_s, current, now_s);
  if (result.clusters_to_rollout.empty() && result.clusters_timeout.empty()) return std::nullopt;
  return result;
}

}  // namespace

const char* RolloutTypeName(RolloutType type) {
  switch (type) {
    case RolloutType::kAll:
      return "All";
    case RolloutType::kProgressive:
      return "Progressive";
    case RolloutType::kProgressivePerGroup:
      return "ProgressivePerGroup";
  }
  return "All";
}

core::Result<RolloutType> ParseRolloutType(std::string_view text, std::string_view field) {
  if (text.empty() || text == "All") return RolloutType::kAll;
  if (text == "Progressive") return RolloutType::kProgressive;
  if (text == "ProgressivePerGroup") return RolloutType::kProgressivePerGroup;
  std::string message = "incorrect rollout strategy type \"";
  message.append(text);
  message += "\": want All, Progressive or ProgressivePerGroup";
  return core::InvalidArgument(std::move(message), core::Location{"", "", std::string(field)});
}

const char* RolloutStatusName(RolloutStatus status) {
  switch (status) {
    case RolloutStatus::kToApply:
      return "ToApply";
    case RolloutStatus::kProgressing:
      return "Progressing";
    case RolloutStatus::kSucceeded:
      return "Succeeded";
    case RolloutStatus::kFailed:
      return "Failed";
    case RolloutStatus::kTimeOut:
      return "TimeOut";
    case RolloutStatus::kSkip:
      return "Skip";
  }
  return "Unknown";
}

core::Result<int32_t> RolloutSize(const model::IntOrPercent& threshold, int32_t total,
                                  int32_t default_size, std::string_view field) {
  double length = threshold.int_value;
  if (threshold.is_string) {
    const std::string& text = threshold.text;
    double percent = 0;
    bool ok = false;
    if (!text.empty() && text.back() == '%') {
      // strconv.ParseFloat on the text before '%' (a leading '+' is Go's too). from_chars
      // reads decimal numbers, "inf" and "nan" but no hex floats, which only Go would take.
      std::string_view number(text.data(), text.size() - 1);
      if (!number.empty() && number[0] == '+') number.remove_prefix(1);
      const char* end = number.data() + number.size();
      if (!number.empty()) {
        const auto [ptr, ec] = std::from_chars(number.data(), end, percent);
        ok = ec == std::errc() && ptr == end;  // out of range is an error in Go too
      }
    }
    if (!ok) {
      return core::InvalidArgument(
          "'" + text + "' is an invalid maximum threshold value: string is not a percentage",
          core::Location{"", "", std::string(field)});
    }
    length = std::ceil(percent / 100.0 * static_cast<double>(total));
  }
  // Go's int(math.Ceil(...)) of a huge value lands outside (0, total] too.
  if (!(length > 0) || length > total) return default_size;
  return static_cast<int32_t>(length);
}

std::vector<GroupKey> MandatoryGroupKeys(const std::vector<MandatoryDecisionGroup>& groups) {
  std::vector<GroupKey> out;
  out.reserve(groups.size());
  for (const MandatoryDecisionGroup& g : groups) {
    if (!g.group_name.empty()) {
      out.push_back(GroupKey{g.group_name, 0});
    } else {
      out.push_back(GroupKey{"", g.group_index});
    }
  }
  return out;
}

void DetermineRolloutStatus(ClusterRolloutStatus status, int64_t min_success_time_s,
                            std::optional<int64_t> timeout_s, int64_t now_s,
                            std::vector<ClusterRolloutStatus>* rollout,
                            std::vector<ClusterRolloutStatus>* timeout) {
  // calculateRecheckTime: from the transition, or from now when there is none.
  const int64_t start = status.last_transition_time_s.value_or(now_s);
  switch (status.status) {
    case RolloutStatus::kToApply:
      rollout->push_back(std::move(status));
      return;
    case RolloutStatus::kSucceeded: {
      // Still soaking: it keeps its place in the rollout until minSuccessTime has passed.
      const int64_t soak_end = start + min_success_time_s;
      if (now_s < soak_end) {
        status.recheck_time_s = soak_end;
        rollout->push_back(std::move(status));
      }
      return;
    }
    case RolloutStatus::kTimeOut:
    case RolloutStatus::kSkip:
      return;
    default: {  // Progressing, Failed, or a value upstream does not know
      if (!timeout_s.has_value()) {
        status.recheck_time_s.reset();
        rollout->push_back(std::move(status));
        return;
      }
      const int64_t deadline = start + *timeout_s;
      status.recheck_time_s = deadline;
      if (now_s < deadline) {
        rollout->push_back(std::move(status));
      } else {
        status.status = RolloutStatus::kTimeOut;
        timeout->push_back(std::move(status));
      }
      return;
    }
  }
}

std::optional<int64_t> MinRecheckAfter(const std::vector<ClusterRolloutStatus>& rollout,
                                       int64_t now_s) {
  std::optional<int64_t> least;
  for (const ClusterRolloutStatus& status : rollout) {
    if (!status.recheck_time_s.has_value()) continue;
    const int64_t after = *status.recheck_time_s - now_s;
    if (after > 0 && (!least.has_value() || after < *least)) least = after;
  }
  return least;
}

core::Result<RolloutResult> ComputeRollout(const RolloutStrategy& strategy,
                                           const std::vector<DecisionCluster>& decisions,
                                           std::vector<ClusterRolloutStatus> existing,
                                           int64_t now_s) {
  const RolloutTracker tracker(decisions);
  BERTH_ASSIGN_OR_RETURN(std::optional<int64_t> timeout_s,
                         ParseProgressDeadline(strategy.progress_deadline, "progressDeadline"));
  const RolloutGroupMap all = tracker.Besides({});
  std::vector<ClusterRolloutStatus> current;
  std::vector<ClusterRolloutStatus> removed;

  switch (strategy.type) {
    case RolloutType::kAll: {
      SplitRemoved(all, std::move(existing), &current, &removed);
      const auto total = static_cast<int32_t>(RolloutClustersOf(all).size());
      RolloutResult result =
          ProgressivePerCluster(all, total, total, 0, timeout_s, std::move(current), now_s);
      result.clusters_removed = std::move(removed);
      return result;
    }
    case RolloutType::kProgressive: {
      SplitRemoved(all, std::move(existing), &current, &removed);
      BERTH_ASSIGN_OR_RETURN(
          int32_t max_failures,
          RolloutSize(strategy.max_failures, static_cast<int32_t>(RolloutClustersOf(all).size()), 0,
                      "maxFailures"));
      const std::vector<GroupKey> mandatory =
          MandatoryGroupKeys(strategy.mandatory_decision_groups);
      if (auto first = MandatoryPass(tracker, mandatory, strategy.min_success_time_s, timeout_s,
                                     current, now_s)) {
        first->clusters_removed = std::move(removed);
        return std::move(*first);
      }
      const RolloutGroupMap rest = tracker.Besides(mandatory);
      const auto rest_total = static_cast<int32_t>(RolloutClustersOf(rest).size());
      BERTH_ASSIGN_OR_RETURN(int32_t rollout_size, RolloutSize(strategy.max_concurrency, rest_total,
                                                               rest_total, "maxConcurrency"));
      RolloutResult result =
          ProgressivePerCluster(rest, rollout_size, max_failures, strategy.min_success_time_s,
                                timeout_s, std::move(current), now_s);
      result.clusters_removed = std::move(removed);
      return result;
    }
    case RolloutType::kProgressivePerGroup: {
      // Only the form is checked here; each group computes its own threshold.
      BERTH_RETURN_IF_ERROR(RolloutSize(strategy.max_failures, 0, 0, "maxFailures"));
      SplitRemoved(all, std::move(existing), &current, &removed);
      const std::vector<GroupKey> mandatory =
          MandatoryGroupKeys(strategy.mandatory_decision_groups);
      if (auto first = MandatoryPass(tracker, mandatory, strategy.min_success_time_s, timeout_s,
                                     current, now_s)) {
        first->clusters_removed = std::move(removed);
        return std::move(*first);
      }
      RolloutResult result =
          ProgressivePerGroup(tracker.Besides(mandatory), strategy.max_failures,
                              strategy.min_success_time_s, timeout_s, current, now_s);
      result.clusters_removed = std::move(removed);
      return result;
    }
  }
  return core::InvalidArgument("incorrect rollout strategy type", core::Location{"", "", "type"});
}

}  // namespace berth::dispatch
