// RunPlan on a fleet (DESIGN.md "Fleet wiring"): member clusters run their own cycle first,
// every Placement is decided with their measured capacity, and the hub's Kueue admissions
// through an OCM placement (or MultiKueue) admission check go to the best-scored candidate
// cluster whose quota, free capacity and nodes take the workload now; the rest keep their
// hub reservation with the check Pending and a reason per cluster. Dispatched workloads get
// status.clusterName and a ManifestWork in the cluster's namespace. Inputs are YAML read
// through io, member clusters with ReadOptions::cluster as `--cluster NAME=PATH` reads them.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "engine/cluster_part.h"
#include "engine/explain_placement.h"
#include "engine/plan.h"
#include "io/reader.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

// Files of one input: the hub's text, then each member cluster's.
struct Fleet {
  std::string hub;
  std::map<std::string, std::string> clusters;
};

model::Snapshot Read(const Fleet& fleet) {
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(fleet.hub, "hub.yaml");
  for (const auto& [name, text] : fleet.clusters) {
    io::ReadOptions options;
    options.cluster = name;
    reader.ReadText(text, name + ".yaml", options);
  }
  io::Input input = reader.Finish();
  for (const auto& d : diags.entries()) ADD_FAILURE() << d.error.ToString();
  return std::move(input.snapshot);
}

std::string ManagedCluster(const std::string& name, const std::string& price,
                           const std::string& status_extra = "") {
  return "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n"
         "  name: " + name + "\n  labels:\n    cluster.open-cluster-management.io/clusterset: fleet\n"
         "    berth.dev/gpu-hour-price: \"" + price + "\"\nspec:\n  hubAcceptsClient: true\n"
         "status:\n" + status_extra + "  conditions:\n  - {type: ManagedClusterConditionAvailable, "
         "status: \"True\", reason: Available, lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n---\n";
}

std::string GpuNodes(const std::string& cluster, int count, int gpus) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    const std::string name = cluster + "-n" + std::to_string(i);
    out += "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
           "\n  labels:\n    kubernetes.io/hostname: " + name +
           "\n    nvidia.com/gpu.product: A100\nstatus:\n  allocatable: {cpu: \"64\", memory: 512Gi, "
           "pods: \"110\", nvidia.com/gpu: \"" + std::to_string(gpus) + "\"}\n---\n";
  }
  return out;
}

// A pod already running on a member cluster's node, holding `gpus`.
std::string RunningPod(const std::string& name, const std::string& node, int gpus) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: other\nspec:\n"
         "  nodeName: " + node + "\n  containers:\n  - name: c\n    image: x\n    resources:\n"
         "      requests: {nvidia.com/gpu: \"" + std::to_string(gpus) + "\"}\nstatus:\n  phase: Running\n---\n";
}

// The hub: a cluster set with a binding in kueue-system, Placement "fleet" scoring by Cost,
// admission check "fleet" naming it (`controller`), one flavor, ClusterQueue "cq" with
// `gpus` of quota gated by the check, and LocalQueue ml/lq.
std::string Hub(int gpus, const std::string& placement_spec = "",
                const std::string& controller = "open-cluster-management.io/placement",
                const std::string& parameters = "{apiGroup: cluster.open-cluster-management.io, "
                                                "kind: Placement, name: fleet}") {
  return "apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\n"
         "metadata: {name: fleet}\n---\n"
         "apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSetBinding\n"
         "metadata: {name: fleet, namespace: kueue-system}\nspec: {clusterSet: fleet}\n---\n"
         "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n"
         "metadata: {name: fleet, namespace: kueue-system}\nspec:\n  clusterSets: [fleet]\n" +
         (placement_spec.empty()
              ? std::string("  prioritizerPolicy:\n    mode: Exact\n    configurations:\n"
                            "    - {scoreCoordinate: {type: BuiltIn, builtIn: Cost}, weight: 1}\n")
              : placement_spec) +
         "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\nmetadata: {name: fleet}\n"
         "spec:\n  controllerName: " + controller + "\n  parameters: " + parameters + "\n---\n"
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: any}\n---\n"
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n"
         "  namespaceSelector: {}\n  admissionChecksStrategy:\n    admissionChecks: [{name: fleet}]\n"
         "  resourceGroups:\n"
         "  - coveredResources: [cpu, memory, nvidia.com/gpu]\n    flavors:\n    - name: any\n"
         "      resources:\n      - {name: cpu, nominalQuota: \"1000\"}\n"
         "      - {name: memory, nominalQuota: 100Ti}\n      - {name: nvidia.com/gpu, nominalQuota: \"" +
         std::to_string(gpus) + "\"}\n---\n"
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: ml}\n"
         "spec: {clusterQueue: cq}\n---\n";
}

std::string Job(const std::string& name, int pods, int gpus, const std::string& created) {
  return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name +
         "\n  namespace: ml\n  uid: uid-" + name + "\n  creationTimestamp: \"" + created +
         "\"\n  labels:\n    kueue.x-k8s.io/queue-name: lq\nspec:\n  parallelism: " +
         std::to_string(pods) + "\n  completions: " + std::to_string(pods) +
         "\n  suspend: true\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n"
         "      - name: main\n        image: x\n        resources:\n          requests: {cpu: \"1\", "
         "memory: 1Gi, nvidia.com/gpu: \"" + std::to_string(gpus) + "\"}\n---\n";
}

// A worker's own Kueue: LocalQueue ml/lq feeding a ClusterQueue with `gpus` of quota.
std::string WorkerQueues(int gpus, const std::string& local_queue = "lq") {
  return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: local}\n---\n"
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: worker-cq}\nspec:\n"
         "  namespaceSelector: {}\n  resourceGroups:\n"
         "  - coveredResources: [cpu, memory, nvidia.com/gpu]\n    flavors:\n    - name: local\n"
         "      resources:\n      - {name: cpu, nominalQuota: \"1000\"}\n"
         "      - {name: memory, nominalQuota: 100Ti}\n      - {name: nvidia.com/gpu, nominalQuota: \"" +
         std::to_string(gpus) + "\"}\n---\n"
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: " + local_queue +
         ", namespace: ml}\nspec: {clusterQueue: worker-cq}\n---\n";
}

int32_t WorkloadIndex(const Plan& plan, const std::string& name) {
  for (size_t i = 0; i < plan.planned.kueue_workloads.size(); ++i) {
    if (plan.planned.kueue_workloads[i].meta.name == name) return static_cast<int32_t>(i);
  }
  ADD_FAILURE() << "no workload " << name;
  return -1;
}

const model::Workload& WorkloadNamed(const Plan& plan, const std::string& name) {
  return plan.planned.kueue_workloads[static_cast<size_t>(WorkloadIndex(plan, name))];
}

const Dispatch& DispatchOf(const Plan& plan, const std::string& name) {
  auto it = plan.dispatches.find(WorkloadIndex(plan, name));
  if (it == plan.dispatches.end()) {
    ADD_FAILURE() << "no dispatch for " << name;
    static const Dispatch kNone;
    return kNone;
  }
  return it->second;
}

std::string ConditionStatus(const model::Workload& w, const std::string& type) {
  const model::WorkloadCondition* c = w.FindCondition(type);
  return c == nullptr ? "" : c->status;
}

const model::AdmissionCheckStatus* Check(const model::Workload& w, const std::string& name) {
  for (const auto& s : w.admission_checks) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// Three clusters, cheapest first by price: us (1.00), eu (2.00), ap (3.00), 2 nodes x 8 GPUs.
Fleet ThreeClusters(const std::string& jobs, int quota = 100) {
  Fleet f;
  f.hub = Hub(quota) + ManagedCluster("us", "1.00") + ManagedCluster("eu", "2.00") +
          ManagedCluster("ap", "3.00") + jobs;
  for (const char* c : {"us", "eu", "ap"}) f.clusters[c] = GpuNodes(c, 2, 8);
  return f;
}

// What a plan wrote, as text: nodes, pods' bindings, Workloads' status, ManifestWorks,
// PlacementDecisions, admissions and dispatches, in order.
std::string Written(const Plan& plan) {
  std::string out;
  const model::Snapshot& s = plan.planned;
  for (const model::Node& n : s.nodes) out += "node " + n.cluster + "/" + n.meta.name + "\n";
  for (const model::Pod& p : s.pods) {
    out += "pod " + p.cluster + "/" + p.meta.name + " -> " + p.node_name;
    for (const auto& c : p.conditions) out += " " + c.type + "=" + c.status + ":" + c.message;
    out += "\n";
  }
  for (const model::Workload& w : s.kueue_workloads) {
    out += "workload " + w.cluster + "/" + w.meta.name + " on " + w.cluster_name + " cq " +
           (w.admission ? w.admission->cluster_queue : "-");
    for (const auto& c : w.conditions) out += " " + c.type + "=" + c.status + ":" + c.reason + ":" + c.message;
    for (const auto& c : w.admission_checks) {
      out += " check " + c.name + "=" + std::to_string(static_cast<int>(c.state)) + ":" + c.message;
    }
    for (const auto& n : w.nominated_cluster_names) out += " nominated " + n;
    out += "\n";
  }
  for (const auto& m : s.manifest_works) out += "work " + m.meta.namespace_ + "/" + m.meta.name + "\n";
  out += "decisions " + std::to_string(s.placement_decisions.size()) + "\n";
  for (const auto& a : plan.admissions) {
    out += "admission " + a.cluster + " " + std::to_string(a.result.decisions.size()) + "\n";
  }
  for (const auto& [index, d] : plan.dispatches) {
    out += "dispatch " + std::to_string(index) + " " + d.cluster.value_or("-") + " " + d.message + "\n";
  }
  for (const auto& d : plan.pod_decisions) out += "decided " + std::to_string(d.pod.v) + "\n";
  out += "diagnostics " + std::to_string(plan.diagnostics.entries().size()) + "\n";
  return out;
}

TEST(FleetPlanTest, TakingTheInputOverPlansAsCopyingIt) {
  // The fleet path given the input by && copies Workloads late and nodes never: the same plan.
  Fleet queues = ThreeClusters(Job("train", 1, 8, "2026-01-01T00:00:00Z") +
                               Job("more", 2, 4, "2026-01-01T00:01:00Z"));
  queues.clusters["us"] += WorkerQueues(4) + Job("local", 1, 2, "2025-12-31T00:00:00Z");
  queues.clusters["eu"] += WorkerQueues(64, "other");
  queues.clusters["ap"] += WorkerQueues(64) + Job("own", 1, 4, "2025-12-31T00:00:00Z");
  Fleet busy = ThreeClusters(Job("pair", 2, 8, "2026-01-01T00:00:00Z") +
                             Job("huge", 3, 8, "2026-01-01T00:01:00Z"));
  busy.clusters["us"] = GpuNodes("us", 3, 8) + RunningPod("p0", "us-n0", 3);
  for (const Fleet* f : {&queues, &busy}) {
    const model::Snapshot input = Read(*f);
    const Plan copied = RunPlan(input, {});
    const Plan taken = RunPlan(model::Snapshot(input), {});
    EXPECT_FALSE(copied.planned.nodes.empty());
    EXPECT_FALSE(copied.dispatches.empty());
    // Member clusters' own Kueue decisions (us and ap), then the hub's.
    if (f == &queues) {
      EXPECT_EQ(copied.admissions.size(), 3u);
    }
    EXPECT_EQ(Written(copied), Written(taken));
  }
}

TEST(FleetPlanTest, AdmittedWorkloadGoesToTheBestScoredClusterThatFits) {
  const Plan plan = RunPlan(Read(ThreeClusters(Job("train", 2, 4, "2026-01-01T00:00:00Z"))), {});
  const model::Workload& w = WorkloadNamed(plan, "job-train");
  EXPECT_EQ(w.cluster_name, "us");
  EXPECT_TRUE(w.nominated_cluster_names.empty());
  EXPECT_EQ(ConditionStatus(w, "Admitted"), "True");
  const model::AdmissionCheckStatus* check = Check(w, "fleet");
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->state, model::CheckState::kReady);
  EXPECT_EQ(check->message, "The workload got reservation on \"us\"");
  const Dispatch& d = DispatchOf(plan, "job-train");
  ASSERT_EQ(d.attempts.size(), 1u);
  EXPECT_TRUE(d.attempts[0].fits);
  EXPECT_EQ(d.attempts[0].pods.size(), 2u);
  ASSERT_TRUE(d.candidates);
  EXPECT_EQ(*d.candidates, (std::vector<std::string>{"us", "eu", "ap"}));
}

TEST(FleetPlanTest, LaterWorkloadsSeeWhatEarlierDispatchesTook) {
  // Each job takes a whole cluster's 16 GPUs: the first gets us, the second eu, the third ap.
  const Plan plan = RunPlan(Read(ThreeClusters(Job("a", 2, 8, "2026-01-01T00:00:00Z") +
                                               Job("b", 2, 8, "2026-01-01T00:01:00Z") +
                                               Job("c", 2, 8, "2026-01-01T00:02:00Z"))),
                            {});
  EXPECT_EQ(WorkloadNamed(plan, "job-a").cluster_name, "us");
  EXPECT_EQ(WorkloadNamed(plan, "job-b").cluster_name, "eu");
  EXPECT_EQ(WorkloadNamed(plan, "job-c").cluster_name, "ap");
  const Dispatch& c = DispatchOf(plan, "job-c");
  ASSERT_EQ(c.attempts.size(), 3u);
  EXPECT_EQ(c.attempts[0].reason, "insufficient nvidia.com/gpu: needs 16, 0 free in the cluster");
}

TEST(FleetPlanTest, WorkloadThatFitsNowhereKeepsItsReservationWithReasonsPerCluster) {
  const Plan plan = RunPlan(Read(ThreeClusters(Job("huge", 3, 8, "2026-01-01T00:00:00Z"))), {});
  const model::Workload& w = WorkloadNamed(plan, "job-huge");
  EXPECT_EQ(w.cluster_name, "");
  EXPECT_EQ(ConditionStatus(w, "QuotaReserved"), "True");
  EXPECT_NE(ConditionStatus(w, "Admitted"), "True");
  EXPECT_EQ(w.nominated_cluster_names, (std::vector<std::string>{"us", "eu", "ap"}));
  const model::AdmissionCheckStatus* check = Check(w, "fleet");
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->state, model::CheckState::kPending);
  EXPECT_EQ(check->message,
            "no cluster fits: us: insufficient nvidia.com/gpu: needs 24, 16 free in the cluster; "
            "eu: insufficient nvidia.com/gpu: needs 24, 16 free in the cluster; "
            "ap: insufficient nvidia.com/gpu: needs 24, 16 free in the cluster");
  EXPECT_TRUE(plan.manifest_work_items.empty());
}

TEST(FleetPlanTest, GangMustFitTheNodesNotOnlyTheClusterTotal) {
  // us has 16 GPUs free in all but 5 + 5 + 6 on three nodes: two pods of 8 fit no node.
  Fleet f = ThreeClusters(Job("pair", 2, 8, "2026-01-01T00:00:00Z"));
  f.clusters["us"] = GpuNodes("us", 3, 8) + RunningPod("p0", "us-n0", 3) +
                     RunningPod("p1", "us-n1", 3) + RunningPod("p2", "us-n2", 2);
  const Plan plan = RunPlan(Read(f), {});
  EXPECT_EQ(WorkloadNamed(plan, "job-pair").cluster_name, "eu");
  const Dispatch& d = DispatchOf(plan, "job-pair");
  ASSERT_GE(d.attempts.size(), 2u);
  EXPECT_FALSE(d.attempts[0].fits);
  EXPECT_NE(d.attempts[0].reason.find("Insufficient nvidia.com/gpu"), std::string::npos)
      << d.attempts[0].reason;
}

TEST(FleetPlanTest, WorkerQueuesDecideToo) {
  // us runs Kueue with 4 GPUs of quota for ml/lq; eu runs Kueue without ml/lq.
  Fleet f = ThreeClusters(Job("train", 1, 8, "2026-01-01T00:00:00Z"));
  f.clusters["us"] += WorkerQueues(4);
  f.clusters["eu"] += WorkerQueues(64, "other");
  f.clusters["ap"] += WorkerQueues(64);
  const Plan plan = RunPlan(Read(f), {});
  const Dispatch& d = DispatchOf(plan, "job-train");
  ASSERT_EQ(d.attempts.size(), 3u);
  EXPECT_NE(d.attempts[0].reason.find("insufficient"), std::string::npos) << d.attempts[0].reason;
  EXPECT_EQ(d.attempts[1].reason, "LocalQueue ml/lq doesn't exist in the cluster");
  EXPECT_TRUE(d.attempts[2].fits);
  ASSERT_TRUE(d.attempts[2].worker_admission.has_value());
  EXPECT_EQ(d.attempts[2].worker_admission->cluster_queue, "worker-cq");
  EXPECT_EQ(d.worker_local_queue, std::optional<std::string>("lq"));
}

TEST(FleetPlanTest, ClusterWithoutNodesIsCheckedOnItsReportedAllocatable) {
  Fleet f;
  f.hub = Hub(100) + ManagedCluster("edge", "0.50", "  allocatable: {cpu: \"64\", memory: 256Gi, "
                                                    "nvidia.com/gpu: \"4\"}\n") +
          ManagedCluster("us", "1.00") + Job("a", 1, 4, "2026-01-01T00:00:00Z") +
          Job("b", 1, 4, "2026-01-01T00:01:00Z");
  f.clusters["us"] = GpuNodes("us", 1, 8);
  const Plan plan = RunPlan(Read(f), {});
  EXPECT_EQ(WorkloadNamed(plan, "job-a").cluster_name, "edge");
  EXPECT_EQ(WorkloadNamed(plan, "job-b").cluster_name, "us");
}

TEST(FleetPlanTest, ClusterWithNoCapacityDataIsSkippedWithAReason) {
  Fleet f;
  f.hub = Hub(100) + ManagedCluster("blind", "0.10") + ManagedCluster("us", "1.00") +
          Job("a", 1, 1, "2026-01-01T00:00:00Z");
  f.clusters["us"] = GpuNodes("us", 1, 8);
  const Plan plan = RunPlan(Read(f), {});
  const Dispatch& d = DispatchOf(plan, "job-a");
  EXPECT_EQ(d.cluster, std::optional<std::string>("us"));
  ASSERT_EQ(d.attempts.size(), 2u);
  EXPECT_EQ(d.attempts[0].reason.rfind("no capacity data", 0), 0u) << d.attempts[0].reason;
}

TEST(FleetPlanTest, ManifestWorkGoesToTheChosenClustersNamespace) {
  const Plan plan = RunPlan(Read(ThreeClusters(Job("train", 2, 4, "2026-01-01T00:00:00Z"))), {});
  ASSERT_EQ(plan.manifest_work_items.size(), 1u);
  const model::ManifestWork& work =
      plan.planned.manifest_works[static_cast<size_t>(plan.manifest_work_items[0])];
  EXPECT_EQ(work.meta.namespace_, "us");
  EXPECT_TRUE(work.created);
  EXPECT_EQ(work.meta.labels.at(model::kWorkloadLabel), "ml.job-train");
  ASSERT_EQ(work.manifests.size(), 1u);
  EXPECT_EQ(work.manifests[0].kind, "Job");
  EXPECT_EQ(work.manifests[0].name, "train");
  // No queues on us: the job runs at once there, without the queue label.
  EXPECT_EQ(work.manifests[0].queue_name, std::optional<std::string>(""));
  EXPECT_EQ(work.manifests[0].suspend, std::optional<bool>(false));
}

TEST(FleetPlanTest, ManifestWorkForAnotherClusterIsDeleted) {
  // A work from an earlier plan sent job-train to ap; now it goes to us.
  Fleet f = ThreeClusters(Job("train", 1, 4, "2026-01-01T00:00:00Z"));
  f.hub += "apiVersion: work.open-cluster-management.io/v1\nkind: ManifestWork\nmetadata:\n"
           "  name: ml.job-train\n  namespace: ap\n  labels: {berth.dev/workload: ml.job-train}\n"
           "spec:\n  workload:\n    manifests:\n    - {apiVersion: batch/v1, kind: Job, "
           "metadata: {name: train, namespace: ml}}\n---\n";
  const Plan plan = RunPlan(Read(f), {});
  ASSERT_EQ(plan.deleted_objects.size(), 1u);
  EXPECT_EQ(plan.deleted_objects[0].kind, "ManifestWork");
  EXPECT_EQ(plan.deleted_objects[0].namespace_, "ap");
  EXPECT_NE(plan.deleted_objects[0].reason.find("now runs on us"), std::string::npos)
      << plan.deleted_objects[0].reason;
}

TEST(FleetPlanTest, HolderWithAPendingCheckIsDispatchedNow) {
  // Held quota before this plan (QuotaReserved) but no cluster yet.
  Fleet f = ThreeClusters("");
  f.hub += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: held\n"
           "  namespace: ml\n  uid: uid-held\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\n"
           "spec:\n  queueName: lq\n  podSets:\n  - name: main\n    count: 1\n    template:\n"
           "      spec:\n        containers:\n        - name: c\n          image: x\n"
           "          resources: {requests: {nvidia.com/gpu: \"2\"}}\nstatus:\n  admission:\n"
           "    clusterQueue: cq\n    podSetAssignments:\n    - name: main\n      count: 1\n"
           "      flavors: {nvidia.com/gpu: any}\n      resourceUsage: {nvidia.com/gpu: \"2\"}\n"
           "  conditions:\n  - {type: QuotaReserved, status: \"True\", reason: QuotaReserved, "
           "message: reserved, lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n"
           "  admissionChecks:\n  - {name: fleet, state: Pending, message: \"\", "
           "lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n---\n";
  const Plan plan = RunPlan(Read(f), {});
  const model::Workload& w = WorkloadNamed(plan, "held");
  EXPECT_EQ(w.cluster_name, "us");
  EXPECT_EQ(ConditionStatus(w, "Admitted"), "True");
  EXPECT_EQ(Check(w, "fleet")->state, model::CheckState::kReady);
}

TEST(FleetPlanTest, MultiKueueConfigTriesItsClustersInOrderAndSkipsInactiveOnes) {
  Fleet f;
  f.hub = Hub(100, "", "kueue.x-k8s.io/multikueue",
              "{apiGroup: kueue.x-k8s.io, kind: MultiKueueConfig, name: mk}") +
          ManagedCluster("a", "1.00") + ManagedCluster("b", "1.00") + ManagedCluster("c", "1.00") +
          "apiVersion: kueue.x-k8s.io/v1beta2\nkind: MultiKueueConfig\nmetadata: {name: mk}\n"
          "spec:\n  clusters: [c, b, a]\n---\n"
          "apiVersion: kueue.x-k8s.io/v1beta2\nkind: MultiKueueCluster\nmetadata: {name: c}\n"
          "spec:\n  clusterSource:\n    kubeConfig: {locationType: Secret, location: c-kubeconfig}\n"
          "status:\n  conditions:\n  - {type: Active, status: \"False\", reason: BadConfig, "
          "message: cannot connect, lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n---\n" +
          Job("train", 1, 1, "2026-01-01T00:00:00Z");
  for (const char* c : {"a", "b", "c"}) f.clusters[c] = GpuNodes(c, 1, 8);
  const Plan plan = RunPlan(Read(f), {});
  const Dispatch& d = DispatchOf(plan, "job-train");
  EXPECT_EQ(d.cluster, std::optional<std::string>("b"));
  ASSERT_EQ(d.attempts.size(), 2u);
  EXPECT_EQ(d.attempts[0].reason, "MultiKueueCluster c is not active: cannot connect");
}

TEST(FleetPlanTest, CheckNamingAMissingPlacementLeavesTheWorkloadPendingWithTheReason) {
  Fleet f = ThreeClusters(Job("train", 1, 1, "2026-01-01T00:00:00Z"));
  f.hub = Hub(100, "", "open-cluster-management.io/placement",
              "{apiGroup: cluster.open-cluster-management.io, kind: Placement, name: nope}") +
          ManagedCluster("us", "1.00") + Job("train", 1, 1, "2026-01-01T00:00:00Z");
  const Plan plan = RunPlan(Read(f), {});
  const model::Workload& w = WorkloadNamed(plan, "job-train");
  EXPECT_EQ(w.cluster_name, "");
  EXPECT_EQ(Check(w, "fleet")->message, "Placement nope not found");
}

TEST(FleetPlanTest, PlacementStatusAndDecisionsAreWritten) {
  const Plan plan = RunPlan(Read(ThreeClusters("")), {});
  ASSERT_EQ(plan.placement_items.size(), 1u);
  const model::Placement& p = plan.planned.placements[static_cast<size_t>(plan.placement_items[0])];
  ASSERT_TRUE(p.status.has_value());
  EXPECT_EQ(p.status->number_of_selected_clusters, 3);
  ASSERT_EQ(plan.placement_decision_items.size(), 1u);
  const model::PlacementDecision& pd =
      plan.planned.placement_decisions[static_cast<size_t>(plan.placement_decision_items[0])];
  EXPECT_EQ(pd.meta.name, "fleet-decision-1");
  EXPECT_TRUE(pd.created);
  EXPECT_EQ(pd.placement, "fleet");
  EXPECT_EQ(pd.decisions.size(), 3u);
}

TEST(FleetPlanTest, StalePlacementDecisionIsDeleted) {
  Fleet f = ThreeClusters("");
  f.hub += "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: PlacementDecision\n"
           "metadata:\n  name: fleet-decision-2\n  namespace: kueue-system\n  labels:\n"
           "    cluster.open-cluster-management.io/placement: fleet\nstatus:\n"
           "  decisions: [{clusterName: us, reason: \"\"}]\n---\n";
  const Plan plan = RunPlan(Read(f), {});
  ASSERT_EQ(plan.deleted_objects.size(), 1u);
  EXPECT_EQ(plan.deleted_objects[0].kind, "PlacementDecision");
  EXPECT_EQ(plan.deleted_objects[0].name, "fleet-decision-2");
}

TEST(FleetPlanTest, CapacityScoresSeeTheMemberClustersOwnPods) {
  // ResourceAllocatableGPU: us has 16 GPUs but 12 are taken by its own running pods.
  Fleet f;
  f.hub = Hub(100, "  prioritizerPolicy:\n    mode: Exact\n    configurations:\n"
                   "    - {scoreCoordinate: {type: BuiltIn, builtIn: ResourceAllocatableGPU}, weight: 1}\n") +
          ManagedCluster("us", "1.00") + ManagedCluster("eu", "2.00") +
          Job("train", 1, 2, "2026-01-01T00:00:00Z");
  f.clusters["us"] = GpuNodes("us", 2, 8) + RunningPod("p0", "us-n0", 8) + RunningPod("p1", "us-n1", 4);
  f.clusters["eu"] = GpuNodes("eu", 1, 8);
  const Plan plan = RunPlan(Read(f), {});
  EXPECT_EQ(WorkloadNamed(plan, "job-train").cluster_name, "eu");
  core::Result<PlacementExplanation> e = ExplainPlacement(Read(f), "fleet", {});
  ASSERT_TRUE(e.has_value());
  const PlacementRun& run = e->plan.placements[static_cast<size_t>(e->run)];
  EXPECT_EQ(run.outcome.selected, (std::vector<std::string>{"eu", "us"}));
}

TEST(FleetPlanTest, PodsOfDispatchedWorkloadsAreNotBoundOnTheHub) {
  const Plan plan = RunPlan(Read(ThreeClusters(Job("train", 2, 4, "2026-01-01T00:00:00Z"))), {});
  for (const model::PodDecision& d : plan.pod_decisions) {
    EXPECT_NE(plan.planned.pod(d.pod).cluster, "default") << plan.planned.pod(d.pod).meta.name;
  }
}

TEST(FleetPlanTest, ExplainPlacementFindsByNameAndNamespace) {
  const model::Snapshot s = Read(ThreeClusters(""));
  EXPECT_TRUE(ExplainPlacement(model::Snapshot(s), "kueue-system/fleet", {}).has_value());
  core::Result<PlacementExplanation> missing = ExplainPlacement(model::Snapshot(s), "other", {});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message(), "placement \"other\" not found in the input");
}


// A member cluster's part borrows its nodes from the whole input: its Scheduler reads them
// there (binding::SchedulerOptions::node_source), and nothing is copied; a part whose
// device allocator needs a snapshot's own nodes copies them.
TEST(FleetPlanTest, MemberPartsBorrowTheirNodesFromTheInput) {
  Fleet f;
  f.hub = Hub(100) + ManagedCluster("us", "1.00") + ManagedCluster("eu", "2.00");
  f.clusters["us"] = GpuNodes("us", 2, 8) + RunningPod("p0", "us-n0", 8);
  f.clusters["eu"] = GpuNodes("eu", 3, 8);
  const model::Snapshot s = Read(f);
  size_t nodes = 0;
  for (const ClusterPart& part : SplitByCluster(s)) {
    EXPECT_TRUE(part.borrows_nodes) << part.name;
    EXPECT_TRUE(part.snapshot().nodes.empty()) << part.name;
    for (int32_t n = 0; n < part.num_nodes(); ++n) {
      const model::Node& node = part.node(model::NodeIndex{n});
      EXPECT_EQ(&node, &s.node(part.ToWhole(model::NodeIndex{n})));
      EXPECT_EQ(node.cluster, part.name);
    }
    nodes += static_cast<size_t>(part.num_nodes());
  }
  EXPECT_EQ(nodes, s.nodes.size());

  model::Snapshot with_classes = s;
  with_classes.device_classes.emplace_back();
  for (const ClusterPart& part : SplitByCluster(with_classes)) {
    EXPECT_FALSE(part.borrows_nodes) << part.name;
    EXPECT_EQ(part.snapshot().nodes.size(), static_cast<size_t>(part.num_nodes()));
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
