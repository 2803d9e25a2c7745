// CheckPlanInvariants on plans of small inputs, clean and then broken by hand the way a stage
// bug would break them: each rule reports the object and the numbers, and what the input
// already held (an overcommitted node, a queue over a shrunk quota) is not blamed on the plan.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "engine/cluster_sim.h"
#include "engine/invariants.h"
#include "engine/plan.h"
#include "engine/test_util.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

model::Snapshot Read(const std::string& yaml) { return testing::ReadCleanYaml(yaml); }

std::vector<std::string> Strings(const std::vector<InvariantViolation>& violations) {
  std::vector<std::string> out;
  for (const InvariantViolation& v : violations) out.push_back(v.ToString());
  return out;
}

std::string Node(const std::string& name, int cpu, int gpus) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
         "\n  labels: {kubernetes.io/hostname: " + name + ", pool: a}\nstatus:\n  allocatable: {cpu: \"" +
         std::to_string(cpu) + "\", memory: 64Gi, pods: \"10\", nvidia.com/gpu: \"" +
         std::to_string(gpus) + "\"}\n---\n";
}

std::string Pod(const std::string& name, int cpu, const std::string& node = "") {
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ns}\nspec:\n" +
         (node.empty() ? "" : "  nodeName: " + node + "\n") +
         "  containers:\n  - name: c\n    resources:\n      requests: {cpu: \"" + std::to_string(cpu) +
         "\"}\n" + (node.empty() ? "" : "status: {phase: Running}\n") + "---\n";
}

int32_t PodIndexOf(const Plan& plan, const std::string& name) {
  for (size_t i = 0; i < plan.planned.pods.size(); ++i) {
    if (plan.planned.pods[i].meta.name == name) return static_cast<int32_t>(i);
  }
  ADD_FAILURE() << "no pod " << name;
  return 0;
}

TEST(InvariantsTest, CleanPlanHasNoViolation) {
  const Plan plan = RunPlan(Read(Node("n1", 4, 0) + Pod("a", 2) + Pod("b", 2) + Pod("c", 2)), {});
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)), std::vector<std::string>{});
}

TEST(InvariantsTest, ReportsANodeOverAllocatedByThePlan) {
  Plan plan = RunPlan(Read(Node("n1", 4, 0) + Pod("a", 2) + Pod("b", 2) + Pod("c", 2)), {});
  // The bug: pod c, which did not fit, bound anyway.
  const int32_t c = PodIndexOf(plan, "c");
  plan.planned.pods[static_cast<size_t>(c)].node_name = "n1";
  plan.planned.pods[static_cast<size_t>(c)].conditions = {{"PodScheduled", "True", "", ""}};
  for (model::PodDecision& d : plan.pod_decisions) {
    if (d.pod.v == c) d.node = model::NodeIndex{0};
  }
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)),
            std::vector<std::string>{"invariant node-capacity violated: Node default/n1: cpu "
                                     "requested 6000 > allocatable 4000 after the plan bound a, b, c"});
}

TEST(InvariantsTest, InputOvercommitIsNotBlamedOnThePlan) {
  // Two running pods already ask for more than the node has; the plan binds nothing there.
  const Plan plan =
      RunPlan(Read(Node("n1", 4, 0) + Node("n2", 4, 0) + Pod("r1", 3, "n1") + Pod("r2", 3, "n1") +
                   Pod("new", 1)),
              {});
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)), std::vector<std::string>{});
}

std::string FractionPod(const std::string& name, const std::string& node = "") {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\n  namespace: ns\n  annotations: {gpu-fraction: \"0.25\"}\nspec:\n" +
         (node.empty() ? "" : "  nodeName: " + node + "\n") +
         "  containers:\n  - name: c\n    resources:\n      requests: {cpu: \"1\"}\n" +
         (node.empty() ? "" : "status: {phase: Running}\n") + "---\n";
}

TEST(InvariantsTest, FractionsOnAGpuReservedBeforeThePlanAddNoGpu) {
  // The input runs a fraction (its GPU reserved for sharing) and a whole-GPU pod on a node of
  // one GPU: two GPUs taken of one. The plan's fraction shares the reserved GPU and takes no
  // GPU more, so the overcommit stays the input's (found by the property test, seed 3413).
  const std::string node =
      "apiVersion: v1\nkind: Node\nmetadata:\n  name: g1\n  labels: {kubernetes.io/hostname: g1, "
      "nvidia.com/gpu.product: NVIDIA-A100-SXM4-40GB, nvidia.com/gpu.count: \"1\", "
      "nvidia.com/gpu.memory: \"40960\"}\nstatus:\n  allocatable: {cpu: \"16\", memory: 64Gi, pods: "
      "\"10\", nvidia.com/gpu: \"1\"}\n---\n";
  const std::string whole =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: whole, namespace: ns}\nspec:\n  nodeName: g1\n"
      "  containers:\n  - name: c\n    resources:\n      requests: {nvidia.com/gpu: \"1\"}\n"
      "status: {phase: Running}\n---\n";
  const Plan plan = RunPlan(Read(node + FractionPod("shared", "g1") + whole + FractionPod("new")), {});
  ASSERT_EQ(plan.pod_decisions.size(), 1u);
  EXPECT_TRUE(plan.pod_decisions[0].node.has_value());
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)), std::vector<std::string>{});
}

TEST(InvariantsTest, ReportsAPrintedStatusThatDisagreesWithTheDecision) {
  Plan plan = RunPlan(Read(Node("n1", 4, 0) + Node("n2", 4, 0) + Pod("a", 2)), {});
  const int32_t a = PodIndexOf(plan, "a");
  ASSERT_TRUE(plan.pod_decisions.at(0).node.has_value());
  const std::string decided = plan.planned.node(*plan.pod_decisions[0].node).meta.name;
  const std::string other = decided == "n1" ? "n2" : "n1";
  plan.planned.pods[static_cast<size_t>(a)].node_name = other;
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)),
            std::vector<std::string>{"invariant pod-status violated: Pod default/ns/a: decision: "
                                     "bound to " + decided + "; printed: spec.nodeName '" + other +
                                     "', PodScheduled True"});
}

std::string Kueue(int gpu_quota) {
  return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: a}\n"
         "spec:\n  nodeLabels: {pool: a}\n---\n"
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n"
         "  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu, nvidia.com/gpu]\n"
         "    flavors:\n    - name: a\n      resources:\n      - {name: cpu, nominalQuota: \"64\"}\n"
         "      - {name: nvidia.com/gpu, nominalQuota: \"" + std::to_string(gpu_quota) + "\"}\n---\n"
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: ns}\n"
         "spec: {clusterQueue: cq}\n---\n";
}

std::string Job(const std::string& name, int pods, int gpus) {
  return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name +
         "\n  namespace: ns\n  labels: {kueue.x-k8s.io/queue-name: lq}\n"
         "  creationTimestamp: \"2026-01-10T10:00:00Z\"\nspec:\n  parallelism: " + std::to_string(pods) +
         "\n  completions: " + std::to_string(pods) +
         "\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: c\n"
         "        resources:\n          requests: {cpu: \"1\", nvidia.com/gpu: \"" + std::to_string(gpus) +
         "\"}\n---\n";
}

TEST(InvariantsTest, ReportsAClusterQueueOverItsQuota) {
  Plan plan = RunPlan(Read(Node("n1", 16, 8) + Kueue(4) + Job("train", 2, 2)), {});
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)), std::vector<std::string>{});
  // The bug: the admission records more GPUs than the queue has.
  ASSERT_EQ(plan.planned.kueue_workloads.size(), 1u);
  model::Workload& w = plan.planned.kueue_workloads[0];
  ASSERT_TRUE(w.admission.has_value());
  w.admission->pod_set_assignments.at(0).resource_usage["nvidia.com/gpu"] = 6;
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)),
            std::vector<std::string>{"invariant quota violated: ClusterQueue default/cq: "
                                     "nvidia.com/gpu in flavor a: usage 6 > nominal 4"});
}

TEST(InvariantsTest, ACohortTheInputOverdrewIsNotBlamedOnAGuaranteedAdmission) {
  // cq-0 keeps its 2 GPUs to itself (lendingLimit 0); cq-1 has 1 and, in the input, holds 2
  // (a Workload Kueue admitted before): the cohort is 1 GPU over. The plan admits 1 GPU into
  // cq-0, within its guaranteed quota, which Kueue does whatever the cohort's state (found by
  // the property test, seed 7946).
  std::string queues =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: a}\n"
      "spec:\n  nodeLabels: {pool: a}\n---\n";
  for (const auto& [cq, gpus, lending] :
       {std::tuple{"cq-0", "2", "\n        lendingLimit: \"0\""}, std::tuple{"cq-1", "1", ""}}) {
    queues += std::string("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: ") + cq +
              "}\nspec:\n  namespaceSelector: {}\n  cohortName: co\n  resourceGroups:\n"
              "  - coveredResources: [cpu, nvidia.com/gpu]\n    flavors:\n    - name: a\n      resources:\n"
              "      - {name: cpu, nominalQuota: \"64\"}\n      - name: nvidia.com/gpu\n"
              "        nominalQuota: \"" + gpus + "\"" + lending + "\n---\n"
              "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq-" + (cq + 3) +
              ", namespace: ns}\nspec: {clusterQueue: " + cq + "}\n---\n";
  }
  const std::string held =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: held, namespace: ns}\n"
      "spec:\n  queueName: lq-1\n  podSets:\n  - name: main\n    count: 1\n    template:\n      spec:\n"
      "        containers:\n        - name: c\n          resources:\n            requests: {nvidia.com/gpu: \"2\"}\n"
      "status:\n  admission:\n    clusterQueue: cq-1\n    podSetAssignments:\n    - name: main\n"
      "      count: 1\n      flavors: {nvidia.com/gpu: a}\n      resourceUsage: {nvidia.com/gpu: \"2\"}\n"
      "  conditions:\n  - {type: QuotaReserved, status: \"True\", reason: QuotaReserved, message: m, "
      "lastTransitionTime: \"2026-01-10T09:00:00Z\"}\n  - {type: Admitted, status: \"True\", "
      "reason: Admitted, message: m, lastTransitionTime: \"2026-01-10T09:00:00Z\"}\n---\n";
  std::string job = Job("train", 1, 1);
  job.replace(job.find("queue-name: lq"), 14, "queue-name: lq-0");
  const Plan plan = RunPlan(Read(Node("n1", 16, 8) + queues + held + job), {});
  ASSERT_EQ(plan.admissions.size(), 1u);
  int admitted = 0;
  for (const auto& d : plan.admissions[0].result.decisions) {
    admitted += d.outcome == queueing::WorkloadOutcome::kAdmitted ? 1 : 0;
  }
  EXPECT_EQ(admitted, 1);
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)), std::vector<std::string>{});
  // The bug: the admission into cq-0 records 3 GPUs, 1 beyond its guarantee, borrowed from a
  // cohort that had nothing to lend.
  Plan broken = plan;
  for (model::Workload& w : broken.planned.kueue_workloads) {
    if (w.admission && w.admission->cluster_queue == "cq-0") {
      w.admission->pod_set_assignments.at(0).resource_usage["nvidia.com/gpu"] = 3;
    }
  }
  EXPECT_EQ(Strings(CheckPlanInvariants(broken)),
            std::vector<std::string>{"invariant cohort-quota violated: Cohort default/co: "
                                     "nvidia.com/gpu in flavor a: usage beyond guaranteed quota 3 > "
                                     "lendable quota 1 (nominal 3, guaranteed 2)"});
}

TEST(InvariantsTest, ReportsAnAdmittedWorkloadWhosePodsNeitherBindNorSayWhy) {
  Plan plan = RunPlan(Read(Node("n1", 16, 8) + Kueue(4) + Job("train", 2, 2)), {});
  // The bug: one pod of the admitted job is left without a node or a PodScheduled reason.
  const int32_t p = PodIndexOf(plan, "train-1");
  plan.planned.pods[static_cast<size_t>(p)].node_name.clear();
  plan.planned.pods[static_cast<size_t>(p)].conditions.clear();
  std::vector<model::PodDecision> kept;
  for (model::PodDecision& d : plan.pod_decisions) {
    if (d.pod.v != p) kept.push_back(std::move(d));
  }
  plan.pod_decisions = std::move(kept);
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)),
            std::vector<std::string>{"invariant admitted-pods violated: Workload default/ns/job-train: "
                                     "admitted with 2 pods but only 1 are bound or say why they "
                                     "wait; without either: train-1"});
}

std::string DraInput() {
  return Node("n1", 16, 0) +
         "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n"
         "spec:\n  selectors:\n  - cel: {expression: device.driver == \"gpu.example.com\"}\n---\n"
         "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: n1-gpus}\nspec:\n"
         "  driver: gpu.example.com\n  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
         "  nodeName: n1\n  devices:\n  - name: gpu-0\n  - name: gpu-1\n---\n"
         "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: one, namespace: ns}\n"
         "spec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n"
         "        exactly: {deviceClassName: gpu.example.com}\n---\n" +
         [] {
           std::string pods;
           for (const char* name : {"a", "b"}) {
             pods += std::string("apiVersion: v1\nkind: Pod\nmetadata: {name: ") + name +
                     ", namespace: ns}\nspec:\n  containers:\n  - name: c\n  resourceClaims:\n"
                     "  - {name: gpu, resourceClaimTemplateName: one}\n---\n";
           }
           return pods;
         }();
}

TEST(InvariantsTest, ReportsADeviceAllocatedTwice) {
  Plan plan = RunPlan(Read(DraInput()), {});
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)), std::vector<std::string>{});
  ASSERT_EQ(plan.changed_claims.size(), 2u);
  auto& first = plan.planned.resource_claims[static_cast<size_t>(plan.changed_claims[0])];
  auto& second = plan.planned.resource_claims[static_cast<size_t>(plan.changed_claims[1])];
  ASSERT_TRUE(first.allocation && second.allocation);
  // The bug: the second claim got the first one's device.
  second.allocation->results.at(0).device = first.allocation->results.at(0).device;
  EXPECT_EQ(Strings(CheckPlanInvariants(plan)),
            std::vector<std::string>{"invariant device-once violated: Device default/gpu.example.com/n1/" +
                                     first.allocation->results[0].device +
                                     ": allocated to 2 claims: ns/" + first.meta.name + ", ns/" +
                                     second.meta.name});
}

TEST(InvariantsTest, SimStepsKeepQuotaAndNodes) {
  // Three jobs of 2 GPUs on a queue of 4 GPUs and a node of 8: two hold quota at a time.
  const model::Snapshot world = Read(Node("n1", 16, 8) + Node("n2", 4, 0) + Kueue(4) +
                                     Job("a", 1, 2) + Job("b", 1, 2) + Job("c", 1, 2) +
                                     Pod("over", 20, "n2"));
  core::Diagnostics diags;
  ClusterSim sim(world, "default", std::nullopt, diags);
  // The running pod already asks for more CPU than n2 has: the fleet's, not a step's.
  const SimStepChecker checker(sim);
  core::Timestamp now;
  now.unix_s = 100;
  for (int32_t w = 0; w < 3; ++w) sim.Submit(w);
  std::vector<int32_t> admitted;
  for (const SimChange& c : sim.Schedule(now, nullptr)) {
    if (c.admitted) admitted.push_back(c.workload);
  }
  ASSERT_EQ(admitted.size(), 2u);
  for (int32_t w : admitted) EXPECT_TRUE(sim.Bind(w));
  EXPECT_EQ(sim.QuotaHolders(), admitted);
  EXPECT_EQ(Strings(checker.Check()), std::vector<std::string>{});
  // One ends: its quota goes to the third, which the check sees as a holder instead.
  sim.binder().Release(admitted[0]);
  sim.Finish(admitted[0]);
  now.unix_s = 200;
  sim.Schedule(now, nullptr);
  EXPECT_EQ(sim.QuotaHolders().size(), 2u);
  EXPECT_EQ(Strings(checker.Check()), std::vector<std::string>{});
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
