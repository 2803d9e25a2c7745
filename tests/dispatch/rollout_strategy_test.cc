// ComputeRollout and its building blocks against the tables of upstream's tests
// (open-cluster-management-io/sdk-go pkg/apis/cluster/v1alpha1/rollout_test.go: every case
// of TestGetRolloutCluster_All, _Progressive, _ProgressivePerGroup, _ClusterAdded and
// _ClusterRemoved, with upstream's case names, then TestDetermineRolloutStatus,
// TestMinRecheckAfter, TestCalculateRolloutSize, TestParseTimeout and
// TestDecisionGroupsToGroupKeys), plus berth's own cases for the text parsers and quirks.
// Upstream's fake clock stands at 2022-01-01T00:00:00Z; T(-60) is a minute before it.
#include "dispatch/rollout_strategy.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/rollout_text.h"

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

constexpr int64_t kNow = 1640995200;  // upstream's fakeTime
constexpr std::nullopt_t kNoTime = std::nullopt;

constexpr std::optional<int64_t> T(int64_t offset_s) { return kNow + offset_s; }

model::IntOrPercent Int(int32_t v) { return model::IntOrPercent{false, v, ""}; }
model::IntOrPercent Pct(std::string text) { return model::IntOrPercent{true, 0, std::move(text)}; }

// The fields of upstream's RolloutStrategy literals the tables set, as a builder.
class Spec {
 public:
  explicit Spec(RolloutType type) { s_.type = type; }
  Spec& Deadline(std::string text) {
    s_.progress_deadline = std::move(text);
    return *this;
  }
  Spec& MaxFailures(model::IntOrPercent v) {
    s_.max_failures = std::move(v);
    return *this;
  }
  Spec& MaxConcurrency(model::IntOrPercent v) {
    s_.max_concurrency = std::move(v);
    return *this;
  }
  Spec& MinSuccess(int64_t seconds) {
    s_.min_success_time_s = seconds;
    return *this;
  }
  Spec& Mandatory(std::vector<MandatoryDecisionGroup> groups) {
    s_.mandatory_decision_groups = std::move(groups);
    return *this;
  }
  const RolloutStrategy& ToStrategy() const { return s_; }

 private:
  RolloutStrategy s_;
};

struct GroupSpec {
  std::string name;
  int32_t index = 0;
  std::vector<std::string> clusters;
};

// Upstream's dummyWorkload and dummyWorkloadClusterRolloutStatusFunc.
enum class DummyState { kWaiting, kApplying, kDone, kFailedState };
constexpr DummyState kWaiting = DummyState::kWaiting;
constexpr DummyState kApplying = DummyState::kApplying;
constexpr DummyState kDone = DummyState::kDone;
constexpr DummyState kFailedState = DummyState::kFailedState;

// Plain pointers: GCC 12 warns (-Wmaybe-uninitialized) on long brace lists of strings.
struct DummyGroup {
  const char* name;
  int32_t index;
};

struct DummyWorkload {
  DummyGroup group;
  const char* cluster;
  DummyState state = kWaiting;
  std::optional<int64_t> last_transition;
};

ClusterRolloutStatus DummyStatus(const DummyWorkload& w) {
  ClusterRolloutStatus s;
  s.cluster_name = w.cluster;
  s.group_key = GroupKey{w.group.name, w.group.index};
  s.last_transition_time_s = w.last_transition;
  switch (w.state) {
    case kWaiting:
      s.status = RolloutStatus::kToApply;
      break;
    case kApplying:
      s.status = RolloutStatus::kProgressing;
      break;
    case kDone:
      s.status = RolloutStatus::kSucceeded;
      break;
    case kFailedState:
      s.status = RolloutStatus::kFailed;
      break;
  }
  return s;
}

struct RolloutCase {
  std::string name;
  Spec spec;
  std::vector<GroupSpec> groups;
  std::vector<DummyWorkload> workloads;
  std::vector<ClusterRolloutStatus> rollout;
  std::vector<ClusterRolloutStatus> timeout;
  std::vector<ClusterRolloutStatus> removed;
  bool breach = false;
  std::optional<int64_t> recheck_after;
};

std::string RenderTime(const std::optional<int64_t>& t) {
  if (!t.has_value()) return "-";
  const int64_t d = *t - kNow;
  return d >= 0 ? "+" + std::to_string(d) : std::to_string(d);
}

// Every field, times relative to the fake clock: equal strings mean equal vectors, and a
// mismatch prints readably.
std::string Render(const std::vector<ClusterRolloutStatus>& v) {
  std::string out;
  for (const ClusterRolloutStatus& s : v) {
    out += s.cluster_name + "{" + s.group_key.group_name + "," +
           std::to_string(s.group_key.group_index) + "} " + RolloutStatusName(s.status) +
           " ltt=" + RenderTime(s.last_transition_time_s) +
           " recheck=" + RenderTime(s.recheck_time_s) + "; ";
  }
  return out;
}

void RunRolloutCases(const std::vector<RolloutCase>& cases) {
  for (const RolloutCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<DecisionCluster> decisions;
    for (const GroupSpec& g : c.groups) {
      for (const std::string& cluster : g.clusters) {
        decisions.push_back(DecisionCluster{cluster, g.index, g.name});
      }
    }
    std::vector<ClusterRolloutStatus> existing;
    for (const DummyWorkload& w : c.workloads) existing.push_back(DummyStatus(w));
    auto result = ComputeRollout(c.spec.ToStrategy(), decisions, existing, kNow);
    ASSERT_TRUE(result.has_value()) << result.error().ToString();
    EXPECT_EQ(Render(result->clusters_to_rollout), Render(c.rollout));
    EXPECT_EQ(Render(result->clusters_timeout), Render(c.timeout));
    EXPECT_EQ(Render(result->clusters_removed), Render(c.removed));
    EXPECT_EQ(result->clusters_to_rollout, c.rollout);
    EXPECT_EQ(result->clusters_timeout, c.timeout);
    EXPECT_EQ(result->clusters_removed, c.removed);
    EXPECT_EQ(result->max_failure_breach, c.breach);
    EXPECT_EQ(result->recheck_after_s, c.recheck_after);
  }
}

// TestGetRolloutCluster_All
std::vector<RolloutCase> AllCases() {
  return {
      {"test rollout all with timeout 90s without workload created",
       Spec(RolloutType::kAll).Deadline("90s"),
       {{"group1", 0, {"cluster1", "cluster2"}},
        {"", 1, {"cluster3", "cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/{},
       /*rollout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster2", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster3", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster5", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster6", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test rollout all with timeout 90s",
       Spec(RolloutType::kAll).Deadline("90s"),
       {{"group1", 0, {"cluster1", "cluster2"}},
        {"", 1, {"cluster3", "cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"", 1}, "cluster3", kApplying, T(-120)},
           {{"", 1}, "cluster4", kFailedState, T(-60)},
           {{"", 1}, "cluster5", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster4", {"", 1}, RolloutStatus::kFailed, T(-60), T(30)},
           {"cluster5", {"", 1}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster6", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
           {"cluster3", {"", 1}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/30},
  };
}

// TestGetRolloutCluster_Progressive
std::vector<RolloutCase> ProgressiveCases() {
  return {
      {"test progressive rollout deprecated timeout",
       Spec(RolloutType::kProgressive).Deadline("90s").MaxConcurrency(Int(2)),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/{},
       /*rollout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster2", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test progressive rollout with timeout 90s without workload created",
       Spec(RolloutType::kProgressive).Deadline("90s").MaxConcurrency(Int(2)),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/{},
       /*rollout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster2", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test progressive rollout with timeout 90s and workload clusterRollOutStatus are in ToApply "
       "status",
       Spec(RolloutType::kProgressive).Deadline("90s").MaxConcurrency(Int(4)),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}},
        {"", 2, {"cluster7", "cluster8", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kApplying, T(-60)},
           {{"group1", 0}, "cluster2", kWaiting, kNoTime},
           {{"group1", 0}, "cluster3", kWaiting, kNoTime},
           {{"", 1}, "cluster4", kWaiting, kNoTime},
           {{"", 1}, "cluster5", kWaiting, kNoTime},
           {{"", 1}, "cluster6", kWaiting, kNoTime},
           {{"", 2}, "cluster7", kWaiting, kNoTime},
           {{"", 2}, "cluster8", kWaiting, kNoTime},
           {{"", 2}, "cluster9", kWaiting, kNoTime},
           {{"", 2}, "cluster10", kWaiting, kNoTime},
       },
       /*rollout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster2", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster3", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/
       {
           {"cluster10", {"", 2}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressive rollout with timeout 90s and MaxConcurrency not set",
       Spec(RolloutType::kProgressive).Deadline("90s"),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}},
        {"", 2, {"cluster7", "cluster8", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kApplying, T(-60)},
           {{"group1", 0}, "cluster2", kWaiting, kNoTime},
           {{"group1", 0}, "cluster3", kWaiting, kNoTime},
           {{"", 1}, "cluster4", kWaiting, kNoTime},
           {{"", 1}, "cluster5", kWaiting, kNoTime},
           {{"", 1}, "cluster6", kWaiting, kNoTime},
           {{"", 2}, "cluster7", kWaiting, kNoTime},
           {{"", 2}, "cluster8", kWaiting, kNoTime},
           {{"", 2}, "cluster9", kWaiting, kNoTime},
           {{"", 2}, "cluster10", kWaiting, kNoTime},
       },
       /*rollout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster2", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster3", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster5", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster6", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster7", {"", 2}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster8", {"", 2}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster9", {"", 2}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/
       {
           {"cluster10", {"", 2}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressive rollout with timeout 90s and no maxFailures set",
       Spec(RolloutType::kProgressive).Deadline("90s").MaxConcurrency(Int(2)),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster3", {"group1", 0}, RolloutStatus::kProgressing, T(-60), T(30)},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/true,
       /*recheck_after=*/30},
      {"test progressive rollout with timeout 90s, 100% maxFailures, minSuccessTime 60s",
       Spec(RolloutType::kProgressive)
           .Deadline("90s")
           .MaxFailures(Pct("100%"))
           .MaxConcurrency(Int(2))
           .MinSuccess(60),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-30)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kApplying, T(-30)},
       },
       /*rollout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kSucceeded, T(-30), T(30)},
           {"cluster3", {"group1", 0}, RolloutStatus::kProgressing, T(-30), T(60)},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressive rollout with mixed timeout and minSuccessTime scenarios",
       Spec(RolloutType::kProgressive)
           .Deadline("90s")
           .MaxFailures(Pct("100%"))
           .MaxConcurrency(Int(4))
           .MinSuccess(60),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3", "cluster4"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-30)},
           {{"group1", 0}, "cluster2", kApplying, T(-60)},
           {{"group1", 0}, "cluster3", kApplying, T(-30)},
           {{"group1", 0}, "cluster4", kDone, T(-120)},
       },
       /*rollout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kSucceeded, T(-30), T(30)},
           {"cluster2", {"group1", 0}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster3", {"group1", 0}, RolloutStatus::kProgressing, T(-30), T(60)},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressive rollout with timeout 90s and maxFailures 1",
       Spec(RolloutType::kProgressive).Deadline("90s").MaxFailures(Int(1)).MaxConcurrency(Int(2)),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster3", {"group1", 0}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressive rollout with timeout 0s, maxFailures 3",
       Spec(RolloutType::kProgressive).Deadline("0s").MaxFailures(Int(3)).MaxConcurrency(Int(2)),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-30)},
           {{"group1", 0}, "cluster2", kApplying, T(-30)},
           {{"group1", 0}, "cluster3", kApplying, T(-30)},
       },
       /*rollout=*/
       {
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster5", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-30), T(-30)},
           {"cluster3", {"group1", 0}, RolloutStatus::kTimeOut, T(-30), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test progressive rollout with mandatoryDecisionGroup and timeout 90s",
       Spec(RolloutType::kProgressive)
           .Deadline("90s")
           .MaxConcurrency(Int(3))
           .Mandatory({{"group1", 0}}),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster3", {"group1", 0}, RolloutStatus::kProgressing, T(-60), T(30)},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/true,
       /*recheck_after=*/30},
      {"test progressive rollout with timeout None, MaxConcurrency 50%, MaxFailures 100%",
       Spec(RolloutType::kProgressive)
           .Deadline("None")
           .MaxFailures(Pct("100%"))
           .MaxConcurrency(Pct("50%")),
       {{"group1", 0, {"cluster1", "cluster2"}},
        {"", 1, {"cluster3", "cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"", 1}, "cluster3", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-120), kNoTime},
           {"cluster3", {"", 1}, RolloutStatus::kProgressing, T(-60), kNoTime},
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test progressive rollout with timeout None, MaxConcurrency 50%, MaxFailures 0%",
       Spec(RolloutType::kProgressive)
           .Deadline("None")
           .MaxFailures(Pct("0%"))
           .MaxConcurrency(Pct("50%")),
       {{"group1", 0, {"cluster1", "cluster2"}},
        {"", 1, {"cluster3", "cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"", 1}, "cluster3", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-120), kNoTime},
           {"cluster3", {"", 1}, RolloutStatus::kProgressing, T(-60), kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/true,
       /*recheck_after=*/kNoTime},
      {"test progressive rollout with mandatory decision groups failed",
       Spec(RolloutType::kProgressive)
           .Deadline("90s")
           .MaxConcurrency(Int(3))
           .Mandatory({{"group1", 0}}),
       {{"group1", 0, {"cluster1", "cluster2"}},
        {"", 1, {"cluster3", "cluster4"}},
        {"", 2, {"cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kFailedState, T(-120)},
           {{"group1", 0}, "cluster2", kFailedState, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-60), T(30)},
       },
       /*timeout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/true,
       /*recheck_after=*/30},
      {"test progressive rollout with mandatory decision groups Succeed",
       Spec(RolloutType::kProgressive).MaxConcurrency(Int(3)).Mandatory({{"group1", 0}}),
       {{"group1", 0, {"cluster1", "cluster2"}},
        {"", 1, {"cluster3", "cluster4"}},
        {"", 2, {"cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kDone, T(-120)},
       },
       /*rollout=*/
       {
           {"cluster3", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster5", {"", 2}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
  };
}

// TestGetRolloutCluster_ProgressivePerGroup
std::vector<RolloutCase> ProgressivePerGroupCases() {
  return {
      {"test progressivePerGroup rollout with timeout 90s without workload created",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s"),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/{},
       /*rollout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster2", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster3", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test progressivePerGroup rollout with timeout 90s and all workload clusterRollOutStatus "
       "are in ToApply status",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s"),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kApplying, T(-60)},
           {{"group1", 0}, "cluster2", kWaiting, kNoTime},
           {{"group1", 0}, "cluster3", kWaiting, kNoTime},
           {{"", 1}, "cluster4", kWaiting, kNoTime},
           {{"", 1}, "cluster5", kWaiting, kNoTime},
           {{"", 1}, "cluster6", kWaiting, kNoTime},
       },
       /*rollout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster2", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster3", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressivePerGroup rollout with timeout 90s",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s"),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster3", {"group1", 0}, RolloutStatus::kProgressing, T(-60), T(30)},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/true,
       /*recheck_after=*/30},
      {"test progressivePerGroup rollout with timeout 90s and first group timeOut, maxFailures 2",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s").MaxFailures(Int(2)),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}},
        {"", 2, {"cluster7", "cluster8", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kDone, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster5", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster6", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test progressivePerGroup rollout with timeout 90s and first group timeOut, second group "
       "succeeded",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s").MaxFailures(Int(2)),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}},
        {"", 2, {"cluster7", "cluster8", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kDone, T(-60)},
           {{"", 1}, "cluster4", kDone, T(-60)},
           {{"", 1}, "cluster5", kDone, T(-60)},
           {{"", 1}, "cluster6", kDone, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster7", {"", 2}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster8", {"", 2}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster9", {"", 2}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test progressivePerGroup rollout with timeout None and first group failing",
       Spec(RolloutType::kProgressivePerGroup).Deadline("None"),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}},
        {"", 2, {"cluster7", "cluster8", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kDone, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-120), kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/true,
       /*recheck_after=*/kNoTime},
      {"test progressivePerGroup rollout with timeout None, first group 1 cluster is failing and "
       "maxFailures is 2",
       Spec(RolloutType::kProgressivePerGroup).Deadline("None").MaxFailures(Int(2)),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}},
        {"", 2, {"cluster7", "cluster8", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kDone, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-120), kNoTime},
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster5", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster6", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test progressivePerGroup rollout with timeout None, first group 2 clusters are failing 2 "
       "and maxFailures is 30%",
       Spec(RolloutType::kProgressivePerGroup).Deadline("None").MaxFailures(Pct("30%")),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}},
        {"", 2, {"cluster7", "cluster8", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kFailedState, T(-120)},
       },
       /*rollout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-120), kNoTime},
           {"cluster3", {"group1", 0}, RolloutStatus::kFailed, T(-120), kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/true,
       /*recheck_after=*/kNoTime},
      {"test ProgressivePerGroup rollout with mandatoryDecisionGroup failing and timeout 90s ",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s").Mandatory({{"group1", 0}}),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kFailedState, T(-120)},
       },
       /*rollout=*/{},
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
           {"cluster3", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/true,
       /*recheck_after=*/kNoTime},
      {"test progressivePerGroup rollout with mandatoryDecisionGroup failing 1 cluster, timeout "
       "90s and with maxFailures is 2",
       Spec(RolloutType::kProgressivePerGroup)
           .Deadline("90s")
           .MaxFailures(Int(2))
           .Mandatory({{"group1", 0}}),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}},
        {"", 2, {"cluster7", "cluster8", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kDone, T(-60)},
       },
       /*rollout=*/{},
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/true,
       /*recheck_after=*/kNoTime},
      {"test ProgressivePerGroup rollout with mandatoryDecisionGroup Succeeded and timeout 90s ",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s").Mandatory({{"group1", 0}}),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}},
        {"", 2, {"cluster7", "cluster8", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kDone, T(-60)},
           {{"group1", 0}, "cluster3", kDone, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster5", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster6", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test progressivePerGroup rollout with minSuccessTime and mixed cluster states",
       Spec(RolloutType::kProgressivePerGroup)
           .Deadline("90s")
           .MaxFailures(Pct("50%"))
           .MinSuccess(60),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"group2", 1, {"cluster4", "cluster5"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-30)},
           {{"group1", 0}, "cluster2", kDone, T(-120)},
           {{"group1", 0}, "cluster3", kApplying, T(-30)},
       },
       /*rollout=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kSucceeded, T(-30), T(30)},
           {"cluster3", {"group1", 0}, RolloutStatus::kProgressing, T(-30), T(60)},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/30},
  };
}

// TestGetRolloutCluster_ClusterAdded
std::vector<RolloutCase> ClusterAddedCases() {
  return {
      {"test rollout all with timeout 90s and cluster added",
       Spec(RolloutType::kAll).Deadline("90s"),
       {{"group1", 0, {"cluster1", "cluster2", "cluster7"}},
        {"", 1, {"cluster3", "cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"", 1}, "cluster3", kApplying, T(-120)},
           {{"", 1}, "cluster4", kFailedState, T(-60)},
           {{"", 1}, "cluster5", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster4", {"", 1}, RolloutStatus::kFailed, T(-60), T(30)},
           {"cluster5", {"", 1}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster6", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster7", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
           {"cluster3", {"", 1}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressive rollout with mandatory decision groups Succeed and clusters added after "
       "rollout",
       Spec(RolloutType::kProgressive)
           .Deadline("90s")
           .MaxConcurrency(Int(3))
           .Mandatory({{"group1", 0}}),
       {{"group1", 0, {"cluster1", "cluster2", "cluster7"}},
        {"", 1, {"cluster3", "cluster4", "cluster8"}},
        {"", 2, {"cluster5", "cluster6", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kDone, T(-60)},
           {{"", 1}, "cluster3", kDone, T(-60)},
           {{"", 1}, "cluster4", kApplying, T(-60)},
           {{"", 2}, "cluster5", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster4", {"", 1}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster5", {"", 2}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster7", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressivePerGroup rollout with timeout 90s and cluster added after rollout start.",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s"),
       {{"group1", 0, {"cluster1", "cluster2", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kDone, T(-60)},
           {{"", 1}, "cluster4", kApplying, T(-60)},
           {{"", 1}, "cluster5", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster4", {"", 1}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster5", {"", 1}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster3", {"group1", 0}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/{},
       /*breach=*/false,
       /*recheck_after=*/30},
  };
}

// TestGetRolloutCluster_ClusterRemoved
std::vector<RolloutCase> ClusterRemovedCases() {
  return {
      {"test rollout all with timeout 90s and clusters removed",
       Spec(RolloutType::kAll).Deadline("90s"),
       {{"group1", 0, {"cluster1"}}, {"", 1, {"cluster3", "cluster5"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"", 1}, "cluster3", kApplying, T(-120)},
           {{"", 1}, "cluster4", kFailedState, T(-60)},
           {{"", 1}, "cluster5", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster5", {"", 1}, RolloutStatus::kProgressing, T(-60), T(30)},
       },
       /*timeout=*/
       {
           {"cluster3", {"", 1}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-120), kNoTime},
           {"cluster4", {"", 1}, RolloutStatus::kFailed, T(-60), kNoTime},
       },
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressive rollout with timeout 90s, MaxFailures 100%, and cluster removed",
       Spec(RolloutType::kProgressive)
           .Deadline("90s")
           .MaxFailures(Pct("100%"))
           .MaxConcurrency(Int(2)),
       {{"group1", 0, {"cluster2", "cluster3"}}, {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster3", {"group1", 0}, RolloutStatus::kProgressing, T(-60), T(30)},
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/
       {
           {"cluster1", {"group1", 0}, RolloutStatus::kSucceeded, T(-60), kNoTime},
       },
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressive rollout with mandatoryDecisionGroup, timeout 90s and cluster removed from "
       "mandatoryDecisionGroup",
       Spec(RolloutType::kProgressive)
           .Deadline("90s")
           .MaxConcurrency(Int(2))
           .Mandatory({{"group1", 0}}),
       {{"group1", 0, {"cluster1", "cluster3"}}, {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kDone, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster5", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-120), kNoTime},
       },
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test progressivePerGroup rollout with timeout 90s and cluster removed after rollout start.",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s"),
       {{"group1", 0, {"cluster1", "cluster3"}}, {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-60)},
           {{"group1", 0}, "cluster3", kApplying, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster3", {"group1", 0}, RolloutStatus::kProgressing, T(-60), T(30)},
       },
       /*timeout=*/{},
       /*removed=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-60), kNoTime},
       },
       /*breach=*/false,
       /*recheck_after=*/30},
      {"test progressivePerGroup rollout with timeout 90s and cluster removed after rollout start "
       "while the group timeout",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s").MaxFailures(Int(2)),
       {{"group1", 0, {"cluster1", "cluster3"}}, {"", 1, {"cluster4", "cluster5", "cluster6"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-60)},
           {{"group1", 0}, "cluster3", kApplying, T(-120)},
       },
       /*rollout=*/
       {
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster5", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster6", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/
       {
           {"cluster3", {"group1", 0}, RolloutStatus::kTimeOut, T(-120), T(-30)},
       },
       /*removed=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-60), kNoTime},
       },
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
      {"test ProgressivePerGroup rollout with mandatoryDecisionGroup, timeout 90s and cluster "
       "removed from mandatoryDecisionGroup",
       Spec(RolloutType::kProgressivePerGroup).Deadline("90s").Mandatory({{"group1", 0}}),
       {{"group1", 0, {"cluster1", "cluster3"}},
        {"", 1, {"cluster4", "cluster5", "cluster6"}},
        {"", 2, {"cluster7", "cluster8", "cluster9"}}},
       /*workloads=*/
       {
           {{"group1", 0}, "cluster1", kDone, T(-60)},
           {{"group1", 0}, "cluster2", kFailedState, T(-120)},
           {{"group1", 0}, "cluster3", kDone, T(-60)},
       },
       /*rollout=*/
       {
           {"cluster4", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster5", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
           {"cluster6", {"", 1}, RolloutStatus::kToApply, kNoTime, kNoTime},
       },
       /*timeout=*/{},
       /*removed=*/
       {
           {"cluster2", {"group1", 0}, RolloutStatus::kFailed, T(-120), kNoTime},
       },
       /*breach=*/false,
       /*recheck_after=*/kNoTime},
  };
}

TEST(RolloutStrategyTest, GetRolloutClusterAll) { RunRolloutCases(AllCases()); }
TEST(RolloutStrategyTest, GetRolloutClusterProgressive) { RunRolloutCases(ProgressiveCases()); }
TEST(RolloutStrategyTest, GetRolloutClusterProgressivePerGroup) {
  RunRolloutCases(ProgressivePerGroupCases());
}
TEST(RolloutStrategyTest, GetRolloutClusterClusterAdded) { RunRolloutCases(ClusterAddedCases()); }
TEST(RolloutStrategyTest, GetRolloutClusterClusterRemoved) {
  RunRolloutCases(ClusterRemovedCases());
}

// TestDetermineRolloutStatus. Upstream's timeout field defaults to 0 (not "None").
TEST(RolloutStrategyTest, DetermineRolloutStatus) {
  struct Case {
    std::string name;
    int64_t min_success_s;
    std::optional<int64_t> timeout_s;
    ClusterRolloutStatus status;
    std::vector<ClusterRolloutStatus> rollout;
    std::vector<ClusterRolloutStatus> timeout;
  };
  const auto unknown8 = static_cast<RolloutStatus>(8);
  const auto unknown9 = static_cast<RolloutStatus>(9);
  const std::vector<Case> cases = {
      {"ToApply status",
       0,
       60,
       {"cluster1", {}, RolloutStatus::kToApply, kNoTime, kNoTime},
       {{"cluster1", {}, RolloutStatus::kToApply, kNoTime, kNoTime}},
       {}},
      {"Skip status", 0, 60, {"cluster1", {}, RolloutStatus::kSkip, kNoTime, kNoTime}, {}, {}},
      {"Succeeded status",
       0,
       60,
       {"cluster1", {}, RolloutStatus::kSucceeded, kNoTime, kNoTime},
       {},
       {}},
      {"Succeeded status within the minSuccessTime",
       60,
       0,
       {"cluster1", {}, RolloutStatus::kSucceeded, kNoTime, kNoTime},
       {{"cluster1", {}, RolloutStatus::kSucceeded, kNoTime, T(60)}},
       {}},
      {"Succeeded status outside the minSuccessTime",
       60,
       0,
       {"cluster1", {}, RolloutStatus::kSucceeded, T(-120), kNoTime},
       {},
       {}},
      {"TimeOut status",
       0,
       60,
       {"cluster1", {}, RolloutStatus::kTimeOut, kNoTime, kNoTime},
       {},
       {}},
      {"Progressing status within the timeout duration",
       0,
       60,
       {"cluster1", {}, RolloutStatus::kProgressing, T(-30), kNoTime},
       {{"cluster1", {}, RolloutStatus::kProgressing, T(-30), T(30)}},
       {}},
      {"Failed status outside of the timeout duration",
       0,
       60,
       {"cluster1", {}, RolloutStatus::kFailed, T(-60), kNoTime},
       {},
       {{"cluster1", {}, RolloutStatus::kTimeOut, T(-60), T(0)}}},
      {"unknown status outside of the timeout duration",
       0,
       60,
       {"cluster1", {}, unknown8, T(-60), kNoTime},
       {},
       {{"cluster1", {}, RolloutStatus::kTimeOut, T(-60), T(0)}}},
      {"unknown status within the timeout duration",
       0,
       60,
       {"cluster1", {}, unknown9, T(-30), kNoTime},
       {{"cluster1", {}, unknown9, T(-30), T(30)}},
       {}},
      {"Succeeded status with nil LastTransitionTime and minSuccessTime",
       120,
       0,
       {"cluster1", {}, RolloutStatus::kSucceeded, kNoTime, kNoTime},
       {{"cluster1", {}, RolloutStatus::kSucceeded, kNoTime, T(120)}},
       {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<ClusterRolloutStatus> rollout;
    std::vector<ClusterRolloutStatus> timeout;
    DetermineRolloutStatus(c.status, c.min_success_s, c.timeout_s, kNow, &rollout, &timeout);
    EXPECT_EQ(rollout, c.rollout) << Render(rollout);
    EXPECT_EQ(timeout, c.timeout) << Render(timeout);
  }
}

TEST(RolloutStrategyTest, DetermineRolloutStatusWithoutDeadlineKeepsWaiting) {
  std::vector<ClusterRolloutStatus> rollout;
  std::vector<ClusterRolloutStatus> timeout;
  DetermineRolloutStatus({"c", {}, RolloutStatus::kFailed, T(-1000000), kNoTime}, 0, kNoTime, kNow,
                         &rollout, &timeout);
  ASSERT_EQ(rollout.size(), 1U);
  EXPECT_EQ(rollout[0].status, RolloutStatus::kFailed);
  EXPECT_EQ(rollout[0].recheck_time_s, kNoTime);
  EXPECT_TRUE(timeout.empty());
}

// TestMinRecheckAfter.
TEST(RolloutStrategyTest, MinRecheckAfter) {
  struct Case {
    std::string name;
    std::vector<ClusterRolloutStatus> rollout;
    std::optional<int64_t> expected;
  };
  const std::vector<Case> cases = {
      {"Single cluster with RecheckTime in 30s",
       {{"cluster1", {}, RolloutStatus::kProgressing, kNoTime, T(30)}},
       30},
      {"Multiple clusters, minimum RecheckTime should be selected",
       {{"cluster1", {}, RolloutStatus::kSucceeded, kNoTime, T(60)},
        {"cluster2", {}, RolloutStatus::kProgressing, kNoTime, T(30)},
        {"cluster3", {}, RolloutStatus::kProgressing, kNoTime, T(60)}},
       30},
      {"Mixed timeout and soak period scenarios",
       {{"cluster1", {}, RolloutStatus::kSucceeded, kNoTime, T(30)},
        {"cluster2", {}, RolloutStatus::kProgressing, kNoTime, T(30)},
        {"cluster3", {}, RolloutStatus::kProgressing, kNoTime, T(60)}},
       30},
      {"No RecheckTime set, should return nil",
       {{"cluster1", {}, RolloutStatus::kToApply, kNoTime, kNoTime},
        {"cluster2", {}, RolloutStatus::kToApply, kNoTime, kNoTime}},
       kNoTime},
      {"No clusters, should return nil", {}, kNoTime},
      {"Only clusters with RecheckTime are considered",
       {{"cluster1", {}, RolloutStatus::kToApply, kNoTime, kNoTime},
        {"cluster2", {}, RolloutStatus::kProgressing, kNoTime, T(60)},
        {"cluster3", {}, RolloutStatus::kToApply, kNoTime, kNoTime}},
       60},
      // berth: a recheck time already past is not a reason to look again.
      {"Past recheck times are ignored",
       {{"cluster1", {}, RolloutStatus::kProgressing, kNoTime, T(-5)},
        {"cluster2", {}, RolloutStatus::kProgressing, kNoTime, T(0)}},
       kNoTime},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(MinRecheckAfter(c.rollout, kNow), c.expected);
  }
}

// TestCalculateRolloutSize, total 100.
TEST(RolloutStrategyTest, CalculateRolloutSize) {
  EXPECT_EQ(*RolloutSize(Int(50), 100, 100, "maxConcurrency"), 50);  // type is int
  EXPECT_EQ(*RolloutSize(Pct("30%"), 100, 100, "maxConcurrency"), 30);
  auto invalid = RolloutSize(Pct("invalid"), 100, 100, "maxConcurrency");
  ASSERT_FALSE(invalid.has_value());
  EXPECT_EQ(invalid.error().message(),
            "'invalid' is an invalid maximum threshold value: string is not a percentage");
  EXPECT_EQ(invalid.error().location().field, "maxConcurrency");
  EXPECT_EQ(*RolloutSize(Int(0), 100, 100, "maxConcurrency"), 100);    // int 0
  EXPECT_EQ(*RolloutSize(Int(101), 100, 100, "maxConcurrency"), 100);  // int out of range
  EXPECT_EQ(*RolloutSize(Pct("200%"), 100, 100, "maxConcurrency"), 100);
  // berth: rounding up, fractions, signs, and maxFailures' default of 0.
  EXPECT_EQ(*RolloutSize(Pct("25%"), 6, 6, "maxConcurrency"), 2);  // ceil(1.5)
  EXPECT_EQ(*RolloutSize(Pct("12.5%"), 8, 8, "maxConcurrency"), 1);
  EXPECT_EQ(*RolloutSize(Pct("+50%"), 4, 4, "maxConcurrency"), 2);
  EXPECT_EQ(*RolloutSize(Pct("-50%"), 4, 0, "maxFailures"), 0);
  EXPECT_EQ(*RolloutSize(Pct("0%"), 4, 0, "maxFailures"), 0);
  EXPECT_EQ(*RolloutSize(Int(5), 4, 0, "maxFailures"), 0);  // more than the clusters: default
  EXPECT_EQ(*RolloutSize(Int(-1), 4, 4, "maxConcurrency"), 4);
  EXPECT_FALSE(RolloutSize(Pct("%"), 4, 4, "maxConcurrency").has_value());
  EXPECT_FALSE(RolloutSize(Pct("0x10%"), 4, 4, "maxConcurrency").has_value());
  EXPECT_FALSE(RolloutSize(Pct("1e999%"), 4, 4, "maxConcurrency").has_value());
}

// TestParseTimeout.
TEST(RolloutStrategyTest, ParseTimeout) {
  EXPECT_EQ(*ParseProgressDeadline("2h", "progressDeadline"), 7200);
  EXPECT_EQ(*ParseProgressDeadline("30m", "progressDeadline"), 1800);
  EXPECT_EQ(*ParseProgressDeadline("10s", "progressDeadline"), 10);
  EXPECT_EQ(*ParseProgressDeadline("None", "progressDeadline"), kNoTime);
  EXPECT_EQ(*ParseProgressDeadline("", "progressDeadline"), kNoTime);
  for (const char* bad : {"2d", "0", "2d0s", "10g"}) {
    SCOPED_TRACE(bad);
    auto r = ParseProgressDeadline(bad, "progressDeadline");
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code(), core::ErrorCode::kInvalidArgument);
    EXPECT_EQ(r.error().location().field, "progressDeadline");
    EXPECT_NE(r.error().message().find("invalid timeout format"), std::string::npos);
  }
}

TEST(RolloutStrategyTest, ProgressDeadlinePatternIsUnanchoredAsUpstreams) {
  // A valid prefix lets Go's duration parser see the whole text.
  EXPECT_EQ(*ParseProgressDeadline("1h30m", "progressDeadline"), 5400);
  EXPECT_EQ(*ParseProgressDeadline("0s", "progressDeadline"), 0);
  EXPECT_FALSE(ParseProgressDeadline("90sx", "progressDeadline").has_value());
  EXPECT_FALSE(ParseProgressDeadline("xNone", "progressDeadline").has_value());
  EXPECT_FALSE(ParseProgressDeadline("10|", "progressDeadline").has_value());
  EXPECT_FALSE(ParseProgressDeadline("1.5h", "progressDeadline").has_value());
}

// TestDecisionGroupsToGroupKeys.
TEST(RolloutStrategyTest, DecisionGroupsToGroupKeys) {
  using Keys = std::vector<GroupKey>;
  EXPECT_EQ(MandatoryGroupKeys({{"group1", 1}, {"group2", 2}}),
            (Keys{{"group1", 0}, {"group2", 0}}));  // both set: the name wins
  EXPECT_EQ(MandatoryGroupKeys({{"group1", 0}, {"group2", 0}}),
            (Keys{{"group1", 0}, {"group2", 0}}));
  EXPECT_EQ(MandatoryGroupKeys({{"", 1}, {"", 2}}), (Keys{{"", 1}, {"", 2}}));
  EXPECT_EQ(MandatoryGroupKeys({{"", 0}}), (Keys{{"", 0}}));
  EXPECT_TRUE(MandatoryGroupKeys({}).empty());
}

// ---- berth's own cases ----

TEST(RolloutStrategyTest, GoDurations) {
  EXPECT_EQ(*ParseGoDurationSeconds("90s", "minSuccessTime"), 90);
  EXPECT_EQ(*ParseGoDurationSeconds("1h30m", "minSuccessTime"), 5400);
  EXPECT_EQ(*ParseGoDurationSeconds("1.5h", "minSuccessTime"), 5400);
  EXPECT_EQ(*ParseGoDurationSeconds("0", "minSuccessTime"), 0);
  EXPECT_EQ(*ParseGoDurationSeconds("1500ms", "minSuccessTime"), 2);  // rounded up
  EXPECT_EQ(*ParseGoDurationSeconds("1ns", "minSuccessTime"), 1);
  EXPECT_EQ(*ParseGoDurationSeconds("-1500ms", "minSuccessTime"), -1);
  EXPECT_EQ(*ParseGoDurationSeconds("+2m", "minSuccessTime"), 120);
  EXPECT_EQ(*ParseGoDurationSeconds("2562047h", "minSuccessTime"), 2562047LL * 3600);
  EXPECT_EQ(*ParseGoDurationSeconds("1\xC2\xB5s", "minSuccessTime"), 1);
  for (const char* bad : {"", "5", "5d", "h", ".s", "1..5s", "2562048h", "-", "1s2"}) {
    SCOPED_TRACE(bad);
    auto r = ParseGoDurationSeconds(bad, "minSuccessTime");
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().location().field, "minSuccessTime");
  }
}

TEST(RolloutStrategyTest, IntOrPercentText) {
  auto three = ParseIntOrPercent("3", "maxFailures");
  ASSERT_TRUE(three.has_value());
  EXPECT_FALSE(three->is_string);
  EXPECT_EQ(three->int_value, 3);
  auto quarter = ParseIntOrPercent("25%", "maxFailures");
  ASSERT_TRUE(quarter.has_value());
  EXPECT_TRUE(quarter->is_string);
  EXPECT_EQ(quarter->text, "25%");
  EXPECT_EQ(IntOrPercentText(*three), "3");
  EXPECT_EQ(IntOrPercentText(*quarter), "25%");
  for (const char* bad : {"", "-1", "abc", "3.5", "99999999999"}) {
    SCOPED_TRACE(bad);
    auto r = ParseIntOrPercent(bad, "maxFailures");
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().location().field, "maxFailures");
  }
}

TEST(RolloutStrategyTest, RolloutTypeNames) {
  EXPECT_EQ(*ParseRolloutType("", "type"), RolloutType::kAll);
  EXPECT_EQ(*ParseRolloutType("ProgressivePerGroup", "type"), RolloutType::kProgressivePerGroup);
  EXPECT_STREQ(RolloutTypeName(RolloutType::kProgressive), "Progressive");
  auto bad = ParseRolloutType("Canary", "rolloutStrategy.type");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().location().field, "rolloutStrategy.type");
}

TEST(RolloutStrategyTest, ErrorsNameTheField) {
  const std::vector<DecisionCluster> decisions = {{"a", 0, ""}, {"b", 0, ""}};
  RolloutStrategy s;
  s.progress_deadline = "soon";
  auto r = ComputeRollout(s, decisions, {}, kNow);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().location().field, "progressDeadline");

  s = RolloutStrategy{};
  s.type = RolloutType::kProgressive;
  s.max_concurrency = Pct("half");
  r = ComputeRollout(s, decisions, {}, kNow);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().location().field, "maxConcurrency");

  s.max_concurrency = model::IntOrPercent{};
  s.max_failures = Pct("some");
  r = ComputeRollout(s, decisions, {}, kNow);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().location().field, "maxFailures");

  s.type = RolloutType::kProgressivePerGroup;
  r = ComputeRollout(s, decisions, {}, kNow);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().location().field, "maxFailures");
}

TEST(RolloutStrategyTest, MaxConcurrencyIsReadOnlyAfterTheMandatoryGroups) {
  // Upstream parses maxConcurrency after the mandatory groups' pass: while they still roll
  // out, a bad value goes unnoticed.
  RolloutStrategy s;
  s.type = RolloutType::kProgressive;
  s.mandatory_decision_groups = {{"canary", 0}};
  s.max_concurrency = Pct("lots");
  const std::vector<DecisionCluster> decisions = {{"c1", 0, "canary"}, {"c2", 1, ""}};
  auto r = ComputeRollout(s, decisions, {}, kNow);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->clusters_to_rollout.size(), 1U);
  EXPECT_EQ(r->clusters_to_rollout[0].cluster_name, "c1");
  // Once the canary succeeded, the rest is sized and the error surfaces.
  r = ComputeRollout(s, decisions, {{"c1", {}, RolloutStatus::kSucceeded, T(-10), kNoTime}}, kNow);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().location().field, "maxConcurrency");
}

TEST(RolloutStrategyTest, MandatoryGroupByIndexAndSoakBeforeTheNextGroup) {
  RolloutStrategy s;
  s.type = RolloutType::kProgressivePerGroup;
  s.mandatory_decision_groups = {{"", 1}};
  s.min_success_time_s = 300;
  const std::vector<DecisionCluster> decisions = {
      {"a1", 0, "prod"}, {"a2", 0, "prod"}, {"c1", 1, "canary"}};
  // The mandatory group (index 1) goes first although its index is higher.
  auto r = ComputeRollout(s, decisions, {}, kNow);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->clusters_to_rollout.size(), 1U);
  EXPECT_EQ(r->clusters_to_rollout[0].cluster_name, "c1");
  EXPECT_EQ(r->clusters_to_rollout[0].group_key, (GroupKey{"canary", 1}));
  // Succeeded 100 s ago: it soaks 200 s more, and nothing else starts.
  r = ComputeRollout(s, decisions, {{"c1", {}, RolloutStatus::kSucceeded, T(-100), kNoTime}}, kNow);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->clusters_to_rollout.size(), 1U);
  EXPECT_EQ(r->clusters_to_rollout[0].recheck_time_s, T(200));
  EXPECT_EQ(r->recheck_after_s, 200);
  // After the soak the next group starts, all of it at once.
  r = ComputeRollout(s, decisions, {{"c1", {}, RolloutStatus::kSucceeded, T(-300), kNoTime}}, kNow);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(Render(r->clusters_to_rollout),
            "a1{prod,0} ToApply ltt=- recheck=-; a2{prod,0} ToApply ltt=- recheck=-; ");
}

TEST(RolloutStrategyTest, FailedClustersCountTowardConcurrency) {
  // maxConcurrency 2, maxFailures 1: a failed cluster within its deadline keeps its slot.
  RolloutStrategy s;
  s.type = RolloutType::kProgressive;
  s.max_concurrency = Int(2);
  s.max_failures = Int(1);
  s.progress_deadline = "10m";
  const std::vector<DecisionCluster> decisions = {
      {"c1", 0, ""}, {"c2", 0, ""}, {"c3", 0, ""}, {"c4", 0, ""}};
  auto r = ComputeRollout(s, decisions,
                          {{"c1", {}, RolloutStatus::kFailed, T(-60), kNoTime},
                           {"c2", {}, RolloutStatus::kSucceeded, T(-60), kNoTime}},
                          kNow);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(Render(r->clusters_to_rollout),
            "c1{,0} Failed ltt=-60 recheck=+540; c3{,0} ToApply ltt=- recheck=-; ");
  EXPECT_FALSE(r->max_failure_breach);
  EXPECT_EQ(r->recheck_after_s, 540);
}

TEST(RolloutStrategyTest, SparseGroupIndexesHideLaterGroupsAsUpstream) {
  // The tracker walks indexes 0..n-1 for n distinct indexes: with groups 0 and 2, group 2
  // is never seen. The placement controller numbers groups densely, so this does not arise
  // from berth's own placements; the test pins the behaviour.
  RolloutStrategy s;
  auto r = ComputeRollout(s, {{"a", 0, ""}, {"b", 2, ""}}, {}, kNow);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(Render(r->clusters_to_rollout), "a{,0} ToApply ltt=- recheck=-; ");
}

TEST(RolloutStrategyTest, EmptyPlacementRemovesEveryStatus) {
  RolloutStrategy s;
  s.type = RolloutType::kProgressive;
  auto r = ComputeRollout(s, {}, {{"gone", {}, RolloutStatus::kSucceeded, T(-5), kNoTime}}, kNow);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->clusters_to_rollout.empty());
  ASSERT_EQ(r->clusters_removed.size(), 1U);
  EXPECT_EQ(r->clusters_removed[0].cluster_name, "gone");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
