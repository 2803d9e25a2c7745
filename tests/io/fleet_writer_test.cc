// Writing the fleet objects of a plan: Placement status and PlacementDecisions patched into
// their documents (or created whole), ManifestWorks rendered from the documents of the
// objects they deliver (per kind, with pod-set templates patched), Workloads' MultiKueue
// status, JSON and YAML alike, same bytes every time.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "io/internal/manifest_work_json.h"
#include "io/internal/yaml_to_json.h"
#include "io/test_util.h"
#include "io/writer.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using OrderedJson = nlohmann::ordered_json;
using testing::Dump;
using testing::ReadString;

std::string Write(const model::Snapshot& planned, const PlanItems& items,
                  const DocumentStore& documents, OutputFormat format) {
  std::ostringstream out;
  WritePlan(planned, items, documents, format, out);
  return out.str();
}

OrderedJson WriteItems(const model::Snapshot& planned, const PlanItems& items,
                       const DocumentStore& documents) {
  return OrderedJson::parse(Write(planned, items, documents, OutputFormat::kJson))["items"];
}

// The YAML output read back as JSON, to compare with the JSON output.
OrderedJson YamlAsJson(const std::string& yaml) {
  std::vector<std::string> docs;
  core::Status status = internal::ConvertYamlStream(
      yaml, [&](std::string&& json, int) { docs.push_back(std::move(json)); });
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(docs.size(), 1u);
  return docs.empty() ? OrderedJson() : OrderedJson::parse(docs[0]);
}

// Both formats carry the same objects, and writing twice gives the same bytes.
void ExpectFormatsAgree(const model::Snapshot& planned, const PlanItems& items,
                        const DocumentStore& documents) {
  std::string json = Write(planned, items, documents, OutputFormat::kJson);
  std::string yaml = Write(planned, items, documents, OutputFormat::kYaml);
  EXPECT_EQ(YamlAsJson(yaml), OrderedJson::parse(json));
  EXPECT_EQ(Write(planned, items, documents, OutputFormat::kJson), json);
  EXPECT_EQ(Write(planned, items, documents, OutputFormat::kYaml), yaml);
}

model::Condition Cond(const char* type, model::ConditionStatus status, const char* reason,
                      const char* message, int64_t t) {
  model::Condition c;
  c.type = type;
  c.status = status;
  c.reason = reason;
  c.message = message;
  if (t != 0) c.last_transition_time = core::Timestamp{t};
  return c;
}

constexpr int64_t kT0 = 1767225600;  // 2026-01-01T00:00:00Z

// ---- Placement ----

constexpr const char* kPlacement = R"({"apiVersion":"cluster.open-cluster-management.io/v1beta1",
"kind":"Placement","metadata":{"name":"train","namespace":"ml","uid":"p-uid",
"managedFields":[{"manager":"kubectl"}]},"spec":{"clusterSets":["gpu"],"numberOfClusters":2},
"status":{"conditions":[
{"type":"PlacementMisconfigured","status":"False","lastTransitionTime":"2025-06-01T00:00:00Z",
 "reason":"Succeedconfigured","message":"Placement configurations check pass"},
{"type":"PlacementSatisfied","status":"False","lastTransitionTime":"2025-06-01T00:00:00Z",
 "reason":"NoManagedClusterMatched","message":"none","observedGeneration":1}],
"numberOfSelectedClusters":0,"lastScoreUpdateTime":"2025-06-01T00:00:00Z"}})";

class PlacementWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = ReadString(kPlacement, diags_, "placement.json");
    ASSERT_FALSE(diags_.has_errors()) << Dump(diags_);
    ASSERT_EQ(in_.snapshot.placements.size(), 1u);
    planned_ = in_.snapshot;
    model::PlacementStatus status;
    status.number_of_selected_clusters = 2;
    status.decision_groups.push_back({0, "", {"train-decision-1"}, 2});
    status.decision_groups.push_back({1, "canary", {"train-decision-2", "train-decision-3"}, 0});
    status.conditions.push_back(Cond("PlacementSatisfied", model::ConditionStatus::kTrue,
                                     "AllDecisionsScheduled", "All cluster decisions scheduled",
                                     kT0));
    status.conditions.push_back(Cond("PlacementMisconfigured", model::ConditionStatus::kFalse,
                                     "Succeedconfigured", "checked", kT0));
    planned_.placements[0].status = status;
  }

  core::Diagnostics diags_;
  Input in_;
  model::Snapshot planned_;
};

TEST_F(PlacementWriterTest, PatchesStatusAndKeepsEverythingElse) {
  PlanItems items;
  items.placements = {0};
  OrderedJson got = WriteItems(planned_, items, in_.documents).at(0);
  OrderedJson original = OrderedJson::parse(kPlacement);
  EXPECT_EQ(got["apiVersion"], original["apiVersion"]);
  EXPECT_EQ(got["metadata"], original["metadata"]);
  EXPECT_EQ(got["spec"], original["spec"]);
  const OrderedJson& status = got["status"];
  // PlacementStatus order first, then what berth does not own, as read.
  std::vector<std::string> keys;
  for (auto it = status.begin(); it != status.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"numberOfSelectedClusters", "decisionGroups",
                                            "conditions", "lastScoreUpdateTime"}));
  EXPECT_EQ(status["numberOfSelectedClusters"], 2);
  EXPECT_EQ(status["decisionGroups"].dump(),
            R"([{"decisionGroupIndex":0,"decisionGroupName":"","decisions":["train-decision-1"],)"
            R"("clusterCount":2},{"decisionGroupIndex":1,"decisionGroupName":"canary",)"
            R"("decisions":["train-decision-2","train-decision-3"],"clusterCount":0}])");
  EXPECT_EQ(status["lastScoreUpdateTime"], "2025-06-01T00:00:00Z");
  const OrderedJson& conditions = status["conditions"];
  ASSERT_EQ(conditions.size(), 2u);
  // Same status: the transition time stays; reason and message are the plan's.
  EXPECT_EQ(conditions[0].dump(),
            R"({"type":"PlacementMisconfigured","status":"False",)"
            R"("lastTransitionTime":"2025-06-01T00:00:00Z","reason":"Succeedconfigured",)"
            R"("message":"checked"})");
  // Status changed: the plan's time; keys berth does not own (observedGeneration) kept.
  EXPECT_EQ(conditions[1].dump(),
            R"({"type":"PlacementSatisfied","status":"True",)"
            R"("lastTransitionTime":"2026-01-01T00:00:00Z","reason":"AllDecisionsScheduled",)"
            R"("message":"All cluster decisions scheduled","observedGeneration":1})");
  ExpectFormatsAgree(planned_, items, in_.documents);
}

TEST_F(PlacementWriterTest, UndecidedPlacementPrintsAsRead) {
  planned_.placements[0].status.reset();
  PlanItems items;
  items.placements = {0};
  EXPECT_EQ(WriteItems(planned_, items, in_.documents).at(0), OrderedJson::parse(kPlacement));
}

TEST_F(PlacementWriterTest, AppendsConditionsTheDocumentLacks) {
  core::Diagnostics diags;
  Input bare = ReadString(R"(
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: p, namespace: ml}
spec: {}
)",
                          diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = bare.snapshot;
  model::PlacementStatus status;
  status.conditions.push_back(Cond("PlacementSatisfied", model::ConditionStatus::kFalse,
                                   "NoManagedClusterSetBindings", "", 0));
  planned.placements[0].status = status;
  PlanItems items;
  items.placements = {0};
  OrderedJson got = WriteItems(planned, items, bare.documents).at(0);
  EXPECT_EQ(got["spec"], OrderedJson::object());
  // Empty lists and strings are written: the Go fields are not omitempty.
  EXPECT_EQ(got["status"].dump(),
            R"({"numberOfSelectedClusters":0,"decisionGroups":[],"conditions":[)"
            R"({"type":"PlacementSatisfied","status":"False",)"
            R"("reason":"NoManagedClusterSetBindings","message":""}]})");
}

// ---- PlacementDecision ----

constexpr const char* kDecision = R"({"apiVersion":"cluster.open-cluster-management.io/v1beta1",
"kind":"PlacementDecision","metadata":{"name":"train-decision-1","namespace":"ml",
"labels":{"cluster.open-cluster-management.io/placement":"train","team":"a"},
"ownerReferences":[{"apiVersion":"cluster.open-cluster-management.io/v1beta1",
"kind":"Placement","name":"train","uid":"p-uid","controller":true}]},
"status":{"decisions":[{"clusterName":"old-1","reason":""},{"clusterName":"old-2","reason":""}]}})";

TEST(PlacementDecisionWriterTest, GivenDecisionGetsLabelsAndDecisions) {
  core::Diagnostics diags;
  Input in = ReadString(kDecision, diags, "pd.json");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = in.snapshot;
  ASSERT_EQ(planned.placement_decisions.size(), 1u);
  model::PlacementDecision& pd = planned.placement_decisions[0];
  EXPECT_EQ(pd.placement, "train");
  pd.meta.labels[model::kDecisionGroupIndexLabel] = "0";
  pd.meta.labels[model::kDecisionGroupNameLabel] = "";
  pd.decisions = {{"us-east", ""}, {"eu-west", "chosen"}};
  PlanItems items;
  items.placement_decisions = {0};
  OrderedJson got = WriteItems(planned, items, in.documents).at(0);
  OrderedJson expected = OrderedJson::parse(kDecision);
  OrderedJson& labels = expected["metadata"]["labels"];
  labels[model::kDecisionGroupIndexLabel] = "0";
  labels[model::kDecisionGroupNameLabel] = "";
  expected["status"]["decisions"] = OrderedJson::parse(
      R"([{"clusterName":"us-east","reason":""},{"clusterName":"eu-west","reason":"chosen"}])");
  EXPECT_EQ(got.dump(), expected.dump());
  ExpectFormatsAgree(planned, items, in.documents);
}

TEST(PlacementDecisionWriterTest, EmptiedDecisionListsNoCluster) {
  core::Diagnostics diags;
  Input in = ReadString(kDecision, diags, "pd.json");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = in.snapshot;
  planned.placement_decisions[0].decisions.clear();
  PlanItems items;
  items.placement_decisions = {0};
  OrderedJson got = WriteItems(planned, items, in.documents).at(0);
  EXPECT_EQ(got["status"].dump(), R"({"decisions":[]})");
}

model::PlacementDecision CreatedDecision() {
  model::PlacementDecision pd;
  pd.meta.name = "train-decision-2";
  pd.meta.namespace_ = "ml";
  pd.meta.labels[model::kPlacementLabel] = "train";
  pd.meta.labels[model::kDecisionGroupNameLabel] = "canary";
  pd.meta.labels[model::kDecisionGroupIndexLabel] = "1";
  pd.placement = "train";
  pd.decisions = {{"eu-west", ""}};
  pd.created = true;
  return pd;
}

TEST(PlacementDecisionWriterTest, CreatedDecisionPrintsWholeWithItsOwner) {
  core::Diagnostics diags;
  Input in = ReadString(kPlacement, diags, "placement.json");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = in.snapshot;
  planned.placement_decisions.push_back(CreatedDecision());
  PlanItems items;
  items.placement_decisions = {0};
  OrderedJson got = WriteItems(planned, items, in.documents).at(0);
  EXPECT_EQ(got.dump(),
            R"({"apiVersion":"cluster.open-cluster-management.io/v1beta1",)"
            R"("kind":"PlacementDecision","metadata":{"name":"train-decision-2","namespace":"ml",)"
            R"("labels":{"cluster.open-cluster-management.io/decision-group-index":"1",)"
            R"("cluster.open-cluster-management.io/decision-group-name":"canary",)"
            R"("cluster.open-cluster-management.io/placement":"train"},)"
            R"("ownerReferences":[{"apiVersion":"cluster.open-cluster-management.io/v1beta1",)"
            R"("kind":"Placement","name":"train","uid":"p-uid","controller":true,)"
            R"("blockOwnerDeletion":true}]},)"
            R"("status":{"decisions":[{"clusterName":"eu-west","reason":""}]}})");
  ExpectFormatsAgree(planned, items, in.documents);
}

TEST(PlacementDecisionWriterTest, CreatedDecisionReadsBack) {
  model::Snapshot planned;
  planned.placement_decisions.push_back(CreatedDecision());
  PlanItems items;
  items.placement_decisions = {0};
  DocumentStore documents;
  core::Diagnostics diags;
  Input again =
      ReadString(Write(planned, items, documents, OutputFormat::kYaml), diags, "plan.yaml");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_EQ(again.snapshot.placement_decisions.size(), 1u);
  const model::PlacementDecision& pd = again.snapshot.placement_decisions[0];
  EXPECT_EQ(pd.meta.name, "train-decision-2");
  EXPECT_EQ(pd.meta.labels, CreatedDecision().meta.labels);
  EXPECT_EQ(pd.placement, "train");
  ASSERT_EQ(pd.decisions.size(), 1u);
  EXPECT_EQ(pd.decisions[0].cluster_name, "eu-west");
}

TEST(PlacementDecisionWriterTest, CreatedDecisionOfAnotherClusterHasNoUid) {
  core::Diagnostics diags;
  Input in = ReadString(kPlacement, diags, "placement.json");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = in.snapshot;
  model::PlacementDecision pd = CreatedDecision();
  pd.cluster = "other-hub";  // its Placement lives in another hub than the one read
  pd.meta.labels.erase(model::kPlacementLabel);
  planned.placement_decisions.push_back(pd);
  PlanItems items;
  items.placement_decisions = {0};
  OrderedJson got = WriteItems(planned, items, in.documents).at(0);
  const OrderedJson& ref = got["metadata"]["ownerReferences"][0];
  EXPECT_EQ(ref["name"], "train");
  EXPECT_FALSE(ref.contains("uid"));
  // The placement label comes from `placement` when the labels lack it.
  EXPECT_EQ(got["metadata"]["labels"][model::kPlacementLabel], "train");
}

// ---- ManifestWork ----

constexpr const char* kJob = R"({"apiVersion":"batch/v1","kind":"Job","metadata":{
"name":"train","namespace":"ml","uid":"u-1","resourceVersion":"42","generation":3,
"creationTimestamp":"2026-01-01T00:00:00Z",
"labels":{"kueue.x-k8s.io/queue-name":"team-a","app":"train"},
"annotations":{"berth.dev/cluster":"hub","note":"keep"},
"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"o","uid":"o-1"}],
"managedFields":[{"manager":"kubectl"}]},
"spec":{"suspend":true,"parallelism":2,"template":{"metadata":{"labels":{"app":"train"}},
"spec":{"nodeSelector":{"zone":"a","gpu":"a100"},
"tolerations":[{"key":"nvidia.com/gpu","effect":"NoSchedule"}],
"containers":[{"name":"c","image":"img","resources":{"requests":{"cpu":"1"}}}]}}},
"status":{"active":0}})";

constexpr const char* kRenderedJob =
    R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"train","namespace":"ml",)"
    R"("labels":{"kueue.x-k8s.io/queue-name":"gpu-lq","app":"train",)"
    R"("berth.dev/workload":"ml.train"},"annotations":{"note":"keep","origin":"hub"}},)"
    R"("spec":{"suspend":false,"parallelism":2,"template":{"metadata":{"labels":)"
    R"({"app":"train"},"annotations":{"topology":"rack"}},"spec":{"nodeSelector":)"
    R"({"zone":"a","gpu":"h100","pool":"p1"},"tolerations":[{"key":"nvidia.com/gpu",)"
    R"("effect":"NoSchedule"},{"key":"dedicated","operator":"Equal","value":"ml",)"
    R"("effect":"NoExecute","tolerationSeconds":30}],"containers":[{"name":"c",)"
    R"("image":"img","resources":{"requests":{"cpu":"1"}}}]}}}})";

core::Toleration Tol(const char* key, const char* value, core::TaintEffect effect,
                     std::optional<int64_t> seconds = std::nullopt) {
  core::Toleration t;
  t.key = key;
  t.value = value;
  t.effect = effect;
  t.toleration_seconds = seconds;
  return t;
}

model::ManifestPatch JobPatch(model::SourceRef source) {
  model::ManifestPatch patch;
  patch.source = source;
  patch.api_version = "batch/v1";
  patch.kind = "Job";
  patch.name = "train";
  patch.namespace_ = "ml";
  patch.queue_name = "gpu-lq";
  patch.suspend = false;
  patch.labels = {{model::kWorkloadLabel, "ml.train"}};
  patch.annotations = {{"origin", "hub"}};
  model::ManifestPatch::TemplatePatch t;
  t.pod_set = "main";
  t.node_selector = {{"gpu", "h100"}, {"pool", "p1"}};
  // The first is the document's own toleration (operator left out there): not added again.
  t.tolerations = {Tol("nvidia.com/gpu", "", core::TaintEffect::kNoSchedule),
                   Tol("dedicated", "ml", core::TaintEffect::kNoExecute, 30)};
  t.annotations = {{"topology", "rack"}};
  patch.templates.push_back(t);
  return patch;
}

model::ManifestWork PlannedWork(model::ManifestPatch patch) {
  model::ManifestWork work;
  work.meta.name = "ml-train";
  work.meta.namespace_ = "us-east";
  work.meta.labels = {{model::kWorkloadLabel, "ml.train"}, {model::kWorkloadClusterLabel, "mk"}};
  work.manifests.push_back(std::move(patch));
  work.created = true;
  return work;
}

class ManifestWorkWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = ReadString(kJob, diags_, "job.json");
    ASSERT_FALSE(diags_.has_errors()) << Dump(diags_);
    ASSERT_EQ(in_.snapshot.workloads.size(), 1u);
    planned_ = in_.snapshot;
  }

  model::SourceRef JobSource() const { return in_.snapshot.workloads[0].source; }

  core::Diagnostics diags_;
  Input in_;
  model::Snapshot planned_;
};

TEST_F(ManifestWorkWriterTest, CreatedWorkPrintsWholeWithTheRenderedJob) {
  model::ManifestWork work = PlannedWork(JobPatch(JobSource()));
  work.delete_propagation = "Foreground";
  model::ManifestConfig config;
  config.resource = {"batch", "jobs", "train", "ml"};
  model::FeedbackRule json_paths;
  json_paths.type = model::FeedbackRuleType::kJsonPaths;
  json_paths.json_paths = {{"active", ".active"}};
  config.feedback_rules = {model::FeedbackRule{}, json_paths};
  config.update_strategy = "ServerSideApply";
  work.manifest_configs.push_back(config);
  planned_.manifest_works.push_back(work);
  PlanItems items;
  items.manifest_works = {0};
  OrderedJson got = WriteItems(planned_, items, in_.documents).at(0);
  EXPECT_EQ(
      got.dump(),
      std::string(R"({"apiVersion":"work.open-cluster-management.io/v1","kind":"ManifestWork",)"
                  R"("metadata":{"name":"ml-train","namespace":"us-east","labels":)"
                  R"({"berth.dev/placed-by":"mk","berth.dev/workload":"ml.train"}},)"
                  R"("spec":{"workload":{"manifests":[)") +
          kRenderedJob +
          R"(]},"deleteOption":{"propagationPolicy":"Foreground"},"manifestConfigs":[)"
          R"({"resourceIdentifier":{"group":"batch","resource":"jobs","name":"train",)"
          R"("namespace":"ml"},"feedbackRules":[{"type":"WellKnownStatus"},)"
          R"({"type":"JSONPaths","jsonPaths":[{"name":"active","path":".active"}]}],)"
          R"("updateStrategy":{"type":"ServerSideApply"}}]}})");
  ExpectFormatsAgree(planned_, items, in_.documents);
}

TEST_F(ManifestWorkWriterTest, PlannedWorkReadsBackAsTheSameWork) {
  model::ManifestWork work = PlannedWork(JobPatch(JobSource()));
  work.delete_propagation = "Orphan";
  model::ManifestConfig config;
  config.resource = {"batch", "jobs", "train", "ml"};
  config.update_strategy = "CreateOnly";
  work.manifest_configs.push_back(config);
  planned_.manifest_works.push_back(work);
  PlanItems items;
  items.manifest_works = {0};
  core::Diagnostics diags;
  Input again =
      ReadString(Write(planned_, items, in_.documents, OutputFormat::kYaml), diags, "plan.yaml");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  // The Job inside the work is not an object of the snapshot.
  EXPECT_TRUE(again.snapshot.workloads.empty());
  ASSERT_EQ(again.snapshot.manifest_works.size(), 1u);
  const model::ManifestWork& read = again.snapshot.manifest_works[0];
  EXPECT_EQ(read.meta.name, "ml-train");
  EXPECT_EQ(read.meta.namespace_, "us-east");
  EXPECT_EQ(read.meta.labels, work.meta.labels);
  ASSERT_EQ(read.read_manifests.size(), 1u);
  EXPECT_EQ(read.read_manifests[0].api_version, "batch/v1");
  EXPECT_EQ(read.read_manifests[0].kind, "Job");
  EXPECT_EQ(read.read_manifests[0].name, "train");
  EXPECT_EQ(read.read_manifests[0].namespace_, "ml");
  EXPECT_EQ(read.delete_propagation, "Orphan");
  ASSERT_EQ(read.manifest_configs.size(), 1u);
  EXPECT_EQ(read.manifest_configs[0].resource.resource, "jobs");
  EXPECT_EQ(read.manifest_configs[0].update_strategy, "CreateOnly");
}

TEST_F(ManifestWorkWriterTest, OptionalSpecFieldsAreLeftOut) {
  model::ManifestPatch patch;
  patch.source = JobSource();
  patch.kind = "Job";
  planned_.manifest_works.push_back(PlannedWork(patch));
  planned_.manifest_works[0].meta.labels.clear();
  PlanItems items;
  items.manifest_works = {0};
  OrderedJson got = WriteItems(planned_, items, in_.documents).at(0);
  EXPECT_FALSE(got["metadata"].contains("labels"));
  EXPECT_EQ(got["spec"].size(), 1u);  // workload only
  const OrderedJson& job = got["spec"]["workload"]["manifests"][0];
  // No patch: only what the source cluster's API server owns is gone.
  OrderedJson expected = OrderedJson::parse(kJob);
  expected.erase("status");
  for (const char* key : {"uid", "resourceVersion", "generation", "creationTimestamp",
                          "managedFields", "ownerReferences"}) {
    expected["metadata"].erase(key);
  }
  expected["metadata"]["annotations"].erase("berth.dev/cluster");
  EXPECT_EQ(job.dump(), expected.dump());
}

TEST_F(ManifestWorkWriterTest, EmptyQueueNameRemovesTheLabel) {
  model::ManifestPatch patch;
  patch.source = JobSource();
  patch.kind = "Job";
  patch.queue_name = "";
  OrderedJson job = internal::RenderManifest(patch, in_.documents);
  EXPECT_EQ(job["metadata"]["labels"].dump(), R"({"app":"train"})");
  patch.labels.clear();
  // Removing the last label removes the map.
  core::Diagnostics diags;
  Input only_queue = ReadString(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: j, labels: {kueue.x-k8s.io/queue-name: q}, annotations: {berth.dev/cluster: hub}}
spec: {template: {spec: {containers: [{name: c}]}}}
)",
                                diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  patch.source = only_queue.snapshot.workloads.at(0).source;
  job = internal::RenderManifest(patch, only_queue.documents);
  EXPECT_FALSE(job["metadata"].contains("labels"));
  EXPECT_FALSE(job["metadata"].contains("annotations"));
}

TEST_F(ManifestWorkWriterTest, GivenWorkPrintsAsRead) {
  constexpr const char* kGiven =
      R"({"apiVersion":"work.open-cluster-management.io/v1","kind":"ManifestWork",)"
      R"("metadata":{"name":"w","namespace":"us-east","resourceVersion":"7"},)"
      R"("spec":{"workload":{"manifests":[{"apiVersion":"v1","kind":"ConfigMap",)"
      R"("metadata":{"name":"c","namespace":"ml","uid":"kept"}}]},"x-unknown":1},)"
      R"("status":{"conditions":[]}})";
  core::Diagnostics diags;
  Input in = ReadString(kGiven, diags, "work.json");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  PlanItems items;
  items.manifest_works = {0};
  EXPECT_EQ(WriteItems(in.snapshot, items, in.documents).at(0).dump(),
            OrderedJson::parse(kGiven).dump());
}

TEST_F(ManifestWorkWriterTest, ItemsComeInPlanOrder) {
  core::Diagnostics diags;
  Input in = ReadString(std::string(kPlacement) + kDecision + kJob, diags, "all.json");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = in.snapshot;
  planned.placements[0].status = model::PlacementStatus{};
  planned.manifest_works.push_back(PlannedWork(JobPatch(planned.workloads[0].source)));
  ASSERT_EQ(planned.kueue_workloads.size(), 1u);  // created for the queued Job
  PlanItems items;
  items.workloads = {0};
  items.placements = {0};
  items.placement_decisions = {0};
  items.manifest_works = {0};
  OrderedJson list = WriteItems(planned, items, in.documents);
  ASSERT_EQ(list.size(), 4u);
  EXPECT_EQ(list[0]["kind"], "Workload");
  EXPECT_EQ(list[1]["kind"], "Placement");
  EXPECT_EQ(list[2]["kind"], "PlacementDecision");
  EXPECT_EQ(list[3]["kind"], "ManifestWork");
}

// One manifest per workload kind, each patched in the template of the named pod set.
struct KindCase {
  const char* name;
  const char* document;
  const char* pod_set;
  const char* template_pointer;   // JSON pointer of the patched template in the manifest
  const char* untouched_pointer;  // another template that must stay as read ("" for none)
};

class ManifestTemplateTest : public ::testing::TestWithParam<KindCase> {};

model::ManifestPatch::TemplatePatch GpuTemplatePatch(const char* pod_set) {
  model::ManifestPatch::TemplatePatch t;
  t.pod_set = pod_set;
  t.node_selector = {{"gpu", "h100"}};
  t.tolerations = {Tol("gpu", "", core::TaintEffect::kNoSchedule)};
  t.annotations = {{"a", "b"}};
  return t;
}

// The source of the first object read, whatever its kind.
model::SourceRef FirstSource(const model::Snapshot& snap) {
  if (!snap.workloads.empty()) return snap.workloads[0].source;
  return snap.pods.at(0).source;
}

TEST_P(ManifestTemplateTest, PatchesThePodSetsTemplate) {
  const KindCase& c = GetParam();
  core::Diagnostics diags;
  Input in = ReadString(c.document, diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::ManifestPatch patch;
  patch.source = FirstSource(in.snapshot);
  patch.templates.push_back(GpuTemplatePatch(c.pod_set));
  model::ManifestPatch plain;  // no changes: the manifest as the cluster would get it
  plain.source = patch.source;
  OrderedJson original = internal::RenderManifest(plain, in.documents);
  OrderedJson got = internal::RenderManifest(patch, in.documents);
  const OrderedJson& tmpl = got.at(OrderedJson::json_pointer(c.template_pointer));
  EXPECT_EQ(tmpl["spec"]["nodeSelector"]["gpu"], "h100") << got.dump();
  EXPECT_EQ(tmpl["spec"]["tolerations"].back().dump(),
            R"({"key":"gpu","operator":"Equal","effect":"NoSchedule"})");
  EXPECT_EQ(tmpl["metadata"]["annotations"]["a"], "b");
  // The containers are those of the document.
  EXPECT_EQ(tmpl["spec"]["containers"],
            original.at(OrderedJson::json_pointer(c.template_pointer))["spec"]["containers"]);
  if (std::string(c.untouched_pointer).empty()) return;
  OrderedJson::json_pointer other(c.untouched_pointer);
  EXPECT_EQ(got.at(other), original.at(other)) << got.dump();
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, ManifestTemplateTest,
    ::testing::Values(KindCase{"Deployment", R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: ml}
spec: {replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
)",
                               "main", "/spec/template", ""},
                      KindCase{"StatefulSet", R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s, namespace: ml}
spec: {replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
)",
                               "main", "/spec/template", ""},
                      KindCase{"JobSet", R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ml}
spec:
  replicatedJobs:
  - name: driver
    template: {spec: {template: {spec: {containers: [{name: d, image: i}]}}}}
  - name: workers
    replicas: 2
    template: {spec: {parallelism: 2, template: {spec: {containers: [{name: w, image: i}]}}}}
)",
                               "workers", "/spec/replicatedJobs/1/template/spec/template",
                               "/spec/replicatedJobs/0/template/spec/template"},
                      KindCase{"PyTorchJob", R"(
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt, namespace: ml}
spec:
  pytorchReplicaSpecs:
    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: m}]}}}
    Worker: {replicas: 3, template: {spec: {containers: [{name: pytorch, image: w}]}}}
)",
                               "worker", "/spec/pytorchReplicaSpecs/Worker/template",
                               "/spec/pytorchReplicaSpecs/Master/template"},
                      KindCase{"LeaderWorkerSetLeader", R"(
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: lws, namespace: ml}
spec:
  replicas: 1
  leaderWorkerTemplate:
    size: 3
    leaderTemplate: {spec: {containers: [{name: l, image: i}]}}
    workerTemplate: {spec: {containers: [{name: w, image: i}]}}
)",
                               "leader", "/spec/leaderWorkerTemplate/leaderTemplate",
                               "/spec/leaderWorkerTemplate/workerTemplate"},
                      KindCase{"LeaderWorkerSetWorker", R"(
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: lws, namespace: ml}
spec:
  replicas: 1
  leaderWorkerTemplate:
    size: 3
    leaderTemplate: {spec: {containers: [{name: l, image: i}]}}
    workerTemplate: {spec: {containers: [{name: w, image: i}]}}
)",
                               "worker", "/spec/leaderWorkerTemplate/workerTemplate",
                               "/spec/leaderWorkerTemplate/leaderTemplate"},
                      KindCase{"MPIJob", R"(
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: mpi, namespace: ml}
spec:
  mpiReplicaSpecs:
    Launcher: {replicas: 1, template: {spec: {containers: [{name: l, image: i}]}}}
    Worker: {replicas: 2, template: {spec: {containers: [{name: w, image: i}]}}}
)",
                               "worker", "/spec/mpiReplicaSpecs/Worker/template",
                               "/spec/mpiReplicaSpecs/Launcher/template"},
                      KindCase{"RayClusterWorkerGroup", R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc, namespace: ml}
spec:
  headGroupSpec: {template: {spec: {containers: [{name: head, image: ray}]}}}
  workerGroupSpecs:
  - {groupName: CPU, replicas: 1, template: {spec: {containers: [{name: w, image: ray}]}}}
  - {groupName: GPU, replicas: 2, template: {spec: {containers: [{name: g, image: ray}]}}}
)",
                               "gpu", "/spec/workerGroupSpecs/1/template",
                               "/spec/workerGroupSpecs/0/template"},
                      KindCase{"RayJobHead", R"(
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: rj, namespace: ml}
spec:
  entrypoint: python train.py
  submitterPodTemplate: {spec: {containers: [{name: s, image: ray}]}}
  rayClusterSpec:
    headGroupSpec: {template: {spec: {containers: [{name: head, image: ray}]}}}
)",
                               "head", "/spec/rayClusterSpec/headGroupSpec/template",
                               "/spec/submitterPodTemplate"},
                      KindCase{"VolcanoJob", R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: vc, namespace: ml}
spec:
  tasks:
  - {name: ps, replicas: 1, template: {spec: {containers: [{name: ps, image: i}]}}}
  - {replicas: 2, template: {spec: {containers: [{name: w, image: i}]}}}
)",
                               "default1", "/spec/tasks/1/template", "/spec/tasks/0/template"},
                      KindCase{"Pod", R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml}
spec: {containers: [{name: c, image: i}]}
)",
                               "main", "", ""}),
    [](const ::testing::TestParamInfo<KindCase>& info) { return std::string(info.param.name); });

TEST(ManifestTemplateKindTest, PyTorchJobSuspendsThroughRunPolicy) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt, namespace: ml}
spec:
  runPolicy: {suspend: true, cleanPodPolicy: None}
  pytorchReplicaSpecs:
    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: m}]}}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::ManifestPatch patch;
  patch.source = in.snapshot.workloads.at(0).source;
  patch.kind = "PyTorchJob";
  patch.suspend = false;
  OrderedJson got = internal::RenderManifest(patch, in.documents);
  EXPECT_EQ(got["spec"]["runPolicy"].dump(), R"({"suspend":false,"cleanPodPolicy":"None"})");
  EXPECT_FALSE(got["spec"].contains("suspend"));
}

TEST(ManifestTemplateKindTest, MPIJobSuspendsThroughRunPolicyAndRayJobItsSpec) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: mpi, namespace: ml}
spec:
  runPolicy: {suspend: true}
  mpiReplicaSpecs:
    Launcher: {replicas: 1, template: {spec: {containers: [{name: l, image: i}]}}}
---
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: rj, namespace: ml}
spec:
  suspend: true
  entrypoint: python train.py
  rayClusterSpec:
    headGroupSpec: {template: {spec: {containers: [{name: head, image: rayproject/ray:2.9}]}}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::ManifestPatch mpi;
  mpi.source = in.snapshot.workloads.at(0).source;
  mpi.suspend = false;
  OrderedJson got = internal::RenderManifest(mpi, in.documents);
  EXPECT_EQ(got["spec"]["runPolicy"].dump(), R"({"suspend":false})");
  EXPECT_FALSE(got["spec"].contains("suspend"));

  model::ManifestPatch ray;
  ray.source = in.snapshot.workloads.at(1).source;
  ray.suspend = false;
  got = internal::RenderManifest(ray, in.documents);
  EXPECT_EQ(got["spec"]["suspend"], false);
  // No submitter patch: the submitter template stays absent (KubeRay defaults it).
  EXPECT_FALSE(got["spec"].contains("submitterPodTemplate"));
  // A submitter patch writes the default template Kueue writes, then injects into it.
  ray.templates.push_back(GpuTemplatePatch("submitter"));
  got = internal::RenderManifest(ray, in.documents);
  const OrderedJson& submitter = got["spec"]["submitterPodTemplate"];
  EXPECT_EQ(submitter["spec"]["containers"][0]["name"], "ray-job-submitter");
  EXPECT_EQ(submitter["spec"]["containers"][0]["image"], "rayproject/ray:2.9");
  EXPECT_EQ(submitter["spec"]["restartPolicy"], "Never");
  EXPECT_EQ(submitter["spec"]["nodeSelector"].dump(), R"({"gpu":"h100"})");
}

TEST(ManifestTemplateKindTest, JobSetSuspendsItsSpec) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ml}
spec:
  replicatedJobs:
  - name: w
    template: {spec: {template: {spec: {containers: [{name: w, image: i}]}}}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::ManifestPatch patch;
  patch.source = in.snapshot.workloads.at(0).source;
  patch.kind = "JobSet";
  patch.suspend = true;
  OrderedJson got = internal::RenderManifest(patch, in.documents);
  EXPECT_EQ(got["spec"]["suspend"], true);
}

constexpr const char* kSharedTemplateLws = R"(
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: lws, namespace: ml}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 4
    workerTemplate: {spec: {containers: [{name: w, image: i}]}}
)";

TEST(ManifestTemplateKindTest, LeaderWithItsOwnPatchGetsItsOwnTemplate) {
  core::Diagnostics diags;
  Input in = ReadString(kSharedTemplateLws, diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::ManifestPatch patch;
  patch.source = in.snapshot.workloads.at(0).source;
  patch.kind = "LeaderWorkerSet";
  model::ManifestPatch::TemplatePatch leader = GpuTemplatePatch("leader");
  leader.node_selector = {{"role", "leader"}};
  patch.templates = {GpuTemplatePatch("worker"), leader};
  OrderedJson got = internal::RenderManifest(patch, in.documents);
  const OrderedJson& lwt = got["spec"]["leaderWorkerTemplate"];
  ASSERT_TRUE(lwt.contains("leaderTemplate")) << got.dump();
  EXPECT_EQ(lwt["leaderTemplate"]["spec"]["nodeSelector"].dump(), R"({"role":"leader"})");
  EXPECT_EQ(lwt["workerTemplate"]["spec"]["nodeSelector"].dump(), R"({"gpu":"h100"})");
  EXPECT_EQ(lwt["leaderTemplate"]["spec"]["containers"],
            lwt["workerTemplate"]["spec"]["containers"]);
}

TEST(ManifestTemplateKindTest, LeaderSharingTheWorkersPatchKeepsOneTemplate) {
  core::Diagnostics diags;
  Input in = ReadString(kSharedTemplateLws, diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::ManifestPatch patch;
  patch.source = in.snapshot.workloads.at(0).source;
  patch.kind = "LeaderWorkerSet";
  patch.templates = {GpuTemplatePatch("leader"), GpuTemplatePatch("main")};
  OrderedJson got = internal::RenderManifest(patch, in.documents);
  const OrderedJson& lwt = got["spec"]["leaderWorkerTemplate"];
  EXPECT_FALSE(lwt.contains("leaderTemplate"));
  // Applied twice, added once.
  EXPECT_EQ(lwt["workerTemplate"]["spec"]["tolerations"].size(), 1u);
  EXPECT_EQ(lwt["workerTemplate"]["spec"]["nodeSelector"].dump(), R"({"gpu":"h100"})");
}

TEST(ManifestHubFieldsTest, PodLosesNodeNameAndKueueGateWhenTheWorkerRunsNoKueue) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  nodeName: hub-node
  schedulingGates: [{name: kueue.x-k8s.io/admission}, {name: example.com/other}]
  containers: [{name: c, image: i}]
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::ManifestPatch patch;
  patch.source = in.snapshot.pods.at(0).source;
  patch.kind = "Pod";
  patch.queue_name = "";  // no Kueue on the worker
  OrderedJson got = internal::RenderManifest(patch, in.documents);
  EXPECT_FALSE(got["spec"].contains("nodeName"));
  EXPECT_EQ(got["spec"]["schedulingGates"].dump(), R"([{"name":"example.com/other"}])");
  // With a worker queue, the worker's Kueue lifts its own gate.
  patch.queue_name = "lq";
  got = internal::RenderManifest(patch, in.documents);
  EXPECT_EQ(got["spec"]["schedulingGates"].size(), 2u);
}

TEST(ManifestHubFieldsTest, JobLosesMultiKueueManagedBy) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: ml}
spec:
  managedBy: kueue.x-k8s.io/multikueue
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::ManifestPatch patch;
  patch.source = in.snapshot.workloads.at(0).source;
  patch.kind = "Job";
  OrderedJson got = internal::RenderManifest(patch, in.documents);
  EXPECT_FALSE(got["spec"].contains("managedBy"));
}

TEST(ManifestTemplateKindTest, PodIsItsOwnTemplate) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml, annotations: {x: y}}
spec:
  nodeName: n1
  containers: [{name: c, image: i}]
  tolerations: [{key: gpu, operator: Equal, effect: NoSchedule}]
status: {phase: Pending}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::ManifestPatch patch;
  patch.source = in.snapshot.pods.at(0).source;
  patch.kind = "Pod";
  patch.templates.push_back(GpuTemplatePatch("main"));
  OrderedJson got = internal::RenderManifest(patch, in.documents);
  EXPECT_EQ(got["metadata"]["annotations"].dump(), R"({"x":"y","a":"b"})");
  EXPECT_EQ(got["spec"]["tolerations"].size(), 1u);  // the same toleration is there already
  EXPECT_EQ(got["spec"]["nodeSelector"].dump(), R"({"gpu":"h100"})");
  EXPECT_FALSE(got.contains("status"));
}

using ManifestWorkDeathTest = ManifestWorkWriterTest;

TEST_F(ManifestWorkDeathTest, APodSetTheDocumentLacksIsABug) {
  model::ManifestPatch patch;
  patch.source = JobSource();
  patch.kind = "Job";
  patch.templates.push_back(GpuTemplatePatch("worker"));
  EXPECT_DEATH((void)internal::RenderManifest(patch, in_.documents), "pod set \"worker\"");
}

TEST_F(ManifestWorkDeathTest, SuspendForAKindWithoutItIsABug) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: ml}
spec: {template: {spec: {containers: [{name: c}]}}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::ManifestPatch patch;
  patch.source = in.snapshot.workloads.at(0).source;
  patch.kind = "Deployment";
  patch.suspend = false;
  EXPECT_DEATH((void)internal::RenderManifest(patch, in.documents), "no suspend field");
}

TEST_F(ManifestWorkDeathTest, APatchWithoutADocumentIsABug) {
  model::ManifestPatch patch;
  patch.kind = "Job";
  patch.name = "ghost";
  EXPECT_DEATH((void)internal::RenderManifest(patch, in_.documents), "ghost has no document");
}

// ---- Workload (MultiKueue status) ----

constexpr const char* kNominated = R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload",
"metadata":{"name":"wl","namespace":"ml"},
"spec":{"queueName":"lq","podSets":[{"name":"main","count":1,
"template":{"spec":{"containers":[{"name":"c"}]}}}]},
"status":{"nominatedClusterNames":["us-east","eu-west"],"requeueState":{"count":1}}})";

class WorkloadClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = ReadString(kNominated, diags_, "wl.json");
    ASSERT_FALSE(diags_.has_errors()) << Dump(diags_);
    planned_ = in_.snapshot;
  }

  OrderedJson Status() {
    PlanItems items;
    items.workloads = {0};
    return WriteItems(planned_, items, in_.documents).at(0)["status"];
  }

  core::Diagnostics diags_;
  Input in_;
  model::Snapshot planned_;
};

TEST_F(WorkloadClusterTest, UnchangedNominationsComeBackAsRead) {
  EXPECT_EQ(Status().dump(),
            R"({"nominatedClusterNames":["us-east","eu-west"],"requeueState":{"count":1}})");
}

TEST_F(WorkloadClusterTest, ClusterNameReplacesTheNominations) {
  planned_.kueue_workloads[0].cluster_name = "eu-west";
  EXPECT_EQ(Status().dump(), R"({"requeueState":{"count":1},"clusterName":"eu-west"})");
}

TEST_F(WorkloadClusterTest, NewNominationsReplaceTheOldInPlace) {
  planned_.kueue_workloads[0].nominated_cluster_names = {"ap-south"};
  EXPECT_EQ(Status().dump(),
            R"({"nominatedClusterNames":["ap-south"],"requeueState":{"count":1}})");
}

TEST_F(WorkloadClusterTest, NoNominationsRemovesThem) {
  planned_.kueue_workloads[0].nominated_cluster_names.clear();
  EXPECT_EQ(Status().dump(), R"({"requeueState":{"count":1}})");
}

TEST(WorkloadClusterCreatedTest, CreatedWorkloadCarriesItsCluster) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {suspend: true, template: {spec: {containers: [{name: c}]}}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = in.snapshot;
  ASSERT_EQ(planned.kueue_workloads.size(), 1u);
  planned.kueue_workloads[0].nominated_cluster_names = {"a", "b"};
  PlanItems items;
  items.workloads = {0};
  OrderedJson wl = WriteItems(planned, items, in.documents).at(0);
  EXPECT_EQ(wl["status"]["nominatedClusterNames"].dump(), R"(["a","b"])");
  EXPECT_FALSE(wl["status"].contains("clusterName"));
  planned.kueue_workloads[0].cluster_name = "b";
  wl = WriteItems(planned, items, in.documents).at(0);
  EXPECT_EQ(wl["status"].dump(), R"({"clusterName":"b"})");
}

// ---- Table ----

model::WorkloadCondition WlCond(const char* type, const char* status, const char* message) {
  model::WorkloadCondition c;
  c.type = type;
  c.status = status;
  c.message = message;
  return c;
}

TEST(FleetTableTest, ListsPlacementsWorksAndDeletedObjects) {
  model::Snapshot planned;
  model::Placement train;
  train.meta.name = "train";
  train.meta.namespace_ = "ml";
  model::PlacementStatus status;
  status.number_of_selected_clusters = 2;
  status.decision_groups.push_back({0, "", {"train-decision-1"}, 1});
  status.decision_groups.push_back({1, "canary", {"train-decision-2"}, 1});
  status.conditions.push_back(
      Cond("PlacementMisconfigured", model::ConditionStatus::kFalse, "Succeedconfigured", "", 0));
  status.conditions.push_back(Cond("PlacementSatisfied", model::ConditionStatus::kFalse,
                                   "NotAllDecisionsScheduled", "1 cluster decisions unscheduled",
                                   0));
  train.status = status;
  model::Placement idle;
  idle.meta.name = "idle";
  idle.meta.namespace_ = "ml";
  planned.placements = {train, idle};

  model::ManifestPatch job;
  job.kind = "Job";
  job.namespace_ = "ml";
  job.name = "train";
  model::ManifestPatch role;
  role.kind = "ClusterRole";
  role.name = "reader";
  model::ManifestWork created = PlannedWork(job);
  created.manifests.push_back(role);
  model::ManifestWork given;
  given.meta.name = "given";
  given.meta.namespace_ = "us-west";
  given.read_manifests.push_back({"v1", "ConfigMap", "c", "ml"});
  planned.manifest_works = {created, given};

  PlanItems items;
  items.placements = {0, 1};
  items.manifest_works = {0, 1};
  items.deleted_objects = {{"work.open-cluster-management.io/v1", "ManifestWork", "us-west",
                            "ml-train", "workload ml/train now runs on us-east"},
                           {"cluster.open-cluster-management.io/v1beta1", "PlacementDecision", "ml",
                            "train-decision-3", "stale"},
                           {"kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "old", "gone"}};
  DocumentStore documents;
  EXPECT_EQ(Write(planned, items, documents, OutputFormat::kTable),
            "PLACEMENTS\n"
            "NAMESPACE   NAME    SELECTED   SATISFIED                          DECISIONS\n"
            "ml          train   2          False (NotAllDecisionsScheduled)   "
            "train-decision-1, train-decision-2\n"
            "ml          idle    <none>     <none>                             <none>\n"
            "\n"
            "MANIFESTWORKS\n"
            "CLUSTER   NAME       WORKLOAD   MANIFESTS\n"
            "us-east   ml-train   ml.train   Job/ml/train, ClusterRole/reader\n"
            "us-west   given      <none>     ConfigMap/ml/c\n"
            "\n"
            "DELETED\n"
            "ManifestWork us-west/ml-train: workload ml/train now runs on us-east\n"
            "PlacementDecision ml/train-decision-3: stale\n"
            "MultiKueueCluster old: gone\n");
}

TEST(FleetTableTest, WorkloadsGetAClusterColumnOnlyInFleetPlans) {
  model::Snapshot planned;
  model::Workload a;
  a.meta.name = "job-a";
  a.meta.namespace_ = "ml";
  a.queue_name = "lq";
  a.cluster_name = "us-east";
  a.conditions = {WlCond("Admitted", "True", "The workload is admitted")};
  model::Workload b;
  b.meta.name = "job-b";
  b.meta.namespace_ = "ml";
  b.queue_name = "lq";
  b.conditions = {WlCond("QuotaReserved", "False", "waiting")};
  planned.kueue_workloads = {a, b};
  PlanItems items;
  items.workloads = {0, 1};
  DocumentStore documents;
  EXPECT_EQ(Write(planned, items, documents, OutputFormat::kTable),
            "WORKLOADS\n"
            "NAMESPACE   NAME    QUEUE   CLUSTERQUEUE   CLUSTER   STATUS     FLAVORS   MESSAGE\n"
            "ml          job-a   lq      <none>         us-east   Admitted   <none>    "
            "The workload is admitted\n"
            "ml          job-b   lq      <none>         <none>    Pending    <none>    waiting\n");
  items.workloads = {1};
  EXPECT_THAT(Write(planned, items, documents, OutputFormat::kTable),
              ::testing::Not(::testing::HasSubstr("CLUSTER ")));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
