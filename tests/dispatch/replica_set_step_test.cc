// One ManifestWorkReplicaSet reconcile, against upstream's controller tests
// (open-cluster-management-io/ocm pkg/work/hub/controllers/manifestworkreplicasetcontroller/
// manifestworkreplicaset_deploy_test.go and manifestworkreplicaset_status_test.go; test names
// kept), with upstream's fixtures (pkg/work/hub/test/helper.go): CreateTestManifestWork gives
// a work Applied=True, Available=True, Progressing=False at generation 0 (Succeeded);
// buildManifestWork one without conditions; CreateTestPlacementWithDecisionStrategy chunks
// the clusters into unnamed groups of clsPerGroup.
#include "dispatch/replica_set_step.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

constexpr int64_t kStepNow = 1767225600;  // 2026-01-01T00:00:00Z
constexpr const char* kTemplateV1 = "sha256:v1";

RolloutStrategy AllNone() {
  RolloutStrategy s;
  s.type = RolloutType::kAll;
  s.progress_deadline = "None";
  return s;
}

RolloutStrategy PerGroup() {
  RolloutStrategy s;
  s.type = RolloutType::kProgressivePerGroup;
  return s;
}

ManifestWorkReplicaSetView TestMwrs(std::string name, std::vector<MwrsPlacementRef> refs) {
  ManifestWorkReplicaSetView m;
  m.namespace_ = "default";
  m.name = std::move(name);
  m.template_hash = kTemplateV1;
  m.placement_refs = std::move(refs);
  return m;
}

// CreateTestPlacementWithDecisionStrategy; CreateTestPlacement is per_group = the count.
MwrsPlacement TestPlacement(std::string name, std::vector<std::string> clusters,
                            size_t per_group = 0) {
  if (per_group == 0) per_group = clusters.size();
  MwrsPlacement p;
  p.name = std::move(name);
  p.number_of_selected_clusters = static_cast<int32_t>(clusters.size());
  for (size_t i = 0; i < clusters.size(); ++i) {
    p.decisions.push_back({clusters[i], static_cast<int32_t>(i / per_group), ""});
  }
  p.decision_group_count =
      per_group == 0 ? 0 : static_cast<int32_t>((clusters.size() + per_group - 1) / per_group);
  return p;
}

WorkCondition StepCond(const char* type, model::ConditionStatus status, int64_t at = kStepNow) {
  WorkCondition c;
  c.type = type;
  c.status = status;
  c.last_transition_time_s = at;
  return c;
}

// buildManifestWork: the template, no status yet.
ReplicaWork BuiltWork(const std::string& name, const std::string& cluster,
                      const std::string& placement) {
  ReplicaWork w;
  w.cluster = cluster;
  w.name = name;
  w.placement = placement;
  w.spec_hash = kTemplateV1;
  return w;
}

// CreateTestManifestWork: named "<mwrs>-<cluster>", Succeeded.
ReplicaWork SucceededWork(const std::string& mwrs, const std::string& placement,
                          const std::string& cluster) {
  ReplicaWork w = BuiltWork(mwrs + "-" + cluster, cluster, placement);
  w.conditions = {StepCond(kWorkApplied, model::ConditionStatus::kTrue),
                  StepCond(kWorkAvailable, model::ConditionStatus::kTrue),
                  StepCond(kWorkProgressing, model::ConditionStatus::kFalse)};
  return w;
}

const WorkCondition& MustFind(const MwrsStatus& status, const char* type) {
  const WorkCondition* c = FindWorkCondition(status.conditions, type);
  EXPECT_NE(c, nullptr) << type;
  static const WorkCondition kMissing;
  return c != nullptr ? *c : kMissing;
}

MwrsSummary Summary(int32_t total, int32_t applied = 0, int32_t available = 0, int32_t degraded = 0,
                    int32_t progressing = 0) {
  MwrsSummary s;
  s.total = total;
  s.applied = applied;
  s.available = available;
  s.degraded = degraded;
  s.progressing = progressing;
  return s;
}

std::string Applies(const MwrsStep& step) {
  std::string out;
  for (const MwrsWorkApply& a : step.apply) {
    out += a.cluster + ":" + (a.name.empty() ? "generate=" + a.generate_name : a.name) + " ";
  }
  return out;
}

std::string Removes(const MwrsStep& step) {
  std::string out;
  for (const MwrsWorkDelete& d : step.remove) out += d.cluster + "/" + d.name + " ";
  return out;
}

// ---- deploy (manifestworkreplicaset_deploy_test.go) ----

TEST(ReplicaSetStepTest, DeployReconcileAsExpected) {
  ManifestWorkReplicaSetView mwrs = TestMwrs("mwrSet-test", {{"place-test", AllNone()}});
  // cls2 is added to the placement: its work is created, cls1's applied again.
  MwrsStep step = DeployManifestWorkReplicaSet(
      mwrs, {TestPlacement("place-test", {"cls1", "cls2"})},
      {BuiltWork("mwrSet-test-x7k2p", "cls1", "place-test")}, kStepNow);
  EXPECT_EQ(step.status.summary, Summary(2));
  const WorkCondition& verified = MustFind(step.status, kMwrsPlacementVerified);
  EXPECT_EQ(verified.status, model::ConditionStatus::kTrue);
  EXPECT_EQ(verified.reason, kMwrsReasonAsExpected);
  EXPECT_EQ(Applies(step), "cls1:mwrSet-test-x7k2p cls2:generate=mwrSet-test ");
  EXPECT_TRUE(step.remove.empty());
  EXPECT_TRUE(step.errors.empty());
}

TEST(ReplicaSetStepTest, DeployReconcileAsPlacementDecisionEmpty) {
  ManifestWorkReplicaSetView mwrs = TestMwrs("mwrSet-test", {{"place-test", AllNone()}});
  MwrsStep step = StepManifestWorkReplicaSet(mwrs, {TestPlacement("place-test", {})}, {}, kStepNow);
  EXPECT_EQ(step.status.summary, Summary(0));
  const WorkCondition& verified = MustFind(step.status, kMwrsPlacementVerified);
  EXPECT_EQ(verified.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(verified.reason, kMwrsReasonPlacementDecisionEmpty);
  // The status step then reports the same reason on ManifestworkApplied.
  const WorkCondition& applied = MustFind(step.status, kMwrsManifestworkApplied);
  EXPECT_EQ(applied.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(applied.reason, kMwrsReasonPlacementDecisionEmpty);
  ASSERT_EQ(step.status.placement_summary.size(), 1U);
  EXPECT_EQ(step.status.placement_summary[0].available_decision_groups,
            "0 (0 / 0 clusters applied)");
}

TEST(ReplicaSetStepTest, DeployReconcileAsPlacementNotExist) {
  ManifestWorkReplicaSetView mwrs = TestMwrs("mwrSet-test", {{"place-notexist", AllNone()}});
  mwrs.status.summary = Summary(7, 7, 7);
  MwrsStep step = StepManifestWorkReplicaSet(mwrs, {TestPlacement("place-test", {})}, {}, kStepNow);
  const WorkCondition& verified = MustFind(step.status, kMwrsPlacementVerified);
  EXPECT_EQ(verified.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(verified.reason, kMwrsReasonPlacementDecisionNotFound);
  EXPECT_TRUE(step.stopped);
  // The status step did not run: the summary is as stored and ManifestworkApplied unset.
  EXPECT_EQ(step.status.summary, Summary(7, 7, 7));
  EXPECT_EQ(FindWorkCondition(step.status.conditions, kMwrsManifestworkApplied), nullptr);
}

TEST(ReplicaSetStepTest, DeployWithRolloutStrategyReconcileAsExpected) {
  const std::vector<std::string> clusters = {"cls1", "cls2", "cls3", "cls4", "cls5"};
  const MwrsPlacement placement = TestPlacement("place-test", clusters, 3);
  ManifestWorkReplicaSetView mwrs = TestMwrs("mwrSet-test", {{"place-test", PerGroup()}});
  std::vector<ReplicaWork> works = {SucceededWork("mwrSet-test", "place-test", "cls1")};

  MwrsStep step = DeployManifestWorkReplicaSet(mwrs, {placement}, works, kStepNow);
  ASSERT_EQ(step.status.placement_summary.size(), 1U);
  EXPECT_EQ(step.status.placement_summary[0],
            (MwrsPlacementSummary{"place-test", "2 (3 / 5 clusters applied)", Summary(3)}));
  EXPECT_EQ(step.status.summary, Summary(3));
  EXPECT_EQ(MustFind(step.status, kMwrsPlacementVerified).reason, kMwrsReasonAsExpected);
  const WorkCondition& rolled = MustFind(step.status, kMwrsPlacementRolledOut);
  EXPECT_EQ(rolled.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(rolled.reason, kMwrsReasonProgressing);
  EXPECT_EQ(Applies(step), "cls2:generate=mwrSet-test cls3:generate=mwrSet-test ");

  // Re-run with the first group's works created: the second group follows.
  mwrs.status = step.status;
  works.push_back(SucceededWork("mwrSet-test", "place-test", "cls2"));
  works.push_back(SucceededWork("mwrSet-test", "place-test", "cls3"));
  step = DeployManifestWorkReplicaSet(mwrs, {placement}, works, kStepNow);
  EXPECT_EQ(step.status.placement_summary[0],
            (MwrsPlacementSummary{"place-test", "2 (5 / 5 clusters applied)", Summary(5)}));
  EXPECT_EQ(step.status.summary, Summary(5));
  EXPECT_EQ(MustFind(step.status, kMwrsPlacementRolledOut).reason, kMwrsReasonProgressing);

  // Every work Succeeded: Complete.
  mwrs.status = step.status;
  works.push_back(SucceededWork("mwrSet-test", "place-test", "cls4"));
  works.push_back(SucceededWork("mwrSet-test", "place-test", "cls5"));
  step = DeployManifestWorkReplicaSet(mwrs, {placement}, works, kStepNow + 10);
  const WorkCondition& complete = MustFind(step.status, kMwrsPlacementRolledOut);
  EXPECT_EQ(complete.status, model::ConditionStatus::kTrue);
  EXPECT_EQ(complete.reason, kMwrsReasonComplete);
  EXPECT_EQ(complete.last_transition_time_s, kStepNow + 10);
  EXPECT_EQ(MustFind(step.status, kMwrsPlacementVerified).last_transition_time_s, kStepNow);
}

TEST(ReplicaSetStepTest, DeployWithMultiPlacementsReconcileAsExpected) {
  const std::vector<std::string> clusters = {"cls1", "cls2", "cls3", "cls4", "cls5"};
  ManifestWorkReplicaSetView mwrs =
      TestMwrs("mwrSet-test", {{"place-test1", AllNone()}, {"place-test2", PerGroup()}});
  MwrsStep step = DeployManifestWorkReplicaSet(
      mwrs,
      {TestPlacement("place-test1", {"cls6", "cls7"}), TestPlacement("place-test2", clusters, 3)},
      {SucceededWork("mwrSet-test", "place-test2", "cls1")}, kStepNow);
  ASSERT_EQ(step.status.placement_summary.size(), 2U);
  EXPECT_EQ(step.status.placement_summary[0],
            (MwrsPlacementSummary{"place-test1", "1 (2 / 2 clusters applied)", Summary(2)}));
  EXPECT_EQ(step.status.placement_summary[1],
            (MwrsPlacementSummary{"place-test2", "2 (3 / 5 clusters applied)", Summary(3)}));
  EXPECT_EQ(step.status.summary, Summary(5));
  const WorkCondition& verified = MustFind(step.status, kMwrsPlacementVerified);
  EXPECT_EQ(verified.status, model::ConditionStatus::kTrue);
  EXPECT_EQ(verified.reason, kMwrsReasonAsExpected);
  const WorkCondition& rolled = MustFind(step.status, kMwrsPlacementRolledOut);
  EXPECT_EQ(rolled.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(rolled.reason, kMwrsReasonProgressing);
  ASSERT_EQ(step.rollouts.size(), 2U);
  EXPECT_EQ(step.rollouts[1].placement, "place-test2");
}

TEST(ReplicaSetStepTest, DeployMWRSetSpecChangesReconcile) {
  const std::vector<std::string> clusters = {"cls1", "cls2", "cls3", "cls4", "cls5"};
  const MwrsPlacement placement = TestPlacement("place-test", clusters, 3);
  ManifestWorkReplicaSetView mwrs = TestMwrs("mwrSet-test", {{"place-test", PerGroup()}});
  std::vector<ReplicaWork> works;
  for (int i = 0; i < 3; ++i)
    works.push_back(SucceededWork("mwrSet-test", "place-test", clusters[i]));

  // The first group is done: all clusters get the work.
  MwrsStep step = DeployManifestWorkReplicaSet(mwrs, {placement}, works, kStepNow);
  EXPECT_EQ(step.status.placement_summary[0],
            (MwrsPlacementSummary{"place-test", "2 (5 / 5 clusters applied)", Summary(5)}));
  EXPECT_EQ(step.status.summary, Summary(5));
  EXPECT_EQ(MustFind(step.status, kMwrsPlacementVerified).reason, kMwrsReasonAsExpected);
  EXPECT_EQ(MustFind(step.status, kMwrsPlacementRolledOut).reason, kMwrsReasonProgressing);

  mwrs.status = step.status;
  for (int i = 3; i < 5; ++i)
    works.push_back(SucceededWork("mwrSet-test", "place-test", clusters[i]));
  step = DeployManifestWorkReplicaSet(mwrs, {placement}, works, kStepNow);
  EXPECT_EQ(MustFind(step.status, kMwrsPlacementRolledOut).reason, kMwrsReasonComplete);

  // A new template: every work is out of date, and the rollout starts over per group.
  mwrs.status = step.status;
  mwrs.template_hash = "sha256:v2";
  step = DeployManifestWorkReplicaSet(mwrs, {placement}, works, kStepNow);
  EXPECT_EQ(step.status.placement_summary[0],
            (MwrsPlacementSummary{"place-test", "2 (3 / 5 clusters applied)", Summary(3)}));
  EXPECT_EQ(step.status.summary, Summary(3));
  const WorkCondition& rolled = MustFind(step.status, kMwrsPlacementRolledOut);
  EXPECT_EQ(rolled.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(rolled.reason, kMwrsReasonProgressing);
  EXPECT_EQ(Applies(step), "cls1:mwrSet-test-cls1 cls2:mwrSet-test-cls2 cls3:mwrSet-test-cls3 ");
}

TEST(ReplicaSetStepTest, RequeueWithProgressDeadline) {
  RolloutStrategy s;
  s.type = RolloutType::kProgressive;
  s.max_concurrency = model::IntOrPercent{false, 1, ""};
  s.progress_deadline = "5s";
  s.max_failures = model::IntOrPercent{false, 1, ""};
  ManifestWorkReplicaSetView mwrs = TestMwrs("mwrSet-test", {{"place-test", s}});
  ReplicaWork failed = BuiltWork("mwrSet-test-x7k2p", "cls1", "place-test");
  failed.conditions = {StepCond(kWorkApplied, model::ConditionStatus::kTrue),
                       StepCond(kWorkProgressing, model::ConditionStatus::kTrue),
                       StepCond(kWorkDegraded, model::ConditionStatus::kTrue)};
  MwrsStep step = DeployManifestWorkReplicaSet(
      mwrs, {TestPlacement("place-test", {"cls1", "cls2"})}, {failed}, kStepNow);
  EXPECT_EQ(step.requeue_after_s, 5);
  ASSERT_EQ(step.rollouts.size(), 1U);
  ASSERT_EQ(step.rollouts[0].result.clusters_to_rollout.size(), 1U);
  EXPECT_EQ(step.rollouts[0].result.clusters_to_rollout[0].status, RolloutStatus::kFailed);
  EXPECT_TRUE(step.apply.empty());  // the failed cluster holds the only slot
}

TEST(ReplicaSetStepTest, DeployReconcileDeletesOrphanedManifestWorks) {
  ManifestWorkReplicaSetView mwrs = TestMwrs("mwrSet-test", {{"place-test2", AllNone()}});
  MwrsStep step =
      DeployManifestWorkReplicaSet(mwrs, {TestPlacement("place-test2", {"cls2"})},
                                   {BuiltWork("mwrSet-test-old", "cls1", "place-test1"),
                                    BuiltWork("mwrSet-test-cur", "cls2", "place-test2")},
                                   kStepNow);
  EXPECT_EQ(Removes(step), "cls1/mwrSet-test-old ");
  EXPECT_EQ(step.remove[0].reason, "placement place-test1 is no longer referenced");
  EXPECT_EQ(Applies(step), "cls2:mwrSet-test-cur ");
}

TEST(ReplicaSetStepTest, DeployReconcileWithMultiplePlacementChanges) {
  ManifestWorkReplicaSetView mwrs =
      TestMwrs("mwrSet-test", {{"place-test2", AllNone()}, {"place-test3", AllNone()}});
  MwrsStep step = DeployManifestWorkReplicaSet(
      mwrs, {TestPlacement("place-test2", {"cls2"}), TestPlacement("place-test3", {"cls3"})},
      {BuiltWork("mwrSet-test", "cls1", "place-test1"),
       BuiltWork("mwrSet-test", "cls2", "place-test2"),
       BuiltWork("mwrSet-test", "cls3", "place-test3")},
      kStepNow);
  EXPECT_EQ(Removes(step), "cls1/mwrSet-test ");
  EXPECT_EQ(Applies(step), "cls2:mwrSet-test cls3:mwrSet-test ");
}

TEST(ReplicaSetStepTest, DeployRolloutProgressingWhenNotAllSucceeded) {
  ManifestWorkReplicaSetView mwrs = TestMwrs("mwrSet-test", {{"place-test", AllNone()}});
  ReplicaWork progressing = SucceededWork("mwrSet-test", "place-test", "cls2");
  progressing.conditions[2].status = model::ConditionStatus::kTrue;
  ReplicaWork failed = SucceededWork("mwrSet-test", "place-test", "cls3");
  failed.conditions[2].status = model::ConditionStatus::kTrue;
  failed.conditions.push_back(StepCond(kWorkDegraded, model::ConditionStatus::kTrue));
  MwrsStep step = DeployManifestWorkReplicaSet(
      mwrs, {TestPlacement("place-test", {"cls1", "cls2", "cls3"})},
      {SucceededWork("mwrSet-test", "place-test", "cls1"), progressing, failed}, kStepNow);
  EXPECT_EQ(step.status.summary.total, 3);
  const WorkCondition& rolled = MustFind(step.status, kMwrsPlacementRolledOut);
  EXPECT_EQ(rolled.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(rolled.reason, kMwrsReasonProgressing);
}

TEST(ReplicaSetStepTest, DeployReconcileOwnerLabelTooLong) {
  ManifestWorkReplicaSetView mwrs =
      TestMwrs("mwrset-" + std::string(60, 'x'), {{"place-test", AllNone()}});
  MwrsStep step =
      StepManifestWorkReplicaSet(mwrs, {TestPlacement("place-test", {"cls1"})}, {}, kStepNow);
  EXPECT_TRUE(step.stopped);
  const WorkCondition& applied = MustFind(step.status, kMwrsManifestworkApplied);
  EXPECT_EQ(applied.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(applied.reason, kMwrsReasonInvalidManifestWorkName);
  EXPECT_NE(applied.message.find("63"), std::string::npos) << applied.message;
  EXPECT_TRUE(step.apply.empty());
}

// ---- status (manifestworkreplicaset_status_test.go) ----

MwrsStatus CountedStatus(int32_t total, std::vector<std::string> placements) {
  MwrsStatus s;
  s.summary.total = total;
  for (std::string& p : placements) {
    s.placement_summary.push_back({std::move(p), "1", Summary(total)});
  }
  return s;
}

ReplicaWork WorkWith(const std::string& cluster, const std::string& placement,
                     std::vector<const char*> true_conditions) {
  ReplicaWork w = BuiltWork("mwrSet-test", cluster, placement);
  for (const char* type : true_conditions) {
    w.conditions.push_back(StepCond(type, model::ConditionStatus::kTrue));
  }
  return w;
}

TEST(ReplicaSetStepTest, StatusReconcileAsExpected) {
  MwrsStatus status = CountedStatus(4, {"place-test"});
  std::vector<ReplicaWork> works;
  for (const char* c : {"cls1", "cls2", "cls3", "cls4"}) {
    works.push_back(WorkWith(c, "place-test", {kWorkApplied, kWorkAvailable}));
  }
  CountManifestWorkReplicaSetStatus(kTemplateV1, works, kStepNow, &status);
  EXPECT_EQ(status.summary, Summary(4, 4, 4));
  const WorkCondition& applied = MustFind(status, kMwrsManifestworkApplied);
  EXPECT_EQ(applied.status, model::ConditionStatus::kTrue);
  EXPECT_EQ(applied.reason, kMwrsReasonAsExpected);
}

TEST(ReplicaSetStepTest, StatusReconcileAsProcessing) {
  MwrsStatus status = CountedStatus(4, {"place-test"});
  std::vector<ReplicaWork> works;
  int id = 0;
  for (const char* c : {"cls1", "cls2", "cls3", "cls4"}) {
    works.push_back(
        WorkWith(c, "place-test", {kWorkApplied, id % 2 == 0 ? kWorkAvailable : kWorkProgressing}));
    ++id;
  }
  CountManifestWorkReplicaSetStatus(kTemplateV1, works, kStepNow, &status);
  EXPECT_EQ(status.summary, Summary(4, 4, 2, 0, 2));
  const WorkCondition& applied = MustFind(status, kMwrsManifestworkApplied);
  EXPECT_EQ(applied.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(applied.reason, kMwrsReasonProcessing);
}

TEST(ReplicaSetStepTest, StatusReconcileNotAsExpected) {
  MwrsStatus status = CountedStatus(4, {"place-test"});
  // ids 0 and 2 available, 3 degraded, 1 progressing.
  std::vector<ReplicaWork> works = {
      WorkWith("cls1", "place-test", {kWorkApplied, kWorkAvailable}),
      WorkWith("cls2", "place-test", {kWorkApplied, kWorkProgressing}),
      WorkWith("cls3", "place-test", {kWorkApplied, kWorkAvailable}),
      WorkWith("cls4", "place-test", {kWorkApplied, kWorkDegraded})};
  CountManifestWorkReplicaSetStatus(kTemplateV1, works, kStepNow, &status);
  EXPECT_EQ(status.summary, Summary(4, 4, 2, 1, 1));
  const WorkCondition& applied = MustFind(status, kMwrsManifestworkApplied);
  EXPECT_EQ(applied.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(applied.reason, kMwrsReasonNotAsExpected);
}

TEST(ReplicaSetStepTest, StatusWithMultiPlacementsReconcileAsExpected) {
  MwrsStatus status = CountedStatus(4, {"plc1", "plc2"});
  std::vector<ReplicaWork> works = {
      SucceededWork("mwrSet-test", "plc1", "cls1"), SucceededWork("mwrSet-test", "plc1", "cls2"),
      SucceededWork("mwrSet-test", "plc2", "cls3"), SucceededWork("mwrSet-test", "plc2", "cls4")};
  CountManifestWorkReplicaSetStatus(kTemplateV1, works, kStepNow, &status);
  EXPECT_EQ(status.summary, Summary(4, 4, 4));
  EXPECT_EQ(status.placement_summary[1].summary.available, 2);
  EXPECT_EQ(MustFind(status, kMwrsManifestworkApplied).reason, kMwrsReasonAsExpected);
}

TEST(ReplicaSetStepTest, StatusWithMWRSetSpecChangesReconcile) {
  MwrsStatus status = CountedStatus(4, {"place-test"});
  std::vector<ReplicaWork> works;
  for (const char* c : {"cls1", "cls2", "cls3", "cls4"}) {
    works.push_back(SucceededWork("mwrSet-test", "place-test", c));
  }
  CountManifestWorkReplicaSetStatus(kTemplateV1, works, kStepNow, &status);
  EXPECT_EQ(status.summary, Summary(4, 4, 4));
  EXPECT_EQ(MustFind(status, kMwrsManifestworkApplied).status, model::ConditionStatus::kTrue);
  // Another template: no work is current, none counts.
  CountManifestWorkReplicaSetStatus("sha256:v2", works, kStepNow + 5, &status);
  EXPECT_EQ(status.summary, Summary(4));
  const WorkCondition& applied = MustFind(status, kMwrsManifestworkApplied);
  EXPECT_EQ(applied.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(applied.reason, kMwrsReasonNotAsExpected);
  EXPECT_EQ(applied.last_transition_time_s, kStepNow + 5);
}

// ---- berth's own cases ----

TEST(ReplicaSetStepTest, ClusterLeavingThePlacementLosesItsWork) {
  ManifestWorkReplicaSetView mwrs = TestMwrs("web", {{"place", AllNone()}});
  MwrsStep step = StepManifestWorkReplicaSet(
      mwrs, {TestPlacement("place", {"us-1"})},
      {SucceededWork("web", "place", "us-1"), SucceededWork("web", "place", "us-2")}, kStepNow);
  EXPECT_EQ(Removes(step), "us-2/web-us-2 ");
  EXPECT_EQ(step.remove[0].reason, "cluster us-2 left placement place");
  EXPECT_EQ(step.status.summary.total, 1);
  // Upstream's status step still counts the deleted work: its cache has not seen the delete.
  EXPECT_EQ(step.status.summary.available, 2);
  ASSERT_EQ(step.rollouts.size(), 1U);
  ASSERT_EQ(step.rollouts[0].result.clusters_removed.size(), 1U);
}

TEST(ReplicaSetStepTest, BadStrategyIsAnErrorAndSkipsThePlacement) {
  RolloutStrategy bad = AllNone();
  bad.progress_deadline = "2d";
  ManifestWorkReplicaSetView mwrs = TestMwrs("web", {{"broken", bad}, {"place", AllNone()}});
  MwrsStep step = StepManifestWorkReplicaSet(
      mwrs, {TestPlacement("broken", {"eu-1"}), TestPlacement("place", {"us-1"})}, {}, kStepNow);
  ASSERT_EQ(step.errors.size(), 1U);
  EXPECT_EQ(step.errors[0].location().field,
            "spec.placementRefs[0].rolloutStrategy.progressDeadline");
  EXPECT_EQ(Applies(step), "us-1:generate=web ");
  ASSERT_EQ(step.status.placement_summary.size(), 1U);
  EXPECT_EQ(step.status.placement_summary[0].name, "place");
  EXPECT_EQ(step.requeue_after_s, std::nullopt);
  // As upstream, the final PlacementVerified replaces the NotAsExpected the error set.
  EXPECT_EQ(MustFind(step.status, kMwrsPlacementVerified).reason, kMwrsReasonAsExpected);
}

TEST(ReplicaSetStepTest, DeletingAndStaleWorksAreNotCounted) {
  MwrsStatus status = CountedStatus(2, {"place"});
  ReplicaWork deleting = SucceededWork("web", "place", "us-1");
  deleting.deleting = true;
  ReplicaWork stale = SucceededWork("web", "place", "us-2");
  stale.spec_hash = "sha256:old";
  CountManifestWorkReplicaSetStatus(kTemplateV1, {deleting, stale}, kStepNow, &status);
  EXPECT_EQ(status.summary, Summary(2));
}

TEST(ReplicaSetStepTest, OwnerKeyIsNamespaceDotName) {
  EXPECT_EQ(ManifestWorkReplicaSetKey("default", "web"), "default.web");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
