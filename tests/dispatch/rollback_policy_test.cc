// berth's controlled rollback: the revision history (kubectl rollout history/undo
// semantics), health rules read from feedback observations, and the decision to continue,
// pause or roll back (rollback_policy.h lists the rules these cases walk through).
#include "dispatch/rollback_policy.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dispatch/health_rule.h"
#include "dispatch/revision_history.h"
#include "dispatch/rollout_strategy.h"

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

constexpr int64_t kRbNow = 1767225600;  // 2026-01-01T00:00:00Z

std::vector<int64_t> Numbers(const RevisionHistory& h) {
  std::vector<int64_t> out;
  for (const Revision& r : h.List()) out.push_back(r.number);
  return out;
}

// ---- RevisionHistory ----

TEST(RevisionHistoryTest, RecordNumbersRevisionsAndRenumbersAnOldSpec) {
  RevisionHistory h;
  EXPECT_EQ(h.Current(), nullptr);
  EXPECT_EQ(h.Record("a", 100, "first"), 1);
  EXPECT_EQ(h.Record("b", 200), 2);
  EXPECT_EQ(h.Record("b", 250, "resized"), 2);  // the same spec: no new revision
  EXPECT_EQ(h.Current()->change_cause, "resized");
  ASSERT_TRUE(h.RecordTaken(1, "us-1", 110).ok());
  // Back to "a": it becomes revision 3 (as Deployment renumbers), its cause kept, its
  // clusters cleared (the rollout starts over).
  EXPECT_EQ(h.Record("a", 300), 3);
  EXPECT_EQ(Numbers(h), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(h.Current()->spec_hash, "a");
  EXPECT_EQ(h.Current()->change_cause, "first");
  EXPECT_EQ(h.Current()->created_at_s, 300);
  EXPECT_TRUE(h.Current()->clusters.empty());
  EXPECT_EQ(h.Find(1), nullptr);
  EXPECT_EQ(h.Previous()->number, 2);
  // Numbers are never reused.
  EXPECT_EQ(h.Record("c", 400), 4);
}

TEST(RevisionHistoryTest, LimitKeepsThatManyBesidesTheCurrent) {
  RevisionHistory h(2);
  for (const char* spec : {"a", "b", "c", "d", "e"}) h.Record(spec, 0);
  EXPECT_EQ(Numbers(h), (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(h.limit(), 2U);
  RevisionHistory none(0);
  none.Record("a", 0);
  none.Record("b", 0);
  EXPECT_EQ(Numbers(none), (std::vector<int64_t>{2}));
  EXPECT_EQ(RevisionHistory().limit(), kDefaultRevisionHistoryLimit);
}

TEST(RevisionHistoryTest, OutcomesAndTheLastGoodRevision) {
  RevisionHistory h;
  h.Record("a", 0);  // 1: never reached a cluster
  h.Record("b", 0);  // 2: good on two clusters
  ASSERT_TRUE(h.RecordTaken(2, "us-1", 10).ok());
  ASSERT_TRUE(h.RecordOutcome(2, "us-1", RolloutStatus::kSucceeded, 20).ok());
  ASSERT_TRUE(h.RecordOutcome(2, "us-2", RolloutStatus::kSucceeded, 25).ok());  // added
  h.Record("c", 0);  // 3: failed on one of two
  ASSERT_TRUE(h.RecordOutcome(3, "us-1", RolloutStatus::kSucceeded, 30).ok());
  ASSERT_TRUE(h.RecordOutcome(3, "us-2", RolloutStatus::kFailed, 31, "Degraded=True").ok());
  h.Record("d", 0);  // 4: current

  EXPECT_FALSE(h.Find(1)->Good());  // reached nothing: proves nothing
  EXPECT_TRUE(h.Find(2)->Good());
  EXPECT_FALSE(h.Find(3)->Good());
  ASSERT_NE(h.LastGood(), nullptr);
  EXPECT_EQ(h.LastGood()->number, 2);
  EXPECT_EQ(h.Find(2)->FindCluster("us-2")->taken_at_s, 25);
  EXPECT_EQ(h.Find(3)->FindCluster("us-2")->detail, "Degraded=True");
  EXPECT_EQ(h.Find(3)->TakenAt(), (std::map<std::string, int64_t>{{"us-1", 30}, {"us-2", 31}}));

  // Taking a revision again resets the cluster's record.
  ASSERT_TRUE(h.RecordTaken(3, "us-2", 50).ok());
  EXPECT_EQ(h.Find(3)->FindCluster("us-2")->outcome, RolloutStatus::kProgressing);
  EXPECT_EQ(h.Find(3)->FindCluster("us-2")->detail, "");

  EXPECT_EQ(h.RecordTaken(9, "us-1", 0).error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(h.RecordOutcome(9, "us-1", RolloutStatus::kFailed, 0).error().code(),
            core::ErrorCode::kNotFound);
}

TEST(RevisionHistoryTest, ARolledBackRevisionIsNeverGood) {
  // Revision 2's works were all Available (its Deployment crash-looped behind them) and a
  // health rule rolled it back to "a", which is revision 3 now.
  RevisionHistory h;
  h.Record("a", 0);
  h.Record("b", 0);
  ASSERT_TRUE(h.RecordOutcome(2, "us-1", RolloutStatus::kSucceeded, 20).ok());
  EXPECT_TRUE(h.Find(2)->Good());
  ASSERT_TRUE(h.RecordRolledBack(2).ok());
  EXPECT_FALSE(h.Find(2)->Good());
  h.Record("a", 30);
  EXPECT_EQ(h.LastGood(), nullptr) << "revision 3 breaking must not go back to revision 2";
  // Rolled out again on purpose, it starts over, judged afresh.
  h.Record("b", 40);
  EXPECT_FALSE(h.Current()->rolled_back);
  EXPECT_EQ(h.RecordRolledBack(9).error().code(), core::ErrorCode::kNotFound);
}

TEST(RevisionHistoryTest, UndoTarget) {
  RevisionHistory h;
  EXPECT_EQ(h.UndoTarget(0).error().code(), core::ErrorCode::kNotFound);
  h.Record("a", 0);
  auto only = h.UndoTarget(0);
  ASSERT_FALSE(only.has_value());
  EXPECT_EQ(only.error().message(), "no revision before revision 1 in history");
  h.Record("b", 0);
  h.Record("c", 0);
  ASSERT_TRUE(h.UndoTarget(0).has_value());
  EXPECT_EQ((*h.UndoTarget(0))->number, 2);
  EXPECT_EQ((*h.UndoTarget(1))->spec_hash, "a");
  EXPECT_EQ(h.UndoTarget(3).error().code(), core::ErrorCode::kFailedPrecondition);
  auto missing = h.UndoTarget(7);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message(), "revision 7 is not in history (kept: 1, 2, 3)");
}

// ---- HealthRule ----

HealthRule AvailableBelow(double threshold, int64_t for_seconds) {
  return HealthRule{"AvailableReplicas", Comparison::kLess, threshold, for_seconds};
}

FeedbackObservation Obs(const char* cluster, const char* name, const char* value, int64_t ago_s) {
  return FeedbackObservation{cluster, name, value, kRbNow - ago_s};
}

TEST(HealthRuleTest, ViolatedOnlyAfterAnUnbrokenRunOfTheGivenLength) {
  const std::vector<FeedbackObservation> observations = {
      // us-1: healthy, then below 2 from 400 s ago.
      Obs("us-1", "AvailableReplicas", "3", 600), Obs("us-1", "AvailableReplicas", "1", 400),
      Obs("us-1", "AvailableReplicas", "0", 200),
      // us-2: recovered 250 s ago, below again only for the last 100 s.
      Obs("us-2", "AvailableReplicas", "1", 500), Obs("us-2", "AvailableReplicas", "3", 250),
      Obs("us-2", "AvailableReplicas", "1", 100),
      // us-3: a value that is no number ends the run.
      Obs("us-3", "AvailableReplicas", "0", 900), Obs("us-3", "AvailableReplicas", "n/a", 350),
      Obs("us-3", "AvailableReplicas", "0", 340),
      // us-4 took the revision 200 s ago: what it reported before is not this revision's.
      Obs("us-4", "AvailableReplicas", "0", 1000), Obs("us-4", "AvailableReplicas", "0", 150),
      // us-9 did not take the revision; an observation from the future is ignored.
      Obs("us-9", "AvailableReplicas", "0", 1000), Obs("us-1", "AvailableReplicas", "5", -10),
      // Other values do not matter to the rule.
      Obs("us-2", "ReadyReplicas", "0", 900)};
  const std::map<std::string, int64_t> taken = {{"us-1", kRbNow - 3600},
                                                {"us-2", kRbNow - 3600},
                                                {"us-3", kRbNow - 3600},
                                                {"us-4", kRbNow - 200}};
  auto violations = EvaluateHealthRules({AvailableBelow(2, 300)}, observations, taken, kRbNow);
  ASSERT_EQ(violations.size(), 2U);
  EXPECT_EQ(violations[0].cluster, "us-1");
  EXPECT_EQ(violations[0].since_s, kRbNow - 400);
  EXPECT_EQ(violations[0].value, "0");
  EXPECT_EQ(violations[0].rule, "AvailableReplicas < 2 for 300s");
  EXPECT_EQ(violations[1].cluster, "us-3");
  EXPECT_EQ(violations[1].since_s, kRbNow - 340);
  EXPECT_EQ(violations[1].Text(),
            "AvailableReplicas < 2 for 300s (value 0 since 2025-12-31T23:54:20Z)");

  // A shorter window also catches us-2 and us-4; for_seconds 0 counts at once.
  violations = EvaluateHealthRules({AvailableBelow(2, 0)}, observations, taken, kRbNow);
  EXPECT_EQ(violations.size(), 4U);
}

TEST(HealthRuleTest, BooleansComparisonsAndText) {
  const HealthRule not_ready{"Ready", Comparison::kEqual, 0, 60};
  const std::vector<FeedbackObservation> observations = {Obs("eu-1", "Ready", "false", 120),
                                                         Obs("eu-2", "Ready", "true", 120)};
  auto violations =
      EvaluateHealthRules({not_ready}, observations, {{"eu-1", 0}, {"eu-2", 0}}, kRbNow);
  ASSERT_EQ(violations.size(), 1U);
  EXPECT_EQ(violations[0].cluster, "eu-1");
  EXPECT_EQ(not_ready.Text(), "Ready == 0 for 60s");
  EXPECT_EQ((HealthRule{"Lag", Comparison::kGreaterOrEqual, 0.5, 30}).Text(), "Lag >= 0.5 for 30s");
  EXPECT_EQ(*ParseComparison("<=", "comparison"), Comparison::kLessOrEqual);
  EXPECT_EQ(*ParseComparison("!=", "comparison"), Comparison::kNotEqual);
  auto bad = ParseComparison("=<", "healthRules[0].comparison");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().location().field, "healthRules[0].comparison");
}

// ---- DecideRollback ----

// Revision 1 good on us-1; revision 2 good on all three; revision 3 current: succeeded on
// us-1, failed on us-2, progressing on us-3 for 400 s.
class RollbackPolicyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    history_.Record("spec-a", kRbNow - 9000, "first");
    ASSERT_TRUE(history_.RecordOutcome(1, "us-1", RolloutStatus::kSucceeded, kRbNow - 8900).ok());
    history_.Record("spec-b", kRbNow - 5000);
    for (const char* c : {"us-1", "us-2", "us-3"}) {
      ASSERT_TRUE(history_.RecordOutcome(2, c, RolloutStatus::kSucceeded, kRbNow - 4900).ok());
    }
    history_.Record("spec-c", kRbNow - 600, "bump image");
    for (const char* c : {"us-1", "us-2", "us-3"}) {
      ASSERT_TRUE(history_.RecordTaken(3, c, kRbNow - 500).ok());
    }
    ASSERT_TRUE(history_.RecordOutcome(3, "us-1", RolloutStatus::kSucceeded, kRbNow - 450).ok());
    ASSERT_TRUE(history_
                    .RecordOutcome(3, "us-2", RolloutStatus::kFailed, kRbNow - 60,
                                   "Available=False (MinimumReplicasUnavailable)")
                    .ok());
    strategy_.type = RolloutType::kProgressive;
    strategy_.progress_deadline = "5m";
    strategy_.max_failures = model::IntOrPercent{false, 1, ""};
  }

  // The rollout result of revision 3 as ComputeRollout gives it.
  RolloutResult Rollout() const {
    std::vector<DecisionCluster> decisions = {{"us-1", 0, ""}, {"us-2", 0, ""}, {"us-3", 0, ""}};
    std::vector<ClusterRolloutStatus> existing = {
        {"us-1", {}, RolloutStatus::kSucceeded, kRbNow - 450, std::nullopt},
        {"us-2", {}, RolloutStatus::kFailed, kRbNow - 60, std::nullopt},
        {"us-3", {}, RolloutStatus::kProgressing, kRbNow - 400, std::nullopt}};
    auto r = ComputeRollout(strategy_, decisions, existing, kRbNow);
    EXPECT_TRUE(r.has_value());
    return r.has_value() ? *r : RolloutResult{};
  }

  RevisionHistory history_;
  RolloutStrategy strategy_;
};

TEST_F(RollbackPolicyTest, BreachRollsBackToTheLastGoodRevision) {
  const RolloutResult rollout = Rollout();
  ASSERT_TRUE(rollout.max_failure_breach);
  RollbackDecision d = DecideRollback(history_, strategy_, rollout, {});
  EXPECT_EQ(d.action, RollbackAction::kRollback);
  EXPECT_STREQ(RollbackActionName(d.action), "Rollback");
  EXPECT_EQ(d.revision, 3);
  EXPECT_EQ(d.to_revision, 2);
  EXPECT_EQ(d.to_spec_hash, "spec-b");
  EXPECT_EQ(d.failed_clusters, (std::vector<std::string>{"us-2", "us-3"}));
  EXPECT_EQ(d.took_revision, (std::vector<std::string>{"us-1", "us-2", "us-3"}));
  EXPECT_EQ(d.reason,
            "revision 3 failed on 2 of 3 clusters (maxFailures 1): us-2: Available=False "
            "(MinimumReplicasUnavailable); us-3: timed out after progressDeadline 5m; rolling "
            "back to revision 2");
}

TEST_F(RollbackPolicyTest, HealthViolationRollsBackEvenWhereOcmWouldNotStop) {
  RolloutStrategy all;
  all.type = RolloutType::kAll;  // tolerates every failure
  RolloutResult rollout;
  rollout.clusters_to_rollout = {{"us-3", {}, RolloutStatus::kProgressing, kRbNow - 400, {}}};
  auto violations =
      EvaluateHealthRules({AvailableBelow(2, 300)}, {Obs("us-1", "AvailableReplicas", "0", 420)},
                          history_.Current()->TakenAt(), kRbNow);
  ASSERT_EQ(violations.size(), 1U);
  RollbackDecision d = DecideRollback(history_, all, rollout, violations);
  EXPECT_EQ(d.action, RollbackAction::kRollback);
  EXPECT_EQ(d.to_revision, 2);
  EXPECT_EQ(d.failed_clusters, (std::vector<std::string>{"us-1", "us-2"}));
  EXPECT_EQ(d.reason,
            "revision 3 failed on 2 of 3 clusters: us-1: AvailableReplicas < 2 for 300s (value 0 "
            "since 2025-12-31T23:53:00Z); us-2: Available=False (MinimumReplicasUnavailable); "
            "rolling back to revision 2");
}

TEST_F(RollbackPolicyTest, ViolationOnAClusterWithoutTheRevisionIsIgnored) {
  RolloutResult rollout;  // nothing failed in the result; us-2's recorded failure remains
  HealthViolation elsewhere{"eu-9", "AvailableReplicas < 2 for 300s", "0", kRbNow - 900};
  strategy_.max_failures = model::IntOrPercent{false, 2, ""};
  RollbackDecision d = DecideRollback(history_, strategy_, rollout, {elsewhere});
  EXPECT_EQ(d.action, RollbackAction::kContinue);
  EXPECT_EQ(d.reason,
            "revision 3 failed on 1 of 3 clusters: us-2: Available=False "
            "(MinimumReplicasUnavailable); continuing within maxFailures 2");
}

TEST_F(RollbackPolicyTest, NoGoodRevisionPauses) {
  RevisionHistory fresh;
  fresh.Record("spec-a", 0);
  ASSERT_TRUE(fresh.RecordOutcome(1, "us-1", RolloutStatus::kFailed, 0).ok());
  fresh.Record("spec-c", 0);
  ASSERT_TRUE(fresh.RecordOutcome(2, "us-2", RolloutStatus::kFailed, 0, "Degraded=True").ok());
  RolloutResult rollout;
  rollout.max_failure_breach = true;
  RollbackDecision d = DecideRollback(fresh, strategy_, rollout, {});
  EXPECT_EQ(d.action, RollbackAction::kPause);
  EXPECT_EQ(d.to_revision, std::nullopt);
  EXPECT_EQ(d.reason,
            "revision 2 failed on 1 of 1 cluster (maxFailures 1): us-2: Degraded=True; pausing: "
            "no earlier revision succeeded on every cluster it reached");
}

TEST_F(RollbackPolicyTest, AutomaticRollbackOffPauses) {
  RollbackPolicy manual;
  manual.auto_rollback = false;
  RollbackDecision d = DecideRollback(history_, strategy_, Rollout(), {}, manual);
  EXPECT_EQ(d.action, RollbackAction::kPause);
  EXPECT_NE(d.reason.find("; pausing: automatic rollback is off"), std::string::npos) << d.reason;
  EXPECT_EQ(d.took_revision.size(), 3U);
}

TEST_F(RollbackPolicyTest, TimeoutWithinMaxFailuresPausesUnlessToldNotTo) {
  strategy_.max_failures = model::IntOrPercent{false, 2, ""};
  const RolloutResult rollout = Rollout();
  ASSERT_FALSE(rollout.max_failure_breach);
  ASSERT_EQ(rollout.clusters_timeout.size(), 1U);
  RollbackDecision d = DecideRollback(history_, strategy_, rollout, {});
  EXPECT_EQ(d.action, RollbackAction::kPause);
  EXPECT_EQ(d.reason,
            "revision 3 failed on 2 of 3 clusters: us-2: Available=False "
            "(MinimumReplicasUnavailable); us-3: timed out after progressDeadline 5m; pausing on "
            "the timed-out clusters (within maxFailures 2)");
  RollbackPolicy keep_going;
  keep_going.pause_on_timeout = false;
  d = DecideRollback(history_, strategy_, rollout, {}, keep_going);
  EXPECT_EQ(d.action, RollbackAction::kContinue);
  EXPECT_NE(d.reason.find("; continuing within maxFailures 2"), std::string::npos) << d.reason;
}

TEST_F(RollbackPolicyTest, HealthyRolloutContinues) {
  RevisionHistory h;
  h.Record("spec-a", 0);
  ASSERT_TRUE(h.RecordOutcome(1, "us-1", RolloutStatus::kSucceeded, 0).ok());
  RolloutResult rollout;
  rollout.clusters_to_rollout = {{"us-2", {}, RolloutStatus::kProgressing, kRbNow, {}},
                                 {"us-3", {}, RolloutStatus::kToApply, {}, {}}};
  RollbackDecision d = DecideRollback(h, strategy_, rollout, {});
  EXPECT_EQ(d.action, RollbackAction::kContinue);
  EXPECT_EQ(d.took_revision, (std::vector<std::string>{"us-1", "us-2"}));  // not us-3 yet
  EXPECT_TRUE(d.failed_clusters.empty());
  EXPECT_EQ(d.reason, "revision 1: no failure on the 2 clusters it reached; continuing");
}

TEST_F(RollbackPolicyTest, EmptyHistoryContinues) {
  RollbackDecision d = DecideRollback(RevisionHistory(), strategy_, RolloutResult{}, {});
  EXPECT_EQ(d.action, RollbackAction::kContinue);
  EXPECT_EQ(d.revision, 0);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
