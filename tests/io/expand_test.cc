// Workload expansion in Reader::Finish: pod names per DESIGN.md, controller labels, owner,
// and the synthetic v1 Pod document each expanded pod carries.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using ::testing::ElementsAre;
using testing::FindPod;
using testing::FixturePath;
using testing::ReadString;

// Pods the workload named `owner` in team-a expanded into, in snapshot order.
std::vector<std::string> ExpandedNames(const model::Snapshot& snap, const std::string& owner) {
  std::vector<std::string> names;
  for (const model::Pod& pod : snap.pods) {
    if (pod.owner.has_value() && pod.owner->name == owner && pod.meta.namespace_ == "team-a") {
      names.push_back(pod.meta.name);
    }
  }
  return names;
}

class ExpandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Reader reader(diags_);
    ASSERT_TRUE(reader.ReadPath(FixturePath("all_kinds.yaml")).ok());
    input_ = reader.Finish();
  }
  const model::Snapshot& Snap() const { return input_.snapshot; }
  core::Diagnostics diags_;
  Input input_;
};

TEST_F(ExpandTest, GivenPodsComeFirst) {
  ASSERT_GE(Snap().pods.size(), 3u);
  EXPECT_EQ(Snap().pods[0].meta.name, "trainer");
  EXPECT_EQ(Snap().pods[1].meta.name, "plain");
  EXPECT_EQ(Snap().pods[2].meta.name, "explicit-priority");
  // 3 given + train 3 + web 2 + db 1 + js 5 + pt 3 + lws 6; the suspended Job adds none.
  EXPECT_EQ(Snap().pods.size(), 23u);
}

TEST_F(ExpandTest, JobPodsAreIndexedAndLabelled) {
  EXPECT_THAT(ExpandedNames(Snap(), "train"), ElementsAre("train-0", "train-1", "train-2"));
  const model::Pod* pod = FindPod(Snap(), "team-a", "train-2");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->meta.labels.at("app"), "train");
  EXPECT_EQ(pod->meta.labels.at("job-name"), "train");
  EXPECT_EQ(pod->meta.labels.at("batch.kubernetes.io/job-completion-index"), "2");
  EXPECT_EQ(pod->meta.labels.at("controller-uid"), "job-uid-1");
  ASSERT_TRUE(pod->owner.has_value());
  EXPECT_EQ(pod->owner->api_version, "batch/v1");
  EXPECT_EQ(pod->owner->kind, "Job");
  EXPECT_EQ(pod->owner->name, "train");
  EXPECT_EQ(pod->priority, 1000);
  EXPECT_EQ(pod->meta.creation_timestamp.ToString(), "2025-03-01T09:00:00Z");
  EXPECT_TRUE(pod->source.valid());
}

TEST_F(ExpandTest, SuspendedJobCreatesNoPods) {
  EXPECT_TRUE(ExpandedNames(Snap(), "held").empty());
  EXPECT_EQ(FindPod(Snap(), "team-a", "held-0"), nullptr);
}

TEST_F(ExpandTest, DeploymentAndStatefulSet) {
  EXPECT_THAT(ExpandedNames(Snap(), "web"), ElementsAre("web-0", "web-1"));
  EXPECT_THAT(ExpandedNames(Snap(), "db"), ElementsAre("db-0"));
  const model::Pod* db = FindPod(Snap(), "team-a", "db-0");
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->meta.labels.at("statefulset.kubernetes.io/pod-name"), "db-0");
  EXPECT_EQ(db->priority, 100);  // the global default class
}

TEST_F(ExpandTest, JobSetPodsNameJobAndIndex) {
  EXPECT_THAT(ExpandedNames(Snap(), "js"),
              ElementsAre("js-leader-0-0", "js-workers-0-0", "js-workers-0-1", "js-workers-1-0",
                          "js-workers-1-1"));
  const model::Pod* pod = FindPod(Snap(), "team-a", "js-workers-1-0");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->meta.labels.at("jobset.sigs.k8s.io/replicatedjob-name"), "workers");
  EXPECT_EQ(pod->meta.labels.at("jobset.sigs.k8s.io/job-index"), "1");
  EXPECT_EQ(pod->meta.labels.at("job-name"), "js-workers-1");
  EXPECT_EQ(pod->meta.labels.at("batch.kubernetes.io/job-completion-index"), "0");
}

TEST_F(ExpandTest, PyTorchJobMasterFirst) {
  EXPECT_THAT(ExpandedNames(Snap(), "pt"), ElementsAre("pt-0", "pt-1", "pt-2"));
  EXPECT_EQ(FindPod(Snap(), "team-a", "pt-0")->meta.labels.at("training.kubeflow.org/replica-type"),
            "master");
  const model::Pod* worker = FindPod(Snap(), "team-a", "pt-2");
  EXPECT_EQ(worker->meta.labels.at("training.kubeflow.org/replica-type"), "worker");
  EXPECT_EQ(worker->meta.labels.at("training.kubeflow.org/replica-index"), "1");
}

TEST_F(ExpandTest, LeaderWorkerSetLeadersThenWorkers) {
  EXPECT_THAT(ExpandedNames(Snap(), "lws"),
              ElementsAre("lws-0", "lws-1", "lws-2", "lws-3", "lws-4", "lws-5"));
  const model::Pod* leader = FindPod(Snap(), "team-a", "lws-1");
  EXPECT_EQ(leader->meta.labels.at("leaderworkerset.sigs.k8s.io/group-index"), "1");
  EXPECT_EQ(leader->meta.labels.at("leaderworkerset.sigs.k8s.io/worker-index"), "0");
  const model::Pod* worker = FindPod(Snap(), "team-a", "lws-5");  // group 1, worker 2
  EXPECT_EQ(worker->meta.labels.at("leaderworkerset.sigs.k8s.io/group-index"), "1");
  EXPECT_EQ(worker->meta.labels.at("leaderworkerset.sigs.k8s.io/worker-index"), "2");
}

TEST_F(ExpandTest, ExpandedPodsCarryACompletePodDocument) {
  const model::Pod* pod = FindPod(Snap(), "team-a", "train-1");
  ASSERT_NE(pod, nullptr);
  const Document& doc = input_.documents.Get(pod->source);
  EXPECT_EQ(doc.kind, "Pod");
  EXPECT_EQ(doc.api_version, "v1");
  EXPECT_EQ(doc.name, "train-1");
  EXPECT_EQ(doc.namespace_, "team-a");
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(doc.json);
  EXPECT_EQ(j["apiVersion"], "v1");
  EXPECT_EQ(j["kind"], "Pod");
  EXPECT_EQ(j["metadata"]["name"], "train-1");
  EXPECT_EQ(j["metadata"]["namespace"], "team-a");
  EXPECT_EQ(j["metadata"]["labels"]["app"], "train");
  EXPECT_EQ(j["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"], "1");
  EXPECT_EQ(j["metadata"]["ownerReferences"][0]["kind"], "Job");
  EXPECT_EQ(j["metadata"]["ownerReferences"][0]["uid"], "job-uid-1");
  EXPECT_EQ(j["metadata"]["ownerReferences"][0]["controller"], true);
  EXPECT_EQ(j["spec"]["containers"][0]["image"], "trainer:1");  // the template's spec as read
  EXPECT_EQ(j["spec"]["priorityClassName"], "high");
}

TEST(ExpandSkipTest, ExistingPodsAreNotDuplicated) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: x}
spec:
  replicas: 3
  template:
    spec:
      containers: [{name: c}]
---
apiVersion: v1
kind: Pod
metadata: {name: db-1, namespace: x}
spec:
  nodeName: n1
  containers: [{name: c}]
)",
                        diags);
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  std::vector<std::string> names = testing::PodNames(in.snapshot);
  EXPECT_THAT(names, ElementsAre("db-1", "db-0", "db-2"));
  EXPECT_EQ(in.snapshot.pods[0].node_name, "n1");  // the given pod, untouched
}

TEST(ExpandSkipTest, TemplateNamingMissingClassDropsTheWorkload) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: x}
spec:
  template:
    spec:
      priorityClassName: missing
      containers: [{name: c}]
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  const core::Location& loc = diags.entries()[0].error.location();
  EXPECT_EQ(loc.file, "test.yaml");
  EXPECT_EQ(loc.object, "Job/x/j");
  EXPECT_EQ(loc.field, "spec.template.spec.priorityClassName");
  EXPECT_TRUE(in.snapshot.workloads.empty());
  EXPECT_TRUE(in.snapshot.pods.empty());
}

TEST(ExpandSkipTest, WorkloadErrorsNameTheTemplateField) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js}
spec:
  replicatedJobs:
  - name: ok
    template: {spec: {template: {spec: {containers: [{name: c}]}}}}
  - name: bad
    template:
      spec:
        template:
          spec:
            containers:
            - name: c
              resources: {limits: {nvidia.com/gpu: 1.5}}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  const core::Location& loc = diags.entries()[0].error.location();
  EXPECT_EQ(loc.object, "JobSet/default/js");
  EXPECT_EQ(loc.field,
            "spec.replicatedJobs[1].template.spec.template.spec.containers[0].resources."
            "limits[nvidia.com/gpu]");
  EXPECT_TRUE(in.snapshot.workloads.empty());
}

TEST(ExpandSkipTest, ZeroReplicasAndNonIndexedJobs) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: none}
spec:
  replicas: 0
  template: {spec: {containers: [{name: c}]}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: plain}
spec:
  parallelism: 2
  template: {spec: {containers: [{name: c}]}}
)",
                        diags);
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  EXPECT_THAT(testing::PodNames(in.snapshot), ElementsAre("plain-0", "plain-1"));
  EXPECT_EQ(in.snapshot.pods[0].meta.labels.count("batch.kubernetes.io/job-completion-index"), 0u);
  ASSERT_EQ(in.snapshot.workloads.size(), 2u);
  EXPECT_EQ(in.snapshot.workloads[0].pod_sets[0].count, 0);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
