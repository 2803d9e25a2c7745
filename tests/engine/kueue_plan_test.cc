// RunPlan with Kueue objects: admission decided by queueing, each admission checked by
// binding the workload's pods all at once, flavors injected into the pods, preempted
// workloads' pods unbound, queued jobs' pods neither bound nor printed; and pod groups
// (coscheduling) bound all or nothing. Inputs are YAML read through io, as `berth plan`
// reads them.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "core/diagnostics.h"
#include "engine/explain_workload.h"
#include "engine/inventory.h"
#include "engine/plan.h"
#include "engine/test_util.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

model::Snapshot Read(const std::string& yaml) { return testing::ReadCleanYaml(yaml); }

std::string GpuNode(const std::string& name, const std::string& product, int gpus) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
         "\n  labels:\n    kubernetes.io/hostname: " + name +
         "\n    gpu.product: " + product +
         "\nstatus:\n  allocatable: {cpu: \"64\", memory: 512Gi, pods: \"110\", nvidia.com/gpu: \"" +
         std::to_string(gpus) + "\"}\n---\n";
}

// Two flavors (h100, a100) selected by the gpu.product node label, one ClusterQueue with
// `h100_quota` and `a100_quota` GPUs, and a LocalQueue "lq" in namespace "ml".
std::string Queues(int h100_quota, int a100_quota, const std::string& preemption = "") {
  std::string out;
  for (const char* f : {"h100", "a100"}) {
    out += std::string("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: ") +
           f + "\nspec:\n  nodeLabels:\n    gpu.product: " + f + "\n---\n";
  }
  out += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: cq\nspec:\n"
         "  namespaceSelector: {}\n" + preemption +
         "  resourceGroups:\n  - coveredResources: [cpu, memory, nvidia.com/gpu]\n    flavors:\n";
  for (auto [f, q] : {std::pair{"h100", h100_quota}, std::pair{"a100", a100_quota}}) {
    out += std::string("    - name: ") + f +
           "\n      resources:\n      - {name: cpu, nominalQuota: \"256\"}\n"
           "      - {name: memory, nominalQuota: 4Ti}\n      - {name: nvidia.com/gpu, nominalQuota: \"" +
           std::to_string(q) + "\"}\n";
  }
  out += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: lq\n"
         "  namespace: ml\nspec:\n  clusterQueue: cq\n---\n";
  return out;
}

std::string Job(const std::string& name, int pods, int gpus, const std::string& created,
                const std::string& extra_labels = "") {
  return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name +
         "\n  namespace: ml\n  uid: uid-" + name + "\n  creationTimestamp: \"" + created +
         "\"\n  labels:\n    kueue.x-k8s.io/queue-name: lq\n" + extra_labels +
         "spec:\n  parallelism: " + std::to_string(pods) + "\n  completions: " +
         std::to_string(pods) +
         "\n  suspend: true\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n"
         "      - name: main\n        image: x\n        resources:\n          requests: {cpu: \"1\", "
         "memory: 1Gi, nvidia.com/gpu: \"" + std::to_string(gpus) + "\"}\n---\n";
}

const model::Workload& WorkloadNamed(const Plan& plan, const std::string& name) {
  for (const auto& w : plan.planned.kueue_workloads) {
    if (w.meta.name == name) return w;
  }
  ADD_FAILURE() << "no workload " << name;
  static const model::Workload kNone;
  return kNone;
}

std::string ConditionStatus(const model::Workload& w, const std::string& type) {
  const model::WorkloadCondition* c = w.FindCondition(type);
  return c == nullptr ? "" : c->status;
}

// name -> node of every pod decision made (unbound: "").
std::map<std::string, std::string> Placements(const Plan& plan) {
  std::map<std::string, std::string> out;
  for (const auto& d : plan.pod_decisions) {
    out[plan.planned.pod(d.pod).meta.name] = d.node ? plan.planned.node(*d.node).meta.name : "";
  }
  return out;
}

TEST(KueuePlanTest, AdmittedJobPodsLandOnTheirFlavorsNodes) {
  // Quota only in a100: the pods must go to the a100 node although both are empty.
  const model::Snapshot s = Read(GpuNode("a-h100", "h100", 8) + GpuNode("b-a100", "a100", 8) +
                                 Queues(0, 8) + Job("train", 2, 4, "2026-01-01T00:00:00Z"));
  const Plan plan = RunPlan(s, {});
  const model::Workload& w = WorkloadNamed(plan, "job-train");
  EXPECT_EQ(ConditionStatus(w, "Admitted"), "True");
  ASSERT_TRUE(w.admission.has_value());
  EXPECT_EQ(w.admission->pod_set_assignments[0].flavors.at("nvidia.com/gpu"), "a100");
  EXPECT_EQ(Placements(plan), (std::map<std::string, std::string>{{"train-0", "b-a100"},
                                                                  {"train-1", "b-a100"}}));
  // Kueue injects the flavor's nodeLabels into the pods it creates.
  for (const auto& d : plan.pod_decisions) {
    EXPECT_EQ(plan.planned.pod(d.pod).node_selector.at("gpu.product"), "a100");
  }
}

TEST(KueuePlanTest, GangThatCannotBindStaysPendingAndPrintsNoPods) {
  // Quota for 12 GPUs, but nodes of 8: three pods of 4 fit only two at a time on one
  // node... two nodes of 8 hold four such pods, so ask for five.
  const model::Snapshot s = Read(GpuNode("n1", "h100", 8) + GpuNode("n2", "h100", 8) +
                                 Queues(20, 0) + Job("big", 5, 4, "2026-01-01T00:00:00Z") +
                                 Job("small", 1, 4, "2026-01-01T00:01:00Z"));
  const Plan plan = RunPlan(s, {});
  const model::Workload& big = WorkloadNamed(plan, "job-big");
  EXPECT_NE(ConditionStatus(big, "QuotaReserved"), "True");
  EXPECT_FALSE(big.admission.has_value());
  const model::WorkloadCondition* reserved = big.FindCondition("QuotaReserved");
  ASSERT_NE(reserved, nullptr);
  EXPECT_NE(reserved->message.find("1 of 5 pods cannot be bound"), std::string::npos)
      << reserved->message;
  // The gang's pods were undone: the small job still gets a node, and no pod of big is
  // printed.
  const auto placements = Placements(plan);
  EXPECT_EQ(placements.count("big-0"), 0u);
  ASSERT_EQ(placements.count("small-0"), 1u);
  EXPECT_FALSE(placements.at("small-0").empty());
  EXPECT_EQ(ConditionStatus(WorkloadNamed(plan, "job-small"), "Admitted"), "True");
}

TEST(KueuePlanTest, QueuesWithoutNodesAreCheckedOnQuotaAlone) {
  const model::Snapshot s = Read(Queues(8, 0) + Job("train", 2, 4, "2026-01-01T00:00:00Z"));
  const Plan plan = RunPlan(s, {});
  EXPECT_EQ(ConditionStatus(WorkloadNamed(plan, "job-train"), "Admitted"), "True");
  EXPECT_TRUE(plan.pod_decisions.empty());
}

TEST(KueuePlanTest, PreemptionUnbindsTheVictimsPods) {
  // A low-priority job holds the only node's 8 GPUs; a high-priority one needs them.
  std::string yaml = GpuNode("n1", "h100", 8) +
                     Queues(8, 0, "  preemption:\n    withinClusterQueue: LowerPriority\n");
  yaml +=
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: high\n"
      "value: 1000\n---\n";
  yaml += Job("old", 1, 8, "2026-01-01T00:00:00Z");
  yaml += Job("urgent", 1, 8, "2026-01-01T01:00:00Z",
              "    kueue.x-k8s.io/priority-class: high\n");
  // old is running: its Workload holds the quota and its pod the node.
  yaml +=
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: job-old\n"
      "  namespace: ml\n  ownerReferences:\n  - {apiVersion: batch/v1, kind: Job, name: old, uid: uid-old}\n"
      "spec:\n  queueName: lq\n  podSets:\n  - name: main\n    count: 1\n    template:\n      spec:\n"
      "        containers:\n        - name: main\n          resources:\n            requests: {cpu: \"1\", memory: 1Gi, nvidia.com/gpu: \"8\"}\n"
      "status:\n  admission:\n    clusterQueue: cq\n    podSetAssignments:\n    - name: main\n"
      "      count: 1\n      flavors: {cpu: h100, memory: h100, nvidia.com/gpu: h100}\n"
      "      resourceUsage: {cpu: \"1\", memory: 1Gi, nvidia.com/gpu: \"8\"}\n  conditions:\n"
      "  - {type: QuotaReserved, status: \"True\", reason: QuotaReserved, message: x, lastTransitionTime: \"2026-01-01T00:00:01Z\"}\n"
      "  - {type: Admitted, status: \"True\", reason: Admitted, message: x, lastTransitionTime: \"2026-01-01T00:00:01Z\"}\n---\n";
  yaml +=
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: old-0\n  namespace: ml\n  ownerReferences:\n"
      "  - {apiVersion: batch/v1, kind: Job, name: old, uid: uid-old, controller: true}\n"
      "spec:\n  nodeName: n1\n  containers:\n  - name: main\n    resources:\n"
      "      requests: {cpu: \"1\", memory: 1Gi, nvidia.com/gpu: \"8\"}\nstatus:\n  phase: Running\n";
  const Plan plan = RunPlan(Read(yaml), {});
  const model::Workload& old = WorkloadNamed(plan, "job-old");
  EXPECT_EQ(ConditionStatus(old, "Evicted"), "True");
  EXPECT_EQ(ConditionStatus(old, "Preempted"), "True");
  EXPECT_EQ(ConditionStatus(WorkloadNamed(plan, "job-urgent"), "Admitted"), "True");
  // The victim's pod left the node, so urgent's pod fits there.
  EXPECT_EQ(Placements(plan), (std::map<std::string, std::string>{{"urgent-0", "n1"}}));
}

TEST(KueuePlanTest, ExplainWorkloadByJobNameSaysWhyItWaits) {
  const model::Snapshot s = Read(GpuNode("n1", "h100", 8) + Queues(4, 0) +
                                 Job("train", 2, 4, "2026-01-01T00:00:00Z"));
  auto e = ExplainWorkload(model::Snapshot(s), "train", {});
  ASSERT_TRUE(e.has_value()) << e.error().ToString();
  EXPECT_EQ(e.value().decision.outcome, queueing::WorkloadOutcome::kPending);
  ASSERT_FALSE(e.value().decision.attempts.empty());
  EXPECT_EQ(e.value().decision.attempts[0].flavor, "h100");
  ASSERT_TRUE(e.value().cluster_queue.has_value());
  EXPECT_EQ(e.value().cluster_queue->name, "cq");
  EXPECT_FALSE(ExplainWorkload(model::Snapshot(s), "nothing", {}).has_value());
}

std::string GroupPod(const std::string& name, int gpus) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\n  namespace: ml\n  labels:\n    scheduling.x-k8s.io/pod-group: g\nspec:\n  containers:\n"
         "  - name: main\n    resources:\n      requests: {cpu: \"1\", nvidia.com/gpu: \"" +
         std::to_string(gpus) + "\"}\n---\n";
}

std::string PodGroup(int min_member) {
  return "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\nmetadata:\n  name: g\n"
         "  namespace: ml\nspec:\n  minMember: " + std::to_string(min_member) + "\n---\n";
}

TEST(KueuePlanTest, PodGroupBindsAllOrNothing) {
  const std::string pods = GroupPod("w-0", 4) + GroupPod("w-1", 4) + GroupPod("w-2", 4);
  {
    // 8 GPUs hold two of the three pods: minMember 3 binds none.
    const Plan plan = RunPlan(Read(GpuNode("n1", "h100", 8) + PodGroup(3) + pods), {});
    for (const auto& [name, node] : Placements(plan)) EXPECT_EQ(node, "") << name;
    ASSERT_EQ(plan.pod_decisions.size(), 3u);
  }
  {
    // minMember 2: two bind, the third stays pending.
    const Plan plan = RunPlan(Read(GpuNode("n1", "h100", 8) + PodGroup(2) + pods), {});
    int bound = 0;
    for (const auto& [name, node] : Placements(plan)) bound += node.empty() ? 0 : 1;
    EXPECT_EQ(bound, 2);
  }
}


// BuildInventory reads the plan alone: a pod bound in the input and one the plan binds each
// hold their GPUs once, although the planned snapshot shows both bound.
TEST(KueuePlanTest, InventoryCountsInputAndPlannedPodsOnce) {
  const std::string running =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: running\n  namespace: ml\nspec:\n"
      "  nodeName: n1\n  containers:\n  - name: c\n    image: x\n    resources:\n"
      "      requests: {nvidia.com/gpu: \"2\"}\nstatus:\n  phase: Running\n---\n";
  const std::string pending =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: pending\n  namespace: ml\nspec:\n"
      "  containers:\n  - name: c\n    image: x\n    resources:\n"
      "      requests: {nvidia.com/gpu: \"4\"}\n---\n";
  const Plan plan = RunPlan(Read(GpuNode("n1", "h100", 8) + running + pending), {});
  ASSERT_EQ(Placements(plan), (std::map<std::string, std::string>{{"pending", "n1"}}));
  const Inventory inventory = BuildInventory(plan);
  ASSERT_EQ(inventory.clusters.size(), 1u);
  ASSERT_EQ(inventory.clusters[0].nodes.size(), 1u);
  std::map<std::string, int32_t> held;
  for (const gpu::DeviceOccupancy& device : inventory.clusters[0].nodes[0].occupancy.devices) {
    for (const gpu::DeviceHolder& h : device.holders) {
      if (h.pod.v >= 0) held[plan.planned.pod(h.pod).meta.name] += h.replicas;
    }
  }
  EXPECT_EQ(held, (std::map<std::string, int32_t>{{"pending", 4}, {"running", 2}}));
  EXPECT_TRUE(inventory.clusters[0].nodes[0].occupancy.unassigned.empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
