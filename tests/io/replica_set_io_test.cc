// ManifestWorkReplicaSet (work/v1alpha1) and ControllerRevision (apps/v1) through io: read as
// their CRD / the API server validate them (each bad field an error naming it, the good
// objects beside it still read), the canonical template hash that compares works with
// templates, the ManifestWork fields the rollout reads (generation, deletionTimestamp,
// conditions' observedGeneration), and how the plan prints them.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "io/internal/canonical_hash.h"
#include "io/internal/replica_set_json.h"
#include "io/reader.h"
#include "io/test_util.h"
#include "io/writer.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::ReadString;

constexpr const char* kHead =
    "apiVersion: work.open-cluster-management.io/v1alpha1\nkind: ManifestWorkReplicaSet\n"
    "metadata:\n  name: web\n  namespace: serving\n";
constexpr const char* kTemplate =
    "  manifestWorkTemplate:\n    workload:\n      manifests:\n      - apiVersion: v1\n"
    "        kind: ConfigMap\n        metadata: {name: web, namespace: serving}\n"
    "        data: {image: v1}\n";

std::string Mwrs(const std::string& refs, const std::string& extra_spec = "") {
  return std::string(kHead) + "spec:\n" + refs + kTemplate + extra_spec;
}

std::string Ref(const std::string& strategy) {
  return "  placementRefs:\n  - name: llm\n    rolloutStrategy: " + strategy + "\n";
}

struct MwrsBadCase {
  const char* name;
  std::string yaml;
  const char* field;
};

TEST(ReplicaSetIoTest, ReplicaSetErrorsNameTheField) {
  const MwrsBadCase cases[] = {
      {"no spec", std::string(kHead), "spec.manifestWorkTemplate.workload.manifests"},
      {"no manifests",
       std::string(kHead) + "spec:\n" + Ref("{type: All}") +
           "  manifestWorkTemplate:\n    workload:\n      manifests: []\n",
       "spec.manifestWorkTemplate.workload.manifests"},
      {"manifest without a name",
       std::string(kHead) + "spec:\n" + Ref("{type: All}") +
           "  manifestWorkTemplate:\n    workload:\n      manifests:\n      - {apiVersion: v1, "
           "kind: ConfigMap, metadata: {generateName: x}}\n",
       "spec.manifestWorkTemplate.workload.manifests[0].metadata.name"},
      {"template deleteOption",
       Mwrs(Ref("{type: All}"), "    deleteOption: {propagationPolicy: Keep}\n"),
       "spec.manifestWorkTemplate.deleteOption.propagationPolicy"},
      {"no placementRefs", Mwrs(""), "spec.placementRefs"},
      {"empty placementRefs", Mwrs("  placementRefs: []\n"), "spec.placementRefs"},
      {"placementRefs not a list", Mwrs("  placementRefs: {name: llm}\n"), "spec.placementRefs"},
      {"ref without a name", Mwrs("  placementRefs:\n  - rolloutStrategy: {type: All}\n"),
       "spec.placementRefs[0].name"},
      {"ref with an empty name", Mwrs("  placementRefs:\n  - name: \"\"\n"),
       "spec.placementRefs[0].name"},
      {"unknown type", Mwrs(Ref("{type: Canary}")), "spec.placementRefs[0].rolloutStrategy.type"},
      {"type not a string", Mwrs(Ref("{type: 3}")), "spec.placementRefs[0].rolloutStrategy.type"},
      {"strategy not an object", Mwrs(Ref("All")), "spec.placementRefs[0].rolloutStrategy"},
      {"maxFailures off its pattern",
       Mwrs(Ref("{type: Progressive, progressive: {maxFailures: 5x}}")),
       "spec.placementRefs[0].rolloutStrategy.progressive.maxFailures"},
      {"maxFailures over 100%",
       Mwrs(Ref("{type: ProgressivePerGroup, progressivePerGroup: {maxFailures: 101%}}")),
       "spec.placementRefs[0].rolloutStrategy.progressivePerGroup.maxFailures"},
      {"maxFailures a float", Mwrs(Ref("{type: Progressive, progressive: {maxFailures: 1.5}}")),
       "spec.placementRefs[0].rolloutStrategy.progressive.maxFailures"},
      {"maxConcurrency off its pattern",
       Mwrs(Ref("{type: Progressive, progressive: {maxConcurrency: \"-1\"}}")),
       "spec.placementRefs[0].rolloutStrategy.progressive.maxConcurrency"},
      {"maxConcurrency beyond int32",
       Mwrs(Ref("{type: Progressive, progressive: {maxConcurrency: 4294967296}}")),
       "spec.placementRefs[0].rolloutStrategy.progressive.maxConcurrency"},
      {"progressDeadline in days", Mwrs(Ref("{type: All, all: {progressDeadline: 2d}}")),
       "spec.placementRefs[0].rolloutStrategy.all.progressDeadline"},
      // A sub-object the type does not name is validated too, as the CRD validates it.
      {"bad sub-object beside the type",
       Mwrs(Ref("{type: All, progressive: {progressDeadline: soon}}")),
       "spec.placementRefs[0].rolloutStrategy.progressive.progressDeadline"},
      {"minSuccessTime not a string",
       Mwrs(Ref("{type: Progressive, progressive: {minSuccessTime: 60}}")),
       "spec.placementRefs[0].rolloutStrategy.progressive.minSuccessTime"},
      {"mandatory group index not an integer",
       Mwrs(Ref("{type: ProgressivePerGroup, progressivePerGroup: {mandatoryDecisionGroups: "
                "[{groupIndex: first}]}}")),
       "spec.placementRefs[0].rolloutStrategy.progressivePerGroup.mandatoryDecisionGroups[0]."
       "groupIndex"},
      {"cascadeDeletionPolicy", Mwrs(Ref("{type: All}"), "  cascadeDeletionPolicy: Orphan\n"),
       "spec.cascadeDeletionPolicy"},
      {"paused annotation",
       std::string(kHead) + "  annotations: {rollout.berth.dev/paused: yes}\n" + "spec:\n" +
           Ref("{type: All}") + kTemplate,
       "metadata.annotations[rollout.berth.dev/paused]"},
      {"auto-rollback annotation",
       std::string(kHead) + "  annotations: {rollout.berth.dev/auto-rollback: \"no\"}\n" +
           "spec:\n" + Ref("{type: All}") + kTemplate,
       "metadata.annotations[rollout.berth.dev/auto-rollback]"},
      {"rolled-back annotation not JSON",
       std::string(kHead) + "  annotations: {rollout.berth.dev/rolled-back: \"revision 2\"}\n" +
           "spec:\n" + Ref("{type: All}") + kTemplate,
       "metadata.annotations[rollout.berth.dev/rolled-back]"},
      {"rolled-back annotation without its hash",
       std::string(kHead) + "  annotations: {rollout.berth.dev/rolled-back: '{\"revision\":2}'}\n" +
           "spec:\n" + Ref("{type: All}") + kTemplate,
       "metadata.annotations[rollout.berth.dev/rolled-back].templateHash"},
      {"status summary of the wrong type",
       Mwrs(Ref("{type: All}")) + "status:\n  summary: {total: many}\n", "status.summary.total"},
      {"status condition without a type",
       Mwrs(Ref("{type: All}")) + "status:\n  conditions:\n  - {status: \"True\"}\n",
       "status.conditions[0].type"},
      {"negative generation",
       std::string(kHead) + "  generation: -1\nspec:\n" + Ref("{type: All}") + kTemplate,
       "metadata.generation"},
  };
  for (const MwrsBadCase& c : cases) {
    SCOPED_TRACE(c.name);
    testing::ExpectOneErrorBesideGoodNode(c.yaml, c.field);
  }
}

TEST(ReplicaSetIoTest, ReplicaSetIsReadWithTheCrdDefaults) {
  core::Diagnostics diags;
  const Input in = ReadString(
      std::string(kHead) +
          "  generation: 4\n  annotations:\n    rollout.berth.dev/paused: \"true\"\n"
          "    rollout.berth.dev/health: \"AvailableReplicas >= 2 for 60s\"\n"
          "    rollout.berth.dev/auto-rollback: \"false\"\n"
          "    rollout.berth.dev/rolled-back: '{\"revision\":2,\"templateHash\":\"a\","
          "\"toRevision\":3,\"toTemplateHash\":\"b\",\"reason\":\"r\",\"at\":\"2026-11-02T00:00:"
          "00Z\"}'\n"
          "spec:\n  placementRefs:\n  - name: plain\n"
          "  - name: groups\n    rolloutStrategy:\n      type: ProgressivePerGroup\n"
          "      all: {progressDeadline: 9m}\n"  // ignored: the type names another
          "      progressivePerGroup:\n        mandatoryDecisionGroups: [{groupName: canary}, "
          "{groupIndex: 2}]\n        minSuccessTime: 90s\n        progressDeadline: 10m\n"
          "        maxFailures: 25%\n"
          "  - name: progressive\n    rolloutStrategy: {type: Progressive, progressive: "
          "{maxConcurrency: 2, maxFailures: 1}}\n" +
          kTemplate,
      diags);
  ASSERT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.manifest_work_replica_sets.size(), 1u);
  const model::ManifestWorkReplicaSet& m = in.snapshot.manifest_work_replica_sets[0];
  EXPECT_EQ(m.generation, 4);
  EXPECT_TRUE(m.paused);
  EXPECT_FALSE(m.auto_rollback);
  EXPECT_EQ(m.health, "AvailableReplicas >= 2 for 60s");
  ASSERT_TRUE(m.rolled_back.has_value());
  EXPECT_EQ(m.rolled_back->revision, 2);
  EXPECT_EQ(m.rolled_back->to_revision, 3);
  EXPECT_EQ(m.rolled_back->template_hash, "a");
  EXPECT_EQ(m.rolled_back->to_template_hash, "b");
  EXPECT_EQ(m.rolled_back->at.ToString(), "2026-11-02T00:00:00Z");
  EXPECT_EQ(m.cascade_deletion_policy, "Background");
  EXPECT_EQ(m.template_hash.size(), internal::kCanonicalHashLength);
  ASSERT_EQ(m.template_manifests.size(), 1u);
  EXPECT_EQ(m.template_manifests[0].kind, "ConfigMap");
  ASSERT_EQ(m.placement_refs.size(), 3u);
  const model::MwrsRolloutStrategy& plain = m.placement_refs[0].rollout_strategy;
  EXPECT_EQ(plain.type, model::MwrsRolloutType::kAll);
  EXPECT_EQ(plain.progress_deadline, "");
  const model::MwrsRolloutStrategy& groups = m.placement_refs[1].rollout_strategy;
  EXPECT_EQ(groups.type, model::MwrsRolloutType::kProgressivePerGroup);
  EXPECT_EQ(groups.min_success_time, "90s");
  EXPECT_EQ(groups.progress_deadline, "10m");
  EXPECT_TRUE(groups.max_failures.is_string);
  EXPECT_EQ(groups.max_failures.text, "25%");
  ASSERT_EQ(groups.mandatory_decision_groups.size(), 2u);
  EXPECT_EQ(groups.mandatory_decision_groups[0].group_name, "canary");
  EXPECT_EQ(groups.mandatory_decision_groups[1].group_index, 2);
  const model::MwrsRolloutStrategy& progressive = m.placement_refs[2].rollout_strategy;
  EXPECT_EQ(progressive.max_concurrency.int_value, 2);
  EXPECT_EQ(progressive.max_failures.int_value, 1);
}

TEST(ReplicaSetIoTest, ManifestWorkKeepsGenerationDeletionAndObservedGenerations) {
  core::Diagnostics diags;
  const Input in = ReadString(
      "apiVersion: work.open-cluster-management.io/v1\nkind: ManifestWork\nmetadata:\n"
      "  name: web\n  namespace: eu-1\n  generation: 3\n"
      "  deletionTimestamp: \"2026-11-02T00:00:05Z\"\nspec:\n"
      "  workload:\n    manifests:\n    - apiVersion: v1\n      kind: ConfigMap\n"
      "      metadata: {name: web, namespace: serving}\n      data: {image: v1}\n"
      "status:\n  conditions:\n  - {type: Applied, status: \"True\", observedGeneration: 3, "
      "lastTransitionTime: \"2026-11-02T00:00:01Z\", reason: A}\n",
      diags);
  ASSERT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.manifest_works.size(), 1u);
  const model::ManifestWork& w = in.snapshot.manifest_works[0];
  EXPECT_EQ(w.generation, 3);
  ASSERT_TRUE(w.deletion_timestamp.has_value());
  EXPECT_EQ(w.deletion_timestamp->ToString(), "2026-11-02T00:00:05Z");
  ASSERT_EQ(w.conditions.size(), 1u);
  EXPECT_EQ(w.conditions[0].observed_generation, 3);
  // The same spec as an MWRS template, keys in another order: the same hash.
  core::Diagnostics diags2;
  const Input mwrs = ReadString(
      std::string(kHead) + "spec:\n" + Ref("{type: All}") +
          "  manifestWorkTemplate:\n    workload:\n      manifests:\n      - kind: ConfigMap\n"
          "        data: {image: v1}\n        apiVersion: v1\n"
          "        metadata: {namespace: serving, name: web}\n",
      diags2);
  ASSERT_FALSE(diags2.has_errors()) << testing::Dump(diags2);
  EXPECT_EQ(mwrs.snapshot.manifest_work_replica_sets.at(0).template_hash, w.spec_hash);
}

TEST(ReplicaSetIoTest, NegativeObservedGenerationIsRefused) {
  testing::ExpectOneErrorBesideGoodNode(
      "apiVersion: work.open-cluster-management.io/v1\nkind: ManifestWork\nmetadata:\n"
      "  name: web\n  namespace: eu-1\nspec:\n  workload:\n    manifests:\n"
      "    - {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n"
      "status:\n  conditions:\n  - {type: Applied, status: \"True\", observedGeneration: -2}\n",
      "status.conditions[0].observedGeneration");
}

TEST(ReplicaSetIoTest, CanonicalHashIgnoresKeyOrderAndNumberSpelling) {
  const std::string a = R"({"b": [1, 2.0, {"y": true, "x": null}], "a": "s\n"})";
  const std::string b = R"({"a":"s\n","b":[1.0,2,{"x":null,"y":true}]})";
  const std::string c = R"({"a":"s\n","b":[1,2,{"x":null,"y":false}]})";
  EXPECT_EQ(internal::CanonicalJsonOfText(a).value(),
            R"({"a":"s\u000a","b":[1,2,{"x":null,"y":true}]})");
  EXPECT_EQ(internal::CanonicalJsonOfText(R"(["\u0001", 0.5, -3, 18446744073709551615])").value(),
            R"(["\u0001",0.5,-3,18446744073709551615])");
  const std::string hash = internal::CanonicalJsonHashOfText(a).value();
  EXPECT_EQ(hash, internal::CanonicalJsonHashOfText(b).value());
  EXPECT_NE(hash, internal::CanonicalJsonHashOfText(c).value());
  EXPECT_EQ(hash.size(), internal::kCanonicalHashLength);
  for (char ch : hash) {
    EXPECT_NE(std::string("bcdfghjklmnpqrstvwxz2456789").find(ch), std::string::npos) << ch;
  }
  EXPECT_FALSE(internal::CanonicalJsonHashOfText("{").has_value());
}

// `text` with every line indented two more spaces.
std::string Indented(const std::string& text) {
  std::string out;
  size_t from = 0;
  while (from < text.size()) {
    const size_t nl = text.find('\n', from);
    const size_t end = nl == std::string::npos ? text.size() : nl + 1;
    out += "  " + text.substr(from, end - from);
    from = end;
  }
  return out;
}

constexpr const char* kRevisionHead =
    "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: web-1\n"
    "  namespace: serving\n";

TEST(ReplicaSetIoTest, ControllerRevisionErrorsNameTheField) {
  const MwrsBadCase cases[] = {
      {"no data", std::string(kRevisionHead) + "revision: 1\n", "data"},
      {"negative revision", std::string(kRevisionHead) + "data: {}\nrevision: -1\n", "revision"},
      {"revision not an integer", std::string(kRevisionHead) + "data: {}\nrevision: one\n",
       "revision"},
      {"clusters annotation not JSON",
       std::string(kRevisionHead) + "  annotations: {rollout.berth.dev/clusters: x}\ndata: {}\n",
       "metadata.annotations[rollout.berth.dev/clusters]"},
      {"clusters entry without a cluster",
       std::string(kRevisionHead) +
           "  annotations: {rollout.berth.dev/clusters: '[{\"outcome\":\"Failed\"}]'}\ndata: {}\n",
       "metadata.annotations[rollout.berth.dev/clusters][0].cluster"},
      {"unknown outcome",
       std::string(kRevisionHead) +
           "  annotations: {rollout.berth.dev/clusters: '[{\"cluster\":\"a\",\"outcome\":"
           "\"Meh\"}]'}\ndata: {}\n",
       "metadata.annotations[rollout.berth.dev/clusters][0].outcome"},
      {"bad time",
       std::string(kRevisionHead) +
           "  annotations: {rollout.berth.dev/clusters: '[{\"cluster\":\"a\",\"takenAt\":"
           "\"yesterday\"}]'}\ndata: {}\n",
       "metadata.annotations[rollout.berth.dev/clusters][0].takenAt"},
  };
  for (const MwrsBadCase& c : cases) {
    SCOPED_TRACE(c.name);
    testing::ExpectOneErrorBesideGoodNode(c.yaml, c.field);
  }
}

TEST(ReplicaSetIoTest, ControllerRevisionKeepsOwnerTemplateAndRecords) {
  core::Diagnostics diags;
  const Input in = ReadString(
      std::string(kRevisionHead) +
          "  annotations:\n    rollout.berth.dev/rolled-back: bad canary\n"
          "    rollout.berth.dev/clusters: '[{\"cluster\":\"eu-1\",\"takenAt\":"
          "\"2026-11-02T00:00:00Z\",\"outcome\":\"Failed\",\"outcomeAt\":\"2026-11-02T00:00:30Z\","
          "\"detail\":\"Available=False\",\"feedback\":[{\"name\":\"AvailableReplicas\","
          "\"value\":\"0\",\"at\":\"2026-11-02T00:00:30Z\"}]}]'\n"
          "  ownerReferences:\n  - {apiVersion: work.open-cluster-management.io/v1alpha1, kind: "
          "ManifestWorkReplicaSet, name: web, uid: u1, controller: true}\n"
          "data:\n  spec:\n" +
          Indented(kTemplate) +
          "revision: 7\n---\n"
          // A StatefulSet's revision from a member cluster: read, no template.
          "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: db-5d8\n"
          "  namespace: serving\ndata: {spec: {template: {}}}\nrevision: 2\n",
      diags);
  ASSERT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.controller_revisions.size(), 2u);
  const model::ControllerRevision& r = in.snapshot.controller_revisions[0];
  EXPECT_EQ(r.revision, 7);
  EXPECT_EQ(r.owner_kind, "ManifestWorkReplicaSet");
  EXPECT_EQ(r.owner_name, "web");
  EXPECT_EQ(r.owner_uid, "u1");
  EXPECT_EQ(r.rolled_back_reason, "bad canary");
  EXPECT_EQ(r.template_hash.size(), internal::kCanonicalHashLength);
  ASSERT_EQ(r.template_manifests.size(), 1u);
  ASSERT_EQ(r.clusters.size(), 1u);
  EXPECT_EQ(r.clusters[0].outcome, "Failed");
  EXPECT_EQ(r.clusters[0].outcome_at.ToString(), "2026-11-02T00:00:30Z");
  ASSERT_EQ(r.clusters[0].feedback.size(), 1u);
  EXPECT_EQ(r.clusters[0].feedback[0].value, "0");
  EXPECT_EQ(in.snapshot.controller_revisions[1].template_hash, "");
  // The template's hash is the MWRS template's.
  core::Diagnostics diags2;
  const Input mwrs = ReadString(Mwrs(Ref("{type: All}")), diags2);
  EXPECT_EQ(mwrs.snapshot.manifest_work_replica_sets.at(0).template_hash, r.template_hash);
}

TEST(ReplicaSetIoTest, AnnotationTextsReadBack) {
  model::MwrsRollback rollback{2, "abc", 3, "def", "why \"quoted\"", core::Timestamp{1793577600}};
  EXPECT_EQ(internal::RollbackAnnotationText(rollback),
            R"({"revision":2,"templateHash":"abc","toRevision":3,"toTemplateHash":"def",)"
            R"("reason":"why \"quoted\"","at":"2026-11-02T00:00:00Z"})");
  model::RevisionClusterRecord record;
  record.cluster = "eu-1";
  record.taken_at = core::Timestamp{1793577600};
  record.outcome = "Succeeded";
  record.outcome_at = core::Timestamp{1793577630};
  record.feedback.push_back({"AvailableReplicas", "2", core::Timestamp{1793577630}});
  const std::string clusters = internal::RevisionClustersText({record});
  EXPECT_EQ(clusters,
            R"([{"cluster":"eu-1","takenAt":"2026-11-02T00:00:00Z","outcome":"Succeeded",)"
            R"("outcomeAt":"2026-11-02T00:00:30Z","feedback":[{"name":"AvailableReplicas",)"
            R"("value":"2","at":"2026-11-02T00:00:30Z"}]}])");
  // What the writer writes, the reader reads.
  core::Diagnostics diags;
  const Input in =
      ReadString(std::string(kRevisionHead) + "  annotations:\n    rollout.berth.dev/clusters: '" +
                     clusters + "'\ndata: {}\n",
                 diags);
  ASSERT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.controller_revisions.at(0).clusters.size(), 1u);
  EXPECT_EQ(in.snapshot.controller_revisions[0].clusters[0].feedback.at(0).at.unix_s, 1793577630);
}

TEST(ReplicaSetIoTest, PlanPrintsTheSteppedReplicaSetAndItsNewRevision) {
  core::Diagnostics diags;
  Input in =
      ReadString(std::string(kHead) +
                     "  uid: u1\n  annotations: {rollout.berth.dev/rolled-back: "
                     "'{\"templateHash\":\"a\",\"toTemplateHash\":\"b\"}', keep: me}\n"
                     "spec:\n" +
                     Ref("{type: All}") + kTemplate +
                     "status:\n  conditions:\n  - {type: PlacementVerified, status: \"True\", "
                     "reason: AsExpected, message: \"\", lastTransitionTime: "
                     "\"2026-11-01T00:00:00Z\"}\n  extra: kept\n",
                 diags);
  ASSERT_FALSE(diags.has_errors()) << testing::Dump(diags);
  model::Snapshot& planned = in.snapshot;
  model::ManifestWorkReplicaSet& m = planned.manifest_work_replica_sets.at(0);
  m.stepped = true;
  m.rolled_back.reset();  // released: the annotation goes
  model::Condition verified;
  verified.type = "PlacementVerified";
  verified.status = model::ConditionStatus::kTrue;
  verified.reason = "AsExpected";
  verified.last_transition_time = core::Timestamp{1793577600};
  m.status.conditions = {verified};
  m.status.summary.total = 3;
  m.status.placement_summary.push_back({"llm", "1 (3 / 3 clusters applied)", {}});
  model::ControllerRevision r;
  r.meta.name = "web-" + m.template_hash;
  r.meta.namespace_ = "serving";
  r.revision = 1;
  r.owner_kind = "ManifestWorkReplicaSet";
  r.owner_name = "web";
  r.owner_uid = "u1";
  r.created = true;
  r.template_from = model::WorkSpecSource{m.source, {"spec", "manifestWorkTemplate"}};
  planned.controller_revisions.push_back(r);
  std::ostringstream out;
  WritePlan(planned, PlanItems{}, in.documents, OutputFormat::kYaml, out);
  EXPECT_EQ(out.str(),
            "apiVersion: v1\nkind: List\nitems:\n"
            "- apiVersion: work.open-cluster-management.io/v1alpha1\n"
            "  kind: ManifestWorkReplicaSet\n  metadata:\n    name: web\n    namespace: serving\n"
            "    uid: u1\n    annotations:\n      keep: me\n  spec:\n"
            "    placementRefs:\n    - name: llm\n      rolloutStrategy:\n        type: All\n"
            "    manifestWorkTemplate:\n      workload:\n        manifests:\n"
            "        - apiVersion: v1\n          kind: ConfigMap\n          metadata:\n"
            "            name: web\n            namespace: serving\n          data:\n"
            "            image: v1\n"
            "  status:\n    conditions:\n    - type: PlacementVerified\n      status: \"True\"\n"
            "      reason: AsExpected\n      message: \"\"\n"
            "      lastTransitionTime: \"2026-11-01T00:00:00Z\"\n"
            "    summary:\n      total: 3\n      progressing: 0\n      available: 0\n"
            "      degraded: 0\n      applied: 0\n      desiredTotal: 0\n      updated: 0\n"
            "    placementSummary:\n    - name: llm\n"
            "      availableDecisionGroups: 1 (3 / 3 clusters applied)\n      summary:\n"
            "        total: 0\n        progressing: 0\n        available: 0\n        degraded: 0\n"
            "        applied: 0\n        desiredTotal: 0\n        updated: 0\n"
            "    extra: kept\n"
            "- apiVersion: apps/v1\n  kind: ControllerRevision\n  metadata:\n"
            "    name: web-" +
                m.template_hash +
                "\n    namespace: serving\n"
                "    ownerReferences:\n    - apiVersion: work.open-cluster-management.io/v1alpha1\n"
                "      kind: ManifestWorkReplicaSet\n      name: web\n      uid: u1\n"
                "      controller: true\n      blockOwnerDeletion: true\n"
                "  data:\n    spec:\n      manifestWorkTemplate:\n        workload:\n"
                "          manifests:\n          - apiVersion: v1\n            kind: ConfigMap\n"
                "            metadata:\n              name: web\n              namespace: serving\n"
                "            data:\n              image: v1\n"
                "  revision: 1\n"
                "metadata:\n  resourceVersion: \"\"\n");
  // -o table: the MWRS section.
  m.rollout.state = "Progressing";
  m.rollout.revision = 1;
  m.rollout.applied = 1;
  m.rollout.selected = 3;
  std::ostringstream table;
  WritePlan(planned, PlanItems{}, in.documents, OutputFormat::kTable, table);
  EXPECT_EQ(table.str(),
            "MANIFESTWORKREPLICASETS\n"
            "NAMESPACE   NAME   PLACEMENT   ROLLOUT       APPLIED   REVISION   MESSAGE\n"
            "serving     web    llm         Progressing   1/3       1\n");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
