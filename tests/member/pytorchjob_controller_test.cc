// The PyTorchJob controller with the kubelet under it: pods, labels and the torch environment,
// Created/Running/Succeeded, a failed replica restarted, ExitCode failures, suspend and
// resume, backoffLimit (after the training-operator release-1.9
// pkg/controller.v1/pytorch/pytorchjob_controller_test.go scenarios).
#include "server/member/pytorchjob_controller.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "member/member_test_util.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/pod_util.h"

namespace berth::server::member {
namespace BERTH_UNITY_ID {

using testing::kT0;
using testing::MakeNode;
using testing::MakeObject;
using testing::SimCluster;

Json TorchTemplate(Json annotations) {
  Json tmpl = {
      {"spec", {{"containers", Json::array({Json{{"name", "pytorch"}, {"image", "torch"}}})}}}};
  if (!annotations.empty()) tmpl["metadata"]["annotations"] = std::move(annotations);
  return tmpl;
}

Json Replica(int64_t replicas, Json annotations, const std::string& restart_policy = "") {
  Json r = {{"replicas", replicas}, {"template", TorchTemplate(std::move(annotations))}};
  if (!restart_policy.empty()) r["restartPolicy"] = restart_policy;
  return r;
}

Json Pt(Json master, Json worker, Json run_policy = Json::object()) {
  Json specs = Json::object();
  if (!master.is_null()) specs["Master"] = std::move(master);
  if (!worker.is_null()) specs["Worker"] = std::move(worker);
  Json spec = {{"pytorchReplicaSpecs", std::move(specs)}};
  if (!run_policy.empty()) spec["runPolicy"] = std::move(run_policy);
  return MakeObject("kubeflow.org/v1", "PyTorchJob", "pt", std::move(spec));
}

Json Ten() { return Json{{"berth.dev/simulated-duration", "10s"}}; }

std::map<std::string, std::string> Env(const Json& pod) {
  std::map<std::string, std::string> out;
  for (const Json& e : pod["spec"]["containers"][0]["env"]) out[e["name"]] = StringAt(e, {"value"});
  return out;
}

const Json* Cond(const SimCluster& c, const char* type) {
  return FindCondition(c.Get(Kind::kPyTorchJob, "pt"), type);
}

TEST(PyTorchJobControllerTest, RunsMasterAndWorkersToSuccess) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Pt(Replica(1, Ten()), Replica(2, Ten())));
  c.Round();
  const Json& master = c.Get(Kind::kPod, "pt-master-0");
  EXPECT_EQ(LabelOf(master, "training.kubeflow.org/job-name"), "pt");
  EXPECT_EQ(LabelOf(master, "training.kubeflow.org/operator-name"), "pytorchjob-controller");
  EXPECT_EQ(LabelOf(master, "training.kubeflow.org/replica-type"), "master");
  EXPECT_EQ(LabelOf(master, "training.kubeflow.org/replica-index"), "0");
  EXPECT_EQ(LabelOf(master, "training.kubeflow.org/job-role"), "master");
  EXPECT_EQ(StringAt(master, {"spec", "restartPolicy"}), "OnFailure");
  EXPECT_EQ(master["metadata"]["ownerReferences"][0]["kind"], "PyTorchJob");
  EXPECT_EQ(Env(master), (std::map<std::string, std::string>{{"MASTER_ADDR", "pt-master-0"},
                                                             {"MASTER_PORT", "23456"},
                                                             {"PYTHONUNBUFFERED", "1"},
                                                             {"RANK", "0"},
                                                             {"WORLD_SIZE", "3"}}));
  const Json& worker = c.Get(Kind::kPod, "pt-worker-1");
  EXPECT_EQ(LabelOf(worker, "training.kubeflow.org/job-role"), "");
  EXPECT_EQ(Env(worker)["RANK"], "2");
  ASSERT_NE(Cond(c, "Created"), nullptr);
  EXPECT_EQ(StringAt(*Cond(c, "Created"), {"reason"}), "PyTorchJobCreated");
  EXPECT_EQ(StringAt(*Cond(c, "Created"), {"message"}), "PyTorchJob pt is created.");
  const Json& status = c.Get(Kind::kPyTorchJob, "pt")["status"];
  EXPECT_EQ(StringAt(status, {"replicaStatuses", "Master", "selector"}),
            "training.kubeflow.org/job-name=pt,training.kubeflow.org/operator-name="
            "pytorchjob-controller,training.kubeflow.org/replica-type=master");
  EXPECT_EQ(status["replicaStatuses"]["Master"].size(), 1u);  // pending pods count nowhere
  EXPECT_EQ(StringAt(status, {"startTime"}), TimeText(kT0));

  c.Bind({"n1"});
  c.Round();
  EXPECT_EQ(StringAt(*Cond(c, "Running"), {"status"}), "True");
  EXPECT_EQ(StringAt(*Cond(c, "Running"), {"message"}), "PyTorchJob pt is running.");
  EXPECT_EQ(c.Get(Kind::kPyTorchJob, "pt")["status"]["replicaStatuses"]["Worker"]["active"], 2);
  c.Advance(10);
  c.Round();
  const Json& done = c.Get(Kind::kPyTorchJob, "pt");
  EXPECT_TRUE(ConditionIsTrue(done, "Succeeded"));
  EXPECT_EQ(StringAt(*Cond(c, "Succeeded"), {"reason"}), "PyTorchJobSucceeded");
  EXPECT_EQ(StringAt(*Cond(c, "Succeeded"), {"message"}),
            "PyTorchJob pt is successfully completed.");
  EXPECT_EQ(StringAt(*Cond(c, "Running"), {"status"}), "False");
  EXPECT_EQ(StringAt(done, {"status", "completionTime"}), TimeText(kT0 + 10));
  EXPECT_EQ(done["status"]["replicaStatuses"]["Master"]["succeeded"], 1);
  EXPECT_EQ(done["status"]["replicaStatuses"]["Worker"]["succeeded"], 2);
  EXPECT_EQ(c.PodsOf(done).size(), 3u);  // cleanPodPolicy None keeps them
  c.Advance(600);
  EXPECT_TRUE(c.Round().changes.empty());
}

TEST(PyTorchJobControllerTest, AFailedReplicaIsRestarted) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Pt(Replica(1, Json::object()), Replica(2, Json::object())));
  c.Run(2, 5, {"n1"});
  Json failed = c.Get(Kind::kPod, "pt-worker-1");
  failed["status"]["phase"] = "Failed";
  c.Replace(failed);
  c.Round();
  EXPECT_TRUE(IsBeingDeleted(c.Get(Kind::kPod, "pt-worker-1")));
  ASSERT_NE(Cond(c, "Restarting"), nullptr);
  EXPECT_EQ(StringAt(*Cond(c, "Restarting"), {"reason"}), "PyTorchJobRestarting");
  // ReconcilePods said "job pt is restarting ..."; UpdateJobStatus then set Running (the
  // master runs) and Restarting again with its own words, as upstream's sync does.
  EXPECT_EQ(StringAt(*Cond(c, "Restarting"), {"message"}),
            "PyTorchJob pt is restarting because 1 Worker replica(s) failed.");
  EXPECT_EQ(Cond(c, "Running"), nullptr);  // Restarting replaces Running
  c.Advance(30);
  c.Run(3, 5, {"n1"});
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "pt-worker-1"), {"status", "phase"}), "Running");
  EXPECT_EQ(StringAt(*Cond(c, "Running"), {"status"}), "True");
  EXPECT_EQ(Cond(c, "Restarting"), nullptr);
}

TEST(PyTorchJobControllerTest, ANonRetryableExitCodeFailsTheJob) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Pt(
      Replica(1, Json::object()),
      Replica(1, {{"berth.dev/simulated-duration", "5s"}, {"berth.dev/simulated-exit-code", "1"}},
              "ExitCode")));
  c.Round();
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "pt-worker-0"), {"spec", "restartPolicy"}), "Never");
  c.Run(3, 5, {"n1"});
  const Json& job = c.Get(Kind::kPyTorchJob, "pt");
  ASSERT_TRUE(ConditionIsTrue(job, "Failed"));
  EXPECT_EQ(StringAt(*Cond(c, "Failed"), {"reason"}), "PyTorchJobFailed");
  EXPECT_EQ(StringAt(*Cond(c, "Failed"), {"message"}),
            "job \"pt\" is failing because \"Worker\" replica(s) failed.");
}

TEST(PyTorchJobControllerTest, SuspendAndResume) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Pt(Replica(1, Json::object()), Json(), {{"suspend", true}}));
  c.Round();
  EXPECT_TRUE(c.List(Kind::kPod).empty());
  EXPECT_TRUE(ConditionIsTrue(c.Get(Kind::kPyTorchJob, "pt"), "Suspended"));
  EXPECT_EQ(StringAt(*Cond(c, "Suspended"), {"message"}), "PyTorchJob pt is suspended.");
  c.Advance(60);
  Json resumed = c.Get(Kind::kPyTorchJob, "pt");
  resumed["spec"]["runPolicy"]["suspend"] = false;
  c.Replace(resumed);
  c.Round();
  EXPECT_EQ(c.List(Kind::kPod).size(), 1u);
  EXPECT_EQ(StringAt(*Cond(c, "Suspended"), {"status"}), "False");
  EXPECT_EQ(StringAt(*Cond(c, "Suspended"), {"reason"}), "PyTorchJobResumed");
  EXPECT_EQ(StringAt(c.Get(Kind::kPyTorchJob, "pt"), {"status", "startTime"}), TimeText(kT0 + 60));
}

TEST(PyTorchJobControllerTest, RestartsPastTheBackoffLimitFailTheJob) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Pt(Replica(1, {{"berth.dev/simulated-failure", "crashloop"}}), Json(),
           {{"backoffLimit", 2}}));
  c.Run(8, 10, {"n1"});
  const Json& job = c.Get(Kind::kPyTorchJob, "pt");
  ASSERT_TRUE(ConditionIsTrue(job, "Failed"));
  EXPECT_EQ(StringAt(*Cond(c, "Failed"), {"message"}),
            "Job pt has failed because it has reached the specified backoff limit");
  for (const Json* pod : c.List(Kind::kPod)) EXPECT_TRUE(IsBeingDeleted(*pod));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::member
