// The federated-learning stage through RunPlan (engine/federated_learning.h): clients where
// the data and its compliance claim allow, Waiting with a reason per excluded cluster, the
// server and client ManifestWorks, progress from the server's status feedback, and the
// abort conditions (a client lost below the minimum, a diverging loss, a round over its
// timeout), each one step at a fixed --now from the objects read.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "engine/plan.h"
#include "io/reader.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

constexpr int64_t kNow = 1795946400;  // 2026-11-29T10:00:00Z

std::string Cluster(const std::string& name, const std::string& claims,
                    const std::string& available = "True") {
  return "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n"
         "  name: " +
         name +
         "\n  labels: {cluster.open-cluster-management.io/clusterset: fleet}\n"
         "spec: {hubAcceptsClient: true}\nstatus:\n  clusterClaims:\n" +
         claims + "  conditions:\n  - {type: ManagedClusterConditionAvailable, status: \"" +
         available + "\", reason: Seen, lastTransitionTime: \"2026-11-29T09:30:00Z\"}\n---\n";
}

std::string Claim(const std::string& name, const std::string& value) {
  return "  - {name: " + name + ", value: \"" + value + "\"}\n";
}

// eu-1 and eu-2 hold data and claim GDPR, us-2 holds data without the claim, ap-1 holds none.
std::string Fleet(const std::string& eu2_available = "True") {
  return Cluster("eu-1",
                 Claim("compliance.berth.dev", "gdpr") + Claim("mnist.client-data", "/data/eu-1")) +
         Cluster("eu-2",
                 Claim("compliance.berth.dev", "gdpr,iso27001") +
                     Claim("mnist.client-data", "/data/eu-2"),
                 eu2_available) +
         Cluster("us-2", Claim("mnist.client-data", "/data/us-2")) +
         Cluster("ap-1", Claim("region", "ap")) +
         "apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\n"
         "metadata: {name: fleet}\n---\n";
}

struct Fl {
  std::string annotations = "    berth.dev/data-compliance: gdpr\n";
  int min_clients = 2;
  std::string placement_extra;
  std::string status;  // the status block, "status:\n..." or ""
};

std::string FlYaml(const Fl& fl) {
  return "apiVersion: federation-ai.open-cluster-management.io/v1alpha1\nkind: FederatedLearning\n"
         "metadata:\n  name: mnist\n  namespace: team-eu\n" +
         (fl.annotations.empty() ? std::string() : "  annotations:\n" + fl.annotations) +
         "spec:\n  server:\n    image: srv:1\n    rounds: 5\n    minAvailableClients: " +
         std::to_string(fl.min_clients) +
         "\n    storage: {type: PersistentVolumeClaim, name: model-pvc, path: /models}\n"
         "  client:\n    image: cli:1\n    resources:\n      limits: {nvidia.com/gpu: 1}\n"
         "    placement:\n      clusterSets: [fleet]\n" +
         fl.placement_extra +
         "      predicates:\n      - requiredClusterSelector:\n          claimSelector:\n"
         "            matchExpressions: [{key: mnist.client-data, operator: Exists}]\n" +
         fl.status + "---\n";
}

// The status of a training started at 09:00 on eu-1 and eu-2, server on eu-1.
std::string Running(const std::string& extra = "", const std::string& start = "09:00:00") {
  return "status:\n  phase: Running\n  serverCluster: eu-1\n  currentRound: 2\n"
         "  roundStartTime: \"2026-11-29T" +
         start +
         "Z\"\n  clients:\n"
         "  - {clusterName: eu-1, state: Training, dataConfig: /data/eu-1}\n"
         "  - {clusterName: eu-2, state: Training, dataConfig: /data/eu-2}\n"
         "  - {clusterName: us-2, state: Excluded, reason: ComplianceNotClaimed}\n" +
         extra;
}

// A work berth planned earlier, as the agent reports it: `feedback` lines of
// statusFeedback.values for the Job, `conditions` the work's own.
std::string Work(const std::string& cluster, const std::string& role,
                 const std::string& feedback = "", const std::string& conditions = "") {
  return "apiVersion: work.open-cluster-management.io/v1\nkind: ManifestWork\nmetadata:\n"
         "  name: team-eu.mnist.fl-" +
         role + "\n  namespace: " + cluster +
         "\n  labels:\n"
         "    berth.dev/federated-learning: team-eu.mnist\n"
         "    berth.dev/federated-learning-role: " +
         role +
         "\n"
         "spec:\n  workload:\n    manifests:\n    - {apiVersion: batch/v1, kind: Job, metadata: "
         "{name: mnist-" +
         role +
         ", namespace: team-eu}}\n"
         "status:\n  conditions:\n" +
         (conditions.empty()
              ? "  - {type: Applied, status: \"True\", reason: AppliedManifestWorkComplete, "
                "lastTransitionTime: \"2026-11-29T09:00:00Z\"}\n"
              : conditions) +
         "  resourceStatus:\n    manifests:\n    - resourceMeta: {group: batch, version: v1, kind: "
         "Job, resource: jobs, name: mnist-" +
         role +
         ", namespace: team-eu}\n"
         "      statusFeedback:\n        values:\n" +
         (feedback.empty()
              ? "        - {name: JobSucceeded, fieldValue: {type: Integer, integer: 0}}\n"
              : feedback) +
         "---\n";
}

std::string Value(const std::string& name, const std::string& text) {
  return "        - {name: " + name + ", fieldValue: {type: String, string: \"" + text + "\"}}\n";
}

Plan RunAt(const std::string& yaml, int64_t now = kNow) {
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(yaml, "hub.yaml");
  io::Input input = reader.Finish();
  for (const auto& d : diags.entries()) ADD_FAILURE() << d.error.ToString();
  PlanOptions options;
  options.now = core::Timestamp{now};
  return RunPlan(std::move(input.snapshot), options);
}

const model::FederatedLearningStatus& StatusOf(const Plan& plan) {
  static const model::FederatedLearningStatus kNone;
  if (plan.planned.federated_learnings.empty() || !plan.planned.federated_learnings[0].status) {
    ADD_FAILURE() << "no decided FederatedLearning";
    return kNone;
  }
  return *plan.planned.federated_learnings[0].status;
}

const model::FlClientStatus* Client(const model::FederatedLearningStatus& st,
                                    const std::string& cluster) {
  for (const model::FlClientStatus& c : st.clients) {
    if (c.cluster == cluster) return &c;
  }
  return nullptr;
}

const model::Condition* Cond(const model::FederatedLearningStatus& st, const std::string& type) {
  for (const model::Condition& c : st.conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

// The planned works, "namespace/name" in print order.
std::vector<std::string> Planned(const Plan& plan) {
  std::vector<std::string> out;
  for (int32_t i : plan.manifest_work_items) {
    const model::ManifestWork& w = plan.planned.manifest_works[static_cast<size_t>(i)];
    out.push_back(w.meta.namespace_ + "/" + w.meta.name);
  }
  return out;
}

// The deleted works, "namespace/name: reason".
std::vector<std::string> Deleted(const Plan& plan) {
  std::vector<std::string> out;
  for (const model::ObjectDeletion& d : plan.deleted_objects) {
    out.push_back(d.namespace_ + "/" + d.name + ": " + d.reason);
  }
  return out;
}

const model::ManifestWork* WorkIn(const Plan& plan, const std::string& cluster,
                                  const std::string& name) {
  for (int32_t i : plan.manifest_work_items) {
    const model::ManifestWork& w = plan.planned.manifest_works[static_cast<size_t>(i)];
    if (w.meta.namespace_ == cluster && w.meta.name == name) return &w;
  }
  return nullptr;
}

TEST(FederatedLearningTest, ClientsGoWhereTheDataAndItsComplianceClaimAre) {
  const Plan plan = RunAt(Fleet() + FlYaml(Fl{}));
  const model::FederatedLearningStatus& st = StatusOf(plan);
  EXPECT_EQ(st.phase, model::FlPhase::kRunning);
  EXPECT_EQ(st.server_cluster, "eu-1");
  ASSERT_TRUE(st.round_start_time.has_value());
  EXPECT_EQ(st.round_start_time->unix_s, kNow);
  ASSERT_EQ(st.clients.size(), 3u) << "ap-1 holds no data: not listed";
  const model::FlClientStatus* eu1 = Client(st, "eu-1");
  const model::FlClientStatus* eu2 = Client(st, "eu-2");
  const model::FlClientStatus* us2 = Client(st, "us-2");
  ASSERT_NE(eu1, nullptr);
  ASSERT_NE(eu2, nullptr);
  ASSERT_NE(us2, nullptr);
  EXPECT_EQ(eu1->state, model::FlClientState::kTraining);
  EXPECT_EQ(eu1->data_config, "/data/eu-1");
  EXPECT_EQ(eu2->state, model::FlClientState::kTraining);
  EXPECT_EQ(us2->state, model::FlClientState::kExcluded);
  EXPECT_EQ(us2->reason, "ComplianceNotClaimed");
  EXPECT_EQ(us2->message,
            "the data requires compliance gdpr; cluster us-2 has no compliance.berth.dev claim");
  const model::Condition* placed = Cond(st, "ClientsPlaced");
  ASSERT_NE(placed, nullptr);
  EXPECT_EQ(placed->status, model::ConditionStatus::kTrue);
  EXPECT_NE(placed->message.find("us-2 (ComplianceNotClaimed"), std::string::npos)
      << placed->message;

  EXPECT_EQ(Planned(plan), (std::vector<std::string>{"eu-1/team-eu.mnist.fl-server",
                                                     "eu-1/team-eu.mnist.fl-client",
                                                     "eu-2/team-eu.mnist.fl-client"}));
  const model::ManifestWork* server = WorkIn(plan, "eu-1", "team-eu.mnist.fl-server");
  ASSERT_NE(server, nullptr);
  ASSERT_EQ(server->generated_jobs.size(), 1u);
  const model::GeneratedJob& job = server->generated_jobs[0];
  EXPECT_EQ(job.name, "mnist-server");
  EXPECT_EQ(job.namespace_, "team-eu");
  EXPECT_EQ(job.args,
            (std::vector<std::string>{"server", "--num-rounds=5", "--min-available-clients=2",
                                      "--model-dir=/models"}));
  ASSERT_EQ(job.volumes.size(), 1u);
  EXPECT_EQ(job.volumes[0].claim_name, "model-pvc");
  EXPECT_EQ(server->meta.labels.at("berth.dev/federated-learning"), "team-eu.mnist");
  EXPECT_EQ(server->meta.labels.at("berth.dev/federated-learning-role"), "server");
  ASSERT_EQ(server->manifest_configs.size(), 1u);
  EXPECT_EQ(server->manifest_configs[0].resource.name, "mnist-server");
  const model::ManifestWork* client = WorkIn(plan, "eu-2", "team-eu.mnist.fl-client");
  ASSERT_NE(client, nullptr);
  ASSERT_EQ(client->generated_jobs.size(), 1u);
  EXPECT_EQ(client->generated_jobs[0].args,
            (std::vector<std::string>{"client", "--data-config=/data/eu-2",
                                      "--server-address=mnist-server.team-eu:8080"}));
  EXPECT_EQ(client->generated_jobs[0].limits.at("nvidia.com/gpu").ToString(), "1");
  EXPECT_TRUE(plan.deleted_objects.empty());

  ASSERT_EQ(plan.federated_learnings.size(), 1u);
  const FederatedLearningRun& run = plan.federated_learnings[0];
  EXPECT_EQ(run.phase, model::FlPhase::kRunning);
  EXPECT_EQ(run.clients, 2);
  EXPECT_EQ(run.min_clients, 2);
  EXPECT_EQ(run.excluded, 1);
  EXPECT_EQ(run.rounds, 5);
  EXPECT_EQ(run.reason, "");
  EXPECT_EQ(plan.federated_learning_items, (std::vector<int32_t>{0}));
}

TEST(FederatedLearningTest, WaitsNamingEachExcludedClusterWhenFewerThanTheMinimum) {
  Fl fl;
  fl.min_clients = 3;
  const Plan plan = RunAt(Fleet() + FlYaml(fl));
  const model::FederatedLearningStatus& st = StatusOf(plan);
  EXPECT_EQ(st.phase, model::FlPhase::kWaiting);
  EXPECT_EQ(st.message, "waiting for at least 3 clients: 2 cluster(s) hold the data and may train");
  const model::Condition* placed = Cond(st, "ClientsPlaced");
  ASSERT_NE(placed, nullptr);
  EXPECT_EQ(placed->status, model::ConditionStatus::kFalse);
  EXPECT_EQ(placed->reason, "NotEnoughClients");
  EXPECT_EQ(placed->message,
            "2 of at least 3 clients; may train: eu-1, eu-2; excluded: us-2 "
            "(ComplianceNotClaimed: the data requires compliance gdpr; cluster us-2 has no "
            "compliance.berth.dev claim)");
  EXPECT_EQ(Client(st, "eu-1")->state, model::FlClientState::kEligible);
  EXPECT_TRUE(Planned(plan).empty());
  EXPECT_EQ(plan.federated_learnings[0].reason, "NotEnoughClients");
  EXPECT_EQ(plan.federated_learnings[0].eligible, 2);
}

TEST(FederatedLearningTest, UnavailableDataClusterIsExcludedWithTheTaintReason) {
  Fl fl;
  const Plan plan = RunAt(Fleet("Unknown") + FlYaml(fl));
  const model::FederatedLearningStatus& st = StatusOf(plan);
  EXPECT_EQ(st.phase, model::FlPhase::kWaiting);
  const model::FlClientStatus* eu2 = Client(st, "eu-2");
  ASSERT_NE(eu2, nullptr);
  EXPECT_EQ(eu2->state, model::FlClientState::kExcluded);
  EXPECT_EQ(eu2->reason, "ClusterUnavailable");
  EXPECT_NE(eu2->message.find("unreachable"), std::string::npos) << eu2->message;
}

TEST(FederatedLearningTest, WithoutAComplianceRequirementEveryDataClusterTrains) {
  Fl fl;
  fl.annotations.clear();
  const Plan plan = RunAt(Fleet() + FlYaml(fl));
  const model::FederatedLearningStatus& st = StatusOf(plan);
  EXPECT_EQ(st.phase, model::FlPhase::kRunning);
  EXPECT_EQ(Client(st, "us-2")->state, model::FlClientState::kTraining);
  EXPECT_EQ(plan.federated_learnings[0].clients, 3);
  // A requirement the claim lists among others is met (eu-2 claims "gdpr,iso27001").
  fl.annotations = "    berth.dev/data-compliance: iso27001\n";
  fl.min_clients = 1;
  const Plan only_eu2 = RunAt(Fleet() + FlYaml(fl));
  EXPECT_EQ(Client(StatusOf(only_eu2), "eu-2")->state, model::FlClientState::kTraining);
  EXPECT_EQ(Client(StatusOf(only_eu2), "eu-1")->state, model::FlClientState::kExcluded);
  EXPECT_EQ(Client(StatusOf(only_eu2), "eu-1")->message,
            "the data requires compliance iso27001; cluster eu-1 claims compliance.berth.dev=gdpr");
}

TEST(FederatedLearningTest, NumberOfClustersLeavesTheRestNotSelected) {
  Fl fl;
  fl.min_clients = 1;
  fl.placement_extra = "      numberOfClusters: 1\n";
  const Plan plan = RunAt(Fleet() + FlYaml(fl));
  const model::FederatedLearningStatus& st = StatusOf(plan);
  EXPECT_EQ(st.phase, model::FlPhase::kRunning);
  // Equal scores: by name, eu-1 first.
  EXPECT_EQ(Client(st, "eu-1")->state, model::FlClientState::kTraining);
  EXPECT_EQ(Client(st, "eu-2")->state, model::FlClientState::kExcluded);
  EXPECT_EQ(Client(st, "eu-2")->reason, "NotSelected");
  EXPECT_EQ(Planned(plan).size(), 2u);
}

TEST(FederatedLearningTest, ServerRunsOnTheAnnotatedClusterOrWaitsForIt) {
  Fl fl;
  fl.annotations += "    berth.dev/server-cluster: ap-1\n";
  const Plan plan = RunAt(Fleet() + FlYaml(fl));
  EXPECT_EQ(StatusOf(plan).server_cluster, "ap-1");
  EXPECT_NE(WorkIn(plan, "ap-1", "team-eu.mnist.fl-server"), nullptr);
  fl.annotations = "    berth.dev/data-compliance: gdpr\n    berth.dev/server-cluster: gone\n";
  const Plan waiting = RunAt(Fleet() + FlYaml(fl));
  EXPECT_EQ(StatusOf(waiting).phase, model::FlPhase::kWaiting);
  EXPECT_EQ(waiting.federated_learnings[0].reason, "ServerClusterUnavailable");
  EXPECT_TRUE(Planned(waiting).empty());
}

TEST(FederatedLearningTest, ProgressComesFromTheServersFeedback) {
  Fl fl;
  fl.status = Running("  roundLosses:\n  - {round: 2, loss: \"0.9\"}\n");
  const std::string feedback = Value("CurrentRound", "3") + Value("Loss", "0.7");
  const Plan plan = RunAt(Fleet() + FlYaml(fl) + Work("eu-1", "server", feedback) +
                          Work("eu-1", "client") + Work("eu-2", "client"));
  const model::FederatedLearningStatus& st = StatusOf(plan);
  EXPECT_EQ(st.phase, model::FlPhase::kRunning);
  EXPECT_EQ(st.current_round, 3);
  ASSERT_TRUE(st.round_start_time.has_value());
  EXPECT_EQ(st.round_start_time->unix_s, kNow) << "a new round starts its clock";
  ASSERT_EQ(st.round_losses.size(), 2u);
  EXPECT_EQ(st.round_losses[1].round, 3);
  EXPECT_EQ(st.round_losses[1].loss, "0.7");
  ASSERT_TRUE(plan.federated_learnings[0].loss.has_value());
  EXPECT_DOUBLE_EQ(*plan.federated_learnings[0].loss, 0.7);
  EXPECT_EQ(plan.federated_learnings[0].current_round, 3);
  // The given works are planned again in place (same names), nothing deleted.
  EXPECT_EQ(Planned(plan).size(), 3u);
  EXPECT_TRUE(plan.deleted_objects.empty());
  // The same round seen again keeps its start.
  const Plan same =
      RunAt(Fleet() + FlYaml(fl) + Work("eu-1", "server", Value("CurrentRound", "2")), kNow);
  ASSERT_TRUE(StatusOf(same).round_start_time.has_value());
  EXPECT_EQ(StatusOf(same).round_start_time->ToString(), "2026-11-29T09:00:00Z");
}

TEST(FederatedLearningTest, AbortsWhenAClientClusterIsLostBelowTheMinimum) {
  Fl fl;
  fl.status = Running();
  const Plan plan = RunAt(Fleet("Unknown") + FlYaml(fl) + Work("eu-1", "server") +
                          Work("eu-1", "client") + Work("eu-2", "client"));
  const model::FederatedLearningStatus& st = StatusOf(plan);
  EXPECT_EQ(st.phase, model::FlPhase::kFailed);
  const model::Condition* aborted = Cond(st, "TrainingAborted");
  ASSERT_NE(aborted, nullptr);
  EXPECT_EQ(aborted->reason, "ClientsBelowMinimum");
  EXPECT_EQ(aborted->message,
            "1 client(s) left, fewer than 2; lost: eu-2 (ClusterLost: ManagedCluster eu-2 is "
            "ManagedClusterConditionAvailable=Unknown (Seen) since 2026-11-29T09:30:00Z)");
  EXPECT_EQ(Client(st, "eu-2")->state, model::FlClientState::kLost);
  EXPECT_EQ(Client(st, "eu-1")->state, model::FlClientState::kFinished);
  EXPECT_TRUE(Planned(plan).empty());
  EXPECT_EQ(Deleted(plan),
            (std::vector<std::string>{
                "eu-1/team-eu.mnist.fl-server: federated learning team-eu/mnist failed: "
                "ClientsBelowMinimum",
                "eu-1/team-eu.mnist.fl-client: federated learning team-eu/mnist failed: "
                "ClientsBelowMinimum",
                "eu-2/team-eu.mnist.fl-client: client on eu-2 lost: ClusterLost"}));
  EXPECT_EQ(plan.federated_learnings[0].reason, "ClientsBelowMinimum");
  EXPECT_EQ(plan.federated_learnings[0].lost, 1);
}

TEST(FederatedLearningTest, ALostClientAboveTheMinimumOnlyLosesItsWork) {
  Fl fl;
  fl.min_clients = 1;
  fl.status = Running();
  const std::string failed = Value("JobFailed", "True");
  const Plan plan = RunAt(Fleet() + FlYaml(fl) + Work("eu-1", "server") + Work("eu-1", "client") +
                          Work("eu-2", "client", failed));
  const model::FederatedLearningStatus& st = StatusOf(plan);
  EXPECT_EQ(st.phase, model::FlPhase::kRunning);
  EXPECT_EQ(Client(st, "eu-2")->state, model::FlClientState::kLost);
  EXPECT_EQ(Client(st, "eu-2")->reason, "ClientFailed");
  EXPECT_EQ(Client(st, "eu-2")->message, "client Job mnist-client failed on cluster eu-2");
  EXPECT_EQ(Planned(plan), (std::vector<std::string>{"eu-1/team-eu.mnist.fl-server",
                                                     "eu-1/team-eu.mnist.fl-client"}));
  EXPECT_EQ(Deleted(plan), (std::vector<std::string>{
                               "eu-2/team-eu.mnist.fl-client: client on eu-2 lost: ClientFailed"}));
  // A lost client stays lost in the next step, even once its cluster is fine again.
  Fl next = fl;
  next.status =
      "status:\n  phase: Running\n  serverCluster: eu-1\n  clients:\n"
      "  - {clusterName: eu-1, state: Training, dataConfig: /data/eu-1}\n"
      "  - {clusterName: eu-2, state: Lost, reason: ClientFailed}\n";
  const Plan later = RunAt(Fleet() + FlYaml(next) + Work("eu-1", "server"));
  EXPECT_EQ(Client(StatusOf(later), "eu-2")->state, model::FlClientState::kLost);
  EXPECT_EQ(WorkIn(later, "eu-2", "team-eu.mnist.fl-client"), nullptr);
}

TEST(FederatedLearningTest, ClientsLostEarlierCountAgainstARaisedMinimum) {
  Fl fl;  // minAvailableClients 2, raised after eu-2 was lost with 1
  fl.status =
      "status:\n  phase: Running\n  serverCluster: eu-1\n  clients:\n"
      "  - {clusterName: eu-1, state: Training, dataConfig: /data/eu-1}\n"
      "  - {clusterName: eu-2, state: Lost, reason: ClientFailed, message: gone}\n";
  const Plan plan = RunAt(Fleet() + FlYaml(fl) + Work("eu-1", "server"));
  const model::Condition* aborted = Cond(StatusOf(plan), "TrainingAborted");
  ASSERT_NE(aborted, nullptr);
  EXPECT_EQ(aborted->message, "1 client(s) left, fewer than 2; lost: eu-2 (ClientFailed: gone)");
}

TEST(FederatedLearningTest, AbortsWhenTheLossGrowsForTheConfiguredRounds) {
  Fl fl;
  fl.status =
      Running("  roundLosses:\n  - {round: 1, loss: \"0.5\"}\n  - {round: 2, loss: \"0.6\"}\n");
  // Rounds 1-3 grew twice: not yet three times.
  const Plan two = RunAt(Fleet() + FlYaml(fl) +
                         Work("eu-1", "server", Value("CurrentRound", "3") + Value("Loss", "0.7")));
  EXPECT_EQ(StatusOf(two).phase, model::FlPhase::kRunning);
  fl.status = Running(
      "  roundLosses:\n  - {round: 1, loss: \"0.5\"}\n  - {round: 2, loss: \"0.6\"}\n"
      "  - {round: 3, loss: \"0.7\"}\n");
  const Plan three =
      RunAt(Fleet() + FlYaml(fl) +
            Work("eu-1", "server", Value("CurrentRound", "4") + Value("Loss", "0.9")));
  const model::FederatedLearningStatus& st = StatusOf(three);
  EXPECT_EQ(st.phase, model::FlPhase::kFailed);
  const model::Condition* aborted = Cond(st, "TrainingAborted");
  ASSERT_NE(aborted, nullptr);
  EXPECT_EQ(aborted->reason, "MetricDiverged");
  EXPECT_EQ(aborted->message,
            "the loss grew for 3 consecutive rounds (rounds 1-4: 0.5, 0.6, 0.7, 0.9)");
  // A loss that fell once in between does not count as divergence.
  fl.status = Running(
      "  roundLosses:\n  - {round: 1, loss: \"0.5\"}\n  - {round: 2, loss: \"0.4\"}\n"
      "  - {round: 3, loss: \"0.7\"}\n");
  const Plan dip = RunAt(Fleet() + FlYaml(fl) +
                         Work("eu-1", "server", Value("CurrentRound", "4") + Value("Loss", "0.9")));
  EXPECT_EQ(StatusOf(dip).phase, model::FlPhase::kRunning);
  // The annotation lowers the count.
  fl.annotations += "    berth.dev/divergence-rounds: \"1\"\n";
  const Plan one = RunAt(Fleet() + FlYaml(fl) +
                         Work("eu-1", "server", Value("CurrentRound", "4") + Value("Loss", "0.9")));
  EXPECT_EQ(StatusOf(one).phase, model::FlPhase::kFailed);
}

TEST(FederatedLearningTest, AbortsOnANotANumberLoss) {
  Fl fl;
  fl.status = Running();
  const Plan plan =
      RunAt(Fleet() + FlYaml(fl) +
            Work("eu-1", "server", Value("CurrentRound", "2") + Value("Loss", "NaN")));
  const model::Condition* aborted = Cond(StatusOf(plan), "TrainingAborted");
  ASSERT_NE(aborted, nullptr);
  EXPECT_EQ(aborted->reason, "MetricDiverged");
  EXPECT_EQ(aborted->message, "the loss is NaN in round 2");
}

TEST(FederatedLearningTest, AbortsWhenARoundOutlivesItsTimeout) {
  Fl fl;
  fl.annotations += "    berth.dev/round-timeout: 30m\n";
  fl.status = Running("", "09:31:00");
  const Plan in_time = RunAt(Fleet() + FlYaml(fl) + Work("eu-1", "server"));
  EXPECT_EQ(StatusOf(in_time).phase, model::FlPhase::kRunning);
  fl.status = Running("", "09:30:00");
  const Plan late = RunAt(Fleet() + FlYaml(fl) + Work("eu-1", "server"));
  const model::FederatedLearningStatus& st = StatusOf(late);
  EXPECT_EQ(st.phase, model::FlPhase::kFailed);
  const model::Condition* aborted = Cond(st, "TrainingAborted");
  ASSERT_NE(aborted, nullptr);
  EXPECT_EQ(aborted->reason, "RoundTimeout");
  EXPECT_EQ(aborted->message,
            "round 2 started at 2026-11-29T09:30:00Z and ran for 30m0s, at least its "
            "berth.dev/round-timeout of 30m0s");
  EXPECT_EQ(late.federated_learnings[0].reason, "RoundTimeout");
}

TEST(FederatedLearningTest, CompletesWhenTheServerJobSucceedsAndKeepsItsWork) {
  Fl fl;
  fl.status = Running();
  const std::string done =
      "        - {name: JobComplete, fieldValue: {type: String, string: \"True\"}}\n" +
      Value("CurrentRound", "5");
  const Plan plan = RunAt(Fleet() + FlYaml(fl) + Work("eu-1", "server", done) +
                          Work("eu-1", "client") + Work("eu-2", "client"));
  const model::FederatedLearningStatus& st = StatusOf(plan);
  EXPECT_EQ(st.phase, model::FlPhase::kCompleted);
  EXPECT_EQ(st.current_round, 5);
  EXPECT_EQ(st.message,
            "training completed after round 5; the model is in the server's model store");
  EXPECT_EQ(Client(st, "eu-1")->state, model::FlClientState::kFinished);
  EXPECT_TRUE(Planned(plan).empty());
  EXPECT_EQ(Deleted(plan), (std::vector<std::string>{
                               "eu-1/team-eu.mnist.fl-client: federated learning team-eu/mnist "
                               "completed",
                               "eu-2/team-eu.mnist.fl-client: federated learning team-eu/mnist "
                               "completed"}));
  // Final: the next plan keeps the status and the server's work.
  Fl done_fl = fl;
  done_fl.status = "status:\n  phase: Completed\n  message: done\n  serverCluster: eu-1\n";
  const Plan later = RunAt(Fleet() + FlYaml(done_fl) + Work("eu-1", "server"));
  EXPECT_EQ(StatusOf(later).phase, model::FlPhase::kCompleted);
  EXPECT_EQ(StatusOf(later).message, "done");
  EXPECT_TRUE(later.deleted_objects.empty());
}

TEST(FederatedLearningTest, WorksOfAFederatedLearningThatIsGoneAreDeleted) {
  const Plan plan = RunAt(Fleet() + Work("eu-1", "server") + Work("eu-2", "client"));
  EXPECT_EQ(Deleted(plan), (std::vector<std::string>{
                               "eu-1/team-eu.mnist.fl-server: federated learning team-eu/mnist no "
                               "longer exists",
                               "eu-2/team-eu.mnist.fl-client: federated learning team-eu/mnist no "
                               "longer exists"}));
  // A Failed one deletes what is left of it, its server's work too.
  Fl fl;
  fl.status = "status:\n  phase: Failed\n  serverCluster: eu-1\n";
  const Plan failed = RunAt(Fleet() + FlYaml(fl) + Work("eu-1", "server"));
  EXPECT_EQ(Deleted(failed), (std::vector<std::string>{
                                 "eu-1/team-eu.mnist.fl-server: federated learning team-eu/mnist "
                                 "failed"}));
}

TEST(FederatedLearningTest, TheSameInputGivesTheSameDecision) {
  Fl fl;
  fl.status = Running("  roundLosses:\n  - {round: 2, loss: \"0.9\"}\n");
  const std::string yaml =
      Fleet() + FlYaml(fl) +
      Work("eu-1", "server", Value("CurrentRound", "3") + Value("Loss", "0.7"));
  const Plan a = RunAt(yaml);
  const Plan b = RunAt(yaml);
  const model::FederatedLearningStatus& sa = StatusOf(a);
  const model::FederatedLearningStatus& sb = StatusOf(b);
  EXPECT_EQ(sa.message, sb.message);
  EXPECT_EQ(sa.current_round, sb.current_round);
  EXPECT_EQ(Planned(a), Planned(b));
  EXPECT_EQ(Deleted(a), Deleted(b));
}

TEST(FederatedLearningTest, MalformedFederatedLearningsAreErrorsNamingTheirFields) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"  annotations: {berth.dev/round-timeout: soon}\n",
       "metadata.annotations[berth.dev/round-timeout]"},
      {"  annotations: {berth.dev/divergence-rounds: \"0\"}\n",
       "metadata.annotations[berth.dev/divergence-rounds]"},
  };
  for (const auto& [annotations, field] : cases) {
    SCOPED_TRACE(field);
    core::Diagnostics diags;
    io::Reader reader(diags);
    Fl fl;
    fl.annotations.clear();
    std::string yaml = FlYaml(fl);
    yaml.insert(yaml.find("spec:\n"), annotations);
    reader.ReadText(Fleet() + yaml, "hub.yaml");
    io::Input input = reader.Finish();
    ASSERT_EQ(diags.error_count(), 1u);
    EXPECT_EQ(diags.entries()[0].error.location().field, field);
    EXPECT_TRUE(input.snapshot.federated_learnings.empty());
    EXPECT_EQ(input.snapshot.managed_clusters.size(), 4u) << "the rest is read";
  }
  for (const auto& [from, to, field] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"minAvailableClients: 2", "minAvailableClients: 0", "spec.server.minAvailableClients"},
           {"image: cli:1", "image: \"\"", "spec.client.image"},
           {"{nvidia.com/gpu: 1}", "{nvidia.com/gpu: lots}",
            "spec.client.resources.limits[nvidia.com/gpu]"},
           {"operator: Exists", "operator: Sometimes",
            "spec.client.placement.predicates[0].requiredClusterSelector.claimSelector."
            "matchExpressions[0].operator"}}) {
    SCOPED_TRACE(field);
    std::string yaml = FlYaml(Fl{});
    ASSERT_NE(yaml.find(from), std::string::npos);
    yaml.replace(yaml.find(from), from.size(), to);
    core::Diagnostics diags;
    io::Reader reader(diags);
    reader.ReadText(Fleet() + yaml, "hub.yaml");
    (void)reader.Finish();
    ASSERT_EQ(diags.error_count(), 1u);
    EXPECT_EQ(diags.entries()[0].error.location().field, field);
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
