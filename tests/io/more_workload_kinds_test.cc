// MPIJob, RayCluster, RayJob and Volcano Job (issue 13 item 1): their pod sets as Kueue's
// integrations name them, only the missing pods expanded when live ones exist (through the
// ownership chains MPIJob -> launcher Job -> pod and RayJob -> RayCluster -> pods), Kueue
// Workloads for the queued ones (none for Volcano, which Kueue does not integrate), the
// PodGroup Volcano makes, and bad input as errors naming the field.
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

std::string Template(int indent, const std::string& extra_spec = "") {
  const std::string i(static_cast<size_t>(indent), ' ');
  return i + "template:\n" + i + "  spec:\n" + extra_spec + i + "    containers:\n" + i +
         "    - name: c\n" + i + "      image: x\n" + i + "      resources:\n" + i +
         "        requests: {cpu: \"1\"}\n";
}

std::string PodYaml(const std::string& name, const std::string& meta, const std::string& phase) {
  return "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: ns\n" +
         meta +
         "spec:\n  nodeName: n1\n  containers:\n  - name: c\n    image: x\n    resources:\n"
         "      requests: {cpu: \"1\"}\nstatus:\n  phase: " +
         phase + "\n";
}

std::string OwnerYaml(const std::string& api, const std::string& kind, const std::string& name,
                      const std::string& uid) {
  return "  ownerReferences:\n  - {apiVersion: " + api + ", kind: " + kind + ", name: " + name +
         ", uid: " + uid + ", controller: true}\n";
}

std::vector<std::string> Expanded(const Input& input) {
  std::vector<std::string> names;
  for (const model::Pod& pod : input.snapshot.pods) {
    if (pod.owner.has_value() && pod.node_name.empty()) names.push_back(pod.meta.name);
  }
  return names;
}

std::vector<std::string> PodSetNames(const model::Workload& wl) {
  std::vector<std::string> names;
  for (const model::KueuePodSet& s : wl.pod_sets) {
    names.push_back(s.name + "=" + std::to_string(s.count));
  }
  return names;
}

std::string MpiJob(const std::string& labels = "") {
  return "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  name: mpi\n  namespace: "
         "ns\n  uid: umpi\n" +
         labels + "spec:\n  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n" + Template(6) +
         "    Worker:\n      replicas: 3\n" + Template(6);
}

// A RayCluster spec (head, groups "GPU" with 2 replicas and "cpu" with 9 capped at 1) after
// `meta`, at `indent`.
std::string RayCluster(const std::string& meta, int indent = 2) {
  const std::string i(static_cast<size_t>(indent), ' ');
  return meta + i + "headGroupSpec:\n" + Template(indent + 2) + i + "workerGroupSpecs:\n" + i +
         "- groupName: GPU\n" + i + "  replicas: 2\n" + Template(indent + 2) + i +
         "- groupName: cpu\n" + i + "  replicas: 9\n" + i + "  maxReplicas: 1\n" +
         Template(indent + 2);
}

TEST(MoreWorkloadKindsTest, MPIJobExpandsLauncherAndWorkersAsMpiOperatorNamesThem) {
  core::Diagnostics diags;
  Input in = ReadString(MpiJob(), diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  EXPECT_THAT(Expanded(in),
              ElementsAre("mpi-launcher", "mpi-worker-0", "mpi-worker-1", "mpi-worker-2"));
  const model::Pod* w1 = testing::FindPod(in.snapshot, "ns", "mpi-worker-1");
  ASSERT_NE(w1, nullptr);
  EXPECT_EQ(w1->meta.labels.at("training.kubeflow.org/job-role"), "worker");
  EXPECT_EQ(w1->meta.labels.at("training.kubeflow.org/replica-index"), "1");
}

TEST(MoreWorkloadKindsTest, RunningMPIJobGetsOnlyItsMissingWorker) {
  core::Diagnostics diags;
  const std::string role = "training.kubeflow.org/job-role";
  std::string text = MpiJob();
  // The launcher Job, owned by the MPIJob, and its running pod.
  text +=
      "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: mpi-launcher\n  namespace: "
      "ns\n  uid: ul\n" +
      OwnerYaml("kubeflow.org/v2beta1", "MPIJob", "mpi", "umpi") + "spec:\n" + Template(2);
  text += PodYaml("mpi-launcher-x7k2p",
                  "  labels: {" + role + ": launcher, job-name: mpi-launcher}\n" +
                      OwnerYaml("batch/v1", "Job", "mpi-launcher", "ul"),
                  "Running");
  for (const char* w : {"mpi-worker-0", "mpi-worker-2"}) {
    text += PodYaml(w,
                    "  labels: {" + role + ": worker}\n" +
                        OwnerYaml("kubeflow.org/v2beta1", "MPIJob", "mpi", "umpi"),
                    "Running");
  }
  Input in = ReadString(text, diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  EXPECT_THAT(Expanded(in), ElementsAre("mpi-worker-1"));
}

TEST(MoreWorkloadKindsTest, QueuedMPIJobGetsAKueueWorkloadWithKueuesPodSetNames) {
  core::Diagnostics diags;
  Input in = ReadString(MpiJob("  labels: {kueue.x-k8s.io/queue-name: q}\n"), diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.kueue_workloads.size(), 1u);
  const model::Workload& wl = in.snapshot.kueue_workloads[0];
  EXPECT_EQ(wl.meta.name, "mpijob-mpi");
  EXPECT_THAT(PodSetNames(wl), ElementsAre("launcher=1", "worker=3"));
}

TEST(MoreWorkloadKindsTest, RayClusterPodSetsAndDesiredReplicas) {
  core::Diagnostics diags;
  Input in =
      ReadString(RayCluster("apiVersion: ray.io/v1\nkind: RayCluster\nmetadata:\n  name: rc\n"
                            "  namespace: ns\n  labels: {kueue.x-k8s.io/queue-name: q}\nspec:\n"),
                 diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.kueue_workloads.size(), 1u);
  // Group names lowercased as Kueue names pod sets; cpu's 9 replicas capped at maxReplicas.
  EXPECT_THAT(PodSetNames(in.snapshot.kueue_workloads[0]), ElementsAre("head=1", "gpu=2", "cpu=1"));
  EXPECT_THAT(Expanded(in),
              ElementsAre("rc-head", "rc-gpu-worker-0", "rc-gpu-worker-1", "rc-cpu-worker-0"));
}

TEST(MoreWorkloadKindsTest, RayJobAddsTheSubmitterInK8sJobMode) {
  core::Diagnostics diags;
  std::string text = RayCluster(
      "apiVersion: ray.io/v1\nkind: RayJob\nmetadata:\n  name: rj\n  namespace: ns\n"
      "  labels: {kueue.x-k8s.io/queue-name: q}\nspec:\n  rayClusterSpec:\n",
      4);
  Input in = ReadString(text, diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.kueue_workloads.size(), 1u);
  const model::Workload& wl = in.snapshot.kueue_workloads[0];
  EXPECT_EQ(wl.meta.name, "rayjob-rj");
  EXPECT_THAT(PodSetNames(wl), ElementsAre("head=1", "gpu=2", "cpu=1", "submitter=1"));
  // The default submitter asks for KubeRay's 500m.
  EXPECT_EQ(wl.pod_sets[3].pod_template.containers.at(0).requests.Get(model::kCpu), 500);
}

TEST(MoreWorkloadKindsTest, RunningRayJobOwnsPodsThroughItsRayClusterAndSubmitterJob) {
  core::Diagnostics diags;
  std::string text = RayCluster(
      "apiVersion: ray.io/v1\nkind: RayJob\nmetadata:\n  name: rj\n  namespace: ns\n"
      "  uid: urj\nspec:\n  rayClusterSpec:\n",
      4);
  text += "status:\n  rayClusterName: rj-abcde\n";
  text += RayCluster(
      "---\napiVersion: ray.io/v1\nkind: RayCluster\nmetadata:\n  name: "
      "rj-abcde\n  namespace: ns\n  uid: urc\n" +
      OwnerYaml("ray.io/v1", "RayJob", "rj", "urj") + "spec:\n");
  const std::string rc_owner = OwnerYaml("ray.io/v1", "RayCluster", "rj-abcde", "urc");
  text += PodYaml("rj-abcde-head-1x2y3",
                  "  labels: {ray.io/node-type: head, ray.io/cluster: rj-abcde}\n" + rc_owner,
                  "Running");
  text += PodYaml("rj-abcde-gpu-worker-q1w2e",
                  "  labels: {ray.io/node-type: worker, ray.io/group: GPU, ray.io/cluster: "
                  "rj-abcde}\n" +
                      rc_owner,
                  "Running");
  // A worker of group cpu that failed: replaced.
  text += PodYaml("rj-abcde-cpu-worker-zzzzz",
                  "  labels: {ray.io/node-type: worker, ray.io/group: cpu}\n" + rc_owner, "Failed");
  text +=
      "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: rj\n  namespace: ns\n  uid: "
      "usub\n" +
      OwnerYaml("ray.io/v1", "RayJob", "rj", "urj") + "spec:\n" + Template(2);
  text +=
      PodYaml("rj-k2j4h", "  labels: {job-name: rj}\n" + OwnerYaml("batch/v1", "Job", "rj", "usub"),
              "Succeeded");
  Input in = ReadString(text, diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  // Head and one GPU worker run, the submitter is done: the second GPU worker and the
  // failed cpu worker's replacement are missing, named after the RayCluster.
  EXPECT_THAT(Expanded(in), ElementsAre("rj-abcde-gpu-worker-1", "rj-abcde-cpu-worker-0"));
}

std::string VolcanoJob(const std::string& spec_extra, const std::string& labels = "") {
  return "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: vj\n  namespace: "
         "ns\n  uid: uvj\n" +
         labels + "spec:\n" + spec_extra + "  tasks:\n  - name: ps\n    replicas: 1\n" +
         Template(4) + "  - replicas: 2\n    minAvailable: 1\n" + Template(4);
}

TEST(MoreWorkloadKindsTest, VolcanoJobTasksPodsAndPodGroup) {
  core::Diagnostics diags;
  Input in = ReadString(VolcanoJob("", "  labels: {kueue.x-k8s.io/queue-name: q}\n"), diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  // An unnamed task is "default<index>", as Volcano's webhook names it.
  EXPECT_THAT(Expanded(in), ElementsAre("vj-ps-0", "vj-default1-0", "vj-default1-1"));
  // Kueue does not integrate Volcano: no Workload, whatever the label.
  EXPECT_THAT(in.snapshot.kueue_workloads, IsEmpty());
  // Volcano's PodGroup: minAvailable defaulted to the tasks' minAvailable (1 + 1).
  ASSERT_EQ(in.snapshot.pod_groups.size(), 1u);
  EXPECT_EQ(in.snapshot.pod_groups[0].meta.name, "vj-uvj");
  EXPECT_EQ(in.snapshot.pod_groups[0].min_member, 2);
  const model::Pod* pod = testing::FindPod(in.snapshot, "ns", "vj-ps-0");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->scheduler_name, "volcano");
  EXPECT_EQ(pod->meta.annotations.at("scheduling.k8s.io/group-name"), "vj-uvj");
  // The pod's document says so too, as Volcano creates it.
  EXPECT_NE(in.documents.Get(pod->source).json.view().find("\"schedulerName\":\"volcano\""),
            std::string_view::npos);
}

// spec.queue as Volcano's controller spreads it: the volcano.sh/queue-name label and
// annotation on every pod, spec.queue on the PodGroup; "default" when the Job names none
// (the admission webhook's default).
TEST(MoreWorkloadKindsTest, VolcanoJobQueueReachesItsPodsAndPodGroup) {
  core::Diagnostics diags;
  Input named = ReadString(VolcanoJob("  queue: research\n"), diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(named.snapshot.pod_groups.size(), 1u);
  EXPECT_EQ(named.snapshot.pod_groups[0].queue, "research");
  const model::Pod* pod = testing::FindPod(named.snapshot, "ns", "vj-default1-1");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->meta.labels.at("volcano.sh/queue-name"), "research");
  EXPECT_EQ(pod->meta.annotations.at("volcano.sh/queue-name"), "research");

  Input unnamed = ReadString(VolcanoJob(""), diags);
  ASSERT_EQ(unnamed.snapshot.pod_groups.size(), 1u);
  EXPECT_EQ(unnamed.snapshot.pod_groups[0].queue, "default");
  pod = testing::FindPod(unnamed.snapshot, "ns", "vj-ps-0");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->meta.labels.at("volcano.sh/queue-name"), "default");
}

TEST(MoreWorkloadKindsTest, RunningVolcanoJobGetsOnlyMissingPodsAndKeepsAGivenPodGroup) {
  core::Diagnostics diags;
  std::string text = VolcanoJob("  minAvailable: 3\n");
  const std::string owner = OwnerYaml("batch.volcano.sh/v1alpha1", "Job", "vj", "uvj");
  text += PodYaml("vj-ps-0", "  labels: {volcano.sh/task-spec: ps}\n" + owner, "Running");
  // Found by name when the task-index label is missing; a finished pod is not made again.
  text +=
      PodYaml("vj-default1-1", "  labels: {volcano.sh/task-spec: default1}\n" + owner, "Succeeded");
  text +=
      "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: "
      "vj-uvj\n  namespace: ns\nspec:\n  minMember: 3\n";
  Input in = ReadString(text, diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  EXPECT_THAT(Expanded(in), ElementsAre("vj-default1-0"));
  ASSERT_EQ(in.snapshot.pod_groups.size(), 1u) << "the given PodGroup, not a second one";
}

struct BadCase {
  std::string name;
  std::string yaml;
  std::string field;
};

void ExpectError(const BadCase& c) {
  SCOPED_TRACE(c.name);
  testing::ExpectOneErrorBesideGoodNode(c.yaml, c.field);
}

TEST(MoreWorkloadKindsTest, BadInputIsAnErrorNamingTheField) {
  const std::string mpi =
      "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: m, "
      "namespace: ns}\n";
  const std::string rc =
      "apiVersion: ray.io/v1\nkind: RayCluster\nmetadata: {name: r, "
      "namespace: ns}\n";
  const std::string rj =
      "apiVersion: ray.io/v1\nkind: RayJob\nmetadata: {name: r, "
      "namespace: ns}\n";
  const std::string vj =
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: v, "
      "namespace: ns}\n";
  const BadCase cases[] = {
      {"MPIJob spec null", mpi + "spec: null\n", "spec"},
      {"MPIJob spec a list", mpi + "spec: [1]\n", "spec"},
      {"MPIJob no replica specs", mpi + "spec: {}\n", "spec.mpiReplicaSpecs"},
      {"MPIJob replica specs a string", mpi + "spec:\n  mpiReplicaSpecs: x\n",
       "spec.mpiReplicaSpecs"},
      {"MPIJob unknown replica type",
       mpi + "spec:\n  mpiReplicaSpecs:\n    Chief:\n      replicas: 1\n" + Template(6),
       "spec.mpiReplicaSpecs.Chief"},
      {"MPIJob no launcher",
       mpi + "spec:\n  mpiReplicaSpecs:\n    Worker:\n      replicas: 1\n" + Template(6),
       "spec.mpiReplicaSpecs[Launcher]"},
      {"MPIJob two launchers",
       mpi + "spec:\n  mpiReplicaSpecs:\n    Launcher:\n      replicas: 2\n" + Template(6),
       "spec.mpiReplicaSpecs[Launcher].replicas"},
      {"MPIJob replicas a string",
       mpi + "spec:\n  mpiReplicaSpecs:\n    Launcher:\n      replicas: one\n" + Template(6),
       "spec.mpiReplicaSpecs[Launcher].replicas"},
      {"MPIJob suspend a string",
       mpi + "spec:\n  runPolicy: {suspend: maybe}\n  mpiReplicaSpecs:\n    Launcher:\n" +
           Template(6),
       "spec.runPolicy.suspend"},
      {"RayCluster spec null", rc + "spec: null\n", "spec"},
      {"RayCluster no head", rc + "spec: {}\n", "spec.headGroupSpec"},
      {"RayCluster head template a number", rc + "spec:\n  headGroupSpec: {template: 3}\n",
       "spec.headGroupSpec.template"},
      {"RayCluster worker groups an object",
       rc + "spec:\n  headGroupSpec:\n" + Template(4) + "  workerGroupSpecs: {a: 1}\n",
       "spec.workerGroupSpecs"},
      {"RayCluster group without a name",
       rc + "spec:\n  headGroupSpec:\n" + Template(4) + "  workerGroupSpecs:\n  - replicas: 1\n" +
           Template(4),
       "spec.workerGroupSpecs[0].groupName"},
      {"RayCluster min above max",
       rc + "spec:\n  headGroupSpec:\n" + Template(4) +
           "  workerGroupSpecs:\n  - groupName: g\n    minReplicas: 3\n    maxReplicas: 1\n" +
           Template(4),
       "spec.workerGroupSpecs[0].minReplicas"},
      {"RayCluster duplicate group (case folded)",
       rc + "spec:\n  headGroupSpec:\n" + Template(4) + "  workerGroupSpecs:\n  - groupName: g\n" +
           Template(4) + "  - groupName: G\n" + Template(4),
       "spec.workerGroupSpecs[1].groupName"},
      {"RayCluster replicas a string",
       rc + "spec:\n  headGroupSpec:\n" + Template(4) +
           "  workerGroupSpecs:\n  - groupName: g\n    replicas: two\n" + Template(4),
       "spec.workerGroupSpecs[0].replicas"},
      {"RayJob spec null", rj + "spec: null\n", "spec"},
      {"RayJob neither cluster spec nor selector", rj + "spec: {entrypoint: x}\n",
       "spec.rayClusterSpec"},
      {"RayJob bad submission mode",
       rj + "spec:\n  submissionMode: Batch\n  clusterSelector: {a: b}\n", "spec.submissionMode"},
      {"RayJob cluster spec a list", rj + "spec:\n  rayClusterSpec: [1]\n", "spec.rayClusterSpec"},
      {"Volcano Job spec null", vj + "spec: null\n", "spec"},
      {"Volcano Job no tasks", vj + "spec: {minAvailable: 1}\n", "spec.tasks"},
      {"Volcano Job tasks a string", vj + "spec: {tasks: x}\n", "spec.tasks"},
      {"Volcano Job task without template", vj + "spec:\n  tasks:\n  - name: a\n    replicas: 1\n",
       "spec.tasks[0].template"},
      {"Volcano Job duplicate task",
       vj + "spec:\n  tasks:\n  - name: a\n    replicas: 1\n" + Template(4) +
           "  - name: a\n    replicas: 1\n" + Template(4),
       "spec.tasks[1].name"},
      {"Volcano Job minAvailable above replicas",
       vj + "spec:\n  minAvailable: 5\n  tasks:\n  - name: a\n    replicas: 1\n" + Template(4),
       "spec.minAvailable"},
      {"Volcano Job negative replicas",
       vj + "spec:\n  tasks:\n  - name: a\n    replicas: -1\n" + Template(4),
       "spec.tasks[0].replicas"},
  };
  for (const BadCase& c : cases) ExpectError(c);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
