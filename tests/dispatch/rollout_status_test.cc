// A ManifestWork's conditions read as a rollout status, against upstream's tables
// (open-cluster-management-io/ocm pkg/work/hub/controllers/manifestworkreplicasetcontroller/
// manifestworkreplicaset_deploy_test.go: TestClusterRolloutStatusFunc, TestShouldReturnToApply,
// TestIsConditionReady, with upstream's case names), and the condition helpers.
#include "dispatch/rollout_status.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

constexpr int64_t kStatusNow = 1767225600;  // 2026-01-01T00:00:00Z

constexpr model::ConditionStatus kTrue = model::ConditionStatus::kTrue;
constexpr model::ConditionStatus kFalse = model::ConditionStatus::kFalse;
constexpr model::ConditionStatus kUnknown = model::ConditionStatus::kUnknown;

WorkCondition Cond(const char* type, model::ConditionStatus status, int64_t observed,
                   const char* reason = "", std::optional<int64_t> at = kStatusNow) {
  WorkCondition c;
  c.type = type;
  c.status = status;
  c.reason = reason;
  c.observed_generation = observed;
  c.last_transition_time_s = at;
  return c;
}

// TestClusterRolloutStatusFunc: (generation, conditions) -> status and transition time.
TEST(RolloutStatusTest, ClusterRolloutStatusFunc) {
  struct Case {
    std::string name;
    int64_t generation;
    std::vector<WorkCondition> conditions;
    RolloutStatus status;
    std::optional<int64_t> last_transition;
  };
  const std::optional<int64_t> now = kStatusNow;
  const std::vector<Case> cases = {
      {"no progressing condition - should return ToApply",
       1,
       {},
       RolloutStatus::kToApply,
       std::nullopt},
      {"progressing condition with unobserved generation - should return ToApply",
       2,
       {Cond(kWorkProgressing, kFalse, 1, "Completed")},
       RolloutStatus::kToApply,
       std::nullopt},
      {"no Applied condition with stale Degraded - should return ToApply",
       2,
       {Cond(kWorkProgressing, kTrue, 2, "Applying"), Cond(kWorkDegraded, kTrue, 1, "Failed")},
       RolloutStatus::kToApply,
       std::nullopt},
      {"progressing true with current generation - should return Progressing",
       2,
       {Cond(kWorkApplied, kTrue, 2, "Applied"), Cond(kWorkProgressing, kTrue, 2, "Applying")},
       RolloutStatus::kProgressing,
       now},
      {"progressing true and degraded true - should return Failed",
       2,
       {Cond(kWorkApplied, kTrue, 2, "Applied"), Cond(kWorkProgressing, kTrue, 2, "Applying"),
        Cond(kWorkDegraded, kTrue, 2, "Failed")},
       RolloutStatus::kFailed,
       now},
      {"progressing false - should return Succeeded",
       2,
       {Cond(kWorkApplied, kTrue, 2, "Applied"), Cond(kWorkProgressing, kFalse, 2, "Completed")},
       RolloutStatus::kSucceeded,
       now},
      {"progressing false with degraded true - should return Succeeded",
       2,
       {Cond(kWorkApplied, kTrue, 2, "Applied"), Cond(kWorkProgressing, kFalse, 2, "Completed"),
        Cond(kWorkDegraded, kTrue, 2, "Failed")},
       RolloutStatus::kSucceeded,
       now},
      {"progressing unknown status - should return Progressing",
       2,
       {Cond(kWorkApplied, kTrue, 2, "Applied"), Cond(kWorkProgressing, kUnknown, 2, "Unknown")},
       RolloutStatus::kProgressing,
       now},
      {"WorkApplied Status=False with current generation - should return ToApply",
       2,
       {Cond(kWorkApplied, kFalse, 2, "ApplyFailed"),
        Cond(kWorkProgressing, kFalse, 2, "Completed")},
       RolloutStatus::kToApply,
       std::nullopt},
      {"WorkApplied Status=Unknown with current generation - should return ToApply",
       2,
       {Cond(kWorkApplied, kUnknown, 2, "ApplyStatusUnknown"),
        Cond(kWorkProgressing, kFalse, 2, "Completed")},
       RolloutStatus::kToApply,
       std::nullopt},
      {"WorkApplied with stale ObservedGeneration (old gen 1, current gen 2) - should return "
       "ToApply",
       2,
       {Cond(kWorkApplied, kTrue, 1, "Applied"), Cond(kWorkProgressing, kFalse, 2, "Completed")},
       RolloutStatus::kToApply,
       std::nullopt},
      {"Progressing with old ObservedGeneration but newer WorkApplied - should return ToApply",
       3,
       {Cond(kWorkApplied, kTrue, 3, "Applied"), Cond(kWorkProgressing, kFalse, 2, "Completed")},
       RolloutStatus::kToApply,
       std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterRolloutStatus s = ClusterRolloutStatusOfWork("cls1", c.generation, c.conditions);
    EXPECT_EQ(s.status, c.status);
    EXPECT_EQ(s.cluster_name, "cls1");
    EXPECT_EQ(s.last_transition_time_s, c.last_transition);
    EXPECT_EQ(s.recheck_time_s, std::nullopt);
    EXPECT_EQ(s.group_key, GroupKey{});
  }
}

TEST(RolloutStatusTest, FailedAndSucceededTakeTheirOwnConditionsTransition) {
  // Failed counts its deadline from Degraded's transition, the others from Progressing's.
  std::vector<WorkCondition> conditions = {Cond(kWorkApplied, kTrue, 4),
                                           Cond(kWorkProgressing, kTrue, 4, "", kStatusNow - 600),
                                           Cond(kWorkDegraded, kTrue, 4, "", kStatusNow - 60)};
  ClusterRolloutStatus s = ClusterRolloutStatusOfWork("c", 4, conditions);
  EXPECT_EQ(s.status, RolloutStatus::kFailed);
  EXPECT_EQ(s.last_transition_time_s, kStatusNow - 60);
  conditions[2].status = kFalse;
  s = ClusterRolloutStatusOfWork("c", 4, conditions);
  EXPECT_EQ(s.status, RolloutStatus::kProgressing);
  EXPECT_EQ(s.last_transition_time_s, kStatusNow - 600);
  // Without a transition time the condition reads as Go's zero time: long past.
  conditions[1].last_transition_time_s.reset();
  s = ClusterRolloutStatusOfWork("c", 4, conditions);
  EXPECT_EQ(s.last_transition_time_s, kGoZeroTimeUnixS);
}

// TestShouldReturnToApply, generation 2.
TEST(RolloutStatusTest, ShouldReturnToApply) {
  struct Case {
    std::string name;
    std::optional<WorkCondition> applied, progressing, degraded;
    bool expected;
  };
  const std::vector<Case> cases = {
      {"applied condition is nil - should return true", std::nullopt,
       Cond(kWorkProgressing, kTrue, 2), std::nullopt, true},
      {"applied condition has stale generation - should return true", Cond(kWorkApplied, kTrue, 1),
       Cond(kWorkProgressing, kTrue, 2), std::nullopt, true},
      {"applied condition is false - should return true", Cond(kWorkApplied, kFalse, 2),
       Cond(kWorkProgressing, kTrue, 2), std::nullopt, true},
      {"progressing condition is nil - should return true", Cond(kWorkApplied, kTrue, 2),
       std::nullopt, std::nullopt, true},
      {"progressing condition has stale generation - should return true",
       Cond(kWorkApplied, kTrue, 2), Cond(kWorkProgressing, kFalse, 1), std::nullopt, true},
      {"degraded condition exists with stale generation - should return true",
       Cond(kWorkApplied, kTrue, 2), Cond(kWorkProgressing, kTrue, 2),
       Cond(kWorkDegraded, kTrue, 1), true},
      {"all conditions ready - should return false", Cond(kWorkApplied, kTrue, 2),
       Cond(kWorkProgressing, kTrue, 2), std::nullopt, false},
      {"all conditions ready including degraded - should return false",
       Cond(kWorkApplied, kTrue, 2), Cond(kWorkProgressing, kFalse, 2),
       Cond(kWorkDegraded, kFalse, 2), false},
      {"applied condition status unknown - should return true", Cond(kWorkApplied, kUnknown, 2),
       Cond(kWorkProgressing, kTrue, 2), std::nullopt, true},
      {"degraded ahead of applied generation - should return true", Cond(kWorkApplied, kTrue, 1),
       Cond(kWorkProgressing, kTrue, 1), Cond(kWorkDegraded, kTrue, 2), true},
      {"applied and progressing both stale but degraded current - should return true",
       Cond(kWorkApplied, kTrue, 1), Cond(kWorkProgressing, kFalse, 1),
       Cond(kWorkDegraded, kFalse, 2), true},
  };
  auto ptr = [](const std::optional<WorkCondition>& c) { return c ? &*c : nullptr; };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(ShouldReturnToApply(2, ptr(c.applied), ptr(c.progressing), ptr(c.degraded)),
              c.expected);
  }
}

// TestIsConditionReady, generation 2.
TEST(RolloutStatusTest, IsConditionReady) {
  struct Case {
    std::string name;
    std::optional<WorkCondition> condition;
    bool require_true;
    bool expected;
  };
  const std::vector<Case> cases = {
      {"nil condition - should return false", std::nullopt, false, false},
      {"stale observed generation - should return false", Cond(kWorkProgressing, kTrue, 1), false,
       false},
      {"current generation but status not true when required - should return false",
       Cond(kWorkApplied, kFalse, 2), true, false},
      {"current generation but status unknown when required true - should return false",
       Cond(kWorkApplied, kUnknown, 2), true, false},
      {"current generation and status true when required - should return true",
       Cond(kWorkApplied, kTrue, 2), true, true},
      {"current generation and status false when not requiring true - should return true",
       Cond(kWorkProgressing, kFalse, 2), false, true},
      {"current generation and status true when not requiring true - should return true",
       Cond(kWorkProgressing, kTrue, 2), false, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(IsConditionReady(c.condition ? &*c.condition : nullptr, 2, c.require_true),
              c.expected);
  }
}

TEST(RolloutStatusTest, SetWorkConditionMovesTheTransitionOnlyWithTheStatus) {
  std::vector<WorkCondition> conditions;
  SetWorkCondition(&conditions, Cond("PlacementVerified", kTrue, 0, "AsExpected", std::nullopt),
                   100);
  SetWorkCondition(&conditions, Cond("PlacementRolledOut", kFalse, 0, "Progressing", std::nullopt),
                   100);
  ASSERT_EQ(conditions.size(), 2U);
  EXPECT_EQ(conditions[0].last_transition_time_s, 100);
  // Same status, new reason: the transition stays.
  SetWorkCondition(&conditions, Cond("PlacementRolledOut", kFalse, 3, "Other", std::nullopt), 200);
  EXPECT_EQ(conditions[1].reason, "Other");
  EXPECT_EQ(conditions[1].observed_generation, 3);
  EXPECT_EQ(conditions[1].last_transition_time_s, 100);
  // New status: the transition moves to now, the order stays.
  SetWorkCondition(&conditions, Cond("PlacementRolledOut", kTrue, 0, "Complete", std::nullopt),
                   300);
  ASSERT_EQ(conditions.size(), 2U);
  EXPECT_EQ(conditions[1].type, "PlacementRolledOut");
  EXPECT_EQ(conditions[1].status, kTrue);
  EXPECT_EQ(conditions[1].last_transition_time_s, 300);
  EXPECT_EQ(FindWorkCondition(conditions, "PlacementVerified"), &conditions[0]);
  EXPECT_EQ(FindWorkCondition(conditions, "Nope"), nullptr);
}

TEST(RolloutStatusTest, DescribeWorkConditionsNamesWhatIsWrong) {
  WorkCondition available = Cond(kWorkAvailable, kFalse, 1, "MinimumReplicasUnavailable");
  available.message = "1 of 3 replicas available";
  EXPECT_EQ(DescribeWorkConditions({Cond(kWorkApplied, kTrue, 1), available,
                                    Cond(kWorkProgressing, kFalse, 1),
                                    Cond(kWorkDegraded, kTrue, 1, "ApplyFailed")}),
            "Available=False (MinimumReplicasUnavailable: 1 of 3 replicas available), "
            "Degraded=True (ApplyFailed)");
  EXPECT_EQ(DescribeWorkConditions({Cond(kWorkApplied, kTrue, 1), Cond(kWorkAvailable, kTrue, 1),
                                    Cond(kWorkProgressing, kFalse, 1)}),
            "");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
