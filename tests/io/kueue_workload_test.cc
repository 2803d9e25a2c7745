// Kueue Workloads: decoding given ones (v1beta2 and v1beta1, spec and status) and the ones
// Reader::Finish creates for queued jobs and pods (naming, pod sets, priority, minCount,
// topology requests, linking to given Workloads).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ReadString;

const model::Workload* FindWorkload(const model::Snapshot& s, const std::string& name) {
  for (const model::Workload& wl : s.kueue_workloads) {
    if (wl.meta.name == name) return &wl;
  }
  return nullptr;
}

std::vector<std::string> PodNamesOf(const model::Snapshot& s, const std::vector<int32_t>& idx) {
  std::vector<std::string> out;
  for (int32_t i : idx) out.push_back(s.pods.at(static_cast<size_t>(i)).meta.name);
  return out;
}

constexpr const char* kGivenV1beta2 = R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: wl, namespace: ml, uid: u-1}
spec:
  queueName: lq
  priority: 100
  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}
  active: false
  podSets:
  - name: launcher
    count: 1
    template:
      metadata: {annotations: {a: b}}
      spec:
        containers: [{name: c, resources: {requests: {cpu: 500m}}}]
  - name: workers
    count: 4
    minCount: 2
    topologyRequest: {required: rack, podSetGroupName: g, podSetSliceRequiredTopology: host,
                      podSetSliceSize: 2}
    template:
      spec:
        containers: [{name: c, resources: {requests: {nvidia.com/gpu: 1}}}]
status:
  admission:
    clusterQueue: cq
    podSetAssignments:
    - name: workers
      flavors: {nvidia.com/gpu: h100}
      resourceUsage: {nvidia.com/gpu: "4", cpu: 1500m}
      count: 4
      topologyAssignment:
        levels: [rack, kubernetes.io/hostname]
        slices:
        - domainCount: 2
          valuesPerLevel:
          - universal: r1
          - individual: {prefix: node-, roots: ["1", "2"]}
          podCounts: {individual: [3, 1]}
  conditions:
  - {type: QuotaReserved, status: "True", reason: QuotaReserved, message: ok,
     lastTransitionTime: "2026-01-01T00:00:00Z"}
  admissionChecks: [{name: placement, state: Ready, message: fine}]
  nominatedClusterNames: [east, west]
  clusterName: east
)";

TEST(KueueWorkloadTest, DecodesGivenV1beta2Workload) {
  core::Diagnostics diags;
  Input in = ReadString(kGivenV1beta2, diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_EQ(in.snapshot.kueue_workloads.size(), 1u);
  const model::Workload& wl = in.snapshot.kueue_workloads[0];
  EXPECT_FALSE(wl.created);
  EXPECT_FALSE(wl.owner_workload.has_value());
  EXPECT_EQ(wl.meta.namespace_, "ml");
  EXPECT_EQ(wl.queue_name, "lq");
  EXPECT_EQ(wl.priority, 100);
  EXPECT_EQ(wl.priority_class_name, "high");
  EXPECT_EQ(wl.priority_class_source, "kueue.x-k8s.io/workloadpriorityclass");
  EXPECT_FALSE(wl.active);
  ASSERT_EQ(wl.pod_sets.size(), 2u);
  EXPECT_EQ(wl.pod_sets[0].name, "launcher");
  EXPECT_EQ(wl.pod_sets[0].pod_template.containers.at(0).requests.Get(model::kCpu), 500);
  EXPECT_EQ(wl.pod_sets[0].pod_template.meta.namespace_, "ml");
  EXPECT_EQ(wl.pod_sets[1].count, 4);
  EXPECT_EQ(wl.pod_sets[1].min_count, 2);
  EXPECT_EQ(wl.pod_sets[1].topology_request.required, "rack");
  EXPECT_EQ(wl.pod_sets[1].topology_request.pod_set_group_name, "g");
  EXPECT_EQ(wl.pod_sets[1].topology_request.slice_required_topology, "host");
  EXPECT_EQ(wl.pod_sets[1].topology_request.slice_size, 2);
  ASSERT_TRUE(wl.admission.has_value());
  EXPECT_EQ(wl.admission->cluster_queue, "cq");
  const model::PodSetAssignment& psa = wl.admission->pod_set_assignments.at(0);
  EXPECT_EQ(psa.flavors.at("nvidia.com/gpu"), "h100");
  EXPECT_EQ(psa.resource_usage.at("nvidia.com/gpu"), 4);
  EXPECT_EQ(psa.resource_usage.at("cpu"), 1500);
  EXPECT_EQ(psa.count, 4);
  ASSERT_TRUE(psa.topology_assignment.has_value());
  ASSERT_EQ(psa.topology_assignment->domains.size(), 2u);
  EXPECT_THAT(psa.topology_assignment->domains[0].values, ElementsAre("r1", "node-1"));
  EXPECT_EQ(psa.topology_assignment->domains[0].count, 3);
  EXPECT_THAT(psa.topology_assignment->domains[1].values, ElementsAre("r1", "node-2"));
  EXPECT_EQ(psa.topology_assignment->domains[1].count, 1);
  ASSERT_EQ(wl.conditions.size(), 1u);
  EXPECT_EQ(wl.conditions[0].type, "QuotaReserved");
  EXPECT_EQ(wl.conditions[0].last_transition_time.ToString(), "2026-01-01T00:00:00Z");
  ASSERT_EQ(wl.admission_checks.size(), 1u);
  EXPECT_EQ(wl.admission_checks[0].state, model::CheckState::kReady);
  EXPECT_THAT(wl.nominated_cluster_names, ElementsAre("east", "west"));
  EXPECT_EQ(wl.cluster_name, "east");
}

TEST(KueueWorkloadTest, DecodesV1beta1PriorityAndDomains) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: wl}
spec:
  queueName: lq
  priorityClassName: prod
  priorityClassSource: scheduling.k8s.io/priorityclass
  priority: 7
  podSets:
  - count: 2
    template: {spec: {containers: [{name: c}]}}
status:
  admission:
    clusterQueue: cq
    podSetAssignments:
    - name: main
      count: 2
      topologyAssignment:
        levels: [kubernetes.io/hostname]
        domains: [{values: [n1], count: 2}]
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  const model::Workload& wl = in.snapshot.kueue_workloads.at(0);
  EXPECT_EQ(wl.priority_class_name, "prod");
  EXPECT_EQ(wl.priority_class_source, "scheduling.k8s.io/priorityclass");
  EXPECT_EQ(wl.priority, 7);
  EXPECT_EQ(wl.pod_sets.at(0).name, "main");  // defaulted
  EXPECT_TRUE(wl.active);
  const auto& ta = wl.admission->pod_set_assignments.at(0).topology_assignment;
  ASSERT_TRUE(ta.has_value());
  EXPECT_THAT(ta->domains.at(0).values, ElementsAre("n1"));
  EXPECT_EQ(ta->domains.at(0).count, 2);
}

TEST(KueueWorkloadTest, BadWorkloadsNameTheField) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: a}
spec: {podSets: [{name: m, count: 2, minCount: 3, template: {spec: {containers: [{name: c}]}}}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: b}
spec: {podSets: [{template: {spec: {containers: [{name: c}]}}}]}
status: {conditions: [{type: Admitted, status: Maybe}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: c}
spec:
  podSets: [{template: {spec: {containers: [{name: c, resources: {requests: {cpu: lots}}}]}}}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: d}
spec:
  priorityClassRef: {group: example.com, kind: Thing, name: x}
  podSets: [{template: {spec: {containers: [{name: c}]}}}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: e}
spec: {podSets: []}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: f}
spec: {podSets: [{template: {spec: {containers: [{name: c}]}}}]}
status:
  admissionChecks: [{name: x, state: Maybe}]
  admission: {clusterQueue: q, podSetAssignments: [{name: main, resourceUsage: {cpu: x}}]}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 6u) << Dump(diags);
  const auto& e = diags.entries();
  EXPECT_EQ(e[0].error.location().field, "spec.podSets[0].minCount");
  EXPECT_EQ(e[0].error.location().object, "Workload/default/a");
  EXPECT_EQ(e[1].error.location().field, "status.conditions[0].status");
  EXPECT_EQ(e[2].error.location().field,
            "spec.podSets[0].template.spec.containers[0].resources.requests.cpu");
  EXPECT_EQ(e[3].error.location().field, "spec.priorityClassRef");
  EXPECT_EQ(e[4].error.location().field, "spec.podSets");
  EXPECT_EQ(e[5].error.location().field, "status.admission.podSetAssignments[0].resourceUsage.cpu");
  EXPECT_TRUE(in.snapshot.kueue_workloads.empty());
}

constexpr const char* kQueuedJobs = R"(
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch}
value: 50
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: fallback}
value: 5
globalDefault: true
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: urgent}
value: 9000
---
apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: ml
  uid: job-uid
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: urgent}
  annotations: {kueue.x-k8s.io/job-min-parallelism: "2"}
spec:
  parallelism: 3
  suspend: true
  template:
    metadata:
      annotations: {kueue.x-k8s.io/podset-preferred-topology: rack}
    spec:
      priorityClassName: batch
      containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: 1}}}]
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ml, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  suspend: true
  replicatedJobs:
  - name: leader
    replicas: 1
    template: {spec: {template: {spec: {priorityClassName: batch, containers: [{name: c}]}}}}
  - name: workers
    replicas: 2
    template:
      spec:
        parallelism: 2
        template:
          metadata:
            annotations: {kueue.x-k8s.io/podset-required-topology: block,
                          kueue.x-k8s.io/podset-slice-required-topology: rack,
                          kueue.x-k8s.io/podset-slice-size: "2",
                          kueue.x-k8s.io/podset-group-name: grp}
          spec: {containers: [{name: c}]}
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  pytorchReplicaSpecs:
    Worker: {replicas: 2, template: {spec: {containers: [{name: c}]}}}
    Master: {replicas: 1, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: lws, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 3
    workerTemplate: {spec: {containers: [{name: c}]}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {replicas: 2, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {replicas: 1, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: unqueued, suspend: true}
spec: {suspend: true, template: {spec: {containers: [{name: c}]}}}
)";

class CreatedWorkloadsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = ReadString(kQueuedJobs, diags_);
    ASSERT_FALSE(diags_.has_errors()) << Dump(diags_);
  }
  const model::Snapshot& Snap() const { return in_.snapshot; }
  core::Diagnostics diags_;
  Input in_;
};

TEST_F(CreatedWorkloadsTest, OneWorkloadPerQueuedJobNamedAfterKindAndName) {
  std::vector<std::string> names;
  for (const model::Workload& wl : Snap().kueue_workloads) {
    names.push_back(wl.meta.namespace_ + "/" + wl.meta.name);
    EXPECT_TRUE(wl.created);
    EXPECT_EQ(wl.queue_name, "lq");
    EXPECT_EQ(wl.meta.labels.at("kueue.x-k8s.io/queue-name"), "lq");
    EXPECT_TRUE(wl.source.valid());
    ASSERT_TRUE(wl.owner_workload.has_value());
    const model::WorkloadObject& job = Snap().workloads.at(static_cast<size_t>(*wl.owner_workload));
    EXPECT_EQ(wl.meta.name.substr(wl.meta.name.find('-') + 1), job.meta.name);
  }
  EXPECT_THAT(names, ElementsAre("ml/job-train", "ml/jobset-js", "default/pytorchjob-pt",
                                 "default/leaderworkerset-lws", "default/deployment-web",
                                 "default/statefulset-db"));
}

TEST_F(CreatedWorkloadsTest, PodSetsFollowKueueNames) {
  auto sets = [&](const char* name) {
    std::vector<std::string> out;
    for (const model::KueuePodSet& s : FindWorkload(Snap(), name)->pod_sets) {
      out.push_back(s.name + "=" + std::to_string(s.count));
    }
    return out;
  };
  EXPECT_THAT(sets("job-train"), ElementsAre("main=3"));
  EXPECT_THAT(sets("jobset-js"), ElementsAre("leader=1", "workers=4"));
  EXPECT_THAT(sets("pytorchjob-pt"), ElementsAre("master=1", "worker=2"));
  EXPECT_THAT(sets("leaderworkerset-lws"), ElementsAre("leader=2", "worker=4"));
  EXPECT_THAT(sets("deployment-web"), ElementsAre("main=2"));
}

TEST_F(CreatedWorkloadsTest, SuspendedQueuedJobsAreExpandedAndListed) {
  const model::Workload* job = FindWorkload(Snap(), "job-train");
  ASSERT_EQ(job->pods.size(), 1u);
  EXPECT_THAT(PodNamesOf(Snap(), job->pods[0]), ElementsAre("train-0", "train-1", "train-2"));
  const model::Workload* js = FindWorkload(Snap(), "jobset-js");
  ASSERT_EQ(js->pods.size(), 2u);
  EXPECT_THAT(PodNamesOf(Snap(), js->pods[0]), ElementsAre("js-leader-0-0"));
  EXPECT_THAT(PodNamesOf(Snap(), js->pods[1]),
              ElementsAre("js-workers-0-0", "js-workers-0-1", "js-workers-1-0", "js-workers-1-1"));
  // A suspended job without a queue is not expanded.
  EXPECT_EQ(testing::FindPod(Snap(), "default", "unqueued-0"), nullptr);
}

TEST_F(CreatedWorkloadsTest, PriorityResolution) {
  // The kueue priority-class label wins over the template's PriorityClass.
  const model::Workload* job = FindWorkload(Snap(), "job-train");
  EXPECT_EQ(job->priority, 9000);
  EXPECT_EQ(job->priority_class_name, "urgent");
  EXPECT_EQ(job->priority_class_source, "kueue.x-k8s.io/workloadpriorityclass");
  // The first pod set's PriorityClass.
  const model::Workload* js = FindWorkload(Snap(), "jobset-js");
  EXPECT_EQ(js->priority, 50);
  EXPECT_EQ(js->priority_class_name, "batch");
  EXPECT_EQ(js->priority_class_source, "scheduling.k8s.io/priorityclass");
  // The global default.
  const model::Workload* web = FindWorkload(Snap(), "deployment-web");
  EXPECT_EQ(web->priority, 5);
  EXPECT_EQ(web->priority_class_name, "fallback");
}

TEST_F(CreatedWorkloadsTest, MinCountAndTopologyRequests) {
  const model::Workload* job = FindWorkload(Snap(), "job-train");
  EXPECT_EQ(job->pod_sets[0].min_count, 2);
  EXPECT_EQ(job->pod_sets[0].topology_request.preferred, "rack");
  const model::Workload* js = FindWorkload(Snap(), "jobset-js");
  EXPECT_TRUE(js->pod_sets[0].topology_request.empty());
  const model::TopologyRequest& tr = js->pod_sets[1].topology_request;
  EXPECT_EQ(tr.required, "block");
  EXPECT_EQ(tr.slice_required_topology, "rack");
  EXPECT_EQ(tr.slice_size, 2);
  EXPECT_EQ(tr.pod_set_group_name, "grp");
  EXPECT_FALSE(FindWorkload(Snap(), "deployment-web")->pod_sets[0].min_count.has_value());
}

TEST_F(CreatedWorkloadsTest, DocumentIsAV1beta2WorkloadWithTheJobTemplate) {
  const model::Workload* job = FindWorkload(Snap(), "job-train");
  const Document& doc = in_.documents.Get(job->source);
  EXPECT_EQ(doc.kind, "Workload");
  auto json = nlohmann::ordered_json::parse(doc.json);
  EXPECT_EQ(json["apiVersion"], "kueue.x-k8s.io/v1beta2");
  EXPECT_EQ(json["metadata"]["name"], "job-train");
  EXPECT_EQ(json["metadata"]["namespace"], "ml");
  EXPECT_EQ(json["metadata"]["labels"]["kueue.x-k8s.io/queue-name"], "lq");
  const auto& owner = json["metadata"]["ownerReferences"][0];
  EXPECT_EQ(owner["apiVersion"], "batch/v1");
  EXPECT_EQ(owner["kind"], "Job");
  EXPECT_EQ(owner["name"], "train");
  EXPECT_EQ(owner["uid"], "job-uid");
  const auto& spec = json["spec"];
  EXPECT_EQ(spec["queueName"], "lq");
  EXPECT_EQ(spec["priority"], 9000);
  EXPECT_EQ(spec["priorityClassRef"]["kind"], "WorkloadPriorityClass");
  EXPECT_EQ(spec["priorityClassRef"]["name"], "urgent");
  const auto& ps = spec["podSets"][0];
  EXPECT_EQ(ps["name"], "main");
  EXPECT_EQ(ps["count"], 3);
  EXPECT_EQ(ps["minCount"], 2);
  EXPECT_EQ(ps["topologyRequest"]["preferred"], "rack");
  EXPECT_EQ(ps["template"]["spec"]["containers"][0]["image"], "x");
  EXPECT_EQ(ps["template"]["metadata"]["annotations"]["kueue.x-k8s.io/podset-preferred-topology"],
            "rack");
}

TEST(KueueWorkloadTest, GivenWorkloadIsLinkedNotDuplicated) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: job-train, namespace: ml}
spec:
  queueName: lq
  podSets: [{name: main, count: 2, template: {spec: {containers: [{name: c}]}}}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {parallelism: 2, suspend: true, template: {spec: {containers: [{name: c}]}}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_EQ(in.snapshot.kueue_workloads.size(), 1u);
  const model::Workload& wl = in.snapshot.kueue_workloads[0];
  EXPECT_FALSE(wl.created);
  EXPECT_EQ(wl.owner_workload, 0);
  ASSERT_EQ(wl.pods.size(), 1u);
  EXPECT_THAT(PodNamesOf(in.snapshot, wl.pods[0]), ElementsAre("train-0", "train-1"));
}

TEST(KueueWorkloadTest, GivenPodsOfAJobAreListed) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: v1
kind: Pod
metadata: {name: train-1, namespace: ml}
spec: {nodeName: n1, containers: [{name: c}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {parallelism: 2, template: {spec: {containers: [{name: c}]}}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  const model::Workload& wl = in.snapshot.kueue_workloads.at(0);
  EXPECT_THAT(PodNamesOf(in.snapshot, wl.pods.at(0)), ElementsAre("train-0", "train-1"));
  EXPECT_EQ(wl.pods[0][1], 0);  // the given pod, not a second copy
  EXPECT_EQ(in.snapshot.pods.size(), 2u);
}

TEST(KueueWorkloadTest, MissingWorkloadPriorityClassDropsTheJob) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: batch/v1
kind: Job
metadata:
  name: j
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: nope}
spec: {suspend: true, template: {spec: {containers: [{name: c}]}}}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().field,
            "metadata.labels[kueue.x-k8s.io/priority-class]");
  EXPECT_EQ(diags.entries()[0].error.location().object, "Job/default/j");
  EXPECT_THAT(diags.entries()[0].error.message(), HasSubstr("nope"));
  EXPECT_TRUE(in.snapshot.kueue_workloads.empty());
  EXPECT_TRUE(in.snapshot.pods.empty());
}

TEST(KueueWorkloadTest, BadJobAnnotationsNameTheField) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: batch/v1
kind: Job
metadata:
  name: a
  labels: {kueue.x-k8s.io/queue-name: lq}
  annotations: {kueue.x-k8s.io/job-min-parallelism: "4"}
spec: {parallelism: 4, template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: b, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  template:
    metadata: {annotations: {kueue.x-k8s.io/podset-slice-size: "x",
                             kueue.x-k8s.io/podset-slice-required-topology: rack}}
    spec: {containers: [{name: c}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: c, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  template:
    metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: rack,
                             kueue.x-k8s.io/podset-preferred-topology: block}}
    spec: {containers: [{name: c}]}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 3u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().field,
            "metadata.annotations[kueue.x-k8s.io/job-min-parallelism]");
  EXPECT_EQ(diags.entries()[1].error.location().field,
            "spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]");
  EXPECT_EQ(diags.entries()[2].error.location().field,
            "spec.template.metadata.annotations[kueue.x-k8s.io/podset-required-topology]");
  EXPECT_TRUE(in.snapshot.kueue_workloads.empty());
}

TEST(KueueWorkloadTest, BarePodsAndPodGroups) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: v1
kind: Pod
metadata: {name: solo, uid: s1, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {priorityClassName: hi, containers: [{name: c, image: solo-image}]}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: hi}
value: 77
---
apiVersion: v1
kind: Pod
metadata:
  name: g-0
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: grp}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "3"}
spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: g-1
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: grp}
spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata: {name: plain}
spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: bad
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: other}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "zero"}
spec: {containers: [{name: c}]}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().field,
            "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]");
  ASSERT_EQ(in.snapshot.kueue_workloads.size(), 2u);
  const model::Workload& solo = in.snapshot.kueue_workloads[0];
  EXPECT_EQ(solo.meta.name, "pod-solo");
  EXPECT_EQ(solo.priority, 77);
  EXPECT_FALSE(solo.owner_workload.has_value());
  EXPECT_THAT(PodNamesOf(in.snapshot, solo.pods.at(0)), ElementsAre("solo"));
  auto doc = nlohmann::ordered_json::parse(in.documents.Get(solo.source).json);
  EXPECT_EQ(doc["metadata"]["ownerReferences"][0]["kind"], "Pod");
  EXPECT_EQ(doc["metadata"]["ownerReferences"][0]["uid"], "s1");
  EXPECT_EQ(doc["spec"]["podSets"][0]["template"]["spec"]["containers"][0]["image"], "solo-image");
  const model::Workload& group = in.snapshot.kueue_workloads[1];
  EXPECT_EQ(group.meta.name, "pod-group-grp");
  EXPECT_EQ(group.pod_sets.at(0).count, 3);
  EXPECT_THAT(PodNamesOf(in.snapshot, group.pods.at(0)), ElementsAre("g-0", "g-1"));
  doc = nlohmann::ordered_json::parse(in.documents.Get(group.source).json);
  EXPECT_EQ(doc["metadata"]["ownerReferences"].size(), 2u);
}

TEST(KueueWorkloadTest, PodGroupCountDefaultsToPodsFound) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: v1
kind: Pod
metadata: {name: a, labels: {kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/pod-group-name: g}}
spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata: {name: b, labels: {kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/pod-group-name: g}}
spec: {containers: [{name: c}]}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_EQ(in.snapshot.kueue_workloads.size(), 1u);
  EXPECT_EQ(in.snapshot.kueue_workloads[0].pod_sets.at(0).count, 2);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
