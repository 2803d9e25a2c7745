// The JobSet controller with the Job controller and kubelet under it: child Jobs and their
// labels, replicatedJobsStatus, completion, suspend and resume, failure with and without a
// failure policy (restarts, maxRestarts, FailJobSet), dependsOn (after kubernetes-sigs/jobset
// pkg/controllers/jobset_controller_test.go and failure_policy_test.go scenarios).
#include "server/member/jobset_controller.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "member/member_test_util.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/naming.h"
#include "server/member/pod_util.h"

namespace berth::server::member {
namespace BERTH_UNITY_ID {

using testing::kT0;
using testing::MakeNode;
using testing::MakeObject;
using testing::PodTemplate;
using testing::SimCluster;

Json Rjob(const std::string& name, int64_t replicas, int64_t pods, Json annotations,
          const std::string& restart_policy = "") {
  return Json{{"name", name},
              {"replicas", replicas},
              {"template",
               {{"spec",
                 {{"parallelism", pods},
                  {"completions", pods},
                  {"backoffLimit", 0},
                  {"template", PodTemplate(name, std::move(annotations), restart_policy)}}}}}};
}

Json Js(Json rjobs, Json extra = Json::object()) {
  Json spec = {{"replicatedJobs", std::move(rjobs)}};
  for (auto it = extra.begin(); it != extra.end(); ++it) spec[it.key()] = it.value();
  return MakeObject("jobset.x-k8s.io/v1alpha2", "JobSet", "js", std::move(spec));
}

Json Ten() { return Json{{"berth.dev/simulated-duration", "10s"}}; }
Json Fails() {
  return Json{{"berth.dev/simulated-duration", "5s"}, {"berth.dev/simulated-exit-code", "1"}};
}

const Json* RjobStatus(const SimCluster& c, const std::string& name) {
  const Json* list = MemberAt(c.Get(Kind::kJobSet, "js"), {"status", "replicatedJobsStatus"});
  if (list == nullptr) return nullptr;
  for (const Json& s : *list) {
    if (StringAt(s, {"name"}) == name) return &s;
  }
  return nullptr;
}

std::vector<std::string> JobNames(const SimCluster& c) {
  std::vector<std::string> out;
  for (const Json* j : c.List(Kind::kJob)) out.push_back(NameOf(*j));
  return out;
}

TEST(JobSetControllerTest, RunsReplicatedJobsToCompletion) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Js(Json::array({Rjob("leader", 1, 1, Ten()), Rjob("workers", 2, 2, Ten())})));
  c.Round();
  EXPECT_EQ(JobNames(c), (std::vector<std::string>{"js-leader-0", "js-workers-0", "js-workers-1"}));
  const Json& job = c.Get(Kind::kJob, "js-workers-1");
  const struct {
    const char* key;
    std::string value;
  } labels[] = {{"jobset.sigs.k8s.io/jobset-name", "js"},
                {"jobset.sigs.k8s.io/jobset-uid", "uid-js"},
                {"jobset.sigs.k8s.io/replicatedjob-name", "workers"},
                {"jobset.sigs.k8s.io/restart-attempt", "0"},
                {"jobset.sigs.k8s.io/replicatedjob-replicas", "2"},
                {"jobset.sigs.k8s.io/global-replicas", "3"},
                {"jobset.sigs.k8s.io/job-index", "1"},
                {"jobset.sigs.k8s.io/job-global-index", "2"},
                {"jobset.sigs.k8s.io/job-key", Sha1Hex("default/js-workers-1")}};
  for (const auto& l : labels) {
    EXPECT_EQ(LabelOf(job, l.key), l.value) << l.key;
    EXPECT_EQ(AnnotationOf(job, l.key), l.value) << l.key;
    EXPECT_EQ(StringAt(job, {"spec", "template", "metadata", "labels", l.key}), l.value) << l.key;
  }
  EXPECT_EQ(StringAt(job, {"spec", "completionMode"}), "Indexed");
  EXPECT_EQ(StringAt(job, {"spec", "template", "spec", "restartPolicy"}), "OnFailure");
  EXPECT_EQ(StringAt(job, {"spec", "template", "spec", "subdomain"}), "js");
  EXPECT_EQ(job["spec"]["suspend"], false);
  EXPECT_EQ(job["metadata"]["ownerReferences"][0]["kind"], "JobSet");
  // The Job controller ran the Jobs in the same round.
  const std::vector<const Json*> pods = c.PodsOf(job);
  ASSERT_EQ(pods.size(), 2u);
  EXPECT_EQ(LabelOf(*pods[0], "jobset.sigs.k8s.io/replicatedjob-name"), "workers");
  EXPECT_EQ(NameOf(*pods[0]).substr(0, 15), "js-workers-1-0-");
  EXPECT_EQ(StringAt(*pods[0], {"spec", "subdomain"}), "js");
  EXPECT_EQ(*RjobStatus(c, "workers"),
            Json::parse(R"({"name":"workers","ready":0,"succeeded":0,"failed":0,"active":2,
                            "suspended":0})"));

  c.Bind({"n1"});
  c.Round();
  EXPECT_EQ((*RjobStatus(c, "leader"))["ready"], 1);
  EXPECT_EQ((*RjobStatus(c, "workers"))["ready"], 2);
  c.Advance(10);
  c.Round();
  const Json& js = c.Get(Kind::kJobSet, "js");
  EXPECT_EQ((*RjobStatus(c, "workers"))["succeeded"], 2);
  ASSERT_NE(FindCondition(js, "Completed"), nullptr);
  EXPECT_TRUE(ConditionIsTrue(js, "Completed"));
  EXPECT_EQ(StringAt(*FindCondition(js, "Completed"), {"reason"}), "AllJobsCompleted");
  EXPECT_EQ(StringAt(*FindCondition(js, "Completed"), {"message"}),
            "jobset completed successfully");
  EXPECT_EQ(StringAt(js, {"status", "terminalState"}), "Completed");
  c.Advance(600);
  EXPECT_TRUE(c.Round().changes.empty());
}

TEST(JobSetControllerTest, SuspendIsPropagatedToTheJobs) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Js(Json::array({Rjob("w", 2, 1, Ten())}), {{"suspend", true}}));
  c.Round();
  for (const Json* job : c.List(Kind::kJob)) {
    EXPECT_EQ((*job)["spec"]["suspend"], true);
    EXPECT_TRUE(c.PodsOf(*job).empty());
  }
  const Json& js = c.Get(Kind::kJobSet, "js");
  EXPECT_TRUE(ConditionIsTrue(js, "Suspended"));
  EXPECT_EQ(StringAt(*FindCondition(js, "Suspended"), {"reason"}), "SuspendedJobs");
  EXPECT_EQ((*RjobStatus(c, "w"))["suspended"], 2);

  Json resumed = c.Get(Kind::kJobSet, "js");
  resumed["spec"]["suspend"] = false;
  c.Replace(resumed);
  c.Round();
  for (const Json* job : c.List(Kind::kJob)) {
    EXPECT_EQ((*job)["spec"]["suspend"], false);
    EXPECT_EQ(c.PodsOf(*job).size(), 1u);
  }
  const Json* suspended = FindCondition(c.Get(Kind::kJobSet, "js"), "Suspended");
  EXPECT_EQ(StringAt(*suspended, {"status"}), "False");
  EXPECT_EQ(StringAt(*suspended, {"reason"}), "ResumeJobs");
  EXPECT_EQ(StringAt(*suspended, {"message"}), "jobset is resumed");
}

TEST(JobSetControllerTest, AFailedJobFailsTheJobSetWithoutAPolicy) {
  SimCluster c;
  c.options.job_pod_failure_backoff_s = 0;
  c.Add(MakeNode("n1"));
  c.Add(Js(Json::array({Rjob("ok", 1, 1, Json::object()), Rjob("bad", 1, 1, Fails(), "Never")})));
  c.Run(3, 5, {"n1"});
  const Json& js = c.Get(Kind::kJobSet, "js");
  ASSERT_TRUE(ConditionIsTrue(js, "Failed"));
  EXPECT_EQ(StringAt(*FindCondition(js, "Failed"), {"reason"}), "FailedJobs");
  EXPECT_EQ(StringAt(*FindCondition(js, "Failed"), {"message"}),
            "jobset failed due to one or more job failures (first failed job: js-bad-0)");
  EXPECT_EQ(StringAt(js, {"status", "terminalState"}), "Failed");
  // The job still running is deleted with the JobSet's failure, its pods with it.
  EXPECT_EQ(c.Find(Kind::kJob, "default", "js-ok-0"), nullptr);
  c.Advance(60);
  c.Round();
  for (const Json* pod : c.List(Kind::kPod)) {
    EXPECT_NE(LabelOf(*pod, "jobset.sigs.k8s.io/replicatedjob-name"), "ok");
  }
}

TEST(JobSetControllerTest, RestartsUpToMaxRestartsThenFails) {
  SimCluster c;
  c.options.job_pod_failure_backoff_s = 0;
  c.Add(MakeNode("n1"));
  c.Add(Js(Json::array({Rjob("bad", 1, 1, Fails(), "Never")}),
           {{"failurePolicy", {{"maxRestarts", 1}}}}));
  c.Run(3, 5, {"n1"});  // created, running, failed: restart 1
  const Json& js = c.Get(Kind::kJobSet, "js");
  EXPECT_EQ(IntAt(js, {"status", "restarts"}, 0), 1);
  EXPECT_EQ(IntAt(js, {"status", "restartsCountTowardsMax"}, 0), 1);
  ASSERT_TRUE(ConditionIsTrue(js, "RestartingJobSet"));
  EXPECT_EQ(StringAt(*FindCondition(js, "RestartingJobSet"), {"reason"}), "DefaultFailurePolicy");
  EXPECT_EQ(StringAt(*FindCondition(js, "RestartingJobSet"), {"message"}),
            "applying RestartJobSet failure policy action (first failed job: js-bad-0)");
  c.Run(2, 5, {"n1"});  // the old attempt's Job goes; the new one is made
  const Json& job = c.Get(Kind::kJob, "js-bad-0");
  EXPECT_EQ(LabelOf(job, "jobset.sigs.k8s.io/restart-attempt"), "1");
  c.Run(4, 5, {"n1"});
  const Json& failed = c.Get(Kind::kJobSet, "js");
  ASSERT_TRUE(ConditionIsTrue(failed, "Failed"));
  EXPECT_EQ(StringAt(*FindCondition(failed, "Failed"), {"reason"}), "ReachedMaxRestarts");
  const Json* restarting = FindCondition(failed, "RestartingJobSet");
  EXPECT_EQ(StringAt(*restarting, {"status"}), "False");
  EXPECT_EQ(StringAt(*restarting, {"reason"}), "JobSetFailed");
}

TEST(JobSetControllerTest, AFailJobSetRuleFailsAtOnce) {
  SimCluster c;
  c.options.job_pod_failure_backoff_s = 0;
  c.Add(MakeNode("n1"));
  c.Add(
      Js(Json::array({Rjob("bad", 1, 1, Fails(), "Never")}),
         {{"failurePolicy",
           {{"maxRestarts", 5},
            {"rules", Json::array({Json{{"action", "FailJobSet"},
                                        {"onJobFailureReasons", {"BackoffLimitExceeded"}}}})}}}}));
  c.Run(3, 5, {"n1"});
  const Json& js = c.Get(Kind::kJobSet, "js");
  ASSERT_TRUE(ConditionIsTrue(js, "Failed"));
  EXPECT_EQ(StringAt(*FindCondition(js, "Failed"), {"reason"}), "FailJobSetFailurePolicyAction");
  EXPECT_EQ(IntAt(js, {"status", "restarts"}, 0), 0);
}

TEST(JobSetControllerTest, DependsOnHoldsAReplicatedJobBack) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  Json second = Rjob("b", 1, 1, Ten());
  second["dependsOn"] = Json::array({Json{{"name", "a"}, {"status", "Complete"}}});
  c.Add(Js(Json::array({Rjob("a", 1, 1, Ten()), second})));
  c.Round();
  EXPECT_EQ(JobNames(c), (std::vector<std::string>{"js-a-0"}));
  c.Run(3, 10, {"n1"});
  EXPECT_EQ(JobNames(c), (std::vector<std::string>{"js-a-0", "js-b-0"}));
}

TEST(JobSetControllerTest, JobSetsManagedElsewhereAreLeftAlone) {
  SimCluster c;
  c.Add(Js(Json::array({Rjob("a", 1, 1, Ten())}), {{"managedBy", "kueue.x-k8s.io/multikueue"}}));
  EXPECT_TRUE(c.Round().changes.empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::member
