// The ManifestWorkReplicaSet stage of a fleet plan (engine/replica_sets.h): OCM's rollout
// of an MWRS's template over its Placement's clusters one step at --now, and berth's
// controlled rollback around it (revision history in ControllerRevisions, health rules,
// pause). Inputs are YAML read through io, as `berth plan` and the hub read them; each test
// is one step of a rollout whose earlier steps are written out as the hub would hold them.
#include "engine/replica_sets.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/time.h"
#include "engine/plan.h"
#include "engine/test_util.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

constexpr int64_t kT0 = 1793577600;  // 2026-11-02T00:00:00Z

std::string At(int64_t offset_s) { return core::Timestamp{kT0 + offset_s}.ToString(); }

// Three clusters; Placement serving/llm puts eu-1 in decision group 0 "canary", the others
// in group 1.
std::string FleetYaml() {
  std::string out;
  for (const char* name : {"eu-1", "us-2", "ap-1"}) {
    out +=
        std::string("apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\n") +
        "metadata:\n  name: " + name +
        "\n  labels:\n    cluster.open-cluster-management.io/clusterset: fleet\n" +
        (std::string(name) == "eu-1" ? "    rollout: canary\n" : "") +
        "spec:\n  hubAcceptsClient: true\nstatus:\n  conditions:\n"
        "  - {type: ManagedClusterConditionAvailable, status: \"True\", reason: Available, "
        "lastTransitionTime: \"2026-11-01T00:00:00Z\"}\n---\n";
  }
  out +=
      "apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\n"
      "metadata:\n  name: fleet\n---\n"
      "apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSetBinding\n"
      "metadata:\n  name: fleet\n  namespace: serving\nspec:\n  clusterSet: fleet\n---\n"
      "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n"
      "metadata:\n  name: llm\n  namespace: serving\nspec:\n  clusterSets: [fleet]\n"
      "  decisionStrategy:\n    groupStrategy:\n      decisionGroups:\n"
      "      - groupName: canary\n        groupClusterSelector:\n          labelSelector:\n"
      "            matchLabels: {rollout: canary}\n---\n";
  return out;
}

// A ManifestWorkSpec delivering one ConfigMap that names `image`, indented by `indent`.
std::string TemplateYaml(const std::string& image, int indent) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  return pad + "workload:\n" + pad + "  manifests:\n" + pad + "  - apiVersion: v1\n" + pad +
         "    kind: ConfigMap\n" + pad + "    metadata: {name: web, namespace: serving}\n" + pad +
         "    data: {image: \"" + image + "\"}\n";
}

const char* const kPerGroup =
    "{type: ProgressivePerGroup, progressivePerGroup: {mandatoryDecisionGroups: [{groupName: "
    "canary}], minSuccessTime: 60s, progressDeadline: 10m, maxFailures: 0}}";

std::string MwrsYaml(const std::string& image, const std::string& strategy = "{type: All}",
                     const std::string& annotations = "", const std::string& status = "") {
  return "apiVersion: work.open-cluster-management.io/v1alpha1\nkind: ManifestWorkReplicaSet\n"
         "metadata:\n  name: web\n  namespace: serving\n  uid: mwrs-uid\n" +
         (annotations.empty() ? "" : "  annotations:\n" + annotations) +
         "spec:\n  placementRefs:\n  - name: llm\n    rolloutStrategy: " + strategy +
         "\n  manifestWorkTemplate:\n" + TemplateYaml(image, 4) + status + "---\n";
}

// The agent's conditions at `generation`: Applied, and Available as given since `since_s`.
std::string WorkStatusYaml(int64_t generation, const std::string& available, int64_t since_s,
                           const std::string& extra_conditions = "",
                           const std::string& feedback = "") {
  const std::string g = std::to_string(generation);
  std::string out =
      "status:\n  conditions:\n  - {type: Applied, status: \"True\", observedGeneration: " + g +
      ", lastTransitionTime: \"" + At(since_s) + "\", reason: Applied}\n" +
      "  - {type: Available, status: \"" + available + "\", observedGeneration: " + g +
      ", lastTransitionTime: \"" + At(since_s) + "\", reason: R}\n" + extra_conditions;
  if (!feedback.empty()) {
    out +=
        "  resourceStatus:\n    manifests:\n    - resourceMeta: {kind: ConfigMap, name: web}\n"
        "      statusFeedback:\n        values:\n" +
        feedback +
        "      conditions:\n      - {type: StatusFeedbackSynced, status: \"True\", "
        "lastTransitionTime: \"" +
        At(since_s) + "\", reason: Synced}\n";
  }
  return out;
}

std::string WorkYaml(const std::string& cluster, const std::string& image, int64_t generation,
                     const std::string& status) {
  return "apiVersion: work.open-cluster-management.io/v1\nkind: ManifestWork\nmetadata:\n"
         "  name: web\n  namespace: " +
         cluster + "\n  generation: " + std::to_string(generation) +
         "\n  labels:\n    work.open-cluster-management.io/manifestworkreplicaset: serving.web\n"
         "    work.open-cluster-management.io/placementname: llm\nspec:\n" +
         TemplateYaml(image, 2) + status + "---\n";
}

// A revision of the MWRS's history holding `image`, with berth's cluster records as JSON.
std::string RevisionYaml(const std::string& name, const std::string& image, int64_t revision,
                         const std::string& clusters_json) {
  return "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: " + name +
         "\n  namespace: serving\n  annotations:\n    rollout.berth.dev/clusters: '" +
         clusters_json +
         "'\n  ownerReferences:\n  - {apiVersion: work.open-cluster-management.io/v1alpha1, "
         "kind: ManifestWorkReplicaSet, name: web, uid: mwrs-uid, controller: true}\n"
         "data:\n  spec:\n    manifestWorkTemplate:\n" +
         TemplateYaml(image, 6) + "revision: " + std::to_string(revision) + "\n---\n";
}

// Revision 1 (image v1) succeeded on all three clusters.
std::string GoodRevisionYaml() {
  std::string records = "[";
  for (const char* c : {"ap-1", "eu-1", "us-2"}) {
    if (records.size() > 1) records += ",";
    records += std::string("{\"cluster\":\"") + c + "\",\"takenAt\":\"" + At(0) +
               "\",\"outcome\":\"Succeeded\",\"outcomeAt\":\"" + At(30) + "\"}";
  }
  return RevisionYaml("web-one", "v1", 1, records + "]");
}

Plan Step(const std::string& yaml, int64_t now_offset_s) {
  PlanOptions options;
  options.now = core::Timestamp{kT0 + now_offset_s};
  return RunPlan(testing::ReadCleanYaml(yaml), options);
}

const model::ManifestWorkReplicaSet& Mwrs(const Plan& plan) {
  return plan.planned.manifest_work_replica_sets.at(0);
}

// The works the plan writes (created or updated), as "cluster:image-of-spec-hash" pairs
// resolved against the MWRS's template hash.
std::vector<std::string> WrittenWorkClusters(const Plan& plan) {
  std::vector<std::string> out;
  for (int32_t i : plan.manifest_work_items) {
    out.push_back(plan.planned.manifest_works[static_cast<size_t>(i)].meta.namespace_);
  }
  return out;
}

const model::ControllerRevision* RevisionNumbered(const Plan& plan, int64_t number) {
  for (const model::ControllerRevision& r : plan.planned.controller_revisions) {
    if (r.revision == number) return &r;
  }
  return nullptr;
}

const model::Condition* FindMwrsCondition(const model::ManifestWorkReplicaSet& mwrs,
                                          const std::string& type) {
  for (const model::Condition& c : mwrs.status.conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

TEST(ReplicaSetsTest, AllStrategyGivesEveryClusterAWorkAndRecordsRevisionOne) {
  const Plan plan = Step(FleetYaml() + MwrsYaml("v1"), 0);
  EXPECT_FALSE(plan.diagnostics.has_errors());
  EXPECT_EQ(WrittenWorkClusters(plan), (std::vector<std::string>{"ap-1", "eu-1", "us-2"}));
  const model::ManifestWorkReplicaSet& mwrs = Mwrs(plan);
  for (int32_t i : plan.manifest_work_items) {
    const model::ManifestWork& w = plan.planned.manifest_works[static_cast<size_t>(i)];
    EXPECT_EQ(w.meta.name, "web");  // the MWRS's name, in each cluster's namespace
    EXPECT_TRUE(w.created);
    EXPECT_EQ(w.spec_hash, mwrs.template_hash);
    ASSERT_TRUE(w.spec_from.has_value());
    EXPECT_EQ(w.spec_from->path, (std::vector<std::string>{"spec", "manifestWorkTemplate"}));
    EXPECT_EQ(w.meta.labels.at(model::kMwrsOwnerLabel), "serving.web");
    EXPECT_EQ(w.meta.labels.at(model::kMwrsPlacementLabel), "llm");
  }
  EXPECT_TRUE(mwrs.stepped);
  EXPECT_EQ(mwrs.status.summary.total, 3);
  EXPECT_EQ(mwrs.rollout.state, "Progressing");
  EXPECT_EQ(mwrs.rollout.applied, 3);
  EXPECT_EQ(mwrs.rollout.selected, 3);
  EXPECT_EQ(mwrs.rollout.revision, 1);
  const model::Condition* verified = FindMwrsCondition(mwrs, "PlacementVerified");
  ASSERT_NE(verified, nullptr);
  EXPECT_EQ(verified->reason, "AsExpected");
  ASSERT_EQ(plan.planned.controller_revisions.size(), 1u);
  const model::ControllerRevision& r = plan.planned.controller_revisions[0];
  EXPECT_TRUE(r.created);
  EXPECT_EQ(r.revision, 1);
  EXPECT_EQ(r.meta.name, "web-" + mwrs.template_hash);
  EXPECT_EQ(r.owner_name, "web");
  EXPECT_EQ(r.owner_uid, "mwrs-uid");
  ASSERT_EQ(r.clusters.size(), 3u);
  EXPECT_EQ(r.clusters[0].outcome, "Progressing");
  EXPECT_EQ(r.clusters[0].taken_at.unix_s, kT0);
}

TEST(ReplicaSetsTest, ProgressivePerGroupAppliesTheCanaryGroupFirst) {
  const Plan plan = Step(FleetYaml() + MwrsYaml("v1", kPerGroup), 0);
  EXPECT_EQ(WrittenWorkClusters(plan), (std::vector<std::string>{"eu-1"}));
  EXPECT_EQ(Mwrs(plan).rollout.applied, 1);
  EXPECT_EQ(Mwrs(plan).rollout.selected, 3);
}

TEST(ReplicaSetsTest, NextGroupStartsOnceTheCanarySoakedForMinSuccessTime) {
  // The canary's work is available since T0+40s (no Progressing condition: berth reads
  // Available).
  const std::string yaml = FleetYaml() + MwrsYaml("v1", kPerGroup) +
                           WorkYaml("eu-1", "v1", 1, WorkStatusYaml(1, "True", 40));
  EXPECT_TRUE(WrittenWorkClusters(Step(yaml, 90)).empty()) << "50 s of 60 s soaked";
  EXPECT_EQ(WrittenWorkClusters(Step(yaml, 100)), (std::vector<std::string>{"ap-1", "us-2"}));
}

// Revision 1 (v1) everywhere and good; the canary took revision 2 (v2) at T0+3600, and
// its agent reports the new generation Available=True since T0+30: the condition stayed
// True across the spec change, so its time is revision 1's.
std::string CanaryStillAvailableYaml(const std::string& canary_record) {
  return FleetYaml() + MwrsYaml("v2", kPerGroup) + GoodRevisionYaml() +
         RevisionYaml("web-two", "v2", 2, "[" + canary_record + "]") +
         WorkYaml("eu-1", "v2", 2, WorkStatusYaml(2, "True", 30)) +
         WorkYaml("us-2", "v1", 1, WorkStatusYaml(1, "True", 30)) +
         WorkYaml("ap-1", "v1", 1, WorkStatusYaml(1, "True", 30));
}

TEST(ReplicaSetsTest, TheSoakOfANewRevisionStartsWhenItIsFirstSeenDoneNotAtAnOlderTransition) {
  const Plan first = Step(CanaryStillAvailableYaml(
                              "{\"cluster\":\"eu-1\",\"takenAt\":\"" + At(3600) +
                              "\",\"outcome\":\"Progressing\",\"outcomeAt\":\"" + At(3600) +
                              "\"}"),
                          3700);
  EXPECT_TRUE(WrittenWorkClusters(first).empty()) << "the canary's soak starts now, at 3700";
  const model::ControllerRevision* two = RevisionNumbered(first, 2);
  ASSERT_NE(two, nullptr);
  ASSERT_EQ(two->clusters.size(), 1u);
  EXPECT_EQ(two->clusters[0].outcome, "Succeeded");
  EXPECT_EQ(two->clusters[0].outcome_at.unix_s, kT0 + 3700) << "not the condition's T0+30";

  // The recorded time carries the soak across steps: 50 s of 60 s, then done.
  const std::string soaking = "{\"cluster\":\"eu-1\",\"takenAt\":\"" + At(3600) +
                              "\",\"outcome\":\"Succeeded\",\"outcomeAt\":\"" + At(3700) +
                              "\"}";
  EXPECT_TRUE(WrittenWorkClusters(Step(CanaryStillAvailableYaml(soaking), 3750)).empty());
  EXPECT_EQ(WrittenWorkClusters(Step(CanaryStillAvailableYaml(soaking), 3760)),
            (std::vector<std::string>{"ap-1", "us-2"}));
}

TEST(ReplicaSetsTest, PausedByAnnotationAppliesNothingNew) {
  const std::string yaml = FleetYaml() +
                           MwrsYaml("v1", kPerGroup, "    rollout.berth.dev/paused: \"true\"\n") +
                           WorkYaml("eu-1", "v1", 1, WorkStatusYaml(1, "True", 40));
  const Plan plan = Step(yaml, 600);
  EXPECT_TRUE(WrittenWorkClusters(plan).empty());
  const model::ManifestWorkReplicaSet& mwrs = Mwrs(plan);
  EXPECT_EQ(mwrs.rollout.state, "Paused");
  const model::Condition* paused = FindMwrsCondition(mwrs, "RolloutPaused");
  ASSERT_NE(paused, nullptr);
  EXPECT_EQ(paused->status, model::ConditionStatus::kTrue);
  EXPECT_EQ(paused->reason, "PausedByUser");
  // The status describes what is applied: one cluster of three.
  EXPECT_EQ(mwrs.status.summary.total, 1);
  const model::Condition* rolled_out = FindMwrsCondition(mwrs, "PlacementRolledOut");
  ASSERT_NE(rolled_out, nullptr);
  EXPECT_EQ(rolled_out->reason, "Progressing");
}

// Revision 1 everywhere and good; the template moved to v2, which the canary took at
// T0+3600 and reports Available=False since T0+3630.
std::string BadCanaryYaml(bool with_good_revision) {
  return FleetYaml() + MwrsYaml("v2", kPerGroup) + (with_good_revision ? GoodRevisionYaml() : "") +
         WorkYaml("eu-1", "v2", 2, WorkStatusYaml(2, "False", 3630)) +
         WorkYaml("us-2", "v1", 1, WorkStatusYaml(1, "True", 30)) +
         WorkYaml("ap-1", "v1", 1, WorkStatusYaml(1, "True", 30));
}

TEST(ReplicaSetsTest, MaxFailuresBreachRollsBackToTheLastGoodRevision) {
  const Plan plan = Step(BadCanaryYaml(true), 3720);
  EXPECT_FALSE(plan.diagnostics.has_errors());
  const model::ManifestWorkReplicaSet& mwrs = Mwrs(plan);
  ASSERT_EQ(WrittenWorkClusters(plan), (std::vector<std::string>{"eu-1"}));
  const model::ManifestWork& eu =
      plan.planned.manifest_works[static_cast<size_t>(plan.manifest_work_items[0])];
  EXPECT_FALSE(eu.created) << "the canary's own work, updated";
  ASSERT_TRUE(eu.spec_from.has_value());
  EXPECT_EQ(eu.spec_from->path, (std::vector<std::string>{"data", "spec", "manifestWorkTemplate"}));
  // Revision 1 is restored, renumbered 3 as Deployment renumbers the template it goes back to.
  const model::ControllerRevision* restored = RevisionNumbered(plan, 3);
  ASSERT_NE(restored, nullptr);
  EXPECT_EQ(restored->meta.name, "web-one");
  EXPECT_TRUE(restored->changed);
  EXPECT_EQ(eu.spec_hash, restored->template_hash);
  const model::ControllerRevision* bad = RevisionNumbered(plan, 2);
  ASSERT_NE(bad, nullptr);
  EXPECT_TRUE(bad->created);
  EXPECT_EQ(bad->template_hash, mwrs.template_hash);
  EXPECT_EQ(bad->rolled_back_reason,
            "revision 2 failed on 1 of 1 cluster (maxFailures 0 per group): eu-1: Available=False "
            "(R); rolling back to revision 1");
  ASSERT_EQ(bad->clusters.size(), 1u);
  EXPECT_EQ(bad->clusters[0].cluster, "eu-1");
  EXPECT_EQ(bad->clusters[0].outcome, "Failed");
  EXPECT_EQ(bad->clusters[0].outcome_at.unix_s, kT0 + 3630);
  ASSERT_TRUE(mwrs.rolled_back.has_value());
  EXPECT_EQ(mwrs.rolled_back->revision, 2);
  EXPECT_EQ(mwrs.rolled_back->to_revision, 3);
  EXPECT_EQ(mwrs.rolled_back->template_hash, mwrs.template_hash);
  EXPECT_EQ(mwrs.rolled_back->to_template_hash, restored->template_hash);
  EXPECT_EQ(mwrs.rolled_back->reason, bad->rolled_back_reason);
  const model::Condition* rolled_back = FindMwrsCondition(mwrs, "RolledBack");
  ASSERT_NE(rolled_back, nullptr);
  EXPECT_EQ(rolled_back->status, model::ConditionStatus::kTrue);
  EXPECT_EQ(rolled_back->reason, "BadRevision");
  EXPECT_EQ(mwrs.rollout.state, "RolledBack");
  EXPECT_EQ(mwrs.rollout.revision, 3);
}

TEST(ReplicaSetsTest, BreachWithoutAGoodRevisionPauses) {
  const Plan plan = Step(BadCanaryYaml(false), 3720);
  EXPECT_TRUE(WrittenWorkClusters(plan).empty());
  const model::ManifestWorkReplicaSet& mwrs = Mwrs(plan);
  EXPECT_FALSE(mwrs.rolled_back.has_value());
  EXPECT_EQ(mwrs.rollout.state, "Paused");
  const model::Condition* paused = FindMwrsCondition(mwrs, "RolloutPaused");
  ASSERT_NE(paused, nullptr);
  EXPECT_EQ(paused->reason, "BadRevision");
  EXPECT_NE(paused->message.find("no earlier revision succeeded"), std::string::npos)
      << paused->message;
}

// The hub after the rollback: revision 1 renumbered 3 and current, eu-1 back on it, the MWRS
// still holding v2 with berth's annotation.
std::string RolledBackYaml(const std::string& template_image, const std::string& hash_v2,
                           const std::string& hash_v1) {
  const std::string annotation =
      "    rollout.berth.dev/rolled-back: '{\"revision\":2,"
      "\"templateHash\":\"" +
      hash_v2 + "\",\"toRevision\":3,\"toTemplateHash\":\"" + hash_v1 +
      "\",\"reason\":\"bad\",\"at\":\"" + At(3720) + "\"}'\n";
  const std::string status =
      "status:\n  conditions:\n  - {type: RolledBack, status: \"True\", "
      "reason: BadRevision, message: bad, lastTransitionTime: \"" +
      At(3720) + "\"}\n";
  return FleetYaml() + MwrsYaml(template_image, kPerGroup, annotation, status) +
         RevisionYaml("web-one", "v1", 3,
                      "[{\"cluster\":\"eu-1\",\"takenAt\":\"" + At(3720) +
                          "\",\"outcome\":\"Progressing\",\"outcomeAt\":\"" + At(3720) + "\"}]") +
         RevisionYaml("web-two", "v2", 2, "[]") +
         WorkYaml("eu-1", "v1", 3, WorkStatusYaml(3, "True", 3750)) +
         WorkYaml("us-2", "v1", 1, WorkStatusYaml(1, "True", 30)) +
         WorkYaml("ap-1", "v1", 1, WorkStatusYaml(1, "True", 30));
}

// The template hashes io gives the two images.
std::pair<std::string, std::string> Hashes() {
  const model::Snapshot v1 = testing::ReadCleanYaml(MwrsYaml("v1"));
  const model::Snapshot v2 = testing::ReadCleanYaml(MwrsYaml("v2"));
  return {v1.manifest_work_replica_sets.at(0).template_hash,
          v2.manifest_work_replica_sets.at(0).template_hash};
}

TEST(ReplicaSetsTest, RollbackHoldsWhileTheTemplateStaysTheBadOne) {
  const auto [v1, v2] = Hashes();
  const Plan plan = Step(RolledBackYaml("v2", v2, v1), 4000);
  EXPECT_TRUE(WrittenWorkClusters(plan).empty()) << "every work holds the restored revision";
  const model::ManifestWorkReplicaSet& mwrs = Mwrs(plan);
  ASSERT_TRUE(mwrs.rolled_back.has_value());
  EXPECT_EQ(mwrs.rolled_back->to_template_hash, v1);
  EXPECT_EQ(mwrs.rollout.state, "RolledBack");
  EXPECT_EQ(mwrs.rollout.revision, 3);
  EXPECT_EQ(mwrs.status.summary.total, 3);
  EXPECT_EQ(RevisionNumbered(plan, 4), nullptr) << "no new revision while pinned";
  const model::Condition* rolled_back = FindMwrsCondition(mwrs, "RolledBack");
  ASSERT_NE(rolled_back, nullptr);
  EXPECT_EQ(rolled_back->status, model::ConditionStatus::kTrue);
  EXPECT_EQ(rolled_back->last_transition_time->unix_s, kT0 + 3720) << "kept";
}

TEST(ReplicaSetsTest, ARestoredRevisionIsNotJudgedByTheBadOnesFeedback) {
  // Just after the rollback: eu-1's work holds revision 1's spec again (generation 3) but
  // its agent still reports generation 2, whose Deployment had no available replica.
  const auto [v1, v2] = Hashes();
  std::string yaml = RolledBackYaml("v2", v2, v1);
  yaml.replace(yaml.find("rollout.berth.dev/rolled-back"), 0,
               "rollout.berth.dev/health: \"AvailableReplicas >= 1 for 10s\"\n    ");
  const std::string zero = "        - {name: AvailableReplicas, fieldValue: {type: Integer, integer: 0}}\n";
  const std::string restored = WorkYaml("eu-1", "v1", 3, WorkStatusYaml(3, "True", 3750));
  yaml.replace(yaml.find(restored), restored.size(),
               WorkYaml("eu-1", "v1", 3, WorkStatusYaml(2, "True", 3700, "", zero)));
  const Plan plan = Step(yaml, 3800);
  EXPECT_FALSE(plan.diagnostics.has_errors());
  const model::ManifestWorkReplicaSet& mwrs = Mwrs(plan);
  EXPECT_EQ(mwrs.rollout.state, "RolledBack") << mwrs.rollout.message;
  const model::Condition* paused = FindMwrsCondition(mwrs, "RolloutPaused");
  EXPECT_TRUE(paused == nullptr || paused->status != model::ConditionStatus::kTrue)
      << paused->message;
  EXPECT_TRUE(WrittenWorkClusters(plan).empty());
  EXPECT_EQ(RevisionNumbered(plan, 4), nullptr);
}

TEST(ReplicaSetsTest, ARestoredRevisionThatBreaksPausesRatherThanReturnToTheBadOne) {
  // Revision 2 (v2) looked Succeeded on eu-1 before its rollback; revision 3 (v1 restored)
  // now breaks the health rule on eu-1 too. Revision 2 is no good revision to go back to.
  const auto [v1, v2] = Hashes();
  const std::string annotation =
      "    rollout.berth.dev/health: \"AvailableReplicas >= 1 for 10s\"\n"
      "    rollout.berth.dev/rolled-back: '{\"revision\":2,\"templateHash\":\"" + v2 +
      "\",\"toRevision\":3,\"toTemplateHash\":\"" + v1 + "\",\"reason\":\"bad\",\"at\":\"" +
      At(3720) + "\"}'\n";
  std::string bad = RevisionYaml(
      "web-two", "v2", 2,
      "[{\"cluster\":\"eu-1\",\"takenAt\":\"" + At(3600) +
          "\",\"outcome\":\"Succeeded\",\"outcomeAt\":\"" + At(3610) + "\"}]");
  bad.insert(bad.find("  ownerReferences:"), "    rollout.berth.dev/rolled-back: bad\n");
  const std::string zero = "        - {name: AvailableReplicas, fieldValue: {type: Integer, integer: 0}}\n";
  const std::string yaml =
      FleetYaml() + MwrsYaml("v2", kPerGroup, annotation) +
      RevisionYaml("web-one", "v1", 3,
                   "[{\"cluster\":\"eu-1\",\"takenAt\":\"" + At(3720) +
                       "\",\"outcome\":\"Progressing\",\"outcomeAt\":\"" + At(3720) + "\"}]") +
      bad + WorkYaml("eu-1", "v1", 3, WorkStatusYaml(3, "True", 3750, "", zero)) +
      WorkYaml("us-2", "v1", 1, WorkStatusYaml(1, "True", 30)) +
      WorkYaml("ap-1", "v1", 1, WorkStatusYaml(1, "True", 30));
  const Plan plan = Step(yaml, 3800);
  EXPECT_TRUE(WrittenWorkClusters(plan).empty()) << "v2 is not sent anywhere";
  EXPECT_EQ(RevisionNumbered(plan, 4), nullptr);
  const model::ManifestWorkReplicaSet& mwrs = Mwrs(plan);
  const model::Condition* paused = FindMwrsCondition(mwrs, "RolloutPaused");
  ASSERT_NE(paused, nullptr);
  EXPECT_EQ(paused->reason, "BadRevision");
}

TEST(ReplicaSetsTest, ANewTemplateReleasesTheRollback) {
  const auto [v1, v2] = Hashes();
  const Plan plan = Step(RolledBackYaml("v3", v2, v1), 7200);
  const model::ManifestWorkReplicaSet& mwrs = Mwrs(plan);
  EXPECT_FALSE(mwrs.rolled_back.has_value()) << "the annotation is removed";
  const model::Condition* rolled_back = FindMwrsCondition(mwrs, "RolledBack");
  ASSERT_NE(rolled_back, nullptr);
  EXPECT_EQ(rolled_back->status, model::ConditionStatus::kFalse);
  EXPECT_EQ(rolled_back->reason, "TemplateChanged");
  EXPECT_EQ(rolled_back->last_transition_time->unix_s, kT0 + 7200);
  EXPECT_EQ(mwrs.rollout.revision, 4);
  EXPECT_EQ(WrittenWorkClusters(plan), (std::vector<std::string>{"eu-1"})) << "canary first";
  const model::ControllerRevision* created = RevisionNumbered(plan, 4);
  ASSERT_NE(created, nullptr);
  EXPECT_TRUE(created->created);
  EXPECT_EQ(created->template_hash, mwrs.template_hash);
}

TEST(ReplicaSetsTest, HealthRuleBrokenLongEnoughRollsBack) {
  const std::string health = "    rollout.berth.dev/health: \"AvailableReplicas >= 2 for 60s\"\n";
  const std::string feedback =
      "        - {name: AvailableReplicas, fieldValue: {type: Integer, integer: 0}}\n";
  const std::string yaml =
      FleetYaml() + MwrsYaml("v2", kPerGroup, health) + GoodRevisionYaml() +
      WorkYaml("eu-1", "v2", 2, WorkStatusYaml(2, "True", 3630, "", feedback)) +
      WorkYaml("us-2", "v1", 1, WorkStatusYaml(1, "True", 30)) +
      WorkYaml("ap-1", "v1", 1, WorkStatusYaml(1, "True", 30));
  // 30 s into the violation: nothing happens (and the canary still soaks).
  const Plan early = Step(yaml, 3660);
  EXPECT_FALSE(Mwrs(early).rolled_back.has_value());
  EXPECT_TRUE(WrittenWorkClusters(early).empty());
  // 60 s into it: rolled back, with the rule and the value in the reason.
  const Plan late = Step(yaml, 3690);
  ASSERT_TRUE(Mwrs(late).rolled_back.has_value());
  EXPECT_EQ(Mwrs(late).rolled_back->reason,
            "revision 2 failed on 1 of 1 cluster: eu-1: AvailableReplicas < 2 for 60s (value 0 "
            "since 2026-11-02T01:00:30Z); rolling back to revision 1");
  // The value berth saw is recorded on the bad revision, with the time it started.
  const model::ControllerRevision* bad = RevisionNumbered(late, 2);
  ASSERT_NE(bad, nullptr);
  ASSERT_EQ(bad->clusters.size(), 1u);
  ASSERT_EQ(bad->clusters[0].feedback.size(), 1u);
  EXPECT_EQ(bad->clusters[0].feedback[0].value, "0");
  EXPECT_EQ(bad->clusters[0].feedback[0].at.unix_s, kT0 + 3630);
}

// As HealthRuleBrokenLongEnoughRollsBack, but the canary's Deployment has no available
// replica, so (Kubernetes omitting the zero count) the agent reports no AvailableReplicas at
// all while its feedback is synced: that reads as 0.
std::string DeploymentTemplateYaml(const std::string& image, int indent) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  return pad + "workload:\n" + pad + "  manifests:\n" + pad +
         "  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: serving}, "
         "spec: {replicas: 1, selector: {matchLabels: {app: web}}, template: {metadata: "
         "{labels: {app: web}}, spec: {containers: [{name: c, image: \"" +
         image + "\"}]}}}}\n" + pad + "manifestConfigs:\n" + pad +
         "- resourceIdentifier: {group: apps, resource: deployments, name: web, namespace: "
         "serving}\n" +
         pad + "  feedbackRules: [{type: WellKnownStatus}]\n";
}

std::string DeploymentWorkYaml(const std::string& cluster, const std::string& image,
                               int64_t generation, const std::string& feedback_values,
                               const std::string& synced) {
  const std::string g = std::to_string(generation);
  return "apiVersion: work.open-cluster-management.io/v1\nkind: ManifestWork\nmetadata:\n"
         "  name: web\n  namespace: " +
         cluster + "\n  generation: " + g +
         "\n  labels:\n    work.open-cluster-management.io/manifestworkreplicaset: serving.web\n"
         "    work.open-cluster-management.io/placementname: llm\nspec:\n" +
         DeploymentTemplateYaml(image, 2) +
         "status:\n  conditions:\n"
         "  - {type: Applied, status: \"True\", observedGeneration: " + g +
         ", lastTransitionTime: \"" + At(3630) + "\", reason: Applied}\n"
         "  - {type: Available, status: \"True\", observedGeneration: " + g +
         ", lastTransitionTime: \"" + At(3630) + "\", reason: R}\n"
         "  resourceStatus:\n    manifests:\n"
         "    - resourceMeta: {group: apps, version: v1, kind: Deployment, resource: "
         "deployments, name: web, namespace: serving}\n"
         "      statusFeedback: {values: [" + feedback_values + "]}\n"
         "      conditions:\n      - {type: StatusFeedbackSynced, status: \"" + synced +
         "\", lastTransitionTime: \"" + At(3630) + "\", reason: Synced}\n---\n";
}

std::string DeploymentMwrsYaml(const std::string& image, const std::string& health) {
  return "apiVersion: work.open-cluster-management.io/v1alpha1\nkind: ManifestWorkReplicaSet\n"
         "metadata:\n  name: web\n  namespace: serving\n  uid: mwrs-uid\n  annotations:\n"
         "    rollout.berth.dev/health: \"" + health + "\"\n"
         "spec:\n  placementRefs:\n  - name: llm\n    rolloutStrategy: " + kPerGroup +
         "\n  manifestWorkTemplate:\n" + DeploymentTemplateYaml(image, 4) + "---\n";
}

std::string DeploymentRevisionYaml(const std::string& name, const std::string& image,
                                   int64_t revision, const std::string& clusters_json) {
  return "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: " + name +
         "\n  namespace: serving\n  annotations:\n    rollout.berth.dev/clusters: '" +
         clusters_json +
         "'\n  ownerReferences:\n  - {apiVersion: work.open-cluster-management.io/v1alpha1, "
         "kind: ManifestWorkReplicaSet, name: web, uid: mwrs-uid, controller: true}\n"
         "data:\n  spec:\n    manifestWorkTemplate:\n" +
         DeploymentTemplateYaml(image, 6) + "revision: " + std::to_string(revision) + "\n---\n";
}

std::string AbsentFeedbackYaml(const std::string& canary_values, const std::string& synced) {
  std::string good = "[";
  for (const char* c : {"ap-1", "eu-1", "us-2"}) {
    if (good.size() > 1) good += ",";
    good += std::string("{\"cluster\":\"") + c + "\",\"takenAt\":\"" + At(0) +
            "\",\"outcome\":\"Succeeded\",\"outcomeAt\":\"" + At(30) + "\"}";
  }
  const std::string one =
      "{name: AvailableReplicas, fieldValue: {type: Integer, integer: 1}}";
  return FleetYaml() + DeploymentMwrsYaml("v2", "AvailableReplicas >= 1 for 60s") +
         DeploymentRevisionYaml("web-one", "v1", 1, good + "]") +
         DeploymentWorkYaml("eu-1", "v2", 2, canary_values, synced) +
         DeploymentWorkYaml("us-2", "v1", 1, one, "True") +
         DeploymentWorkYaml("ap-1", "v1", 1, one, "True");
}

TEST(ReplicaSetsTest, AFeedbackValueTheAgentFindsNoFieldForReadsAsZero) {
  // Replicas reported, AvailableReplicas not: the Deployment has none available.
  const std::string replicas = "{name: Replicas, fieldValue: {type: Integer, integer: 1}}";
  EXPECT_FALSE(Mwrs(Step(AbsentFeedbackYaml(replicas, "True"), 3660)).rolled_back.has_value());
  const Plan late = Step(AbsentFeedbackYaml(replicas, "True"), 3690);
  ASSERT_TRUE(Mwrs(late).rolled_back.has_value());
  EXPECT_EQ(Mwrs(late).rolled_back->reason,
            "revision 2 failed on 1 of 1 cluster: eu-1: AvailableReplicas < 1 for 60s (value 0 "
            "since 2026-11-02T01:00:30Z); rolling back to revision 1");
  // Feedback that did not sync says nothing: no value, no rollback.
  EXPECT_FALSE(Mwrs(Step(AbsentFeedbackYaml(replicas, "False"), 3690)).rolled_back.has_value());
}

TEST(ReplicaSetsTest, AValueNoFeedbackRuleReadsIsNotReadAsZero) {
  // The rule asks for JSONPaths (none given): AvailableReplicas is nobody's value.
  std::string yaml = AbsentFeedbackYaml("", "True");
  for (size_t at = yaml.find("[{type: WellKnownStatus}]"); at != std::string::npos;
       at = yaml.find("[{type: WellKnownStatus}]")) {
    yaml.replace(at, 25, "[{type: JSONPaths, jsonPaths: [{name: Ready, path: .status.x}]}]");
  }
  EXPECT_FALSE(Mwrs(Step(yaml, 3690)).rolled_back.has_value());
}

TEST(ReplicaSetsTest, ProgressDeadlinePausesWithinMaxFailures) {
  const std::string strategy =
      "{type: Progressive, progressive: {maxConcurrency: 2, maxFailures: 1, "
      "progressDeadline: 5m}}";
  const std::string progressing =
      "  - {type: Progressing, status: \"True\", observedGeneration: 1, lastTransitionTime: \"" +
      At(30) + "\", reason: Rolling}\n";
  const std::string yaml = FleetYaml() + MwrsYaml("v1", strategy) +
                           WorkYaml("eu-1", "v1", 1, WorkStatusYaml(1, "True", 30)) +
                           WorkYaml("ap-1", "v1", 1, WorkStatusYaml(1, "True", 30, progressing));
  // Within the deadline OCM's step gives us-2 the free slot (eu-1 is done).
  EXPECT_EQ(WrittenWorkClusters(Step(yaml, 240)), (std::vector<std::string>{"us-2"}));
  // Past it, berth pauses instead.
  const Plan plan = Step(yaml, 600);
  EXPECT_TRUE(WrittenWorkClusters(plan).empty());
  const model::Condition* paused = FindMwrsCondition(Mwrs(plan), "RolloutPaused");
  ASSERT_NE(paused, nullptr);
  EXPECT_EQ(paused->reason, "ProgressDeadlineExceeded");
  EXPECT_EQ(paused->message,
            "revision 1 failed on 1 of 2 clusters: ap-1: timed out after progressDeadline 5m "
            "(Progressing=True (Rolling)); pausing on the timed-out clusters (within maxFailures "
            "1)");
}

TEST(ReplicaSetsTest, AWorkOfAClusterThePlacementDroppedIsDeleted) {
  // A work left in a cluster no ManagedCluster of the fleet is (so the Placement cannot
  // choose it), and one of a placementRef the MWRS no longer has.
  std::string stale = WorkYaml("gone-1", "v1", 1, WorkStatusYaml(1, "True", 30));
  std::string other = WorkYaml("us-2", "v1", 1, WorkStatusYaml(1, "True", 30));
  other.replace(other.find("placementname: llm"), 18, "placementname: old");
  const Plan plan = Step(FleetYaml() + MwrsYaml("v1") + stale + other, 60);
  std::set<std::string> deleted;
  for (const model::ObjectDeletion& d : plan.deleted_objects) {
    if (d.kind == "ManifestWork") deleted.insert(d.namespace_ + ": " + d.reason);
  }
  EXPECT_EQ(deleted, (std::set<std::string>{
                         "gone-1: ManifestWorkReplicaSet serving/web: cluster gone-1 left "
                         "placement llm",
                         "us-2: ManifestWorkReplicaSet serving/web: placement old is no longer "
                         "referenced"}));
}

TEST(ReplicaSetsTest, ADeletedReplicaSetDeletesItsWorks) {
  std::string mwrs = MwrsYaml("v1");
  mwrs.insert(mwrs.find("  uid:"), "  deletionTimestamp: \"" + At(10) + "\"\n");
  const Plan plan =
      Step(FleetYaml() + mwrs + WorkYaml("eu-1", "v1", 1, WorkStatusYaml(1, "True", 30)), 60);
  ASSERT_EQ(plan.deleted_objects.size(), 1u);
  EXPECT_EQ(plan.deleted_objects[0].namespace_, "eu-1");
  EXPECT_EQ(plan.deleted_objects[0].reason, "ManifestWorkReplicaSet serving/web is being deleted");
  EXPECT_FALSE(Mwrs(plan).stepped);
}

TEST(ReplicaSetsTest, AnUnreadableMinSuccessTimeIsReportedAndTheReplicaSetLeftAlone) {
  const Plan plan = Step(
      FleetYaml() + MwrsYaml("v1", "{type: Progressive, progressive: {minSuccessTime: soon}}"), 0);
  ASSERT_EQ(plan.diagnostics.error_count(), 1u);
  const core::Error& e = plan.diagnostics.entries()[0].error;
  EXPECT_EQ(e.location().object, "ManifestWorkReplicaSet/serving/web");
  EXPECT_EQ(e.location().field, "spec.placementRefs[0].rolloutStrategy.progressive.minSuccessTime");
  EXPECT_FALSE(Mwrs(plan).stepped);
  EXPECT_TRUE(plan.manifest_work_items.empty());
}

TEST(ReplicaSetsTest, ABadHealthRuleIsReportedAndTheRolloutGoesOnWithoutRules) {
  const Plan plan = Step(
      FleetYaml() + MwrsYaml("v1", "{type: All}", "    rollout.berth.dev/health: \"Ready ~ 1\"\n"),
      0);
  ASSERT_EQ(plan.diagnostics.error_count(), 1u);
  EXPECT_EQ(plan.diagnostics.entries()[0].error.location().field,
            "metadata.annotations[rollout.berth.dev/health]");
  EXPECT_TRUE(Mwrs(plan).stepped);
  EXPECT_EQ(plan.manifest_work_items.size(), 3u);
}

TEST(ReplicaSetsTest, ATakenWorkNameGetsAFixedSuffix) {
  const std::string foreign =
      "apiVersion: work.open-cluster-management.io/v1\nkind: ManifestWork\nmetadata:\n"
      "  name: web\n  namespace: eu-1\nspec:\n" +
      TemplateYaml("other", 2) + "---\n";
  const Plan plan = Step(FleetYaml() + MwrsYaml("v1") + foreign, 0);
  std::set<std::string> names;
  for (int32_t i : plan.manifest_work_items) {
    const model::ManifestWork& w = plan.planned.manifest_works[static_cast<size_t>(i)];
    names.insert(w.meta.namespace_ + "/" + w.meta.name);
  }
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names.count("ap-1/web"), 1u);
  EXPECT_EQ(names.count("us-2/web"), 1u);
  EXPECT_EQ(names.count("eu-1/web"), 0u) << "not someone else's work";
  std::string eu;
  for (const std::string& n : names) {
    if (n.rfind("eu-1/", 0) == 0) eu = n;
  }
  EXPECT_EQ(eu.rfind("eu-1/web-", 0), 0u) << eu;
  EXPECT_EQ(eu.size(), std::string("eu-1/web-").size() + 5);
  // The same suffix every time.
  const Plan again = Step(FleetYaml() + MwrsYaml("v1") + foreign, 0);
  bool same = false;
  for (int32_t i : again.manifest_work_items) {
    const model::ManifestWork& w = again.planned.manifest_works[static_cast<size_t>(i)];
    same = same || w.meta.namespace_ + "/" + w.meta.name == eu;
  }
  EXPECT_TRUE(same);
}

TEST(ReplicaSetsTest, OldRevisionsBeyondTheLimitAreDeleted) {
  std::string revisions;
  for (int i = 1; i <= 12; ++i) {
    revisions += RevisionYaml("web-r" + std::to_string(i), "old" + std::to_string(i), i, "[]");
  }
  const Plan plan = Step(FleetYaml() + MwrsYaml("v1") + revisions, 0);
  std::vector<std::string> deleted;
  for (const model::ObjectDeletion& d : plan.deleted_objects) {
    if (d.kind == "ControllerRevision") deleted.push_back(d.name);
  }
  // Revision 13 is the template's; 10 old ones are kept (3..12).
  EXPECT_EQ(deleted, (std::vector<std::string>{"web-r1", "web-r2"}));
  EXPECT_NE(RevisionNumbered(plan, 13), nullptr);
}

TEST(ReplicaSetsTest, RolloutConditionsReadAvailableWhenTheWorkHasNoProgressing) {
  model::ManifestWork work;
  work.generation = 2;
  model::Condition available;
  available.type = "Available";
  available.status = model::ConditionStatus::kFalse;
  available.observed_generation = 2;
  available.last_transition_time = core::Timestamp{100};
  work.conditions = {available};
  std::vector<dispatch::WorkCondition> got = RolloutConditionsOfWork(work);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[1].type, "Progressing");
  EXPECT_EQ(got[1].status, model::ConditionStatus::kTrue);
  EXPECT_EQ(got[1].observed_generation, 2);
  EXPECT_EQ(got[1].last_transition_time_s, 100);
  EXPECT_EQ(got[2].type, "Degraded");
  EXPECT_EQ(got[2].status, model::ConditionStatus::kTrue);

  work.conditions[0].status = model::ConditionStatus::kTrue;
  got = RolloutConditionsOfWork(work);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].status, model::ConditionStatus::kFalse) << "available: done progressing";

  work.conditions[0].observed_generation = 1;  // of the previous spec: nothing added
  EXPECT_EQ(RolloutConditionsOfWork(work).size(), 1u);

  work.conditions[0].observed_generation = 2;
  model::Condition progressing;
  progressing.type = "Progressing";
  progressing.status = model::ConditionStatus::kTrue;
  work.conditions.push_back(progressing);  // the agent's own: left as it is
  EXPECT_EQ(RolloutConditionsOfWork(work).size(), 2u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
