// The Job controller. JobControllerTest.SyncTable is ported from kubernetes
// pkg/controller/job/job_controller_test.go (TestControllerSyncJob), with the expectations of
// k8s 1.31+ (JobPodReplacementPolicy and JobManagedBy on: terminating counted, the terminal
// condition after FailureTarget/SuccessCriteriaMet once no pod terminates). Upstream checks
// one syncJob call; a round runs the controllers to their fixed point, so rows where upstream
// would create pods in the next sync (after deleting in this one) expect those creations too
// (marked "next sync"). The other tests drive whole lifecycles.
#include "server/member/job_controller.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "member/member_test_util.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/pod_util.h"

namespace berth::server::member {
namespace BERTH_UNITY_ID {

using testing::ChangesOf;
using testing::kT0;
using testing::MakeNode;
using testing::MakeObject;
using testing::PodTemplate;
using testing::SimCluster;

struct IndexPhase {
  const char* index;
  const char* phase;
};

struct SyncCase {
  const char* name;
  int64_t parallelism = 1;
  int64_t completions = 1;  // -1: unset (a work queue)
  int64_t backoff_limit = 6;
  bool indexed = false;
  bool suspend = false;
  bool was_suspended = false;
  const char* replacement_policy = nullptr;
  const char* initial_condition = nullptr;  // a condition the job already has: "Type/Status/Reason"
  int pending = 0, active = 0, ready = 0, succeeded = 0, failed = 0, terminating = 0;
  std::vector<IndexPhase> indexed_pods = {};
  // expectations
  int creations = 0;
  int deletions = 0;
  int64_t want_active = 0;
  int64_t want_ready = 0;
  int64_t want_succeeded = 0;
  int64_t want_failed = 0;
  int64_t want_terminating = 0;
  const char* completed_indexes = "";
  std::vector<std::string> conditions = {};  // "Type/Status/Reason"
  std::set<int64_t> created_indexes = {};
};

Json SyncPod(const Json& job, const std::string& name, const std::string& phase, bool ready,
             bool terminating, const char* index) {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata",
               {{"name", name},
                {"namespace", "default"},
                {"uid", "uid-" + name},
                {"creationTimestamp", TimeText(kT0 - 100)},
                {"finalizers", Json::array({kJobTrackingFinalizer})},
                {"ownerReferences", Json::array({ControllerRefTo(job, Kind::kJob)})}}},
              {"spec", {{"containers", Json::array({Json{{"name", "main"}}})}}},
              {"status", {{"phase", phase}}}};
  if (ready) {
    pod["status"]["conditions"] = Json::array(
        {Json{{"type", "Ready"}, {"status", "True"}, {"lastTransitionTime", TimeText(kT0 - 50)}}});
  }
  if (terminating) pod["metadata"]["deletionTimestamp"] = TimeText(kT0 + 30);
  if (index != nullptr && std::string(index) != "invalid") {
    pod["metadata"]["annotations"] = {{kJobCompletionIndexKey, index}};
  }
  return pod;
}

std::vector<std::string> ConditionSummary(const Json& job) {
  std::vector<std::string> out;
  const Json* list = MemberAt(job, {"status", "conditions"});
  if (list == nullptr) return out;
  for (const Json& c : *list) {
    out.push_back(StringAt(c, {"type"}) + "/" + StringAt(c, {"status"}) + "/" +
                  StringAt(c, {"reason"}));
  }
  return out;
}

TEST(JobControllerTest, SyncTable) {
  const std::vector<SyncCase> cases = {
      {.name = "job start", .parallelism = 2, .completions = 5, .creations = 2, .want_active = 2},
      {.name = "WQ job start",
       .parallelism = 2,
       .completions = -1,
       .creations = 2,
       .want_active = 2},
      {.name = "pending pods", .parallelism = 2, .completions = 5, .pending = 2, .want_active = 2},
      {.name = "correct # of pods",
       .parallelism = 3,
       .completions = 5,
       .active = 3,
       .ready = 2,
       .want_active = 3,
       .want_ready = 2},
      {.name = "WQ job: correct # of pods",
       .parallelism = 2,
       .completions = -1,
       .active = 2,
       .want_active = 2},
      {.name = "too few active pods",
       .parallelism = 2,
       .completions = 5,
       .active = 1,
       .succeeded = 1,
       .creations = 1,
       .want_active = 2,
       .want_succeeded = 1},
      {.name = "WQ job: recreate pods when failed",
       .parallelism = 1,
       .completions = -1,
       .replacement_policy = "Failed",
       .active = 1,
       .failed = 1,
       .terminating = 1,
       .want_active = 1,
       .want_failed = 1,
       .want_terminating = 1},
      {.name = "WQ job: turn on PodReplacementPolicy but not set PodReplacementPolicy",
       .parallelism = 1,
       .completions = 1,
       .active = 1,
       .failed = 1,
       .terminating = 1,
       .want_active = 1,
       .want_failed = 2,
       .want_terminating = 1},
      {.name = "WQ job: recreate pods when terminating or failed",
       .parallelism = 1,
       .completions = -1,
       .replacement_policy = "TerminatingOrFailed",
       .active = 1,
       .failed = 1,
       .terminating = 1,
       .want_active = 1,
       .want_failed = 2,
       .want_terminating = 1},
      {.name = "more terminating pods than parallelism",
       .parallelism = 1,
       .completions = 1,
       .replacement_policy = "Failed",
       .active = 2,
       .terminating = 4,
       .deletions = 1,
       .want_active = 1,
       .want_terminating = 5},
      {.name = "too few active pods with a dynamic job",
       .parallelism = 2,
       .completions = -1,
       .active = 1,
       .creations = 1,
       .want_active = 2},
      {.name = "too many active pods",
       .parallelism = 2,
       .completions = 5,
       .active = 3,
       .deletions = 1,
       .want_active = 2,
       .want_terminating = 1},
      {.name = "count ready pods when too many active pods",
       .parallelism = 2,
       .completions = 5,
       .active = 3,
       .ready = 3,
       .deletions = 1,
       .want_active = 2,
       .want_ready = 2,
       .want_terminating = 1},
      {.name = "failed + succeed pods: reset backoff delay",
       .parallelism = 2,
       .completions = 5,
       .active = 1,
       .succeeded = 1,
       .failed = 1,
       .creations = 1,
       .want_active = 2,
       .want_succeeded = 1,
       .want_failed = 1},
      {.name = "new failed pod",
       .parallelism = 2,
       .completions = 5,
       .active = 1,
       .failed = 1,
       .creations = 1,
       .want_active = 2,
       .want_failed = 1},
      {.name = "job finish",
       .parallelism = 2,
       .completions = 5,
       .succeeded = 5,
       .want_succeeded = 5,
       .conditions = {"SuccessCriteriaMet/True/CompletionsReached",
                      "Complete/True/CompletionsReached"}},
      {.name = "WQ job finishing",
       .parallelism = 2,
       .completions = -1,
       .active = 1,
       .succeeded = 1,
       .want_active = 1,
       .want_succeeded = 1},
      {.name = "WQ job all finished",
       .parallelism = 2,
       .completions = -1,
       .succeeded = 2,
       .want_succeeded = 2,
       .conditions = {"SuccessCriteriaMet/True/CompletionsReached",
                      "Complete/True/CompletionsReached"}},
      {.name = "WQ job all finished despite one failure",
       .parallelism = 2,
       .completions = -1,
       .succeeded = 1,
       .failed = 1,
       .want_succeeded = 1,
       .want_failed = 1,
       .conditions = {"SuccessCriteriaMet/True/CompletionsReached",
                      "Complete/True/CompletionsReached"}},
      {.name = "more active pods than parallelism",
       .parallelism = 2,
       .completions = 5,
       .active = 10,
       .deletions = 8,
       .want_active = 2,
       .want_terminating = 8},
      {.name = "more active pods than remaining completions",
       .parallelism = 3,
       .completions = 4,
       .active = 3,
       .succeeded = 2,
       .deletions = 1,
       .want_active = 2,
       .want_succeeded = 2,
       .want_terminating = 1},
      {.name = "status change",
       .parallelism = 2,
       .completions = 5,
       .active = 2,
       .succeeded = 2,
       .want_active = 2,
       .want_succeeded = 2},
      {.name = "too many job failures",
       .parallelism = 2,
       .completions = 5,
       .backoff_limit = 0,
       .failed = 1,
       .want_failed = 1,
       .conditions = {"FailureTarget/True/BackoffLimitExceeded",
                      "Failed/True/BackoffLimitExceeded"}},
      {.name = "indexed job start",
       .parallelism = 2,
       .completions = 5,
       .indexed = true,
       .creations = 2,
       .want_active = 2,
       .created_indexes = {0, 1}},
      {.name = "indexed job with some pods deleted, podReplacementPolicy Failed",
       .parallelism = 2,
       .completions = 5,
       .indexed = true,
       .replacement_policy = "Failed",
       .terminating = 1,
       .creations = 1,
       .want_active = 1,
       .want_terminating = 1,
       .created_indexes = {0}},
      {.name = "indexed job with some pods deleted, podReplacementPolicy TerminatingOrFailed",
       .parallelism = 2,
       .completions = 5,
       .indexed = true,
       .replacement_policy = "TerminatingOrFailed",
       .terminating = 1,
       .creations = 2,
       .want_active = 2,
       .want_terminating = 1,
       .created_indexes = {0, 1}},
      {.name = "indexed job completed",
       .parallelism = 2,
       .completions = 3,
       .indexed = true,
       .indexed_pods =
           {{"0", "Succeeded"}, {"1", "Failed"}, {"1", "Succeeded"}, {"2", "Succeeded"}},
       .want_succeeded = 3,
       .want_failed = 1,
       .completed_indexes = "0-2",
       .conditions = {"SuccessCriteriaMet/True/CompletionsReached",
                      "Complete/True/CompletionsReached"}},
      {.name = "count terminating pods when indexed job fails",
       .parallelism = 2,
       .completions = 3,
       .backoff_limit = 0,
       .indexed = true,
       .indexed_pods = {{"0", "Succeeded"}, {"1", "Failed"}, {"2", "Running"}},
       .deletions = 1,
       .want_succeeded = 1,
       .want_failed = 2,
       .want_terminating = 1,
       .completed_indexes = "0",
       .conditions = {"FailureTarget/True/BackoffLimitExceeded"}},
      {.name = "count ready pods when job fails",
       .parallelism = 2,
       .completions = 3,
       .backoff_limit = 0,
       .active = 2,
       .ready = 2,
       .failed = 1,
       .deletions = 2,
       .want_failed = 3,
       .want_terminating = 2,
       .conditions = {"FailureTarget/True/BackoffLimitExceeded"}},
      {.name = "indexed job repeated completed index",
       .parallelism = 2,
       .completions = 3,
       .indexed = true,
       .indexed_pods = {{"0", "Succeeded"}, {"1", "Succeeded"}, {"1", "Succeeded"}},
       .creations = 1,
       .want_active = 1,
       .want_succeeded = 2,
       .completed_indexes = "0,1",
       .created_indexes = {2}},
      {.name = "indexed job some running and completed pods",
       .parallelism = 8,
       .completions = 20,
       .indexed = true,
       .indexed_pods = {{"0", "Running"},
                        {"2", "Succeeded"},
                        {"3", "Pending"},
                        {"4", "Succeeded"},
                        {"5", "Succeeded"},
                        {"7", "Succeeded"},
                        {"8", "Succeeded"},
                        {"9", "Succeeded"}},
       .creations = 6,
       .want_active = 8,
       .want_succeeded = 6,
       .completed_indexes = "2,4,5,7-9",
       .created_indexes = {1, 6, 10, 11, 12, 13}},
      {.name = "indexed job some failed pods",
       .parallelism = 3,
       .completions = 4,
       .indexed = true,
       .indexed_pods = {{"0", "Failed"}, {"1", "Pending"}, {"2", "Failed"}},
       .creations = 2,
       .want_active = 3,
       .want_failed = 2,
       .created_indexes = {0, 2}},
      {.name = "indexed job some pods without index",
       .parallelism = 2,
       .completions = 5,
       .indexed = true,
       .active = 1,
       .succeeded = 1,
       .failed = 1,
       .indexed_pods = {{"invalid", "Running"},
                        {"invalid", "Succeeded"},
                        {"invalid", "Failed"},
                        {"invalid", "Pending"},
                        {"0", "Succeeded"},
                        {"1", "Running"},
                        {"2", "Running"}},
       .deletions = 3,
       .want_active = 2,
       .want_succeeded = 1,
       .want_terminating = 3,
       .completed_indexes = "0"},
      // next sync: the two missing indexes.
      {.name = "indexed job repeated indexes",
       .parallelism = 5,
       .completions = 5,
       .indexed = true,
       .succeeded = 1,
       .failed = 1,
       .indexed_pods = {{"invalid", "Running"},
                        {"0", "Succeeded"},
                        {"1", "Running"},
                        {"2", "Running"},
                        {"2", "Pending"}},
       .creations = 2,
       .deletions = 2,
       .want_active = 4,
       .want_succeeded = 1,
       .want_terminating = 2,
       .completed_indexes = "0",
       .created_indexes = {3, 4}},
      // next sync: indexes 1 and 2.
      {.name = "indexed job with indexes outside of range",
       .parallelism = 2,
       .completions = 5,
       .indexed = true,
       .indexed_pods = {{"0", "Succeeded"},
                        {"5", "Running"},
                        {"6", "Succeeded"},
                        {"7", "Pending"},
                        {"8", "Failed"}},
       .creations = 2,
       .deletions = 2,
       .want_active = 2,
       .want_succeeded = 1,
       .want_terminating = 2,
       .completed_indexes = "0",
       .created_indexes = {1, 2}},
      {.name = "suspending a job with satisfied expectations",
       .parallelism = 2,
       .completions = 4,
       .suspend = true,
       .active = 2,
       .deletions = 2,
       .want_terminating = 2,
       .conditions = {"Suspended/True/JobSuspended"}},
      {.name = "count ready pods when suspending a job",
       .parallelism = 2,
       .completions = 4,
       .suspend = true,
       .active = 2,
       .ready = 2,
       .deletions = 2,
       .want_terminating = 2,
       .conditions = {"Suspended/True/JobSuspended"}},
      {.name = "resuming a suspended job",
       .parallelism = 2,
       .completions = 4,
       .was_suspended = true,
       .creations = 2,
       .want_active = 2,
       .conditions = {"Suspended/False/JobResumed"}},
      {.name = "FailureTarget=False condition added manually is ignored",
       .parallelism = 1,
       .completions = 1,
       .initial_condition = "FailureTarget/False/ConditionAddedManually",
       .active = 1,
       .ready = 1,
       .want_active = 1,
       .want_ready = 1,
       .conditions = {"FailureTarget/False/ConditionAddedManually"}},
      {.name = "SuccessCriteriaMet=False condition added manually is ignored",
       .parallelism = 1,
       .completions = 1,
       .initial_condition = "SuccessCriteriaMet/False/ConditionAddedManually",
       .active = 1,
       .ready = 1,
       .want_active = 1,
       .want_ready = 1,
       .conditions = {"SuccessCriteriaMet/False/ConditionAddedManually"}},
  };
  for (const SyncCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    Json spec = {{"parallelism", tc.parallelism},
                 {"backoffLimit", tc.backoff_limit},
                 {"suspend", tc.suspend},
                 {"template", PodTemplate("job", Json::object(), "Never")}};
    if (tc.completions >= 0) spec["completions"] = tc.completions;
    if (tc.indexed) spec["completionMode"] = "Indexed";
    if (tc.replacement_policy != nullptr) spec["podReplacementPolicy"] = tc.replacement_policy;
    Json job = MakeObject("batch/v1", "Job", "foobar", spec);
    job["status"] = {{"startTime", TimeText(kT0 - 100)}};
    auto add_condition = [&job](const std::string& type, const std::string& status,
                                const std::string& reason) {
      job["status"]["conditions"].push_back(Json{{"type", type},
                                                 {"status", status},
                                                 {"lastProbeTime", TimeText(kT0 - 100)},
                                                 {"lastTransitionTime", TimeText(kT0 - 100)},
                                                 {"reason", reason}});
    };
    if (tc.was_suspended) add_condition("Suspended", "True", "JobSuspended");
    if (tc.initial_condition != nullptr) {
      const std::string text = tc.initial_condition;
      const size_t a = text.find('/');
      const size_t b = text.find('/', a + 1);
      add_condition(text.substr(0, a), text.substr(a + 1, b - a - 1), text.substr(b + 1));
    }
    std::vector<Json> objects = {job};
    int n = 0;
    auto add = [&](const std::string& phase, bool ready, bool terminating, const char* index) {
      objects.push_back(
          SyncPod(job, "pod-" + std::to_string(n++), phase, ready, terminating, index));
    };
    for (int i = 0; i < tc.pending; ++i) add("Pending", false, false, nullptr);
    for (int i = 0; i < tc.active; ++i) add("Running", i < tc.ready, false, nullptr);
    for (int i = 0; i < tc.succeeded; ++i) add("Succeeded", false, false, nullptr);
    for (int i = 0; i < tc.failed; ++i) add("Failed", false, false, nullptr);
    for (int i = 0; i < tc.terminating; ++i) add("Running", false, true, nullptr);
    for (const IndexPhase& ip : tc.indexed_pods) add(ip.phase, false, false, ip.index);

    const MemberView view(objects);
    ControllerOptions options;
    options.now_unix_s = kT0;
    const ControllerRound round = RunControllers(view, options);
    EXPECT_TRUE(round.settled);
    const auto creates = ChangesOf(round, Change::Op::kCreate, Kind::kPod);
    const auto deletes = ChangesOf(round, Change::Op::kDelete, Kind::kPod);
    EXPECT_EQ(static_cast<int>(creates.size()), tc.creations);
    EXPECT_EQ(static_cast<int>(deletes.size()), tc.deletions);
    std::set<int64_t> indexes;
    for (const Change* c : creates) {
      const std::string ix = AnnotationOf(c->object, kJobCompletionIndexKey);
      if (!ix.empty()) indexes.insert(std::stoll(ix));
    }
    EXPECT_EQ(indexes, tc.created_indexes);
    const MemberView after = ApplyChanges(view, round.changes);
    const Json& got = *after.Find(ObjectKey{Kind::kJob, "default", "foobar"});
    EXPECT_EQ(IntAt(got, {"status", "active"}, 0), tc.want_active);
    EXPECT_EQ(IntAt(got, {"status", "ready"}, -1), tc.want_ready);
    EXPECT_EQ(IntAt(got, {"status", "succeeded"}, 0), tc.want_succeeded);
    EXPECT_EQ(IntAt(got, {"status", "failed"}, 0), tc.want_failed);
    EXPECT_EQ(IntAt(got, {"status", "terminating"}, -1), tc.want_terminating);
    EXPECT_EQ(StringAt(got, {"status", "completedIndexes"}), tc.completed_indexes);
    EXPECT_EQ(ConditionSummary(got), tc.conditions);
    EXPECT_EQ(MemberAt(got, {"status", "uncountedTerminatedPods"})->dump(), "{}");
    // Every finished pod was counted once and let go.
    for (const auto& [key, object] : after.objects()) {
      if (key.kind == Kind::kPod && PodIsTerminal(object)) {
        EXPECT_FALSE(HasFinalizer(object, kJobTrackingFinalizer)) << key.name;
      }
    }
    // A second round on the result changes nothing.
    options.now_unix_s = kT0;
    EXPECT_TRUE(RunControllers(after, options).changes.empty());
  }
}

Json BatchJob(const std::string& name, Json spec) {
  if (!spec.contains("template")) {
    spec["template"] = PodTemplate(name, {{"berth.dev/simulated-duration", "10s"}}, "Never");
  }
  return MakeObject("batch/v1", "Job", name, std::move(spec));
}

TEST(JobControllerTest, RunsAJobToCompletion) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(BatchJob("pi", {{"parallelism", 2}, {"completions", 3}}));
  c.Round();
  std::vector<const Json*> pods = c.PodsOf(c.Get(Kind::kJob, "pi"));
  ASSERT_EQ(pods.size(), 2u);
  const Json& pod = *pods[0];
  EXPECT_EQ(NameOf(pod).substr(0, 3), "pi-");
  EXPECT_EQ(NameOf(pod).size(), 8u);
  EXPECT_EQ(LabelOf(pod, "batch.kubernetes.io/job-name"), "pi");
  EXPECT_EQ(LabelOf(pod, "job-name"), "pi");
  EXPECT_EQ(LabelOf(pod, "batch.kubernetes.io/controller-uid"), "uid-pi");
  EXPECT_EQ(LabelOf(pod, "controller-uid"), "uid-pi");
  EXPECT_EQ(LabelOf(pod, "app"), "pi");
  EXPECT_TRUE(HasFinalizer(pod, kJobTrackingFinalizer));
  EXPECT_EQ(pod["metadata"]["ownerReferences"],
            Json::parse(R"([{"apiVersion":"batch/v1","kind":"Job","name":"pi","uid":"uid-pi",
                            "controller":true,"blockOwnerDeletion":true}])"));
  EXPECT_EQ(StringAt(pod, {"status", "phase"}), "Pending");
  const Json& job = c.Get(Kind::kJob, "pi");
  EXPECT_EQ(job["status"],
            Json::parse(R"({"startTime":"2026-01-01T00:00:00Z","active":2,"terminating":0,
                            "uncountedTerminatedPods":{},"ready":0})"));

  c.Bind({"n1"});
  c.Round();
  EXPECT_EQ(IntAt(c.Get(Kind::kJob, "pi"), {"status", "ready"}, 0), 2);
  c.Advance(10);
  c.Round();  // two done, the third starts
  EXPECT_EQ(IntAt(c.Get(Kind::kJob, "pi"), {"status", "succeeded"}, 0), 2);
  EXPECT_EQ(IntAt(c.Get(Kind::kJob, "pi"), {"status", "active"}, 0), 1);
  c.Bind({"n1"});
  c.Round();
  c.Advance(10);
  c.Round();
  const Json& done = c.Get(Kind::kJob, "pi");
  EXPECT_EQ(IntAt(done, {"status", "succeeded"}, 0), 3);
  EXPECT_EQ(StringAt(done, {"status", "completionTime"}), TimeText(kT0 + 20));
  EXPECT_EQ(ConditionSummary(done),
            (std::vector<std::string>{"SuccessCriteriaMet/True/CompletionsReached",
                                      "Complete/True/CompletionsReached"}));
  EXPECT_EQ(StringAt(*FindCondition(done, "Complete"), {"message"}),
            "Reached expected number of succeeded pods");
  EXPECT_EQ(c.PodsOf(done).size(), 3u);
  for (const Json* p : c.PodsOf(done)) {
    EXPECT_EQ(StringAt(*p, {"status", "phase"}), "Succeeded");
    EXPECT_FALSE(HasFinalizer(*p, kJobTrackingFinalizer));
  }
  // Complete: nothing more, whatever happens to its pods.
  c.Advance(3600);
  EXPECT_TRUE(c.Round().changes.empty());
}

TEST(JobControllerTest, ACountIsWrittenWithThePodItReleases) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(BatchJob("pi", {{"parallelism", 1}, {"completions", 2}}));
  c.Run(2, 10, {"n1"});  // the first pod runs from 10 s
  c.Round();             // at 20 s it is done and the second is made
  c.Bind({"n1"});
  c.Round();  // the second runs from 20 s
  c.Advance(10);
  const ControllerRound round = c.Round();
  const Change* job = nullptr;
  const Change* pod = nullptr;
  for (const Change& change : round.changes) {
    if (KindOf(change.object) == Kind::kJob) job = &change;
    if (KindOf(change.object) == Kind::kPod && PodPhase(change.object) == "Succeeded")
      pod = &change;
  }
  ASSERT_NE(job, nullptr);
  ASSERT_NE(pod, nullptr);
  EXPECT_FALSE(HasFinalizer(pod->object, kJobTrackingFinalizer));
  EXPECT_EQ(IntAt(job->object, {"status", "succeeded"}, 0), 2);
  EXPECT_EQ(job->batch, pod->batch);
}

TEST(JobControllerTest, IndexedPodsCarryTheirIndex) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  Json tmpl = PodTemplate("idx", {{"berth.dev/simulated-duration", "5s"}}, "Never");
  c.Add(BatchJob(
      "idx",
      {{"parallelism", 3}, {"completions", 3}, {"completionMode", "Indexed"}, {"template", tmpl}}));
  c.Round();
  const std::vector<const Json*> pods = c.PodsOf(c.Get(Kind::kJob, "idx"));
  ASSERT_EQ(pods.size(), 3u);
  std::set<std::string> hostnames;
  for (const Json* p : pods) {
    const std::string ix = AnnotationOf(*p, kJobCompletionIndexKey);
    EXPECT_EQ(LabelOf(*p, kJobCompletionIndexKey), ix);
    EXPECT_EQ(NameOf(*p).substr(0, 5 + ix.size()), "idx-" + ix + "-");
    EXPECT_EQ(NameOf(*p).size(), 4 + ix.size() + 1 + 5);
    EXPECT_EQ(StringAt(*p, {"spec", "hostname"}), "idx-" + ix);
    hostnames.insert(StringAt(*p, {"spec", "hostname"}));
    const Json& env = (*p)["spec"]["containers"][0]["env"];
    EXPECT_EQ(env[0]["name"], "JOB_COMPLETION_INDEX");
    EXPECT_EQ(env[0]["valueFrom"]["fieldRef"]["fieldPath"],
              "metadata.labels['batch.kubernetes.io/job-completion-index']");
  }
  EXPECT_EQ(hostnames, (std::set<std::string>{"idx-0", "idx-1", "idx-2"}));
  c.Run(3, 5, {"n1"});
  const Json& job = c.Get(Kind::kJob, "idx");
  EXPECT_EQ(StringAt(job, {"status", "completedIndexes"}), "0-2");
  EXPECT_TRUE(ConditionIsTrue(job, "Complete"));
}

TEST(JobControllerTest, PodNamesAreDeterministicAndDistinct) {
  auto names = [](uint64_t seed) {
    SimCluster c;
    c.options.seed = seed;
    c.Add(BatchJob("a", {{"parallelism", 20}, {"completions", 20}}));
    c.Add(BatchJob("b", {{"parallelism", 20}, {"completions", 20}}));
    c.Round();
    std::set<std::string> out;
    for (const Json* p : c.List(Kind::kPod)) out.insert(NameOf(*p));
    return out;
  };
  const std::set<std::string> first = names(1);
  EXPECT_EQ(first.size(), 40u);
  EXPECT_EQ(first, names(1));
  EXPECT_EQ(first, names(2));  // names come from uids and time, not from the duration seed
}

TEST(JobControllerTest, FailuresBackOffThenExceedTheLimit) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  Json tmpl = PodTemplate(
      "bad", {{"berth.dev/simulated-duration", "1s"}, {"berth.dev/simulated-exit-code", "1"}},
      "Never");
  c.Add(BatchJob("bad", {{"backoffLimit", 2}, {"template", tmpl}}));
  c.Round();
  c.Bind({"n1"});
  c.Round();  // running
  c.Advance(1);
  c.Round();  // failed at kT0+1; the replacement waits 10 s
  const Json& job = c.Get(Kind::kJob, "bad");
  EXPECT_EQ(IntAt(job, {"status", "failed"}, 0), 1);
  EXPECT_EQ(IntAt(job, {"status", "active"}, 0), 0);
  c.Advance(9);
  c.Round();
  EXPECT_EQ(IntAt(c.Get(Kind::kJob, "bad"), {"status", "active"}, 0), 0);
  c.Advance(1);
  c.Round();
  EXPECT_EQ(IntAt(c.Get(Kind::kJob, "bad"), {"status", "active"}, 0), 1);
  c.Bind({"n1"});
  c.Round();  // the second pod runs from kT0+11
  c.Advance(1);
  c.Round();  // fails at kT0+12: two failures, 20 s back-off
  c.Advance(19);
  c.Round();
  EXPECT_EQ(IntAt(c.Get(Kind::kJob, "bad"), {"status", "active"}, 0), 0);
  c.Advance(1);
  c.Round();
  c.Bind({"n1"});
  c.Round();
  c.Advance(1);
  c.Round();  // the third failure passes backoffLimit 2
  const Json& failed = c.Get(Kind::kJob, "bad");
  EXPECT_EQ(IntAt(failed, {"status", "failed"}, 0), 3);
  EXPECT_EQ(ConditionSummary(failed),
            (std::vector<std::string>{"FailureTarget/True/BackoffLimitExceeded",
                                      "Failed/True/BackoffLimitExceeded"}));
  EXPECT_EQ(StringAt(*FindCondition(failed, "Failed"), {"message"}),
            "Job has reached the specified backoff limit");
  EXPECT_EQ(MemberAt(failed, {"status", "completionTime"}), nullptr);
  c.Advance(600);
  EXPECT_TRUE(c.Round().changes.empty());
}

TEST(JobControllerTest, ActiveDeadlineFailsTheJobOnceItsPodsAreGone) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  Json tmpl = PodTemplate("slow", {{"berth.dev/simulated-duration", "1h"}}, "Never");
  c.Add(BatchJob(
      "slow",
      {{"parallelism", 2}, {"completions", 2}, {"activeDeadlineSeconds", 30}, {"template", tmpl}}));
  c.Run(2, 15, {"n1"});
  c.Round();  // 30 s after the start
  const Json& job = c.Get(Kind::kJob, "slow");
  EXPECT_EQ(ConditionSummary(job),
            (std::vector<std::string>{"FailureTarget/True/DeadlineExceeded"}));
  EXPECT_EQ(IntAt(job, {"status", "terminating"}, 0), 2);
  EXPECT_EQ(IntAt(job, {"status", "active"}, 0), 0);
  EXPECT_EQ(IntAt(job, {"status", "failed"}, 0), 2);
  c.Advance(30);  // the pods' grace period
  c.Round();
  const Json& failed = c.Get(Kind::kJob, "slow");
  EXPECT_EQ(ConditionSummary(failed),
            (std::vector<std::string>{"FailureTarget/True/DeadlineExceeded",
                                      "Failed/True/DeadlineExceeded"}));
  EXPECT_EQ(StringAt(*FindCondition(failed, "Failed"), {"message"}),
            "Job was active longer than specified deadline");
  EXPECT_TRUE(c.PodsOf(failed).empty());
}

TEST(JobControllerTest, SuspendedJobsRunNothingUntilResumed) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(BatchJob("queued", {{"parallelism", 2}, {"completions", 2}, {"suspend", true}}));
  c.Round();
  const Json& job = c.Get(Kind::kJob, "queued");
  EXPECT_TRUE(c.PodsOf(job).empty());
  EXPECT_EQ(MemberAt(job, {"status", "startTime"}), nullptr);
  EXPECT_EQ(ConditionSummary(job), (std::vector<std::string>{"Suspended/True/JobSuspended"}));
  c.Advance(60);
  Json resumed = c.Get(Kind::kJob, "queued");
  resumed["spec"]["suspend"] = false;
  c.Replace(resumed);
  c.Round();
  const Json& running = c.Get(Kind::kJob, "queued");
  EXPECT_EQ(c.PodsOf(running).size(), 2u);
  EXPECT_EQ(StringAt(running, {"status", "startTime"}), TimeText(kT0 + 60));
  EXPECT_EQ(ConditionSummary(running), (std::vector<std::string>{"Suspended/False/JobResumed"}));
  // Suspending again deletes the pods without counting them as failed.
  Json again = c.Get(Kind::kJob, "queued");
  again["spec"]["suspend"] = true;
  c.Replace(again);
  c.Round();
  const Json& suspended = c.Get(Kind::kJob, "queued");
  EXPECT_EQ(IntAt(suspended, {"status", "failed"}, 0), 0);
  EXPECT_EQ(IntAt(suspended, {"status", "terminating"}, 0), 2);
  EXPECT_EQ(ConditionSummary(suspended), (std::vector<std::string>{"Suspended/True/JobSuspended"}));
}

TEST(JobControllerTest, PodsOfADeletedJobAreReleasedAndCollected) {
  SimCluster c;
  c.Add(BatchJob("gone", {{"parallelism", 2}, {"completions", 2}}));
  c.Round();
  ASSERT_EQ(c.List(Kind::kPod).size(), 2u);
  c.Remove(Kind::kJob, "default", "gone");
  const ControllerRound round = c.Round();
  EXPECT_EQ(ChangesOf(round, Change::Op::kDelete, Kind::kPod).size(), 2u);
  for (const Json* p : c.List(Kind::kPod)) {
    EXPECT_FALSE(HasFinalizer(*p, kJobTrackingFinalizer));
    EXPECT_TRUE(IsBeingDeleted(*p));
  }
  c.Advance(30);
  EXPECT_TRUE(c.List(Kind::kPod).empty());
}

TEST(JobControllerTest, JobsManagedElsewhereAreLeftAlone) {
  SimCluster c;
  c.Add(BatchJob("remote", {{"managedBy", "kueue.x-k8s.io/multikueue"}}));
  const ControllerRound round = c.Round();
  EXPECT_TRUE(round.changes.empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::member
