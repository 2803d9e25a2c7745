// The round machinery: MemberView, MemberState's changes (their ops and order, generation,
// graceful pod deletion, a finalizer removed before a delete), names and hashes, the garbage
// collector, ApplyChanges/FinishDeletions, and a whole mixed cluster run for an hour of
// simulated time with every round checked to be a fixed point.
#include "server/member/controller_round.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "member/member_test_util.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/member_state.h"
#include "server/member/naming.h"
#include "server/member/pod_util.h"

namespace berth::server::member {
namespace BERTH_UNITY_ID {

using testing::ChangesOf;
using testing::J;
using testing::kT0;
using testing::MakeNode;
using testing::MakeObject;
using testing::PodTemplate;
using testing::SimCluster;

Json PlainPod(const std::string& name, Json owner_refs = Json()) {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "uid-" + name}}},
              {"spec", {{"containers", Json::array({Json{{"name", "main"}}})}}}};
  if (!owner_refs.is_null()) pod["metadata"]["ownerReferences"] = std::move(owner_refs);
  return pod;
}

TEST(MemberViewTest, KeepsKnownKindsByKey) {
  MemberView view;
  view.Add(MakeNode("n1"));
  view.Add(PlainPod("p"));
  view.Add(
      J(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"}})"));
  view.Add(J(R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"namespace":"default"}})"));
  view.Add(J(R"({"apiVersion":"apps/v1beta2","kind":"Deployment",
                 "metadata":{"name":"d","namespace":"x"}})"));
  view.Add(J(R"(["not an object"])"));
  EXPECT_EQ(view.objects().size(), 3u);
  EXPECT_EQ(view.skipped(), 3u);
  EXPECT_NE(view.Find(ObjectKey{Kind::kNode, "", "n1"}), nullptr);
  EXPECT_NE(view.Find(ObjectKey{Kind::kDeployment, "x", "d"}), nullptr);
  EXPECT_EQ(KeyText(ObjectKey{Kind::kPod, "default", "p"}), "Pod/default/p");
  EXPECT_EQ(KeyText(ObjectKey{Kind::kNode, "", "n1"}), "Node/n1");
  EXPECT_EQ(KindOfRef("kubeflow.org/v1", "PyTorchJob"), Kind::kPyTorchJob);
  EXPECT_FALSE(KindOfRef("example.com/v1", "PyTorchJob").has_value());
}

TEST(MemberStateTest, ChangesHaveTheRightOpsInTheOrderMade) {
  Json job = MakeObject("batch/v1", "Job", "j", {{"parallelism", 1}});
  job["metadata"]["resourceVersion"] = "41";
  MemberView view(std::vector<Json>{job, PlainPod("old"), PlainPod("plain")});
  MemberState state(view, kT0);

  Json created = PlainPod("new");
  created["metadata"].erase("uid");
  ASSERT_TRUE(state.Create(created));
  EXPECT_FALSE(state.Create(PlainPod("new")));  // the name is taken
  Json status_only = *state.Get(Kind::kJob, "default", "j");
  status_only["status"] = {{"active", 1}};
  state.Replace(status_only);
  Json with_finalizer = *state.Get(Kind::kPod, "default", "old");
  AddFinalizer(with_finalizer, "example.com/keep");
  state.Replace(with_finalizer);
  Json released = *state.Get(Kind::kPod, "default", "old");
  RemoveFinalizer(released, "example.com/keep");
  released["metadata"]["labels"]["x"] = "y";
  state.Replace(released);
  state.Delete(released);
  state.Delete(*state.Get(Kind::kPod, "default", "old"));  // already being deleted: nothing
  state.Delete(*state.Get(Kind::kPod, "default", "plain"));

  const std::vector<Change> changes = state.Changes();
  ASSERT_EQ(changes.size(), 5u) << testing::Describe(changes);
  EXPECT_EQ(changes[0].op, Change::Op::kCreate);
  EXPECT_EQ(NameOf(changes[0].object), "new");
  EXPECT_EQ(UidOf(changes[0].object).size(), 36u);  // a UUID was made
  EXPECT_EQ(StringAt(changes[0].object, {"metadata", "creationTimestamp"}), TimeText(kT0));
  EXPECT_EQ(changes[1].op, Change::Op::kUpdateStatus);
  EXPECT_EQ(StringAt(changes[1].object, {"metadata", "resourceVersion"}), "41");
  EXPECT_EQ(changes[1].object["metadata"]["generation"], 1);  // status is not a spec change
  EXPECT_EQ(changes[2].op, Change::Op::kUpdate);  // the label, without the deletion fields
  EXPECT_EQ(LabelOf(changes[2].object, "x"), "y");
  EXPECT_FALSE(IsBeingDeleted(changes[2].object));
  EXPECT_EQ(changes[3].op, Change::Op::kDelete);
  EXPECT_EQ(StringAt(changes[3].object, {"metadata", "deletionTimestamp"}), TimeText(kT0 + 30));
  EXPECT_EQ(changes[3].object["metadata"]["deletionGracePeriodSeconds"], 30);
  EXPECT_EQ(changes[4].op, Change::Op::kDelete);
  EXPECT_EQ(NameOf(changes[4].object), "plain");
  // A deleted pod stays listed (terminating); a deleted Job does not.
  EXPECT_NE(state.Get(Kind::kPod, "default", "plain"), nullptr);
  state.Delete(*state.Get(Kind::kJob, "default", "j"));
  EXPECT_EQ(state.Get(Kind::kJob, "default", "j"), nullptr);
  EXPECT_FALSE(state.NameFree(Kind::kJob, "default", "j"));
}

TEST(MemberStateTest, BoundObjectsFormOneAdjacentBatch) {
  MemberView view(std::vector<Json>{PlainPod("a"), PlainPod("b"), PlainPod("c")});
  MemberState state(view, kT0);
  for (const char* name : {"a", "b", "c"}) {
    Json pod = *state.Get(Kind::kPod, "default", name);
    pod["status"] = {{"phase", "Running"}};
    state.Replace(pod);
  }
  state.Bind(PlainPod("c"), PlainPod("a"));
  const std::vector<Change> changes = state.Changes();
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(NameOf(changes[0].object), "a");
  EXPECT_EQ(NameOf(changes[1].object), "c");
  EXPECT_EQ(NameOf(changes[2].object), "b");
  EXPECT_EQ(changes[0].batch, 0u);
  EXPECT_EQ(changes[1].batch, 0u);
  EXPECT_EQ(changes[2].batch, 2u);
}

TEST(MemberStateTest, SpecChangesCountAGeneration) {
  MemberView view(std::vector<Json>{MakeObject("apps/v1", "Deployment", "d", {{"replicas", 1}})});
  MemberState state(view, kT0);
  Json d = *state.Get(Kind::kDeployment, "default", "d");
  d["spec"]["replicas"] = 2;
  state.Replace(d);
  d = *state.Get(Kind::kDeployment, "default", "d");
  d["spec"]["replicas"] = 3;  // a second change in the same round is still one write
  state.Replace(d);
  EXPECT_EQ((*state.Get(Kind::kDeployment, "default", "d"))["metadata"]["generation"], 2);
  const std::vector<Change> changes = state.Changes();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].op, Change::Op::kUpdate);
}

TEST(MemberStateTest, CreatedAndDeletedInOneRoundLeavesNoTrace) {
  MemberState state(MemberView(), kT0);
  ASSERT_TRUE(state.Create(PlainPod("brief")));
  state.Delete(PlainPod("brief"));
  EXPECT_TRUE(state.Changes().empty());
  EXPECT_EQ(state.Get(Kind::kPod, "default", "brief"), nullptr);
}

TEST(MemberStateTest, GeneratedNamesAreDeterministicFreeAndShort) {
  MemberView view(std::vector<Json>{PlainPod("web-abcde")});
  MemberState a(view, kT0);
  MemberState b(view, kT0);
  const std::string name = a.GenerateName(Kind::kPod, "default", "web-", "seed");
  EXPECT_EQ(name, b.GenerateName(Kind::kPod, "default", "web-", "seed"));
  EXPECT_EQ(name.size(), 9u);
  for (char ch : name.substr(4))
    EXPECT_NE(std::string("bcdfghjklmnpqrstvwxz2456789").find(ch), std::string::npos);
  EXPECT_NE(name, a.GenerateName(Kind::kPod, "default", "web-", "other"));
  const std::string long_name =
      a.GenerateName(Kind::kPod, "default", std::string(70, 'x') + "-", "seed");
  EXPECT_EQ(long_name.size(), 63u);
  MemberState later(view, kT0 + 1);
  EXPECT_NE(name, later.GenerateName(Kind::kPod, "default", "web-", "seed"));
}

TEST(MemberStateTest, ReportsEachProblemOnce) {
  MemberState state(MemberView(), kT0);
  state.Report(PlainPod("p"), "Bad", "first");
  state.Report(PlainPod("p"), "Bad", "again");
  state.Report(PlainPod("p"), "Worse", "other");
  ASSERT_EQ(state.diagnostics().size(), 2u);
  EXPECT_EQ(state.diagnostics()[0].message, "first");
}

TEST(NamingTest, HashesAndEncodings) {
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(SafeEncode(std::string("\x00\x1a\x1b", 3)), "b9b");
  EXPECT_NE(StableHash({"ab", "c"}), StableHash({"a", "bc"}));
  EXPECT_EQ(StableHash({"x"}), StableHash({"x"}));
  // Key order does not change a template's hash; content does.
  const Json a = J(R"({"metadata":{"labels":{"a":"1","b":"2"}},"spec":{"x":1}})");
  const Json b = J(R"({"spec":{"x":1},"metadata":{"labels":{"b":"2","a":"1"}}})");
  const Json c = J(R"({"spec":{"x":2},"metadata":{"labels":{"b":"2","a":"1"}}})");
  EXPECT_EQ(TemplateHash(a, -1), TemplateHash(b, -1));
  EXPECT_NE(TemplateHash(a, -1), TemplateHash(c, -1));
  EXPECT_NE(TemplateHash(a, -1), TemplateHash(a, 1));
  for (char ch : TemplateHash(a, 0)) {
    EXPECT_NE(std::string("bcdfghjklmnpqrstvwxz2456789").find(ch), std::string::npos);
  }
  EXPECT_EQ(UidFromSeed(7), UidFromSeed(7));
  EXPECT_NE(UidFromSeed(7), UidFromSeed(8));
}

TEST(GarbageCollectorTest, DeletesWhatOnlyGoneMemberOwnersOwned) {
  SimCluster c;
  auto ref = [](const char* api_version, const char* kind, const char* uid) {
    return Json{{"apiVersion", api_version}, {"kind", kind}, {"name", "x"}, {"uid", uid}};
  };
  c.Add(MakeObject("batch/v1", "Job", "alive", Json::object()));
  c.Add(PlainPod("orphan", Json::array({ref("batch/v1", "Job", "uid-gone")})));
  c.Add(PlainPod("kept", Json::array({ref("batch/v1", "Job", "uid-alive")})));
  c.Add(PlainPod("two-owners", Json::array({ref("batch/v1", "Job", "uid-gone"),
                                            ref("batch/v1", "Job", "uid-alive")})));
  c.Add(PlainPod("foreign", Json::array({ref("example.com/v1", "Widget", "uid-w")})));
  c.Add(MakeObject("apps/v1", "ReplicaSet", "rs", {{"replicas", 0}}));
  Json owned_rs = MakeObject("apps/v1", "ReplicaSet", "rs-orphan", {{"replicas", 0}});
  owned_rs["metadata"]["ownerReferences"] = Json::array({ref("apps/v1", "Deployment", "uid-d")});
  c.Add(owned_rs);
  const ControllerRound round = c.Round();
  EXPECT_TRUE(IsBeingDeleted(c.Get(Kind::kPod, "orphan")));
  EXPECT_FALSE(IsBeingDeleted(c.Get(Kind::kPod, "kept")));
  EXPECT_FALSE(IsBeingDeleted(c.Get(Kind::kPod, "two-owners")));
  EXPECT_FALSE(IsBeingDeleted(c.Get(Kind::kPod, "foreign")));
  EXPECT_EQ(c.Find(Kind::kReplicaSet, "default", "rs-orphan"), nullptr);
  EXPECT_NE(c.Find(Kind::kReplicaSet, "default", "rs"), nullptr);
  EXPECT_EQ(ChangesOf(round, Change::Op::kDelete, Kind::kReplicaSet).size(), 1u);

  SimCluster off;
  off.options.collect_garbage = false;
  off.Add(PlainPod("orphan", Json::array({ref("batch/v1", "Job", "uid-gone")})));
  off.Round();
  EXPECT_FALSE(IsBeingDeleted(off.Get(Kind::kPod, "orphan")));
}

TEST(ApplyChangesTest, AppliesEveryOpAndFinishesGracefulDeletions) {
  MemberView view(std::vector<Json>{PlainPod("a"), PlainPod("b"),
                                    MakeObject("batch/v1", "Job", "j", Json::object())});
  Json updated = PlainPod("a");
  updated["metadata"]["labels"] = {{"k", "v"}};
  updated["status"] = {{"phase", "Running"}};
  Json status = PlainPod("b");
  status["spec"]["changed"] = true;  // a status write does not carry spec
  status["status"] = {{"phase", "Succeeded"}};
  Json deleted_pod = PlainPod("a");
  deleted_pod["metadata"]["deletionTimestamp"] = TimeText(kT0 + 30);
  const std::vector<Change> changes = {
      {Change::Op::kCreate, PlainPod("c")},
      {Change::Op::kUpdate, updated},
      {Change::Op::kUpdateStatus, status},
      {Change::Op::kDelete, deleted_pod},
      {Change::Op::kDelete, MakeObject("batch/v1", "Job", "j", Json::object())},
  };
  const MemberView after = ApplyChanges(view, changes);
  EXPECT_NE(after.Find(ObjectKey{Kind::kPod, "default", "c"}), nullptr);
  const Json& a = *after.Find(ObjectKey{Kind::kPod, "default", "a"});
  EXPECT_EQ(LabelOf(a, "k"), "v");
  EXPECT_TRUE(IsBeingDeleted(a));
  const Json& b = *after.Find(ObjectKey{Kind::kPod, "default", "b"});
  EXPECT_EQ(StringAt(b, {"status", "phase"}), "Succeeded");
  EXPECT_EQ(MemberAt(b, {"spec", "changed"}), nullptr);
  EXPECT_EQ(after.Find(ObjectKey{Kind::kJob, "default", "j"}), nullptr);
  EXPECT_NE(FinishDeletions(after, kT0 + 29).Find(ObjectKey{Kind::kPod, "default", "a"}), nullptr);
  EXPECT_EQ(FinishDeletions(after, kT0 + 30).Find(ObjectKey{Kind::kPod, "default", "a"}), nullptr);
}

// Objects of the right kinds with fields of the wrong types (which the API server would
// refuse, but a round must survive): no exception, the round settles.
TEST(ControllerRoundTest, OddlyShapedObjectsDoNotBreakARound) {
  const char* const odd[] = {
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","uid":"u-n1",
          "annotations":{"berth.dev/simulated-fault":"node-down,gpu-failed=2"}},
          "spec":{"taints":"none","podCIDR":7},"status":{"conditions":["x",3,{"type":5}],
          "capacity":{"nvidia.com/gpu":"lots"},"addresses":"here"}})",
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n2","uid":"u-n2"},"spec":[],
          "status":"ready"})",
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1","namespace":"default","uid":"u-p1",
          "labels":7,"annotations":{"berth.dev/simulated-duration":5},"finalizers":"f",
          "ownerReferences":[3,{"controller":"yes"}]},
          "spec":{"nodeName":"n2","containers":"none","restartPolicy":4},
          "status":{"phase":9,"conditions":[1,"a"],"containerStatuses":["x"]}})",
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p2","namespace":"default",
          "uid":"u-p2"},
          "spec":{"nodeName":"n1","containers":[1,{"name":3,
          "resources":{"limits":{"nvidia.com/gpu":[]}}}]},
          "status":{"phase":"Running","startTime":"yesterday"}})",
      R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j","namespace":"default",
          "uid":"u-j",
          "generation":"one"},"spec":{"parallelism":"2","completions":-3,"template":[],
          "completionMode":"Indexed","suspend":"no"},"status":{"conditions":[7],
          "uncountedTerminatedPods":{"succeeded":[1,"u-x"]},"completedIndexes":"x-y,3-1,2"}})",
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"default",
          "uid":"u-d","annotations":{"deployment.kubernetes.io/revision":"x","a":5}},
          "spec":{"replicas":2,"template":"t","selector":[],"strategy":{"type":"RollingUpdate",
          "rollingUpdate":{"maxSurge":"x%","maxUnavailable":true}}},"status":{"conditions":[1]}})",
      R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"rs","namespace":"default",
          "uid":"u-rs","ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","uid":"u-d",
          "controller":true}]},"spec":{"replicas":1,"template":{"metadata":{"labels":3},"spec":3}},
          "status":{"conditions":"c"}})",
      R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"s","namespace":"default",
          "uid":"u-s"},"spec":{"replicas":2,"ordinals":{"start":"1"},"template":{"spec":[]},
          "updateStrategy":{"rollingUpdate":{"partition":"p"}}},"status":{"currentRevision":4}})",
      R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet","metadata":{"name":"js",
          "namespace":"default","uid":"u-js"},"spec":{"replicatedJobs":[1,{"name":"w",
          "replicas":"2",
          "template":{"spec":{"template":{"spec":"x"}}},"dependsOn":[{"name":9}]}],
          "failurePolicy":{"rules":"r"},"network":{"subdomain":4}},"status":{"restarts":"1"}})",
      R"({"apiVersion":"kubeflow.org/v1","kind":"PyTorchJob","metadata":{"name":"pt",
          "namespace":"default","uid":"u-pt"},"spec":{"pytorchReplicaSpecs":{"master":{"replicas":1,
          "template":{"spec":{"containers":[{"name":"pytorch","ports":"p"}]}}},"Other":3},
          "runPolicy":[]},"status":{"replicaStatuses":{"Master":4},"conditions":{}}})",
      R"({"apiVersion":"leaderworkerset.x-k8s.io/v1","kind":"LeaderWorkerSet",
          "metadata":{"name":"l",
          "namespace":"default","uid":"u-l"},"spec":{"replicas":1,
          "leaderWorkerTemplate":{"size":"2",
          "workerTemplate":{"spec":{"containers":[3]}}},
          "rolloutStrategy":{"rollingUpdateConfiguration":
          {"maxUnavailable":[]}}},"status":{"conditions":[4,{"type":"Available",
          "status":"True"}]}})",
  };
  SimCluster c;
  for (const char* text : odd) c.Add(J(text));
  EXPECT_NO_THROW({
    c.Round();
    c.Bind({"n2"});
    c.Advance(60);
    c.Round();
  });
}

// A cluster with every kind, faults and all, driven for 24 minutes: every round settles, every
// round is a fixed point of the next (SimCluster checks), and the end state is what the
// workloads should reach.
TEST(ControllerRoundTest, AMixedClusterRunsThroughANodeOutage) {
  SimCluster c;
  c.options.default_duration = *DurationDistribution::Parse("uniform:20s-2m");
  c.options.seed = 42;
  const std::vector<std::string> nodes = {"n0", "n1", "n2", "n3"};
  for (const std::string& node : nodes) c.Add(MakeNode(node, 8));
  c.Add(MakeObject("batch/v1", "Job", "batch",
                   {{"parallelism", 3},
                    {"completions", 6},
                    {"template", PodTemplate("batch", Json::object(), "Never")}}));
  c.Add(MakeObject("apps/v1", "Deployment", "web",
                   {{"replicas", 3},
                    {"selector", {{"matchLabels", {{"app", "web"}}}}},
                    {"template", PodTemplate("web")}}));
  c.Add(MakeObject("apps/v1", "StatefulSet", "db",
                   {{"replicas", 2}, {"serviceName", "db"}, {"template", PodTemplate("db")}}));
  c.Add(MakeObject(
      "jobset.x-k8s.io/v1alpha2", "JobSet", "js",
      {{"replicatedJobs",
        Json::array({Json{{"name", "w"},
                          {"replicas", 2},
                          {"template",
                           {{"spec",
                             {{"parallelism", 2},
                              {"completions", 2},
                              {"template", PodTemplate("js", Json::object(), "Never")}}}}}}})}}));
  c.Add(MakeObject(
      "kubeflow.org/v1", "PyTorchJob", "pt",
      {{"pytorchReplicaSpecs",
        {{"Master", {{"replicas", 1}, {"template", PodTemplate("pt", Json::object(), "Never")}}},
         {"Worker",
          {{"replicas", 2}, {"template", PodTemplate("pt", Json::object(), "Never")}}}}}}));
  c.Add(MakeObject(
      "leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "lws",
      {{"replicas", 2},
       {"leaderWorkerTemplate", {{"size", 2}, {"workerTemplate", PodTemplate("lws")}}}}));
  c.Run(8, 15, nodes);
  // Two minutes in, a node goes down for two minutes.
  Json down = c.Get(Kind::kNode, "n2", "");
  down["metadata"]["annotations"]["berth.dev/simulated-fault"] = "node-down";
  c.Replace(down);
  c.Run(8, 15, nodes);
  Json up = c.Get(Kind::kNode, "n2", "");
  up["metadata"].erase("annotations");
  c.Replace(up);
  c.Run(20, 60, nodes);

  EXPECT_TRUE(ConditionIsTrue(c.Get(Kind::kJob, "batch"), "Complete"));
  EXPECT_TRUE(ConditionIsTrue(c.Get(Kind::kJobSet, "js"), "Completed"));
  EXPECT_TRUE(ConditionIsTrue(c.Get(Kind::kPyTorchJob, "pt"), "Succeeded"));
  EXPECT_TRUE(ConditionIsTrue(c.Get(Kind::kDeployment, "web"), "Available"));
  EXPECT_EQ(c.Get(Kind::kDeployment, "web")["status"]["availableReplicas"], 3);
  EXPECT_EQ(c.Get(Kind::kStatefulSet, "db")["status"]["readyReplicas"], 2);
  EXPECT_TRUE(ConditionIsTrue(c.Get(Kind::kLeaderWorkerSet, "lws"), "Available"));
  EXPECT_TRUE(ConditionIsTrue(c.Get(Kind::kNode, "n2", ""), "Ready"));
  // Addresses of running pods never collide.
  std::set<std::string> ips;
  for (const Json* p : c.List(Kind::kPod)) {
    if (PodPhase(*p) != "Running" || IsBeingDeleted(*p)) continue;
    EXPECT_TRUE(ips.insert(StringAt(*p, {"status", "podIP"})).second) << NameOf(*p);
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::member
