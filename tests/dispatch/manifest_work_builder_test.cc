// BuildManifestWork: what a hub sends to the cluster chosen for an admitted workload.
#include "dispatch/manifest_work_builder.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/labels.h"
#include "dispatch/dispatch_fixture.h"
#include "dispatch/work_names.h"

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

using testing::AddJob;
using testing::AddPodGroup;
using testing::Assign;
using testing::Flavor;
using testing::Tolerate;
using testing::Topology;
using Selector = std::map<std::string, std::string>;

model::Admission Admit(std::vector<model::PodSetAssignment> assignments) {
  model::Admission a;
  a.cluster_queue = "hub-cq";
  a.pod_set_assignments = std::move(assignments);
  return a;
}

model::ManifestWork Build(const model::Snapshot& s, DispatchTarget t) {
  auto r = BuildManifestWork(s, t);
  EXPECT_TRUE(r.has_value()) << (r.has_value() ? "" : r.error().ToString());
  return r.has_value() ? *r : model::ManifestWork{};
}

model::Snapshot GpuHub() {
  model::Snapshot s;
  s.resource_flavors.push_back(
      Flavor("a100", {{"gpu.pool", "a100"}}, {Tolerate("nvidia.com/gpu")}));
  s.resource_flavors.push_back(
      Flavor("h100", {{"gpu.pool", "h100"}}, {Tolerate("nvidia.com/gpu")}));
  return s;
}

TEST(BuildManifestWorkTest, JobWithWorkerQueueStaysSuspendedUnderThatQueue) {
  model::Snapshot s = GpuHub();
  int32_t wl = AddJob(s, "batch/v1", "Job", "team-a", "train", {"main"},
                      Admit({Assign("main", {{"nvidia.com/gpu", "a100"}}, 4)}));
  model::ManifestWork w = Build(s, {wl, "us-1", std::string("worker-queue"), nullptr});
  EXPECT_EQ(w.meta.name, "team-a.job-train");
  EXPECT_EQ(w.meta.namespace_, "us-1");
  EXPECT_EQ(w.meta.labels.at(model::kWorkloadLabel), "team-a.job-train");
  EXPECT_TRUE(w.created);
  EXPECT_EQ(w.cluster, testing::kHub);
  EXPECT_EQ(w.delete_propagation, "");
  ASSERT_EQ(w.manifests.size(), 1u);
  const model::ManifestPatch& m = w.manifests[0];
  EXPECT_EQ(m.source.document, s.workloads[0].source.document);
  EXPECT_EQ(m.kind, "Job");
  EXPECT_EQ(m.api_version, "batch/v1");
  EXPECT_EQ(m.name, "train");
  EXPECT_EQ(m.namespace_, "team-a");
  EXPECT_EQ(m.queue_name, std::optional<std::string>("worker-queue"));
  EXPECT_EQ(m.suspend, std::optional<bool>(true));
  EXPECT_TRUE(m.templates.empty());  // the worker's Kueue injects its own flavors
  ASSERT_EQ(w.manifest_configs.size(), 1u);
  const model::ManifestConfig& c = w.manifest_configs[0];
  EXPECT_EQ(c.resource.group, "batch");
  EXPECT_EQ(c.resource.resource, "jobs");
  EXPECT_EQ(c.resource.name, "train");
  EXPECT_EQ(c.resource.namespace_, "team-a");
  ASSERT_EQ(c.feedback_rules.size(), 2u);
  EXPECT_EQ(c.feedback_rules[0].type, model::FeedbackRuleType::kWellKnownStatus);
}

TEST(BuildManifestWorkTest, JobWithoutWorkerQueueRunsWithTheHubsFlavors) {
  model::Snapshot s = GpuHub();
  int32_t wl = AddJob(s, "batch/v1", "Job", "team-a", "train", {"main"},
                      Admit({Assign("main", {{"nvidia.com/gpu", "a100"}}, 4)}));
  model::ManifestWork w = Build(s, {wl, "us-1", std::nullopt, nullptr});
  ASSERT_EQ(w.manifests.size(), 1u);
  const model::ManifestPatch& m = w.manifests[0];
  EXPECT_EQ(m.queue_name, std::optional<std::string>(""));  // removed
  EXPECT_EQ(m.suspend, std::optional<bool>(false));
  ASSERT_EQ(m.templates.size(), 1u);
  EXPECT_EQ(m.templates[0].pod_set, "main");
  EXPECT_EQ(m.templates[0].node_selector, (Selector{{"gpu.pool", "a100"}}));
  ASSERT_EQ(m.templates[0].tolerations.size(), 1u);
  EXPECT_EQ(m.templates[0].tolerations[0], Tolerate("nvidia.com/gpu"));
}

TEST(BuildManifestWorkTest, JobSetWithWorkerQueue) {
  model::Snapshot s = GpuHub();
  int32_t wl =
      AddJob(s, "jobset.x-k8s.io/v1alpha2", "JobSet", "team-b", "llm", {"driver", "workers"},
             Admit({Assign("driver", {{"cpu", "a100"}}),
                    Assign("workers", {{"nvidia.com/gpu", "h100"}}, 8)}));
  model::ManifestWork w = Build(s, {wl, "eu-2", std::string("lq"), nullptr});
  EXPECT_EQ(w.meta.name, "team-b.jobset-llm");
  ASSERT_EQ(w.manifests.size(), 1u);
  EXPECT_EQ(w.manifests[0].queue_name, std::optional<std::string>("lq"));
  EXPECT_EQ(w.manifests[0].suspend, std::optional<bool>(true));
  EXPECT_TRUE(w.manifests[0].templates.empty());
  ASSERT_EQ(w.manifest_configs.size(), 1u);
  EXPECT_EQ(w.manifest_configs[0].resource.group, "jobset.x-k8s.io");
  EXPECT_EQ(w.manifest_configs[0].resource.resource, "jobsets");
  ASSERT_EQ(w.manifest_configs[0].feedback_rules.size(), 1u);
  EXPECT_EQ(w.manifest_configs[0].feedback_rules[0].type, model::FeedbackRuleType::kJsonPaths);
  EXPECT_EQ(w.manifest_configs[0].feedback_rules[0].json_paths[0].path, ".status.terminalState");
}

TEST(BuildManifestWorkTest, JobSetWithoutWorkerQueueInjectsPerReplicatedJob) {
  model::Snapshot s = GpuHub();
  s.resource_flavors.push_back(Flavor("cpu-only", {}));  // nothing to add
  int32_t wl = AddJob(s, "jobset.x-k8s.io/v1alpha2", "JobSet", "team-b", "llm",
                      {"driver", "workers", "monitor"},
                      Admit({Assign("driver", {{"cpu", "a100"}}),
                             Assign("workers", {{"nvidia.com/gpu", "h100"}}, 8),
                             Assign("monitor", {{"cpu", "cpu-only"}})}));
  model::ManifestWork w = Build(s, {wl, "eu-2", std::nullopt, nullptr});
  ASSERT_EQ(w.manifests.size(), 1u);
  const model::ManifestPatch& m = w.manifests[0];
  EXPECT_EQ(m.suspend, std::optional<bool>(false));
  ASSERT_EQ(m.templates.size(), 2u);  // "monitor" gets nothing, so no patch
  EXPECT_EQ(m.templates[0].pod_set, "driver");
  EXPECT_EQ(m.templates[0].node_selector, (Selector{{"gpu.pool", "a100"}}));
  EXPECT_EQ(m.templates[1].pod_set, "workers");
  EXPECT_EQ(m.templates[1].node_selector, (Selector{{"gpu.pool", "h100"}}));
}

TEST(BuildManifestWorkTest, TopologySingleDomainPinsEveryLevel) {
  model::Snapshot s;
  // The flavor names a rack too; the assigned domain's value wins, as the ungater writes last.
  s.resource_flavors.push_back(Flavor("tas", {{"cloud/rack", "any"}, {"pool", "gb200"}}));
  model::PodSetAssignment a = Assign("main", {{"nvidia.com/gpu", "tas"}}, 4);
  a.topology_assignment = Topology({"cloud/block", "cloud/rack"}, {{{"b1", "r7"}, 4}});
  int32_t wl = AddJob(s, "batch/v1", "Job", "ml", "pretrain", {"main"}, Admit({a}));
  model::ManifestWork w = Build(s, {wl, "us-1", std::nullopt, nullptr});
  ASSERT_EQ(w.manifests.size(), 1u);
  ASSERT_EQ(w.manifests[0].templates.size(), 1u);
  EXPECT_EQ(w.manifests[0].templates[0].node_selector,
            (Selector{{"cloud/block", "b1"}, {"cloud/rack", "r7"}, {"pool", "gb200"}}));
}

TEST(BuildManifestWorkTest, TopologySeveralDomainsPinOnlyTheLevelsTheyShare) {
  model::Snapshot s;
  s.resource_flavors.push_back(Flavor("tas", {}));
  model::PodSetAssignment a = Assign("main", {{"nvidia.com/gpu", "tas"}}, 4);
  a.topology_assignment =
      Topology({"cloud/block", "cloud/rack"}, {{{"b1", "r1"}, 2}, {{"b1", "r2"}, 2}});
  int32_t wl = AddJob(s, "batch/v1", "Job", "ml", "pretrain", {"main"}, Admit({a}));
  model::ManifestWork w = Build(s, {wl, "us-1", std::nullopt, nullptr});
  ASSERT_EQ(w.manifests[0].templates.size(), 1u);
  EXPECT_EQ(w.manifests[0].templates[0].node_selector, (Selector{{"cloud/block", "b1"}}));
  // With a worker queue the worker's Kueue places it again: no pinning.
  model::ManifestWork queued = Build(s, {wl, "us-1", std::string("lq"), nullptr});
  EXPECT_TRUE(queued.manifests[0].templates.empty());
}

TEST(BuildManifestWorkTest, PodGroupWithoutWorkerQueuePinsEachPodToItsDomain) {
  model::Snapshot s = GpuHub();
  model::PodSetAssignment a = Assign("main", {{"nvidia.com/gpu", "h100"}}, 3);
  a.topology_assignment = Topology({"kubernetes.io/hostname"}, {{{"n1"}, 2}, {{"n2"}, 1}});
  int32_t wl = AddPodGroup(s, "team-c", "infer", 3, Admit({a}));
  model::ManifestWork w = Build(s, {wl, "ap-1", std::nullopt, nullptr});
  EXPECT_EQ(w.meta.name, "team-c.pod-group-infer");
  ASSERT_EQ(w.manifests.size(), 3u);
  const char* hosts[] = {"n1", "n1", "n2"};
  for (size_t i = 0; i < 3; ++i) {
    const model::ManifestPatch& m = w.manifests[i];
    EXPECT_EQ(m.kind, "Pod");
    EXPECT_EQ(m.api_version, "v1");
    EXPECT_EQ(m.name, "infer-" + std::to_string(i));
    EXPECT_EQ(m.source.document, s.pods[i].source.document);
    EXPECT_EQ(m.suspend, std::nullopt);  // pods have no suspend; Kueue gates them
    EXPECT_EQ(m.queue_name, std::optional<std::string>(""));
    ASSERT_EQ(m.templates.size(), 1u);
    EXPECT_EQ(m.templates[0].pod_set, "main");
    EXPECT_EQ(m.templates[0].node_selector,
              (Selector{{"gpu.pool", "h100"}, {"kubernetes.io/hostname", hosts[i]}}));
    EXPECT_EQ(m.templates[0].tolerations.size(), 1u);
  }
  ASSERT_EQ(w.manifest_configs.size(), 3u);
  EXPECT_EQ(w.manifest_configs[2].resource.resource, "pods");
  EXPECT_EQ(w.manifest_configs[2].resource.group, "");
  EXPECT_EQ(w.manifest_configs[2].resource.name, "infer-2");
  EXPECT_EQ(w.manifest_configs[2].feedback_rules[0].type,
            model::FeedbackRuleType::kWellKnownStatus);
}

TEST(BuildManifestWorkTest, PodGroupWithWorkerQueueKeepsPodsUnderThatQueue) {
  model::Snapshot s = GpuHub();
  int32_t wl = AddPodGroup(s, "team-c", "infer", 2,
                           Admit({Assign("main", {{"nvidia.com/gpu", "h100"}}, 2)}));
  // An expanded pod (no document) is not sent.
  s.pods[1].source = {};
  model::ManifestWork w = Build(s, {wl, "ap-1", std::string("lq-gpu"), nullptr});
  ASSERT_EQ(w.manifests.size(), 1u);
  EXPECT_EQ(w.manifests[0].queue_name, std::optional<std::string>("lq-gpu"));
  EXPECT_TRUE(w.manifests[0].templates.empty());
  EXPECT_EQ(w.manifest_configs.size(), 1u);
}

TEST(BuildManifestWorkTest, DeploymentLeaderWorkerSetAndPyTorchJob) {
  model::Snapshot s = GpuHub();
  auto admit = Admit({Assign("main", {{"nvidia.com/gpu", "a100"}})});
  int32_t dep = AddJob(s, "apps/v1", "Deployment", "svc", "chat", {"main"}, admit);
  model::ManifestWork d = Build(s, {dep, "us-1", std::nullopt, nullptr});
  EXPECT_EQ(d.manifests[0].suspend, std::nullopt);  // no spec.suspend on a Deployment
  EXPECT_EQ(d.manifests[0].queue_name, std::optional<std::string>(""));
  EXPECT_EQ(d.manifests[0].templates.size(), 1u);
  EXPECT_EQ(d.manifest_configs[0].resource.resource, "deployments");
  EXPECT_EQ(d.manifest_configs[0].feedback_rules[0].type,
            model::FeedbackRuleType::kWellKnownStatus);

  int32_t lws = AddJob(
      s, "leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "svc", "big", {"leader", "worker"},
      Admit({Assign("leader", {{"cpu", "a100"}}), Assign("worker", {{"nvidia.com/gpu", "h100"}})}));
  model::ManifestWork l = Build(s, {lws, "us-1", std::string("lq"), nullptr});
  EXPECT_EQ(l.manifests[0].suspend, std::nullopt);
  EXPECT_EQ(l.manifest_configs[0].resource.resource, "leaderworkersets");
  EXPECT_EQ(l.manifest_configs[0].feedback_rules[0].type, model::FeedbackRuleType::kJsonPaths);

  int32_t pt = AddJob(
      s, "kubeflow.org/v1", "PyTorchJob", "ml", "ft", {"master", "worker"},
      Admit({Assign("master", {{"cpu", "a100"}}), Assign("worker", {{"nvidia.com/gpu", "h100"}})}));
  model::ManifestWork p = Build(s, {pt, "us-1", std::nullopt, nullptr});
  EXPECT_EQ(p.manifests[0].suspend, std::optional<bool>(false));  // spec.runPolicy.suspend
  ASSERT_EQ(p.manifests[0].templates.size(), 2u);
  EXPECT_EQ(p.manifests[0].templates[0].pod_set, "master");
  EXPECT_EQ(p.manifest_configs[0].resource.resource, "pytorchjobs");
}

// The kinds issue 13 added: Kueue suspends MPIJob at spec.runPolicy.suspend and the Ray kinds
// at spec.suspend, so a worker without Kueue gets them unsuspended, every pod set injected.
TEST(BuildManifestWorkTest, MPIJobRayClusterAndRayJob) {
  model::Snapshot s = GpuHub();
  int32_t mpi =
      AddJob(s, "kubeflow.org/v2beta1", "MPIJob", "ml", "allreduce", {"launcher", "worker"},
             Admit({Assign("launcher", {{"cpu", "a100"}}),
                    Assign("worker", {{"nvidia.com/gpu", "h100"}})}));
  model::ManifestWork m = Build(s, {mpi, "us-1", std::nullopt, nullptr});
  EXPECT_EQ(m.manifests[0].suspend, std::optional<bool>(false));
  EXPECT_EQ(m.manifests[0].queue_name, std::optional<std::string>(""));
  ASSERT_EQ(m.manifests[0].templates.size(), 2u);
  EXPECT_EQ(m.manifests[0].templates[0].pod_set, "launcher");
  EXPECT_EQ(m.manifests[0].templates[1].node_selector.at("gpu.pool"), "h100");
  EXPECT_EQ(m.manifest_configs[0].resource.group, "kubeflow.org");
  EXPECT_EQ(m.manifest_configs[0].resource.resource, "mpijobs");
  // With a worker queue: suspended under it, nothing injected.
  model::ManifestWork mq = Build(s, {mpi, "us-1", std::string("lq"), nullptr});
  EXPECT_EQ(mq.manifests[0].suspend, std::optional<bool>(true));
  EXPECT_TRUE(mq.manifests[0].templates.empty());

  int32_t ray = AddJob(
      s, "ray.io/v1", "RayJob", "ml", "tune", {"head", "gpu", "submitter"},
      Admit({Assign("head", {{"cpu", "a100"}}), Assign("gpu", {{"nvidia.com/gpu", "h100"}}, 4),
             Assign("submitter", {{"cpu", "a100"}})}));
  model::ManifestWork r = Build(s, {ray, "us-1", std::nullopt, nullptr});
  EXPECT_EQ(r.manifests[0].suspend, std::optional<bool>(false));
  ASSERT_EQ(r.manifests[0].templates.size(), 3u);
  EXPECT_EQ(r.manifests[0].templates[2].pod_set, "submitter");
  EXPECT_EQ(r.manifest_configs[0].resource.resource, "rayjobs");

  int32_t rc = AddJob(s, "ray.io/v1", "RayCluster", "ml", "serve", {"head"},
                      Admit({Assign("head", {{"cpu", "a100"}})}));
  model::ManifestWork c = Build(s, {rc, "us-1", std::nullopt, nullptr});
  EXPECT_EQ(c.manifests[0].suspend, std::optional<bool>(false));
  EXPECT_EQ(c.manifest_configs[0].resource.resource, "rayclusters");
}

// Volcano's Job has no suspend field: it is never given one, whatever the worker runs.
TEST(BuildManifestWorkTest, VolcanoJobIsNeverSuspended) {
  model::Snapshot s = GpuHub();
  int32_t vc = AddJob(
      s, "batch.volcano.sh/v1alpha1", "Job", "ml", "gang", {"ps", "worker"},
      Admit({Assign("ps", {{"cpu", "a100"}}), Assign("worker", {{"nvidia.com/gpu", "h100"}}, 2)}));
  model::ManifestWork v = Build(s, {vc, "us-1", std::nullopt, nullptr});
  EXPECT_EQ(v.manifests[0].suspend, std::nullopt);
  EXPECT_EQ(v.manifests[0].templates.size(), 2u);
  EXPECT_EQ(v.manifest_configs[0].resource.group, "batch.volcano.sh");
  EXPECT_EQ(v.manifest_configs[0].resource.resource, "jobs");
  model::ManifestWork vq = Build(s, {vc, "us-1", std::string("lq"), nullptr});
  EXPECT_EQ(vq.manifests[0].suspend, std::nullopt);
}

TEST(BuildManifestWorkTest, TargetAdmissionOverridesTheWorkloadsOwn) {
  model::Snapshot s = GpuHub();
  int32_t wl = AddJob(s, "batch/v1", "Job", "team-a", "train", {"main"},
                      Admit({Assign("main", {{"nvidia.com/gpu", "a100"}})}));
  model::Admission chosen = Admit({Assign("main", {{"nvidia.com/gpu", "h100"}})});
  model::ManifestWork own = Build(s, {wl, "us-1", std::nullopt, nullptr});
  model::ManifestWork given = Build(s, {wl, "us-1", std::nullopt, &chosen});
  EXPECT_EQ(own.manifests[0].templates[0].node_selector.at("gpu.pool"), "a100");
  EXPECT_EQ(given.manifests[0].templates[0].node_selector.at("gpu.pool"), "h100");
}

TEST(BuildManifestWorkTest, ErrorsNameWhatIsMissing) {
  model::Snapshot s = GpuHub();
  int32_t unadmitted = AddJob(s, "batch/v1", "Job", "team-a", "wait", {"main"});
  auto no_admission = BuildManifestWork(s, {unadmitted, "us-1", std::nullopt, nullptr});
  ASSERT_FALSE(no_admission.has_value());
  EXPECT_EQ(no_admission.error().code(), core::ErrorCode::kFailedPrecondition);
  EXPECT_EQ(no_admission.error().message(),
            "workload team-a/job-wait has no admission, and cluster us-1 runs no queue that "
            "could admit it");
  // A worker queue admits it there: no hub admission needed.
  EXPECT_TRUE(BuildManifestWork(s, {unadmitted, "us-1", std::string("lq"), nullptr}).has_value());

  auto out_of_range = BuildManifestWork(s, {7, "us-1", std::string("lq"), nullptr});
  ASSERT_FALSE(out_of_range.has_value());
  EXPECT_EQ(out_of_range.error().code(), core::ErrorCode::kInvalidArgument);
  auto no_cluster = BuildManifestWork(s, {unadmitted, "", std::string("lq"), nullptr});
  ASSERT_FALSE(no_cluster.has_value());
  EXPECT_EQ(no_cluster.error().code(), core::ErrorCode::kInvalidArgument);

  // A Workload given as such, with neither job nor pods.
  model::Workload bare;
  bare.meta.name = "bare";
  bare.meta.namespace_ = "team-a";
  bare.cluster = testing::kHub;
  s.kueue_workloads.push_back(bare);
  auto nothing = BuildManifestWork(
      s, {static_cast<int32_t>(s.kueue_workloads.size()) - 1, "us-1", std::string("lq"), nullptr});
  ASSERT_FALSE(nothing.has_value());
  EXPECT_EQ(nothing.error().code(), core::ErrorCode::kFailedPrecondition);
  EXPECT_EQ(nothing.error().message(),
            "workload team-a/bare has neither a job nor pods of the input to dispatch");
}

TEST(BuildManifestWorkTest, PlacedByLabelNamesTheDispatchingCheck) {
  model::Snapshot s = GpuHub();
  model::AdmissionCheck prov;
  prov.meta.name = "capacity";
  prov.controller_name = "kueue.x-k8s.io/provisioning-request";
  prov.cluster = testing::kHub;
  model::AdmissionCheck ocm = prov;
  ocm.meta.name = "fleet";
  ocm.controller_name = "open-cluster-management.io/placement";
  model::AdmissionCheck mk = prov;
  mk.meta.name = "multikueue-h100";
  mk.controller_name = "kueue.x-k8s.io/multikueue";
  s.admission_checks = {prov, ocm, mk};
  model::ClusterQueue cq;
  cq.meta.name = "hub-cq";
  cq.cluster = testing::kHub;
  cq.admission_checks = {{"capacity", {}}, {"multikueue-h100", {"h100"}}, {"fleet", {}}};
  s.cluster_queues.push_back(cq);

  // a100: the MultiKueue check is for h100 only, so the OCM placement check placed it.
  int32_t a = AddJob(s, "batch/v1", "Job", "team-a", "a", {"main"},
                     Admit({Assign("main", {{"nvidia.com/gpu", "a100"}})}));
  EXPECT_EQ(
      Build(s, {a, "us-1", std::nullopt, nullptr}).meta.labels.at(model::kWorkloadClusterLabel),
      "fleet");
  int32_t h = AddJob(s, "batch/v1", "Job", "team-a", "h", {"main"},
                     Admit({Assign("main", {{"nvidia.com/gpu", "h100"}})}));
  EXPECT_EQ(
      Build(s, {h, "us-1", std::nullopt, nullptr}).meta.labels.at(model::kWorkloadClusterLabel),
      "multikueue-h100");
  // The Workload's own check statuses come first.
  s.kueue_workloads[static_cast<size_t>(h)].admission_checks.push_back({"fleet", {}, ""});
  EXPECT_EQ(
      Build(s, {h, "us-1", std::nullopt, nullptr}).meta.labels.at(model::kWorkloadClusterLabel),
      "fleet");
  // No dispatching check: no label.
  s.cluster_queues[0].admission_checks = {{"capacity", {}}};
  int32_t n = AddJob(s, "batch/v1", "Job", "team-a", "n", {"main"},
                     Admit({Assign("main", {{"nvidia.com/gpu", "a100"}})}));
  EXPECT_EQ(
      Build(s, {n, "us-1", std::nullopt, nullptr}).meta.labels.count(model::kWorkloadClusterLabel),
      0u);
}

TEST(BuildManifestWorkTest, ClusterAnnotationFollowsTheObjectToItsCluster) {
  model::Snapshot s = GpuHub();
  int32_t with = AddJob(s, "batch/v1", "Job", "team-a", "with", {"main"},
                        Admit({Assign("main", {{"nvidia.com/gpu", "a100"}})}));
  s.workloads[0].meta.annotations[model::kClusterAnnotation] = testing::kHub;
  int32_t without = AddJob(s, "batch/v1", "Job", "team-a", "without", {"main"},
                           Admit({Assign("main", {{"nvidia.com/gpu", "a100"}})}));
  EXPECT_EQ(Build(s, {with, "us-1", std::nullopt, nullptr}).manifests[0].annotations,
            (Selector{{model::kClusterAnnotation, "us-1"}}));
  EXPECT_TRUE(Build(s, {without, "us-1", std::nullopt, nullptr}).manifests[0].annotations.empty());
}

TEST(BuildManifestWorkTest, LongWorkloadNamesAreHashedIntoLimits) {
  model::Snapshot s = GpuHub();
  const std::string long_name(250, 'j');
  int32_t wl = AddJob(s, "batch/v1", "Job", "team-a", long_name, {"main"},
                      Admit({Assign("main", {{"nvidia.com/gpu", "a100"}})}));
  model::ManifestWork w = Build(s, {wl, "us-1", std::string("lq"), nullptr});
  EXPECT_EQ(w.meta.name.size(), kMaxObjectNameLength);
  EXPECT_TRUE(core::IsDns1123Subdomain(w.meta.name));
  const std::string& label = w.meta.labels.at(model::kWorkloadLabel);
  EXPECT_LE(label.size(), kMaxLabelValueLength);
  EXPECT_TRUE(core::IsValidLabelValue(label));
  EXPECT_EQ(w.meta.name, ManifestWorkName(s.kueue_workloads[static_cast<size_t>(wl)]));
  EXPECT_EQ(w.manifests[0].name, long_name);  // the job keeps its own name
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
