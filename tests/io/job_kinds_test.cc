// Issue 18 item 5: Kubeflow TrainJob (trainer.kubeflow.org/v1alpha1) expanded from the runtime
// it names as the trainer's JobSet would be, Kueue Workloads for queued ones, the
// scheduler's own gang API (scheduling.k8s.io Workload and pods' spec.workloadRef), Kueue's
// priority rule for multi-role jobs, and bad input as errors naming file, object and field.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::ReadString;

// A ClusterTrainingRuntime (or TrainingRuntime in ns when `kind` says so) named `name`: a
// dataset initializer (replicas 3, which the trainer forces to 1), and the trainer job
// "node" (parallelism 1; container "node" asking for 1 cpu, plus a sidecar "aux").
std::string Runtime(const std::string& name, const std::string& kind = "ClusterTrainingRuntime",
                    const std::string& ml_policy = "  mlPolicy: {numNodes: 2}\n") {
  std::string text = "---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: " + kind +
                     "\nmetadata:\n  name: " + name + "\n";
  if (kind == "TrainingRuntime") text += "  namespace: ns\n";
  return text + "spec:\n" + ml_policy +
         "  template:\n    spec:\n      replicatedJobs:\n"
         "      - name: dataset-initializer\n        replicas: 3\n        template:\n"
         "          metadata:\n            labels: {trainer.kubeflow.org/trainjob-ancestor-step: "
         "dataset-initializer}\n"
         "          spec:\n            template:\n              spec:\n                containers:\n"
         "                - name: dataset-initializer\n                  image: init\n"
         "      - name: node\n        template:\n          metadata:\n"
         "            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}\n"
         "          spec:\n            parallelism: 1\n            template:\n              spec:\n"
         "                containers:\n                - name: node\n                  image: base\n"
         "                  resources: {requests: {cpu: \"1\"}}\n"
         "                - name: aux\n                  image: aux\n"
         "                  resources: {requests: {cpu: 100m}}\n";
}

std::string TrainJob(const std::string& spec_extra, const std::string& labels = "") {
  return "---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: tj\n"
         "  namespace: ns\n  uid: utj\n" +
         labels + "spec:\n" + spec_extra;
}

std::vector<std::string> Expanded(const Input& input) {
  std::vector<std::string> names;
  for (const model::Pod& pod : input.snapshot.pods) {
    if (pod.owner.has_value()) names.push_back(pod.meta.name);
  }
  return names;
}

int64_t Cpu(const Input& in, const model::Pod& pod, size_t container) {
  model::ResourceId cpu;
  if (!in.snapshot.resources.Find("cpu", &cpu)) return -1;
  return pod.containers.at(container).requests.Get(cpu);
}

TEST(JobKindsTest, TrainJobExpandsAsTheTrainersJobSetWithNumNodesAndResourcesPerNode) {
  core::Diagnostics diags;
  // The job comes before its runtime: resolved once every file is read.
  Input in = ReadString(TrainJob("  runtimeRef: {name: torch}\n  trainer:\n    numNodes: 3\n"
                                 "    image: mine\n"
                                 "    resourcesPerNode: {requests: {cpu: \"4\"}}\n") +
                            Runtime("torch"),
                        diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  // Initializer forced to one Job; trainer one Job of numNodes pods (the job's 3, not the
  // runtime's 2); named <trainjob>-<replicatedJob>-<job>-<pod> as the JobSet names them.
  EXPECT_THAT(Expanded(in), ElementsAre("tj-dataset-initializer-0-0", "tj-node-0-0",
                                        "tj-node-0-1", "tj-node-0-2"));
  const model::Pod* node = testing::FindPod(in.snapshot, "ns", "tj-node-0-2");
  ASSERT_NE(node, nullptr);
  ASSERT_EQ(node->containers.size(), 2u);
  EXPECT_EQ(Cpu(in, *node, 0), 4000) << "resourcesPerNode replaces the node container's";
  EXPECT_EQ(Cpu(in, *node, 1), 100) << "other containers keep theirs";
  EXPECT_EQ(node->containers[0].image, "mine");
  EXPECT_EQ(node->meta.labels.at("jobset.sigs.k8s.io/jobset-name"), "tj");
  EXPECT_EQ(node->meta.labels.at("jobset.sigs.k8s.io/replicatedjob-name"), "node");
  // The pod's document is what the trainer's JobSet would create.
  const std::string_view doc = in.documents.Get(node->source).json.view();
  EXPECT_NE(doc.find(R"("requests":{"cpu":"4"})"), std::string_view::npos) << doc;
  EXPECT_NE(doc.find(R"("image":"mine")"), std::string_view::npos) << doc;
}

TEST(JobKindsTest, RuntimeNumNodesAppliesWhenTheJobNamesNone) {
  core::Diagnostics diags;
  Input in = ReadString(Runtime("torch") + TrainJob("  runtimeRef: {name: torch}\n"), diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  EXPECT_THAT(Expanded(in),
              ElementsAre("tj-dataset-initializer-0-0", "tj-node-0-0", "tj-node-0-1"));
  const model::Pod* node = testing::FindPod(in.snapshot, "ns", "tj-node-0-0");
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(Cpu(in, *node, 0), 1000);
}

TEST(JobKindsTest, TrainingRuntimeIsLookedUpInTheJobsNamespace) {
  core::Diagnostics diags;
  Input in = ReadString(
      Runtime("local", "TrainingRuntime", "") +
          TrainJob("  runtimeRef: {name: local, kind: TrainingRuntime}\n"),
      diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  // Without numNodes anywhere the trainer job keeps its template's parallelism.
  EXPECT_THAT(Expanded(in), ElementsAre("tj-dataset-initializer-0-0", "tj-node-0-0"));
}

TEST(JobKindsTest, SuspendedTrainJobMakesNoPodsUnlessQueued) {
  core::Diagnostics diags;
  Input held = ReadString(
      Runtime("torch") + TrainJob("  suspend: true\n  runtimeRef: {name: torch}\n"), diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  EXPECT_THAT(Expanded(held), IsEmpty());
  EXPECT_THAT(held.snapshot.kueue_workloads, IsEmpty());

  Input queued = ReadString(
      Runtime("torch") + TrainJob("  suspend: true\n  runtimeRef: {name: torch}\n",
                                  "  labels: {kueue.x-k8s.io/queue-name: q}\n"),
      diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(queued.snapshot.kueue_workloads.size(), 1u);
  const model::Workload& wl = queued.snapshot.kueue_workloads[0];
  EXPECT_EQ(wl.meta.name, "trainjob-tj");
  std::vector<std::string> sets;
  for (const model::KueuePodSet& s : wl.pod_sets) sets.push_back(s.name + "=" + std::to_string(s.count));
  // Kueue's trainjob integration: one pod set per replicatedJob of the JobSet it would be.
  EXPECT_THAT(sets, ElementsAre("dataset-initializer=1", "node=2"));
  EXPECT_EQ(Expanded(queued).size(), 3u);
}

TEST(JobKindsTest, MissingRuntimeIsAnErrorAtRuntimeRefNameAndTheRestIsRead) {
  core::Diagnostics diags;
  Input in = ReadString(TrainJob("  runtimeRef: {name: nope}\n") + Runtime("torch") +
                            testing::kGoodNodeYaml,
                        diags, "jobs.yaml");
  ASSERT_EQ(diags.error_count(), 1u) << testing::Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.location().file, "jobs.yaml");
  EXPECT_EQ(e.location().object, "TrainJob/ns/tj");
  EXPECT_EQ(e.location().field, "spec.runtimeRef.name");
  EXPECT_EQ(e.message(),
            "ClusterTrainingRuntime \"nope\" not found: the trainer cannot make the job's JobSet");
  EXPECT_THAT(Expanded(in), IsEmpty());
  EXPECT_EQ(in.snapshot.nodes.size(), 1u);
  EXPECT_TRUE(in.snapshot.workloads.empty()) << "the job is dropped";
  // A TrainingRuntime of another namespace is not the one named.
  core::Diagnostics other;
  ReadString(Runtime("local", "TrainingRuntime") +
                 "---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n"
                 "  name: tj\n  namespace: elsewhere\nspec:\n"
                 "  runtimeRef: {name: local, kind: TrainingRuntime}\n",
             other);
  ASSERT_EQ(other.error_count(), 1u) << testing::Dump(other);
  EXPECT_EQ(other.entries()[0].error.message(),
            "TrainingRuntime \"elsewhere/local\" not found: the trainer cannot make the job's "
            "JobSet");
}

TEST(JobKindsTest, SchedulingWorkloadGivesOnePodGroupPerEntry) {
  core::Diagnostics diags;
  Input in = ReadString(
      "apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata: {name: w, namespace: "
      "ns}\nspec:\n  podGroups:\n  - name: workers\n    policy:\n      gang: {minCount: 4}\n"
      "  - name: driver\n    policy:\n      basic: {}\n"
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec:\n"
      "  workloadRef: {name: w, podGroup: workers, podGroupReplicaKey: r0}\n"
      "  containers:\n  - name: c\n    image: i\n",
      diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.pod_groups.size(), 2u);
  EXPECT_EQ(in.snapshot.pod_groups[0].meta.name, "w");
  EXPECT_EQ(in.snapshot.pod_groups[0].workload_pod_group, "workers");
  EXPECT_TRUE(in.snapshot.pod_groups[0].gang);
  EXPECT_EQ(in.snapshot.pod_groups[0].min_member, 4);
  EXPECT_EQ(in.snapshot.pod_groups[1].workload_pod_group, "driver");
  EXPECT_FALSE(in.snapshot.pod_groups[1].gang);
  ASSERT_EQ(in.snapshot.pods.size(), 1u);
  ASSERT_TRUE(in.snapshot.pods[0].workload_ref.has_value());
  EXPECT_EQ(in.snapshot.pods[0].workload_ref->name, "w");
  EXPECT_EQ(in.snapshot.pods[0].workload_ref->pod_group, "workers");
  EXPECT_EQ(in.snapshot.pods[0].workload_ref->pod_group_replica_key, "r0");
}

// Kueue's MPIJob integration takes the launcher's priority class, else the workers'.
TEST(JobKindsTest, QueuedMPIJobTakesTheWorkersPriorityClassWhenTheLauncherNamesNone) {
  core::Diagnostics diags;
  Input in = ReadString(
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 900\n"
      "---\napiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  name: m\n  namespace: "
      "ns\n  labels: {kueue.x-k8s.io/queue-name: q}\nspec:\n  mpiReplicaSpecs:\n    Launcher:\n"
      "      template:\n        spec:\n          containers: [{name: l, image: i}]\n"
      "    Worker:\n      replicas: 2\n      template:\n        spec:\n"
      "          priorityClassName: high\n          containers: [{name: w, image: i}]\n",
      diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.kueue_workloads.size(), 1u);
  EXPECT_EQ(in.snapshot.kueue_workloads[0].priority_class_name, "high");
  EXPECT_EQ(in.snapshot.kueue_workloads[0].priority, 900);
}

struct JobKindBadCase {
  std::string name;
  std::string yaml;
  std::string field;
};

TEST(JobKindsTest, BadInputIsAnErrorNamingTheField) {
  const std::string tj =
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: t, "
      "namespace: ns}\n";
  const std::string ctr =
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: "
      "{name: r}\n";
  const std::string wl =
      "apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata: {name: w, namespace: "
      "ns}\n";
  const std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec:\n"
      "  containers: [{name: c, image: i}]\n";
  const JobKindBadCase cases[] = {
      {"TrainJob no spec", tj, "spec"},
      {"TrainJob spec a list", tj + "spec: [1]\n", "spec"},
      {"TrainJob no runtimeRef", tj + "spec: {}\n", "spec.runtimeRef"},
      {"TrainJob runtimeRef a string", tj + "spec: {runtimeRef: x}\n", "spec.runtimeRef"},
      {"TrainJob no runtime name", tj + "spec: {runtimeRef: {}}\n", "spec.runtimeRef.name"},
      {"TrainJob runtime name a number", tj + "spec: {runtimeRef: {name: 3}}\n",
       "spec.runtimeRef.name"},
      {"TrainJob unknown runtime kind", tj + "spec: {runtimeRef: {name: r, kind: Runtime}}\n",
       "spec.runtimeRef.kind"},
      {"TrainJob foreign apiGroup", tj + "spec: {runtimeRef: {name: r, apiGroup: x.io}}\n",
       "spec.runtimeRef.apiGroup"},
      {"TrainJob suspend a string", tj + "spec: {suspend: maybe, runtimeRef: {name: r}}\n",
       "spec.suspend"},
      {"TrainJob numNodes zero", tj + "spec: {runtimeRef: {name: r}, trainer: {numNodes: 0}}\n",
       "spec.trainer.numNodes"},
      {"TrainJob numNodes a string",
       tj + "spec: {runtimeRef: {name: r}, trainer: {numNodes: two}}\n", "spec.trainer.numNodes"},
      {"TrainJob bad quantity",
       tj + "spec: {runtimeRef: {name: r}, trainer: {resourcesPerNode: {requests: {cpu: "
            "lots}}}}\n",
       "spec.trainer.resourcesPerNode.requests.cpu"},
      {"TrainJob negative quantity",
       tj + "spec: {runtimeRef: {name: r}, trainer: {resourcesPerNode: {limits: {cpu: "
            "\"-1\"}}}}\n",
       "spec.trainer.resourcesPerNode.limits.cpu"},
      {"TrainJob missing runtime", tj + "spec: {runtimeRef: {name: r}}\n",
       "spec.runtimeRef.name"},
      {"runtime no spec", ctr, "spec"},
      {"runtime no template", ctr + "spec: {}\n", "spec.template"},
      {"runtime no replicatedJobs", ctr + "spec: {template: {spec: {}}}\n",
       "spec.template.spec.replicatedJobs"},
      {"runtime replicatedJob without name",
       ctr + "spec: {template: {spec: {replicatedJobs: [{}]}}}\n",
       "spec.template.spec.replicatedJobs[0].name"},
      {"runtime numNodes zero", ctr + "spec: {mlPolicy: {numNodes: 0}}\n",
       "spec.mlPolicy.numNodes"},
      {"runtime runLauncherAsNode a string",
       ctr + "spec: {mlPolicy: {mpi: {runLauncherAsNode: yes please}}}\n",
       "spec.mlPolicy.mpi.runLauncherAsNode"},
      {"Workload no spec", wl, "spec"},
      {"Workload no podGroups", wl + "spec: {}\n", "spec.podGroups"},
      {"Workload podGroups a map", wl + "spec: {podGroups: {a: 1}}\n", "spec.podGroups"},
      {"Workload group without name", wl + "spec: {podGroups: [{policy: {basic: {}}}]}\n",
       "spec.podGroups[0].name"},
      {"Workload group name not a label",
       wl + "spec: {podGroups: [{name: A_B, policy: {basic: {}}}]}\n", "spec.podGroups[0].name"},
      {"Workload group without policy", wl + "spec: {podGroups: [{name: g}]}\n",
       "spec.podGroups[0].policy"},
      {"Workload group two policies",
       wl + "spec: {podGroups: [{name: g, policy: {basic: {}, gang: {minCount: 1}}}]}\n",
       "spec.podGroups[0].policy"},
      {"Workload gang without minCount", wl + "spec: {podGroups: [{name: g, policy: {gang: {}}}]}\n",
       "spec.podGroups[0].policy.gang.minCount"},
      {"Workload gang minCount zero",
       wl + "spec: {podGroups: [{name: g, policy: {gang: {minCount: 0}}}]}\n",
       "spec.podGroups[0].policy.gang.minCount"},
      {"Workload gang minCount a string",
       wl + "spec: {podGroups: [{name: g, policy: {gang: {minCount: all}}}]}\n",
       "spec.podGroups[0].policy.gang.minCount"},
      {"Workload duplicate group",
       wl + "spec: {podGroups: [{name: g, policy: {basic: {}}}, {name: g, policy: {basic: "
            "{}}}]}\n",
       "spec.podGroups[1].name"},
      {"Workload nine groups",
       wl + "spec:\n  podGroups: [{name: a, policy: {basic: {}}}, {name: b, policy: {basic: {}}},"
            " {name: c, policy: {basic: {}}}, {name: d, policy: {basic: {}}}, {name: e, policy:"
            " {basic: {}}}, {name: f, policy: {basic: {}}}, {name: g, policy: {basic: {}}},"
            " {name: h, policy: {basic: {}}}, {name: i, policy: {basic: {}}}]\n",
       "spec.podGroups"},
      {"Pod workloadRef a string", pod + "  workloadRef: w\n", "spec.workloadRef"},
      {"Pod workloadRef without name", pod + "  workloadRef: {podGroup: g}\n",
       "spec.workloadRef.name"},
      {"Pod workloadRef without podGroup", pod + "  workloadRef: {name: w}\n",
       "spec.workloadRef.podGroup"},
      {"Pod workloadRef bad replica key",
       pod + "  workloadRef: {name: w, podGroup: g, podGroupReplicaKey: Not.A.Label}\n",
       "spec.workloadRef.podGroupReplicaKey"},
  };
  for (const JobKindBadCase& c : cases) {
    SCOPED_TRACE(c.name);
    // A TrainJob naming a runtime that is not there is decoded (2 objects read) and refused
    // once every file is read.
    const size_t read = c.name == "TrainJob missing runtime" ? 2 : 1;
    testing::ExpectOneErrorBesideGoodNode(c.yaml, c.field, read);
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
