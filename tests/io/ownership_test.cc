// Ownership in Reader::Finish (internal/ownership.h): a workload whose pods are already in
// the input gets only its missing pods expanded, by its kind's rule in the table of kinds;
// nested workloads (a Deployment's ReplicaSets, a JobSet's Jobs, an LWS's StatefulSets)
// are folded into their owner; an existing Kueue Workload for a job is used.
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

// A pod in namespace ns with the given metadata lines (indented by 2) and phase.
std::string PodYaml(const std::string& name, const std::string& meta, const std::string& phase,
                    const std::string& node = "n1") {
  return "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: ns\n" +
         meta + "spec:\n" + (node.empty() ? std::string() : "  nodeName: " + node + "\n") +
         "  containers:\n  - name: c\n    image: x\n    resources:\n      requests: {cpu: "
         "\"1\"}\nstatus:\n  phase: " +
         phase + "\n";
}

std::string OwnerYaml(const std::string& api, const std::string& kind, const std::string& name,
                      const std::string& uid) {
  return "  ownerReferences:\n  - {apiVersion: " + api + ", kind: " + kind + ", name: " + name +
         ", uid: " + uid + ", controller: true}\n";
}

// A `template:` key at `indent` spaces with one container asking for 1 cpu.
std::string Template(int indent) {
  const std::string i(static_cast<size_t>(indent), ' ');
  return i + "template:\n" + i + "  spec:\n" + i + "    containers:\n" + i + "    - name: c\n" + i +
         "      image: x\n" + i + "      resources:\n" + i + "        requests: {cpu: \"1\"}\n";
}

// Names of the pods expanded from templates (the tests' given pods are bound, or have no
// owner).
std::vector<std::string> Expanded(const Input& input) {
  std::vector<std::string> names;
  for (const model::Pod& pod : input.snapshot.pods) {
    if (pod.owner.has_value() && pod.node_name.empty()) {
      names.push_back(pod.meta.name);
    }
  }
  return names;
}

Input Read(const std::string& text, core::Diagnostics& diags) { return ReadString(text, diags); }

std::string JobYaml(const std::string& spec_extra, const std::string& status = "") {
  return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train, namespace: ns, uid: uj}\n"
         "spec:\n" +
         spec_extra + Template(2) + status;
}

TEST(OwnershipTest, RunningJobPlansNoPhantomPod) {
  core::Diagnostics diags;
  Input in =
      Read(JobYaml("  parallelism: 1\n  completions: 1\n", "status: {active: 1}\n") +
               PodYaml("train-x7k2p", OwnerYaml("batch/v1", "Job", "train", "uj"), "Running"),
           diags);
  EXPECT_THAT(Expanded(in), IsEmpty());
  EXPECT_EQ(in.snapshot.pods.size(), 1u);
}

TEST(OwnershipTest, JobPodsFoundByControllerUidLabelWithoutOwnerReference) {
  core::Diagnostics diags;
  Input in =
      Read(JobYaml("  parallelism: 3\n") +
               PodYaml("a", "  labels: {batch.kubernetes.io/controller-uid: uj}\n", "Running") +
               PodYaml("b", "  labels: {job-name: train}\n", "Pending", ""),
           diags);
  // Two live pods count toward parallelism 3: one more.
  EXPECT_THAT(Expanded(in), ElementsAre("train-2"));
}

TEST(OwnershipTest, NonIndexedJobCountsSucceededTowardCompletions) {
  core::Diagnostics diags;
  const std::string owner = OwnerYaml("batch/v1", "Job", "train", "uj");
  Input in =
      Read(JobYaml("  parallelism: 2\n  completions: 3\n") + PodYaml("s1", owner, "Succeeded") +
               PodYaml("s2", owner, "Succeeded") + PodYaml("f1", owner, "Failed"),
           diags);
  // completions 3 - succeeded 2 = 1 still to run, none running.
  EXPECT_THAT(Expanded(in), ElementsAre("train-0"));
}

TEST(OwnershipTest, IndexedJobExpandsOnlyIndexesNeitherDoneNorRunning) {
  core::Diagnostics diags;
  const std::string owner = OwnerYaml("batch/v1", "Job", "train", "uj");
  auto idx = [](int i) {
    return "  annotations: {batch.kubernetes.io/job-completion-index: \"" + std::to_string(i) +
           "\"}\n";
  };
  Input in = Read(JobYaml("  parallelism: 2\n  completions: 5\n  completionMode: Indexed\n",
                          "status: {completedIndexes: \"0\", succeeded: 1}\n") +
                      PodYaml("p2", owner + idx(2), "Running") +
                      PodYaml("p1", owner + idx(1), "Succeeded"),
                  diags);
  // Done: 0 (status) and 1 (pod); running: 2; room for one more: index 3.
  ASSERT_THAT(Expanded(in), ElementsAre("train-3"));
  EXPECT_EQ(in.snapshot.pods.back().meta.labels.at("batch.kubernetes.io/job-completion-index"),
            "3");
}

TEST(OwnershipTest, DeploymentOwnsPodsThroughItsReplicaSets) {
  core::Diagnostics diags;
  std::string text =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: serve, namespace: ns, uid: ud}\n"
      "spec:\n  replicas: 3\n" +
      Template(2) +
      "---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: serve-abc\n  namespace: "
      "ns\n  uid: urs\n" +
      OwnerYaml("apps/v1", "Deployment", "serve", "ud") + "spec:\n  replicas: 3\n" + Template(2);
  const std::string owner = OwnerYaml("apps/v1", "ReplicaSet", "serve-abc", "urs");
  text += PodYaml("serve-abc-1", owner, "Running") + PodYaml("serve-abc-2", owner, "Running") +
          PodYaml("serve-abc-3", owner, "Failed");
  Input in = Read(text, diags);
  EXPECT_TRUE(diags.entries().empty()) << "ReplicaSet is a known kind";
  EXPECT_THAT(Expanded(in), ElementsAre("serve-2"));
  EXPECT_EQ(in.snapshot.workloads.size(), 2u) << "the ReplicaSet is kept as read";
}

// A Deployment mid-rollout: ReplicaSet revision 1 (old template, `old_live` live pods,
// spec.replicas `old_replicas`) and revision 2 (spec.replicas `new_replicas`, `new_live`
// live pods); `strategy` is the Deployment's spec.strategy line.
std::string RolloutYaml(const std::string& strategy, int replicas, int old_replicas, int old_live,
                        int new_replicas, int new_live) {
  std::string text =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: serve, namespace: ns, uid: ud}\n"
      "spec:\n  replicas: " +
      std::to_string(replicas) + "\n" + strategy + Template(2);
  for (int rev : {1, 2}) {
    const std::string rs = "serve-r" + std::to_string(rev);
    text += "---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: " + rs +
            "\n  namespace: ns\n  uid: u" + rs +
            "\n  annotations: {deployment.kubernetes.io/revision: \"" + std::to_string(rev) +
            "\"}\n" + OwnerYaml("apps/v1", "Deployment", "serve", "ud") +
            "spec:\n  replicas: " + std::to_string(rev == 1 ? old_replicas : new_replicas) + "\n" +
            Template(2);
    const int live = rev == 1 ? old_live : new_live;
    for (int i = 0; i < live; ++i) {
      text += PodYaml(rs + "-" + std::to_string(i),
                      OwnerYaml("apps/v1", "ReplicaSet", rs, "u" + rs), "Running");
    }
  }
  return text;
}

TEST(OwnershipTest, RollingUpdateSurgesTheNewReplicaSet) {
  core::Diagnostics diags;
  // Default maxSurge 25% of 4 rounds up to 1: the new ReplicaSet goes 0 -> 1.
  Input in = Read(RolloutYaml("", 4, 4, 4, 0, 0), diags);
  EXPECT_TRUE(diags.entries().empty());
  EXPECT_THAT(Expanded(in), ElementsAre("serve-0"));
  // 25% of 5 is 1.25: rounded up to 2.
  Input five = Read(RolloutYaml("", 5, 5, 5, 0, 0), diags);
  EXPECT_THAT(Expanded(five), ElementsAre("serve-0", "serve-1"));
  // An integer maxSurge, capped by what the Deployment still lacks (4 - 3 = 1).
  Input capped = Read(
      RolloutYaml("  strategy: {rollingUpdate: {maxSurge: 3, maxUnavailable: 1}}\n", 4, 1, 1, 3, 2),
      diags);
  EXPECT_THAT(Expanded(capped), ElementsAre("serve-2", "serve-3"));
}

TEST(OwnershipTest, RollingUpdateAtItsSurgeOnlyFillsTheNewReplicaSet) {
  core::Diagnostics diags;
  // 3 + 2 = 5 = replicas + maxSurge: no scale-up; the new ReplicaSet's controller still
  // creates its second pod.
  Input in = Read(RolloutYaml("", 4, 3, 3, 2, 1), diags);
  EXPECT_THAT(Expanded(in), ElementsAre("serve-1"));
  // maxSurge 0 with all old pods: nothing new until old ones go.
  Input none = Read(
      RolloutYaml("  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n", 4, 4, 4, 0, 0),
      diags);
  EXPECT_THAT(Expanded(none), IsEmpty());
}

TEST(OwnershipTest, RecreateWaitsForTheOldPods) {
  core::Diagnostics diags;
  Input in = Read(RolloutYaml("  strategy: {type: Recreate}\n", 2, 0, 2, 0, 0), diags);
  EXPECT_THAT(Expanded(in), IsEmpty());
  // Once the old pods are gone it is replicas minus live pods again.
  Input done = Read(RolloutYaml("  strategy: {type: Recreate}\n", 2, 0, 0, 2, 1), diags);
  EXPECT_THAT(Expanded(done), ElementsAre("serve-1"));
}

TEST(OwnershipTest, BadMaxSurgeIsAnError) {
  core::Diagnostics diags;
  Read(RolloutYaml("  strategy: {rollingUpdate: {maxSurge: 12.5%}}\n", 4, 4, 4, 0, 0), diags);
  ASSERT_TRUE(diags.has_errors());
  EXPECT_THAT(testing::Dump(diags), ::testing::HasSubstr("spec.strategy.rollingUpdate.maxSurge"));
  core::Diagnostics both_zero;
  Read(RolloutYaml("  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0%}}\n", 4, 4, 4, 0,
                   0),
       both_zero);
  EXPECT_THAT(testing::Dump(both_zero), ::testing::HasSubstr("may not be 0 when `maxSurge` is 0"));
}

TEST(OwnershipTest, BareReplicaSetIsAWorkloadOfItsOwn) {
  core::Diagnostics diags;
  Input in = Read(
      "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs, namespace: ns, "
      "uid: urs}\nspec:\n  replicas: 2\n" +
          Template(2) + PodYaml("rs-x", OwnerYaml("apps/v1", "ReplicaSet", "rs", "urs"), "Running"),
      diags);
  EXPECT_THAT(Expanded(in), ElementsAre("rs-1"));
}

TEST(OwnershipTest, StatefulSetFillsMissingOrdinals) {
  core::Diagnostics diags;
  const std::string owner = OwnerYaml("apps/v1", "StatefulSet", "db", "us");
  Input in = Read(
      "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: ns, "
      "uid: us}\nspec:\n  replicas: 3\n" +
          Template(2) + PodYaml("db-0", owner, "Running") + PodYaml("db-2", owner, "Running"),
      diags);
  EXPECT_THAT(Expanded(in), ElementsAre("db-1"));
}

TEST(OwnershipTest, JobSetOwnsItsChildJobsAndTheirPods) {
  core::Diagnostics diags;
  std::string text =
      "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js, namespace: ns, "
      "uid: ujs}\nspec:\n  replicatedJobs:\n  - name: w\n    replicas: 2\n    template:\n"
      "      spec:\n        parallelism: 1\n        completions: 1\n        template:\n"
      "          spec:\n            containers:\n            - name: c\n              image: x\n";
  // Child Job js-w-0 with a running pod; js-w-1 not created yet.
  text +=
      "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: js-w-0\n  namespace: ns\n"
      "  uid: uj0\n  labels: {kueue.x-k8s.io/queue-name: q}\n" +
      OwnerYaml("jobset.x-k8s.io/v1alpha2", "JobSet", "js", "ujs") +
      "spec:\n  completionMode: Indexed\n  completions: 1\n" + Template(2);
  text += PodYaml("js-w-0-0-abcde",
                  "  labels: {jobset.sigs.k8s.io/replicatedjob-name: w, jobset.sigs.k8s.io/"
                  "job-index: \"0\", batch.kubernetes.io/job-completion-index: \"0\"}\n" +
                      OwnerYaml("batch/v1", "Job", "js-w-0", "uj0"),
                  "Running");
  Input in = Read(text, diags);
  EXPECT_THAT(Expanded(in), ElementsAre("js-w-1-0"));
  // The child Job is neither expanded nor queued on its own.
  EXPECT_THAT(in.snapshot.kueue_workloads, IsEmpty());
}

TEST(OwnershipTest, PyTorchJobByReplicaTypeAndIndex) {
  core::Diagnostics diags;
  std::string text =
      "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: pt, namespace: ns, uid: "
      "upt}\nspec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n" +
      Template(6) + "    Worker:\n      replicas: 2\n" + Template(6);
  const std::string owner = OwnerYaml("kubeflow.org/v1", "PyTorchJob", "pt", "upt");
  text += PodYaml("pt-master-0",
                  "  labels: {training.kubeflow.org/replica-type: master, "
                  "training.kubeflow.org/replica-index: \"0\"}\n" +
                      owner,
                  "Running");
  text += PodYaml("pt-worker-1",
                  "  labels: {training.kubeflow.org/replica-type: worker, "
                  "training.kubeflow.org/replica-index: \"1\"}\n" +
                      owner,
                  "Running");
  Input in = Read(text, diags);
  // Master 0 and worker 1 run: worker 0 (pod index 1 across sets) is missing.
  EXPECT_THAT(Expanded(in), ElementsAre("pt-1"));
}

TEST(OwnershipTest, LeaderWorkerSetByGroupAndWorkerIndex) {
  core::Diagnostics diags;
  std::string text =
      "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata: {name: lws, "
      "namespace: ns, uid: ul}\nspec:\n  replicas: 2\n  leaderWorkerTemplate:\n    size: 2\n"
      "    workerTemplate:\n      spec:\n        containers:\n        - name: c\n          "
      "image: x\n";
  // The leader StatefulSet, owned by the LWS: folded into it.
  text +=
      "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: lws\n  namespace: ns\n"
      "  uid: usts\n" +
      OwnerYaml("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "lws", "ul") +
      "spec:\n  replicas: 2\n" + Template(2);
  auto labels = [](int group, int worker) {
    return "  labels: {leaderworkerset.sigs.k8s.io/name: lws, leaderworkerset.sigs.k8s.io/"
           "group-index: \"" +
           std::to_string(group) + "\", leaderworkerset.sigs.k8s.io/worker-index: \"" +
           std::to_string(worker) + "\"}\n";
  };
  text += PodYaml("lws-0", labels(0, 0) + OwnerYaml("apps/v1", "StatefulSet", "lws", "usts"),
                  "Running");
  text += PodYaml("lws-1", labels(1, 0) + OwnerYaml("apps/v1", "StatefulSet", "lws", "usts"),
                  "Running");
  // A worker StatefulSet is owned by its leader pod; its pods carry the LWS labels only.
  text +=
      "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: lws-0\n  namespace: "
      "ns\n  uid: uw0\n  labels: {leaderworkerset.sigs.k8s.io/name: lws}\n" +
      OwnerYaml("v1", "Pod", "lws-0", "up0") + "spec:\n  replicas: 1\n" + Template(2);
  text += PodYaml("lws-0-1", labels(0, 1) + OwnerYaml("apps/v1", "StatefulSet", "lws-0", "uw0"),
                  "Running");
  Input in = Read(text, diags);
  // Leaders 0 and 1 and group 0's worker run: group 1's worker (index 2 + 1) is missing.
  EXPECT_THAT(Expanded(in), ElementsAre("lws-3"));
}

TEST(OwnershipTest, ExistingKueueWorkloadIsFoundByOwnerNotCreatedAgain) {
  core::Diagnostics diags;
  std::string text =
      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n  namespace: ns\n  uid: uj\n"
      "  labels: {kueue.x-k8s.io/queue-name: q}\nspec:\n  parallelism: 1\n" +
      Template(2) +
      "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: "
      "job-train-3f2a1\n  namespace: ns\n" +
      OwnerYaml("batch/v1", "Job", "train", "uj") +
      "spec:\n  queueName: q\n  podSets:\n  - name: main\n    count: 1\n" + Template(4);
  text += PodYaml("train-abcde", OwnerYaml("batch/v1", "Job", "train", "uj"), "Running");
  Input in = Read(text, diags);
  ASSERT_EQ(in.snapshot.kueue_workloads.size(), 1u);
  const model::Workload& wl = in.snapshot.kueue_workloads[0];
  EXPECT_EQ(wl.meta.name, "job-train-3f2a1");
  EXPECT_EQ(wl.owner_workload, 0);
  ASSERT_EQ(wl.pods.size(), 1u);
  EXPECT_THAT(wl.pods[0], ElementsAre(0)) << "the live pod is the Workload's";
  EXPECT_THAT(Expanded(in), IsEmpty());
}

TEST(OwnershipTest, PodOfAnotherIncarnationIsNotOwned) {
  core::Diagnostics diags;
  Input in = Read(JobYaml("  parallelism: 1\n") +
                      PodYaml("old", OwnerYaml("batch/v1", "Job", "train", "old-uid"), "Running"),
                  diags);
  EXPECT_THAT(Expanded(in), ElementsAre("train-0"));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
